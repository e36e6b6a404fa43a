package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/bench"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// TestClusterMediaLatency measures voice across nodes (docs/adr/0026) and prints BENCH lines (make bench, internal/bench/cmd
// cluster.go); the test itself asserts that every press is granted and every packet heard, not speed.
//   - cross-node PTT access: two talkers of one group on nodes 3 and 2 press in turn, each behind a proxy adding
//     30 ms each way (60 ms round trip) to its socket, so every press takes the group's floor lease from the other
//     node: floor.request sent → granted read at the talker.
//   - server-added delay per hop: node 3's talker sends numbered packets; a listener on node 3 and one on node 2
//     receive them; what the node-2 listener gets later than the node-3 listener is the cost of the hop (node 3
//     writing to the lane, UDP, node 2 reading and forwarding). Node 3's forwarding (floor.stats) and node 2's lane
//     forwarding are reported too.
func TestClusterMediaLatency(t *testing.T) {
	presses := testkit.EnvInt("TENFOUR_CLUSTER_PRESSES", 20)
	packets := testkit.EnvInt("TENFOUR_CLUSTER_PACKETS", 100)
	c := newCluster(t)
	n2, n3 := c.node("n2"), c.node("n3")
	f := testkit.NewFleet(t, n2.DB, "1", 4, 1)
	gid := strconv.FormatInt(f.Groups[0], 10)
	linked(t, n2, n3)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// cross-node PTT access behind a 60 ms round trip
	var talkers []*termclient.Client
	for i, n := range []string{n3.URL, n2.URL} {
		u, _ := url.Parse(n)
		p, err := bench.NewDelayProxy(u.Host, 30*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		talkers = append(talkers, dialTerminal(t, "http://"+p.Addr(), f.Terminals[i]))
	}
	var access []time.Duration
	for i := range presses {
		tk := talkers[i%2]
		t0 := time.Now()
		r, err := tk.RequestFloor(ctx, "", gid, false)
		d := time.Since(t0)
		if err != nil {
			t.Fatalf("press %d on node %d: %v", i, 3-i%2, err)
		}
		access = append(access, d)
		if err := tk.ReleaseFloor(ctx, r.CallID); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("cross-node PTT access (60 ms RTT, %d presses alternating nodes): p50 %v p95 %v max %v", len(access),
		bench.Pct(access, .5), bench.Pct(access, .95), bench.Pct(access, 1))
	bench.EmitMs("cluster.ptt_rtt60_p50_ms", bench.Pct(access, .5))
	bench.EmitMs("cluster.ptt_rtt60_p95_ms", bench.Pct(access, .95))
	bench.Emit("cluster.ptt_rtt60_n", float64(len(access)))
	for _, tk := range talkers {
		tk.Close()
	}

	// server-added delay per hop, on loopback
	talker := dialTerminal(t, n3.URL, f.Terminals[0])
	same := dialTerminal(t, n3.URL, f.Terminals[2])
	other := dialTerminal(t, n2.URL, f.Terminals[3])
	r, err := talker.RequestFloor(ctx, "", gid, false)
	if err != nil {
		t.Fatal(err)
	}
	sent := make([]time.Time, packets)
	for i, pl := range numbered(packets) {
		sent[i] = time.Now()
		if err := talker.Send(ctx, [][]byte{pl}, 0); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Until(sent[i].Add(20 * time.Millisecond)))
	}
	if err := talker.ReleaseFloor(ctx, r.CallID); err != nil {
		t.Fatal(err)
	}
	gotSame, err := same.WaitPackets(ctx, packets)
	if err != nil {
		t.Fatal(err)
	}
	gotOther, err := other.WaitPackets(ctx, packets)
	if err != nil {
		t.Fatal(err)
	}
	at := func(got []termclient.Packet) map[int]time.Time {
		m := map[int]time.Time{}
		for _, p := range got {
			m[indexOf(p)] = p.At
		}
		return m
	}
	atSame, atOther := at(gotSame), at(gotOther)
	var extra, e2eSame, e2eOther []time.Duration
	for i := range packets {
		a, ok1 := atSame[i]
		b, ok2 := atOther[i]
		if !ok1 || !ok2 {
			t.Fatalf("packet %d: heard on node 3 %v, on node 2 %v", i, ok1, ok2)
		}
		extra = append(extra, b.Sub(a))
		e2eSame = append(e2eSame, a.Sub(sent[i]))
		e2eOther = append(e2eOther, b.Sub(sent[i]))
	}
	ev, err := talker.WaitEvent(ctx, "floor.stats", func(e termclient.Event) bool {
		var v struct{ CallID string }
		return json.Unmarshal(e.Data, &v) == nil && v.CallID == r.CallID
	})
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ DelayP50Us, DelayP99Us int64 }
	_ = json.Unmarshal(ev.Data, &st)
	lane := n2.MediaRelay.InDelays()
	t.Logf("%d packets: talker → listener on node 3 p50 %v p99 %v; → listener on node 2 p50 %v p99 %v; the hop adds p50 %v p95 %v p99 %v",
		packets, bench.Pct(e2eSame, .5), bench.Pct(e2eSame, .99), bench.Pct(e2eOther, .5), bench.Pct(e2eOther, .99),
		bench.Pct(extra, .5), bench.Pct(extra, .95), bench.Pct(extra, .99))
	t.Logf("node 3 forwarding (listener + lane) p50 %d µs p99 %d µs; node 2 lane forwarding p50 %v p99 %v (%d samples)",
		st.DelayP50Us, st.DelayP99Us, bench.Pct(lane, .5), bench.Pct(lane, .99), len(lane))
	bench.EmitMs("cluster.hop_p50_ms", bench.Pct(extra, .5))
	bench.EmitMs("cluster.hop_p95_ms", bench.Pct(extra, .95))
	bench.EmitMs("cluster.hop_p99_ms", bench.Pct(extra, .99))
	bench.Emit("cluster.hop_n", float64(len(extra)))
	fmt.Printf("BENCH cluster.hop_talker_node_p99_ms %.3f\n", float64(st.DelayP99Us)/1000)
	bench.EmitMs("cluster.hop_lane_p99_ms", bench.Pct(lane, .99))
}
