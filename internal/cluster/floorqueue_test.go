package cluster_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/call"
	"tenfour/internal/platform/realtime/rttest"
	"tenfour/internal/termclient"
)

// The last talker of a group on node 1 waits its retry gap for a terminal of node 1 refused during its turn and
// queues on the free floor; meanwhile a terminal on node 2 takes the group's floor. When the gap ends, node 1
// must not grant its queue without the group's key (two talkers): it waits until node 2's talker releases,
// then takes the key and grants.
func TestQueuedTalkerWaitsForTheKeyAnotherNodeHolds(t *testing.T) {
	c := newCluster(t)
	n1, n2 := c.node("n1"), c.node("n2")
	f := rttest.NewFleet(t, n1.DB, "1", 3)
	gid := strconv.FormatInt(f.Group, 10)
	a, b, other := dialTerminal(t, n1, f.Terminals[0]), dialTerminal(t, n1, f.Terminals[1]), dialTerminal(t, n2, f.Terminals[2])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	if _, err := a.RequestFloor(ctx, "", gid, false); err != nil {
		t.Fatal(err)
	}
	if _, err := b.RequestFloor(ctx, "", gid, false); termclient.Code(err) != "486" {
		t.Fatalf("b pressed while a talks: %v, want busy", err)
	}
	if err := a.ReleaseFloor(ctx, ""); err != nil {
		t.Fatal(err)
	}
	r, err := a.RequestFloor(ctx, "", gid, true) // within the gap: a waits for those it kept waiting
	if err != nil || r.Status != "queued" {
		t.Fatalf("a re-pressed within its gap: %+v %v, want queued", r, err)
	}
	released := time.Now()
	var got termclient.FloorReply
	for { // node 1 gave the key up with its floor free: node 2's press takes it
		if got, err = other.RequestFloor(ctx, "", gid, false); err == nil {
			break
		}
		if time.Since(released) > 3*time.Second {
			t.Fatalf("node 2 could not take the free floor: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got.Status != "granted" {
		t.Fatalf("node 2's press: %+v", got)
	}
	// a's gap ends while node 2's terminal talks: a must not be granted
	wctx, wcancel := context.WithTimeout(ctx, call.FloorRetryGap+time.Second)
	if _, err := a.WaitEvent(wctx, "floor.granted", nil); err == nil {
		wcancel()
		t.Fatal("node 1 granted its queue while node 2's talker holds the group's floor: two talkers")
	}
	wcancel()
	if err := other.ReleaseFloor(ctx, ""); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	gctx, gcancel := context.WithTimeout(ctx, 3*time.Second)
	defer gcancel()
	if _, err := a.WaitEvent(gctx, "floor.granted", nil); err != nil {
		t.Fatalf("node 1's queued talker not granted after node 2's released: %v", err)
	}
	t.Logf("node 1's queue granted %v after node 2's talker released", time.Since(start))
}
