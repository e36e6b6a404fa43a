package sim_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// TestSimVideo: a simulated app terminal answers a dispatcher's video call and sends its camera (a real encoded
// clip), and a simulated camera serves video monitoring; the console receives moving video from both, and the app
// follows a resolution request.
func TestSimVideo(t *testing.T) {
	s := demoServer(t)
	var accts []sim.Account
	for _, a := range sim.FleetAccounts() {
		if a.ID == "10000143" || a.ID == "10000138" { // an app (type 10) and a camera of the demo
			accts = append(accts, a)
		}
	}
	if len(accts) != 2 {
		t.Fatalf("fleet accounts %v", accts)
	}
	f := testkit.RunFleet(t, sim.Options{URL: s.URL, Accounts: accts, Seed: 3, Loopback: true, Passive: true})
	for _, a := range accts {
		testkit.Eventually(t, 20*time.Second, a.ID+" online", f.Terminal(a.ID).Online)
	}
	var cust int64
	if err := s.DB.QueryRow(context.Background(), `SELECT id FROM customers WHERE name = 'Demo Fleet'`).Scan(&cust); err != nil {
		t.Fatal(err)
	}
	tok, err := s.Sessions.Create(context.Background(), "10000001", cust)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	con, err := termclient.Dial(ctx, termclient.Options{URL: s.URL, Token: tok, Media: termclient.MediaOptions{Loopback: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer con.Close()

	var inv struct{ CallID string }
	if err := con.Call(ctx, "video.invite", map[string]any{"msId": "10000143", "resolution": "CIF"}, &inv); err != nil {
		t.Fatal(err)
	}
	var codec string
	if _, err := con.WaitEvent(ctx, "video.state", func(e termclient.Event) bool {
		var v struct{ CallID, State, Codec string }
		if e.Decode(&v) != nil || v.CallID != inv.CallID {
			return false
		}
		if v.State == "ended" {
			t.Fatalf("the app ended the call: %s", e.Data)
		}
		codec = v.Codec
		return v.State == "answered"
	}); err != nil {
		t.Fatal(err)
	}
	if err := con.Call(ctx, "video.ack", map[string]any{"callId": inv.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	v, err := con.StartVideo(ctx, inv.CallID, codec)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if _, err := v.WaitFrames(ctx, 20); err != nil {
		t.Fatal(err)
	}
	if err := con.Call(ctx, "video.resolution", map[string]any{"callId": inv.CallID, "resolution": "QCIF"}, nil); err != nil {
		t.Fatal(err)
	}
	n := v.Stats().Frames
	if _, err := v.WaitFrames(ctx, n+15); err != nil {
		t.Fatal(err)
	}
	if err := con.Call(ctx, "video.bye", map[string]any{"callId": inv.CallID}, nil); err != nil {
		t.Fatal(err)
	}

	var mon struct{ CallID, Codec string }
	if err := con.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000138"}, &mon); err != nil {
		t.Fatal(err)
	}
	mv, err := con.StartVideo(ctx, mon.CallID, mon.Codec)
	if err != nil {
		t.Fatal(err)
	}
	defer mv.Close()
	if _, err := mv.WaitFrames(ctx, 20); err != nil {
		t.Fatal(err)
	}
	var list struct{ List []json.RawMessage }
	if err := con.Call(ctx, "video.monitorStop", map[string]any{"msId": "10000138"}, &list); err != nil || len(list.List) != 0 {
		t.Fatalf("stop: %v %s", err, list.List)
	}
	if n := f.Stats().VideoSessions.Load(); n != 2 {
		t.Fatalf("the fleet served %d video sessions, want 2 (the call and the monitoring)", n)
	}
}
