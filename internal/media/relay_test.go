package media_test

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// relayPair negotiates a relay between two engines (two nodes) and waits until both carry media.
func relayPair(t *testing.T, a, b *media.Engine, lanes int) (*media.Relay, *media.Relay) {
	t.Helper()
	readyA, readyB := make(chan struct{}), make(chan struct{})
	ra, err := a.NewRelay("b", lanes, func(_ *media.Relay, up bool) {
		if up {
			close(readyA)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.NewRelay("a", lanes, func(_ *media.Relay, up bool) {
		if up {
			close(readyB)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ra.Close(); rb.Close() })
	pair(t, ra, rb)
	for _, ch := range []chan struct{}{readyA, readyB} {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatal("the relay did not connect")
		}
	}
	return ra, rb
}

// twoNodes is node A with two talkers and node B with a listener, linked by a relay.
type twoNodes struct {
	ra, rb  *media.Relay
	talkers [2]*media.Peer
	mics    [2]*termclient.Media
	l       *media.Peer
	lm      *termclient.Media
	ctx     context.Context
}

func linkedNodes(t *testing.T, lanes int) *twoNodes {
	ea, eb := newEngine(t), newEngine(t)
	n := &twoNodes{ctx: ctxT(t, 20*time.Second)}
	n.ra, n.rb = relayPair(t, ea, eb, lanes)
	for i, name := range []string{"T1", "T2"} {
		n.talkers[i], n.mics[i] = connect(t, ea, name)
	}
	n.l, n.lm = connect(t, eb, "L")
	return n
}

// talk sends count packets of a new burst of talker i through node A's outgoing lane.
func (n *twoNodes) talk(t *testing.T, i, lane, count int) {
	t.Helper()
	burst := media.NewBurst(nil)
	out := n.ra.Out(lane)
	out.Assign(burst.ID)
	n.talkers[i].SetRoute(&media.Route{Burst: burst, Targets: []media.Target{{D: out, Src: burst.ID}}})
	if err := n.mics[i].Send(n.ctx, termclient.Silence(count), 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// Two talkers on node A speak in turn through one lane of A's relay to node B, where the lane's route writes to a
// listener: the listener gets every packet of both, in one continuous stream; the lanes of the other direction and
// the other lanes are independent.
func TestRelayLaneCarriesBurstsInTurn(t *testing.T) {
	n := linkedNodes(t, 4)
	ra, rb, l, lm, ctx := n.ra, n.rb, n.l, n.lm, n.ctx

	lane := 2
	in := &media.Route{Targets: []media.Target{{D: l.Downstream(), Src: 7}}}
	l.Downstream().Assign(7) // node B's source id for whatever lane 2 carries
	rb.In(lane).SetRoute(in)

	for i := range n.talkers {
		n.talk(t, i, lane, 25)
		if _, err := lm.WaitPackets(ctx, 25*(i+1)); err != nil {
			t.Fatal(err)
		}
		n.talkers[i].SetRoute(nil)
	}
	got := lm.Received()
	if len(got) != 50 {
		t.Fatalf("the listener on node B got %d packets, want 50", len(got))
	}
	testkit.WantContinuous(t, got)
	if n := rb.In(lane).Packets(); n != 50 {
		t.Fatalf("lane %d received %d packets, want 50", lane, n)
	}
	for i := range rb.Lanes() {
		if i != lane && rb.In(i).Packets() != 0 {
			t.Fatalf("lane %d received packets meant for lane %d", i, lane)
		}
	}
	if len(rb.In(lane).Delays()) != 50 {
		t.Fatalf("lane delays: %d samples", len(rb.In(lane).Delays()))
	}
	if ra.In(lane).Packets() != 0 { // the other direction is idle
		t.Fatal("node A received packets it never was sent")
	}
}

// Closing one side ends the relay on the other (it stops being ready), so a node notices a link that is gone.
func TestRelayCloseIsSeenByTheOtherNode(t *testing.T) {
	ea, eb := newEngine(t), newEngine(t)
	gone := make(chan struct{})
	ra, err := ea.NewRelay("b", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := eb.NewRelay("a", 1, func(_ *media.Relay, up bool) {
		if !up {
			close(gone)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	pair(t, ra, rb)
	testkit.Eventually(t, 10*time.Second, "the relay connects", func() bool { return rb.Ready() && ra.Ready() })
	ra.Close()
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("node B did not notice node A's relay closing")
	}
	if !rb.Closed() {
		t.Fatal("node B's relay is not closed")
	}
}

// A burst's first packets can reach a node before the burst's announcement: the lane holds them from the
// talkspurt's first packet and plays them when its route is set, so the listener misses nothing of the start. What
// a lane held of a burst that ended unheard (its route set to none) is never played to the next one's listeners.
func TestRelayLaneHoldsABurstsStartUntilItsRouteIsSet(t *testing.T) {
	n := linkedNodes(t, 2)
	l, lm, ctx := n.l, n.lm, n.ctx
	const lane = 1
	in := n.rb.In(lane)

	// A burst nobody on node B hears: held, then dropped when its end is known — a route set afterwards (a
	// listener joining) plays none of it.
	l.Downstream().Assign(9)
	route := &media.Route{Targets: []media.Target{{D: l.Downstream(), Src: 9}}}
	n.talk(t, 0, lane, 10)
	testkit.Eventually(t, 5*time.Second, "node B read the first burst", func() bool { return in.Packets() == 10 })
	n.talkers[0].SetRoute(nil)
	in.SetRoute(nil)
	in.SetRoute(route)
	in.SetRoute(nil)

	// The next burst arrives before its announcement; the route comes afterwards.
	n.talk(t, 1, lane, 20)
	testkit.Eventually(t, 5*time.Second, "node B read the second burst", func() bool { return in.Packets() == 30 })
	if n := len(lm.Received()); n != 0 {
		t.Fatalf("the listener got %d packets: of the unheard first burst, or of the second before its route", n)
	}
	in.SetRoute(route)
	if _, err := lm.WaitPackets(ctx, 20); err != nil {
		t.Fatal(err)
	}
	if err := n.mics[1].Send(ctx, termclient.Silence(10), 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := lm.WaitPackets(ctx, 30); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // anything more than the 30 would be here by now (loopback)
	got := lm.Received()
	if len(got) != 30 {
		t.Fatalf("the listener got %d packets, want the second burst's 30 (none of the first)", len(got))
	}
	testkit.WantContinuous(t, got)
}

// pair links two relays directly (no NATS): ra offers, rb answers.
func pair(t *testing.T, ra, rb *media.Relay) {
	t.Helper()
	offer, err := ra.Offer()
	if err != nil {
		t.Fatal(err)
	}
	answer, err := rb.Answer(offer)
	if err != nil {
		t.Fatal(err)
	}
	if err := ra.Accept(answer); err != nil {
		t.Fatal(err)
	}
}
