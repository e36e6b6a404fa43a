package sip_test

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// A radio gateway offers no keys (no telephone-event): its voice is its talk key. The simulator's SIP phone as a
// gateway calls its group; a second of tone takes the floor (a native terminal of the group sees it talk and gets
// its audio) and the silence after it releases the floor once the hangover has passed.
func TestVoiceActivityTakesTheFloor(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := startSIP(t, engine, func(c *config.Config) { c.Voice.Interfaces = []string{"lo"} })
		gid := w.groupID(t, "Ops")
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		term := w.groupTerminal(ctx, t)
		gw, err := sim.RegisterSIPPhone(ctx, sim.SIPPhoneOptions{ID: phone, Password: testkit.Password, Server: w.SIP.Addr(), Gateway: true})
		if err != nil {
			t.Fatal(err)
		}
		defer gw.Close()
		if err := gw.Call(ctx, gid); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // silence: the floor stays free
		before := term.ReceivedCount()
		gw.Talk(sim.ToneFrames(440, time.Second))
		floorTalker(ctx, t, term, gid, phone)
		if _, err := term.WaitPackets(ctx, before+25); err != nil {
			t.Fatal(err)
		}
		talked := time.Now()
		floorTalker(ctx, t, term, gid, "")
		if held := time.Since(talked); held < 500*time.Millisecond {
			t.Fatalf("the floor was freed %v after the talk's packets, want the hangover (800 ms of silence after a second of tone)", held)
		}
	})
}
