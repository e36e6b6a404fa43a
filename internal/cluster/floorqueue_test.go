package cluster_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenfour/internal/call"
	clusterpkg "tenfour/internal/cluster" // beside the tests' own type cluster
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// The last talker of a group on node 1 waits its retry gap for a terminal of node 1 refused during its turn and
// queues on the free floor; meanwhile a terminal on node 2 takes the group's floor. When the gap ends, node 1
// must not grant its queue without the group's key (two talkers): it waits until node 2's talker releases,
// then takes the key and grants.
func TestQueuedTalkerWaitsForTheKeyAnotherNodeHolds(t *testing.T) {
	c := newCluster(t)
	n1, n2 := c.node("n1"), c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 3, 1)
	gid := strconv.FormatInt(f.Groups[0], 10)
	a, b, other := dialTerminal(t, n1.URL, f.Terminals[0]), dialTerminal(t, n1.URL, f.Terminals[1]), dialTerminal(t, n2.URL, f.Terminals[2])
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

// queueAds waits until the watch of the floor bucket (docs/adr/0024) has delivered the named nodes' queue
// advertisements for the group to every other in-process node.
func queueAds(t *testing.T, c *cluster, gid string, nodes ...string) {
	t.Helper()
	watched(t, c, gid, "queue advertisements of "+strings.Join(nodes, ", "), func(self string, ads map[string]clusterpkg.Waiter) bool {
		for _, n := range nodes {
			if _, ok := ads[n]; !ok && n != self {
				return false
			}
		}
		return true
	})
}

// watched waits until ok holds for the advertisements of the group's queues that every in-process node's watch
// holds (a node's own are not among them: self is its id).
func watched(t *testing.T, c *cluster, gid, what string, ok func(self string, ads map[string]clusterpkg.Waiter) bool) {
	t.Helper()
	g, err := strconv.ParseInt(gid, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 3*time.Second, what, func() bool {
		for _, n := range c.nodes {
			if !ok(n.Cluster.ID(), n.Cluster.Waiters(g)) {
				return false
			}
		}
		return true
	})
}

// queued presses for the floor with queue:true and expects to be queued.
func queued(t *testing.T, tc *termclient.Client, gid string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := tc.RequestFloor(ctx, "", gid, true)
	if err != nil || r.Status != "queued" || r.Position < 1 {
		t.Fatalf("%s pressed with queue:true while another node's talker holds the floor: %+v %v, want queued",
			tc.MsID, r, err)
	}
}

// granted waits for want's floor.granted and checks that none of the others got one.
func granted(t *testing.T, want *termclient.Client, others ...*termclient.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := want.WaitEvent(ctx, "floor.granted", nil); err != nil {
		t.Fatalf("%s not granted the floor: %v", want.MsID, err)
	}
	for _, o := range others {
		for _, e := range o.Events() {
			if e.Type == "floor.granted" {
				t.Fatalf("%s granted the floor too (or before %s)", o.MsID, want.MsID)
			}
		}
	}
}

// A queue across three nodes: a dispatcher on node 1 talks; terminals on nodes 2, 1 and 3 and a second
// dispatcher on node 3 press with queue:true in that order. Each release hands the floor to the head of the
// queue across nodes — the dispatcher (priority), then the terminals in their order of arrival — one at a time.
func TestQueueAcrossNodesGrantedInPriorityOrder(t *testing.T) {
	c := newCluster(t)
	n1, n2, n3 := c.node("n1"), c.node("n2"), c.node("n3")
	f := testkit.NewFleet(t, n1.DB, "1", 3, 1)
	testkit.Provision(t, n1.DB, f.Customer, "10000002", "20", f.Groups[0])
	gid := strconv.FormatInt(f.Groups[0], 10)
	d1 := dialConsole(t, n1, f.Dispatcher, f.Customer)
	d2 := dialConsole(t, n3, "10000002", f.Customer)
	t1, t2, t3 := dialTerminal(t, n1.URL, f.Terminals[0]), dialTerminal(t, n2.URL, f.Terminals[1]), dialTerminal(t, n3.URL, f.Terminals[2])
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	if r, err := d1.RequestFloor(ctx, "", gid, false); err != nil || r.Status != "granted" {
		t.Fatalf("dispatcher on node 1: %+v %v", r, err)
	}
	queued(t, t2, gid)
	queueAds(t, c, gid, "n2")
	queued(t, t1, gid) // on the holder's node, behind node 2's earlier waiter
	queued(t, t3, gid)
	queueAds(t, c, gid, "n2", "n3")
	was := n1.Cluster.Waiters(f.Groups[0])["n3"]
	queued(t, d2, gid) // a dispatcher of the holder's rank waits (equal ranks never pre-empt), first in the queue
	watched(t, c, gid, "node 3's advertisement names its new head", func(self string, ads map[string]clusterpkg.Waiter) bool {
		return self == "n3" || ads["n3"] != was // renewed on a change
	})

	order := []*termclient.Client{d1, d2, t2, t1, t3}
	for i := 0; i+1 < len(order); i++ {
		if err := order[i].ReleaseFloor(ctx, ""); err != nil {
			t.Fatal(err)
		}
		granted(t, order[i+1], order[i+2:]...)
		t.Logf("%s released, %s granted", order[i].MsID, order[i+1].MsID)
	}
	if err := t3.ReleaseFloor(ctx, ""); err != nil {
		t.Fatal(err)
	}
	// the queue is empty: the floor is free for a press on any node
	testkit.Eventually(t, 3*time.Second, "a press on node 2 is granted on the free floor", func() bool {
		r, err := t2.RequestFloor(ctx, "", gid, false)
		return err == nil && r.Status == "granted"
	})
}

// A queued press that its terminal releases, or whose terminal leaves, is dropped from the queue across nodes:
// the holder's release goes to the next waiter.
func TestLeavingWaitersAreDroppedFromTheQueue(t *testing.T) {
	c := newCluster(t)
	n1, n2, n3 := c.node("n1"), c.node("n2"), c.node("n3")
	f := testkit.NewFleet(t, n1.DB, "1", 4, 1)
	gid := strconv.FormatInt(f.Groups[0], 10)
	t1, t2 := dialTerminal(t, n1.URL, f.Terminals[0]), dialTerminal(t, n2.URL, f.Terminals[1])
	t3, t4 := dialTerminal(t, n3.URL, f.Terminals[2]), dialTerminal(t, n2.URL, f.Terminals[3])
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := t1.RequestFloor(ctx, "", gid, false); err != nil {
		t.Fatal(err)
	}
	queued(t, t2, gid)
	queued(t, t3, gid)
	queued(t, t4, gid)
	queueAds(t, c, gid, "n2", "n3")
	was := n1.Cluster.Waiters(f.Groups[0])["n2"]
	if err := t2.ReleaseFloor(ctx, ""); err != nil { // gives its place up
		t.Fatal(err)
	}
	t3.Close() // leaves
	watched(t, c, gid, "node 3 withdraws its advertisement, node 2 names its next head", func(self string, ads map[string]clusterpkg.Waiter) bool {
		_, n3 := ads["n3"]
		n2, ok := ads["n2"]
		return (self == "n3" || !n3) && (self == "n2" || ok && n2 != was)
	})
	if err := t1.ReleaseFloor(ctx, ""); err != nil {
		t.Fatal(err)
	}
	granted(t, t4, t2)
}

// queueOfThree is a group's terminals on nodes 1, 2 and 3: the one on node 1 talks, those on nodes 2 and 3
// queue in that order, and every node's watch holds both queues.
type queueOfThree struct {
	nodes [3]*testkit.Server
	terms [3]*termclient.Client
	gid   string
}

func newQueueOfThree(t *testing.T) queueOfThree {
	t.Helper()
	c := newCluster(t)
	var q queueOfThree
	for i := range q.nodes {
		q.nodes[i] = c.node(fmt.Sprintf("n%d", i+1))
	}
	f := testkit.NewFleet(t, q.nodes[0].DB, "1", 3, 1)
	q.gid = strconv.FormatInt(f.Groups[0], 10)
	for i := range q.terms {
		q.terms[i] = dialTerminal(t, q.nodes[i].URL, f.Terminals[i])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := q.terms[0].RequestFloor(ctx, "", q.gid, false); err != nil {
		t.Fatal(err)
	}
	queued(t, q.terms[1], q.gid)
	queueAds(t, c, q.gid, "n2")
	queued(t, q.terms[2], q.gid)
	queueAds(t, c, q.gid, "n2", "n3")
	return q
}

// A waiter's node dies: the holder's release may still hand the floor to it, but the group is not blocked — the
// key expires within the lease's TTL and the next waiter, on another node, takes the floor.
func TestWaiterNodeDyingDoesNotBlockTheGroup(t *testing.T) {
	q := newQueueOfThree(t)
	n2, t1, t3 := q.nodes[1], q.terms[0], q.terms[2]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	n2.Cluster.Kill() // as if node 2 died: its advertisement is still live for up to the TTL
	if err := t1.ReleaseFloor(ctx, ""); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	wctx, wcancel := context.WithTimeout(ctx, 3*time.Second)
	defer wcancel()
	if _, err := t3.WaitEvent(wctx, "floor.granted", nil); err != nil {
		t.Fatalf("node 3's waiter not granted within 3 s of the release while node 2 is dead: %v", err)
	}
	t.Logf("node 3's waiter granted %v after the release (node 2 dead)", time.Since(start))
}

// The holder's node dies: the head of the queue, on another node, takes the floor once the lease expired (within
// 3 s, as TestFloorHammerFromThreeNodes allows a press after a node's loss).
func TestHolderNodeDyingLetsTheQueueHeadTalk(t *testing.T) {
	q := newQueueOfThree(t)
	n1, t2, t3, gid := q.nodes[0], q.terms[1], q.terms[2], q.gid
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	n1.Cluster.Kill()
	start := time.Now()
	granted(t, t2, t3)
	t.Logf("node 2's queue head granted %v after the holder's node died (lease TTL 1.5 s)", time.Since(start))
	if _, err := t3.RequestFloor(ctx, "", gid, false); termclient.Code(err) != "486" {
		t.Fatalf("node 3's press while node 2's talker holds the floor: %v, want busy", err)
	}
}

// The retry gap across nodes: a press refused on node 2 while node 1's terminal talks makes that talker wait
// before it takes the free floor again, as a press refused on its own node would.
func TestRetryGapCountsPressesOfOtherNodes(t *testing.T) {
	c := newCluster(t)
	n1, n2 := c.node("n1"), c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 2, 1)
	gid := strconv.FormatInt(f.Groups[0], 10)
	t1, t2 := dialTerminal(t, n1.URL, f.Terminals[0]), dialTerminal(t, n2.URL, f.Terminals[1])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := t1.RequestFloor(ctx, "", gid, false); err != nil {
		t.Fatal(err)
	}
	if _, err := t2.RequestFloor(ctx, "", gid, false); termclient.Code(err) != "486" {
		t.Fatalf("node 2's press while node 1's talks: %v, want busy", err)
	}
	time.Sleep(100 * time.Millisecond) // the refusal reaches node 1 over NATS (milliseconds)
	if err := t1.ReleaseFloor(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := t1.RequestFloor(ctx, "", gid, false); termclient.Code(err) != "486" {
		t.Fatalf("node 1's talker re-pressed at once: %v, want busy (it waits for node 2's terminal)", err)
	}
	if r, err := t2.RequestFloor(ctx, "", gid, false); err != nil || r.Status != "granted" {
		t.Fatalf("node 2's terminal pressed again: %+v %v, want granted", r, err)
	}
}
