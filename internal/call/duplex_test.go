package call_test

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// connect places an individual call from caller to callee and connects it: callee answers (200 with answer's
// fields), caller acknowledges. It returns the call id and its connected state as the caller saw it.
func connect(t *testing.T, ctx context.Context, caller, callee *termclient.Client, inv, answer map[string]any) (string, map[string]any) {
	t.Helper()
	r, err := invite(ctx, caller, inv)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]any{"callId": r.CallID, "status": 200}
	for k, v := range answer {
		status[k] = v
	}
	if err := callee.Call(ctx, "call.status", status, nil); err != nil {
		t.Fatal(err)
	}
	callState(t, ctx, caller, r.CallID, "answered")
	if err := caller.Call(ctx, "call.ack", map[string]any{"callId": r.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	return r.CallID, callState(t, ctx, caller, r.CallID, "connected")
}

// TestDuplexPhoneCall: a party that talks on an open line (a SIP phone's session says "duplex") and a console are
// in a full-duplex call once it connects, whichever of them calls: both talk at the same time without the floor,
// each hears the other, a floor request in the call is granted without a talker, and each side's talk is
// recorded on its own. A call without such a party, or with a terminal that cannot talk on an open line, stays
// half duplex.
func TestDuplexPhoneCall(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	tok := g.token("10009001")
	from := time.Now().UnixMilli()

	// The phone calls the dispatcher.
	id, st := connect(t, ctx, g.t1, g.d, map[string]any{"kind": "single", "msId": "10009001", "duplex": true}, nil)
	if st["duplex"] != true {
		t.Fatalf("connected %v: want duplex", st)
	}
	errs := make(chan error, 2)
	go func() { errs <- g.t1.Send(ctx, tagged(40, 'T'), 5*time.Millisecond) }()
	go func() { errs <- g.d.Send(ctx, tagged(40, 'D'), 5*time.Millisecond) }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for c, want := range map[*termclient.Client]byte{g.d: 'T', g.t1: 'D'} {
		pkts, err := c.WaitPackets(ctx, 30)
		if err != nil {
			t.Fatal(err)
		}
		if got := tags(pkts); slices.ContainsFunc(got, func(b byte) bool { return b != want }) {
			t.Fatalf("heard %q, want only %q", got, want)
		}
	}
	r, err := g.d.RequestFloor(ctx, id, "", false)
	if err != nil || r.Status != "granted" {
		t.Fatalf("floor request in a duplex call: %+v %v", r, err)
	}
	if err := g.d.ReleaseFloor(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := count(g.t2) + count(g.t3); n != 0 {
		t.Fatalf("the group heard the call: %d packets", n)
	}
	if err := g.t1.Call(ctx, "call.bye", map[string]any{"callId": id}, nil); err != nil {
		t.Fatal(err)
	}
	callState(t, ctx, g.d, id, "ended")
	testkit.Eventually(t, 10*time.Second, "a record of each side", func() bool {
		list, _ := g.records(tok, map[string]any{"stime": from, "etime": time.Now().UnixMilli()})
		talkers := map[string]bool{}
		for _, r := range list {
			if r.CallID == id {
				talkers[r.MsID] = true
			}
		}
		return talkers["10001001"] && talkers["10009001"] && len(talkers) == 2
	})

	// The dispatcher calls the phone, which says duplex in its answer.
	id, st = connect(t, ctx, g.d, g.t2, map[string]any{"kind": "single", "msId": "10001002"}, map[string]any{"duplex": true})
	if st["duplex"] != true {
		t.Fatalf("connected %v: want duplex", st)
	}
	before := count(g.d)
	if err := g.t2.Send(ctx, tagged(20, 'P'), 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := g.d.WaitPackets(ctx, before+15); err != nil {
		t.Fatal(err)
	}
	if err := g.d.Call(ctx, "call.bye", map[string]any{"callId": id}, nil); err != nil {
		t.Fatal(err)
	}
	callState(t, ctx, g.t2, id, "ended")

	// Half duplex: a terminal that did not say duplex; a duplex party with a terminal that cannot talk so.
	for _, c := range []struct {
		name           string
		caller, callee *termclient.Client
		msID           string
	}{{"terminal to console", g.t3, g.d, "10009001"}, {"duplex terminal to terminal", g.t1, g.t3, "10001003"}} {
		id, st := connect(t, ctx, c.caller, c.callee, map[string]any{"kind": "single", "msId": c.msID, "duplex": c.caller == g.t1}, nil)
		if _, duplex := st["duplex"]; duplex {
			t.Fatalf("%s: connected %v: want half duplex", c.name, st)
		}
		// one floor: while the callee holds it the caller's press is refused (in a duplex call it is granted), and
		// the callee's talk is what the caller hears
		heard := count(c.caller)
		if _, err := c.callee.RequestFloor(ctx, id, "", false); err != nil {
			t.Fatalf("%s: the callee's press: %v", c.name, err)
		}
		if r, err := c.caller.RequestFloor(ctx, id, "", false); termclient.Code(err) != "486" {
			t.Fatalf("%s: the caller's press while the callee talks: %+v %v, want 486", c.name, r, err)
		}
		if err := c.callee.Send(ctx, tagged(10, 'F'), 2*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if err := c.callee.ReleaseFloor(ctx, id); err != nil {
			t.Fatal(err)
		}
		pkts, err := c.caller.WaitPackets(ctx, heard+10)
		if err != nil {
			t.Fatal(err)
		}
		if got := tags(pkts[heard:]); slices.ContainsFunc(got, func(b byte) bool { return b != 'F' }) {
			t.Fatalf("%s: heard %q, want the callee's talk", c.name, got)
		}
		if err := c.caller.Call(ctx, "call.bye", map[string]any{"callId": id}, nil); err != nil {
			t.Fatal(err)
		}
		callState(t, ctx, c.callee, id, "ended")
	}
}

// A duplex call's line follows the dispatcher to another console window when the one that took the call closes:
// the phone is heard there, and that window's microphone reaches the phone.
func TestDuplexLineMovesToAnotherWindow(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	tok := g.token("10009001") // one sign-in, two windows
	window := func() *termclient.Client {
		return g.dial(termclient.Options{Token: tok, Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}})
	}
	first, other := window(), window()
	id, st := connect(t, ctx, g.t1, first, map[string]any{"kind": "single", "msId": "10009001", "duplex": true}, nil)
	if st["duplex"] != true {
		t.Fatalf("connected %v: want duplex", st)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	// each side talks until the other has heard 20 of its packets: the first window's drop is asynchronous
	for talker, listener := range map[*termclient.Client]*termclient.Client{g.t1: other, other: g.t1} {
		tag := byte('T')
		if talker == other {
			tag = 'E'
		}
		testkit.Eventually(t, 10*time.Second, "the line through the other window", func() bool {
			if err := talker.Send(ctx, tagged(5, tag), 5*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			return bytes.Count(tags(listener.Received()), []byte{tag}) >= 20
		})
	}
	if err := other.Call(ctx, "call.bye", map[string]any{"callId": id}, nil); err != nil {
		t.Fatal(err)
	}
	callState(t, ctx, g.t1, id, "ended")
}
