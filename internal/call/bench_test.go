package call_test

import (
	"slices"
	"testing"
	"time"

	"tenfour/internal/termclient"
)

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// BenchmarkPTT is one push-to-talk cycle of a Go terminal in a group of three with a dispatcher watching:
// floor.request over the socket, one packet as soon as the grant arrives, release. It reports press → grant
// as the server measures it (request received → granted: the decision with its database reads), as the
// terminal sees it (socket round trip), and grant → first forwarded packet (server-measured, from the
// floor.stats events).
func BenchmarkPTT(b *testing.B) {
	g := newBenchGroup(b)
	ctx := g.Ctx()
	server := make([]time.Duration, 0, b.N)
	client := make([]time.Duration, 0, b.N)
	// The socket allows a client 50 requests a second: the talkers take turns, each at most every 50 ms.
	next := make([]time.Time, len(g.talkers))
	b.ResetTimer()
	for i := range b.N {
		k := i % len(g.talkers)
		tk := g.talkers[k]
		if d := time.Until(next[k]); d > 0 {
			time.Sleep(d)
		}
		next[k] = time.Now().Add(50 * time.Millisecond)
		t0 := time.Now()
		r, err := tk.RequestFloor(ctx, "", "", false)
		if err != nil {
			b.Fatal(err)
		}
		client = append(client, time.Since(t0))
		server = append(server, time.Duration(r.PressToGrantUs)*time.Microsecond)
		if err := tk.Send(ctx, termclient.Silence(1), 0); err != nil {
			b.Fatal(err)
		}
		if err := tk.ReleaseFloor(ctx, r.CallID); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	first := make([]time.Duration, 0, b.N)
	for range b.N {
		e, err := g.d.WaitEvent(ctx, "floor.stats", nil)
		if err != nil {
			b.Fatal(err)
		}
		var st struct {
			GrantToFirstUs int64 `json:"grantToFirstUs"`
		}
		_ = e.Decode(&st)
		if st.GrantToFirstUs > 0 {
			first = append(first, time.Duration(st.GrantToFirstUs)*time.Microsecond)
		}
	}
	b.ReportMetric(float64(pct(server, 50).Microseconds()), "grant-p50-µs")
	b.ReportMetric(float64(pct(server, 99).Microseconds()), "grant-p99-µs")
	b.ReportMetric(float64(pct(client, 99).Microseconds()), "rtt-p99-µs")
	b.ReportMetric(float64(pct(first, 50).Microseconds()), "first-p50-µs")
	b.ReportMetric(float64(pct(first, 99).Microseconds()), "first-p99-µs")
}

type benchGroup struct {
	*world
	talkers []*termclient.Client
	d       *termclient.Client
}

func newBenchGroup(b *testing.B) *benchGroup {
	w := newWorld(b)
	gid := w.group("Bench")
	g := &benchGroup{world: w}
	for _, id := range []string{"10001001", "10001002", "10001003", "10001004", "10001005"} {
		w.account(id, "10", gid)
		g.talkers = append(g.talkers, w.term(id))
	}
	w.account("10009001", "20", gid)
	g.d = w.console("10009001")
	return g
}
