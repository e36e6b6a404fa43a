package cluster_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/bench"
	"tenfour/internal/config"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/testkit"
)

// A node cut from NATS without a reset (its link silent, its client not aware yet) must not hold up the other
// nodes' durable events, and loses none of its own: docs/reliability.md, finding 4. In the chaos lab's
// "partition n1 from NATS" every durable event of n1 held the customer's event lock for a whole flush timeout
// (1 s), the other nodes' events — the sweep's presence events among them, in the heartbeat's loop — queued
// behind them, and their heartbeats fell silent for 15–25 s.
func TestNodeCutFromNATSHoldsUpNoOtherNode(t *testing.T) {
	c := newCluster(t)
	link, err := bench.NewDelayProxy(strings.TrimPrefix(c.nats.URL(), "nats://"), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { link.Close() })
	n1 := c.node("n1", func(cfg *config.Config) { cfg.Cluster.NATS = "nats://" + link.Addr() })
	n2 := c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	con2 := n2.Console(f.Dispatcher, f.Customer)

	publish := func(s *testkit.Server) (int64, time.Duration) {
		t0 := time.Now()
		seq, err := s.Hub.PublishDurable(context.Background(), f.Customer, "sos.updated", map[string]any{"id": "x"}, realtime.Consoles)
		if err != nil {
			t.Error(err)
		}
		return seq, time.Since(t0)
	}
	link.Stall(true)
	first, _ := publish(n1) // finds NATS not confirming: one flush timeout
	seqs := []int64{first}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 4 { // n1's terminals go on working meanwhile
		wg.Go(func() {
			seq, _ := publish(n1)
			mu.Lock()
			seqs = append(seqs, seq)
			mu.Unlock()
		})
	}
	time.Sleep(50 * time.Millisecond)
	own, took := publish(n2)
	wg.Wait()
	if took > 500*time.Millisecond {
		t.Errorf("a durable event of n2 took %v while n1 was cut from NATS (held behind n1's)", took)
	}

	// Healed: n1's next heartbeat publishes what it queued; n2's console gets every event once.
	link.Stall(false)
	want := map[int64]bool{own: true}
	for _, s := range seqs {
		want[s] = true
	}
	got := map[int64]int{}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && len(got) < len(want) {
		if fr, err := con2.TryRead(time.Until(deadline)); err == nil && want[fr.Seq] {
			got[fr.Seq]++
		}
	}
	for fr, err := con2.TryRead(time.Second); err == nil; fr, err = con2.TryRead(time.Second) {
		if want[fr.Seq] {
			got[fr.Seq]++
		}
	}
	for s := range want {
		if got[s] != 1 {
			t.Errorf("seq %d reached n2's console %d times after the heal (all: %v of %v)", s, got[s], got, want)
		}
	}
}
