package security

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tenfour/internal/auth"
	"tenfour/internal/geo"
	"tenfour/internal/testkit"
)

// gpsBatch is n positions one second apart, the newest at newest (UTC ms).
func gpsBatch(n int, newest int64) []map[string]any {
	pts := make([]map[string]any, n)
	for i := range pts {
		pts[i] = map[string]any{"lat": 41 + float64(i)/1e5, "lng": 29, "time": newest - int64(n-1-i)*1000}
	}
	return pts
}

// gpsRefused reads tenfour_gps_points_refused_total{reason} from this process's registry (the test server
// runs in it).
func gpsRefused(t *testing.T, reason string) float64 {
	t.Helper()
	mfs, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "tenfour_gps_points_refused_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "reason" && l.GetValue() == reason {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// gpsReply waits for the reply to request id, long enough for a loaded machine (a report waits for its commit).
func gpsReply(sock *testkit.Socket, id int64) testkit.Frame {
	return sock.Wait(time.Minute, func(f testkit.Frame) bool { return f.Re == id })
}

func storedPoints(t *testing.T, s *testkit.Server, id string) int {
	t.Helper()
	var n int
	if err := s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM gps_points WHERE terminal_id = ?`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestGPSFlood replays M4: one terminal sent full batches of back-dated positions as fast as the socket let it
// (246,500 stored in 10 s, +16 MiB). Now the terminal's budget (geo.DefaultBurst at once, then
// geo.DefaultRate per second) refuses the rest with "429" and counts them; another terminal uploading its
// offline backlog after a coverage gap gets every position through, and a fix older than geo.DefaultMaxAge is
// refused.
func TestGPSFlood(t *testing.T) {
	s := testkit.Start(t)
	c := testkit.Customer(t, s.DB, "gps flood")
	for _, id := range []string{"32000101", "32000102"} {
		testkit.Account(t, s.DB, auth.NewAccount{CustomerID: c, ID: id, Name: "Radio " + id, Type: "10", Group: "All"})
	}
	flooder := testkit.Terminal(t, s.URL, "32000101", testkit.Password)
	honest := testkit.Terminal(t, s.URL, "32000102", testkit.Password)
	refusedBefore := gpsRefused(t, "rate")

	// The flood: 30 full batches (15,000 positions, three times the burst) sent back to back, each back-dated
	// into its own hour so no two positions share a time.
	start := time.Now()
	now := start.UnixMilli()
	const batches = 30
	ids := make([]int64, batches)
	for i := range ids {
		ids[i] = flooder.Request("gps.report", map[string]any{"points": gpsBatch(geo.MaxBatch, now-int64(i)*3600_000), "ack": false})
	}
	var accepted, limited int
	for _, id := range ids {
		r := gpsReply(flooder, id)
		switch r.Code {
		case "0":
			var res geo.IngestResult
			_ = json.Unmarshal(r.Data, &res)
			accepted += res.Accepted
		case "429":
			limited++
			if !strings.Contains(r.Msg, "retry in") {
				t.Errorf("429 without a retry hint: %q", r.Msg)
			}
		default:
			t.Fatalf("flood batch: %s %q", r.Code, r.Msg)
		}
	}
	elapsed := time.Since(start)
	budget := geo.DefaultBurst + int(geo.DefaultRate*elapsed.Seconds()) + geo.MaxBatch
	if limited == 0 || accepted > budget {
		t.Fatalf("flood: %d positions accepted in %v, %d batches refused; want at most %d (burst + rate) and refusals",
			accepted, elapsed, limited, budget)
	}
	t.Logf("flood: %d of %d positions accepted in %v, %d batches refused 429", accepted, batches*geo.MaxBatch, elapsed, limited)
	if n := storedPoints(t, s, "32000101"); n > budget {
		t.Errorf("flood stored %d positions, budget %d", n, budget)
	}
	if d := gpsRefused(t, "rate") - refusedBefore; d < float64(limited*geo.MaxBatch) {
		t.Errorf("tenfour_gps_points_refused_total{reason=rate} rose by %v, want ≥ %d", d, limited*geo.MaxBatch)
	}

	// A terminal back from a three-hour coverage gap with a fix every 5 s: 2,160 buffered positions go in
	// full batches, then live reports continue; none is refused (the flooder's budget is not the honest one's).
	backlog := gpsBatch(3*3600/5, now)
	for i := range backlog {
		backlog[i]["time"] = now - int64(len(backlog)-1-i)*5000
	}
	for from := 0; from < len(backlog); from += geo.MaxBatch {
		batch := backlog[from:min(from+geo.MaxBatch, len(backlog))]
		r := gpsReply(honest, honest.Request("gps.report", map[string]any{"points": batch}))
		var res geo.IngestResult
		_ = json.Unmarshal(r.Data, &res)
		if r.Code != "0" || res.Accepted != len(batch) {
			t.Fatalf("backlog batch at %d: %s %q %s", from, r.Code, r.Msg, r.Data)
		}
	}
	for i := range 5 {
		if r := gpsReply(honest, honest.Request("gps.report", map[string]any{"lat": 41, "lng": 29.1, "time": time.Now().UnixMilli() + int64(i)})); r.Code != "0" {
			t.Fatalf("live report after the backlog: %s %q", r.Code, r.Msg)
		}
	}
	if n := storedPoints(t, s, "32000102"); n != len(backlog)+5 {
		t.Errorf("honest terminal: %d positions stored, want %d", n, len(backlog)+5)
	}

	// A fix back-dated beyond the accepted age is refused and counted; a batch keeps its valid positions.
	oldBefore := gpsRefused(t, "old")
	old := time.Now().Add(-geo.DefaultMaxAge - time.Hour).UnixMilli()
	if r := gpsReply(honest, honest.Request("gps.report", map[string]any{"lat": 41, "lng": 29, "time": old})); r.Code != "400" {
		t.Errorf("a fix %v old: %s %q, want 400", geo.DefaultMaxAge+time.Hour, r.Code, r.Msg)
	}
	r := gpsReply(honest, honest.Request("gps.report", map[string]any{"points": []map[string]any{{"lat": 41, "lng": 29, "time": old},
		{"lat": 41, "lng": 29, "time": time.Now().UnixMilli()}}}))
	if r.Code != "0" || string(r.Data) != `{"accepted":1,"rejected":[0]}` {
		t.Errorf("batch with one too old: %s %s", r.Code, r.Data)
	}
	if d := gpsRefused(t, "old") - oldBefore; d != 2 {
		t.Errorf("tenfour_gps_points_refused_total{reason=old} rose by %v, want 2", d)
	}
}
