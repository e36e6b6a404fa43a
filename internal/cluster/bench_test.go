package cluster_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"tenfour/internal/platform/realtime"
	"tenfour/internal/testkit"
)

// TestClusterAlarmFanout: alarms published on node 3 reach 20 consoles spread over three nodes, every one of
// them, in seq order. With TENFOUR_CLUSTER_ALARMS=N (make bench) it sends N and prints the delay percentiles as
// BENCH lines (internal/bench/cmd cluster.go); the test itself asserts delivery, not speed.
func TestClusterAlarmFanout(t *testing.T) {
	alarms := testkit.EnvInt("TENFOUR_CLUSTER_ALARMS", 10)
	c := newCluster(t)
	nodes := []*testkit.Server{c.node("n1"), c.node("n2"), c.node("n3")}
	f := testkit.NewFleet(t, nodes[0].DB, "1", 0, 1)
	consoles := make([]*testkit.Socket, 20)
	for i := range consoles {
		id := fmt.Sprintf("1%07d", 900+i) // 20 dispatchers of the customer, each signed in on one node
		testkit.Provision(t, nodes[0].DB, f.Customer, id, "20", f.Groups[0])
		consoles[i] = nodes[i%3].Console(id, f.Customer)
	}
	for _, con := range consoles {
		con.Drain()
	}
	sent := make([]time.Time, alarms)
	var delays []time.Duration
	var mu sync.Mutex
	var wg sync.WaitGroup
	seqs := make([]int64, alarms)
	for i := range consoles {
		wg.Go(func() {
			var last int64
			for got := 0; got < alarms; {
				fr := consoles[i].WaitEvent("sos.alarm", 10*time.Second, nil)
				at := time.Now()
				if fr.Seq <= last {
					t.Errorf("console %d: seq %d after %d", i, fr.Seq, last)
				}
				last = fr.Seq
				mu.Lock()
				k := slices.Index(seqs, fr.Seq)
				if k >= 0 {
					delays = append(delays, at.Sub(sent[k]))
				}
				mu.Unlock()
				got++
			}
		})
	}
	ctx := context.Background()
	for i := range alarms {
		mu.Lock()
		sent[i] = time.Now()
		seq, err := nodes[2].Hub.PublishDurable(ctx, f.Customer, "sos.alarm", map[string]any{"id": i}, realtime.Consoles)
		seqs[i] = seq
		mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	if len(delays) != alarms*len(consoles) {
		t.Fatalf("%d deliveries, want %d", len(delays), alarms*len(consoles))
	}
	slices.Sort(delays)
	pct := func(p float64) float64 {
		return float64(delays[min(len(delays)-1, int(p*float64(len(delays))))].Microseconds()) / 1000
	}
	t.Logf("%d alarms × 20 consoles over 3 nodes: p50 %.2f ms, p99 %.2f ms, max %.2f ms", alarms, pct(0.5), pct(0.99), pct(1))
	fmt.Printf("BENCH cluster.alarm_p50_ms %.3f\nBENCH cluster.alarm_p99_ms %.3f\nBENCH cluster.alarm_n %d\n", pct(0.5), pct(0.99), len(delays))
}
