package cluster_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"tenfour/internal/call"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

type turn struct {
	who        string
	from, till time.Time // the grant's reply arrived … the release was sent: inside the server's turn
}

// Three terminals of one group, each on another node, press and release as fast as they can: no two are ever
// granted the group's floor at once. Then the node holding it loses NATS and a press elsewhere gets it.
func TestFloorHammerFromThreeNodes(t *testing.T) {
	c := newCluster(t)
	nodes := []*testkit.Server{c.node("n1"), c.node("n2"), c.node("n3")}
	f := testkit.NewFleet(t, nodes[0].DB, "1", 3, 1)
	gid := strconv.FormatInt(f.Groups[0], 10)
	terms := make([]*termclient.Client, 3)
	for i := range terms {
		terms[i] = dialTerminal(t, nodes[i].URL, f.Terminals[i])
	}

	var mu sync.Mutex
	var turns []turn
	granted := make([]int, 3)
	deadline := time.Now().Add(6 * time.Second)
	var wg sync.WaitGroup
	for i, tc := range terms {
		wg.Go(func() {
			ctx := context.Background()
			for time.Now().Before(deadline) {
				time.Sleep(time.Duration(15+rand.IntN(10)) * time.Millisecond) // within the socket's 50 frames/s
				_, err := tc.RequestFloor(ctx, "", gid, false)
				if err != nil {
					if code := termclient.Code(err); code != "" && code != "?" {
						continue // busy: someone else (on any node) has it
					}
					t.Errorf("floor.request on node %d: %v", i+1, err)
					return
				}
				from := time.Now()
				time.Sleep(5 * time.Millisecond)
				till := time.Now()
				if err := tc.ReleaseFloor(ctx, ""); err != nil {
					t.Errorf("floor.release: %v", err)
					return
				}
				mu.Lock()
				turns = append(turns, turn{who: tc.MsID, from: from, till: till})
				granted[i]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	sort.Slice(turns, func(a, b int) bool { return turns[a].from.Before(turns[b].from) })
	for i := 1; i < len(turns); i++ {
		if p := turns[i-1]; turns[i].from.Before(p.till) && turns[i].who != p.who {
			t.Fatalf("two talkers at once: %s from %v till %v, %s from %v", p.who, p.from.Format("15:04:05.000"),
				p.till.Format("15:04:05.000"), turns[i].who, turns[i].from.Format("15:04:05.000"))
		}
	}
	t.Logf("grants per node: %v (%d turns, none overlapping)", granted, len(turns))
	nodesGranted := 0
	for _, g := range granted {
		if g > 0 {
			nodesGranted++
		}
	}
	if nodesGranted < 2 {
		t.Fatalf("the floor went to one node only: %v", granted)
	}

	// Node 1's talker holds the floor; node 1 loses NATS (as if it died): a press on node 2 gets the floor
	// once the lease expired. First the last talkers' retry gaps end (presses refused on other nodes count too).
	time.Sleep(call.FloorRetryGap)
	ctx := context.Background()
	if _, err := terms[0].RequestFloor(ctx, "", gid, false); err != nil {
		t.Fatal(err)
	}
	if _, err := terms[1].RequestFloor(ctx, "", gid, false); termclient.Code(err) == "" {
		t.Fatal("granted while node 1's talker holds the floor")
	}
	nodes[0].Cluster.Kill()
	start := time.Now()
	for {
		if _, err := terms[1].RequestFloor(ctx, "", gid, false); err == nil {
			break
		}
		if time.Since(start) > 3*time.Second {
			t.Fatal("node 2 did not get the floor within 3 s of node 1's loss")
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("floor re-taken on node 2 %v after node 1 lost the cluster", time.Since(start))
	fmt.Printf("BENCH cluster.floor_retake_s %.3f\n", time.Since(start).Seconds())
}

// Work run through Singleton runs on one node at a time, and on another once its node loses the cluster.
func TestSingletonRunsOnOneNodeAtATime(t *testing.T) {
	c := newCluster(t)
	nodes := []*testkit.Server{c.node("n1"), c.node("n2"), c.node("n3")}
	var mu sync.Mutex
	running := map[string]bool{}
	most := 0
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	for _, n := range nodes {
		loop := n.Cluster.Singleton("test-work", func(ctx context.Context) {
			mu.Lock()
			running[n.Cluster.ID()] = true
			most = max(most, len(running))
			mu.Unlock()
			<-ctx.Done()
			mu.Lock()
			delete(running, n.Cluster.ID())
			mu.Unlock()
		})
		wg.Go(func() { loop(ctx) })
	}
	holder := func() string {
		mu.Lock()
		defer mu.Unlock()
		for id := range running {
			return id
		}
		return ""
	}
	testkit.Eventually(t, 3*time.Second, "one node runs the work", func() bool { return holder() != "" })
	first := holder()
	for _, n := range nodes {
		if n.Cluster.ID() == first {
			n.Cluster.Kill()
		}
	}
	testkit.Eventually(t, nodeTimeout+3*time.Second, "another node took the work over", func() bool {
		h := holder()
		return h != "" && h != first
	})
	mu.Lock()
	defer mu.Unlock()
	if most != 1 {
		t.Fatalf("%d nodes ran the work at once", most)
	}
}
