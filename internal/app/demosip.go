package app

import (
	"context"
	"log/slog"

	"tenfour/internal/demo"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/sim"
)

// runDemoSIPPhones runs serve --demo's simulated SIP phones (demo.SimulatedSIPPhones) against this node's SIP
// address until ctx ends: real SIP and RTP on loopback, each calling its current group now and then, so the
// console shows a desk phone and a radio gateway talking. Nothing when the SIP side is not listening (the demo's
// address was taken) or there is no demo fleet customer.
func runDemoSIPPhones(ctx context.Context, d *db.DB, dir *directory.Store, addr string) {
	cid, ok, err := demo.FleetCustomer(ctx, d)
	if err != nil || !ok || addr == "" {
		return
	}
	var talkers []sim.SIPTalker
	for _, p := range demo.SimulatedSIPPhones() {
		talkers = append(talkers, sim.SIPTalker{ID: p.ID, Gateway: p.Gateway})
	}
	slog.Info("demo SIP phones starting", "phones", len(talkers), "sip", addr)
	sim.RunSIPTalkers(ctx, sim.SIPTalkOptions{Server: addr, Password: demo.Password, Talkers: talkers,
		Group: func(ctx context.Context, id string) (string, error) {
			t, err := dir.Terminal(ctx, cid, id)
			return t.Grp, err
		}})
}
