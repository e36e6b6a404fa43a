package job_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"tenfour/internal/job"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

// BenchmarkJobRoundTrip (make bench, step "jobs"): a dispatcher sends a ticket over HTTP and its terminal
// receives it (job.deliver); the worker accepts it and the console receives the change (job.changed). Each
// ticket is stored before it is sent, each change before it is published. Tickets follow one another at a
// worker's pace (≤ 22 a second, within a terminal's frame rate), which the figures do not include.
func BenchmarkJobRoundTrip(b *testing.B) {
	s := testkit.Start(b)
	f := safetytest.Seed(b, s.DB, 1, "")
	tok := f.Token(b, s.DB)
	con := testkit.Console(b, s.URL, tok)
	term := testkit.Terminal(b, s.URL, f.Terminals[0], safetytest.Password)
	var deliver, accept []time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		r := testkit.Do(b, s.URL, http.MethodPost, "/ds/job/add", tok, map[string]any{"job": "Check the pump", "msIds": f.Terminals[0]})
		if r.Code != "0" {
			b.Fatal(r.Code, r.Msg)
		}
		var j job.Job
		r.Into(b, &j)
		req := term.WaitEvent(job.TermDeliver, 5*time.Second, nil)
		deliver = append(deliver, time.Since(t0))
		term.Reply(req, "0", nil)
		t1 := time.Now()
		if a := term.Call(job.ReqAccept, map[string]any{"jobId": j.JobID}); a.Code != "0" {
			b.Fatal(a.Code, a.Msg)
		}
		con.WaitEvent(job.EventChanged, 5*time.Second, func(fr testkit.Frame) bool {
			var got job.Job
			return fr.Decode(&got) == nil && got.JobID == j.JobID && got.JobMsList[0].State == job.Accepted
		})
		accept = append(accept, time.Since(t1))
		con.Events, term.Events = nil, nil
		// Two frames per ticket: stay under a terminal's 50 frames/s (realtime.RatePerSecond), outside the timings.
		b.StopTimer()
		time.Sleep(45 * time.Millisecond)
		b.StartTimer()
	}
	b.StopTimer()
	pct := func(ds []time.Duration, p float64) float64 {
		s := slices.Clone(ds)
		slices.Sort(s)
		k := min(len(s)-1, max(0, int(float64(len(s))*p+0.999999)-1))
		return float64(s[k].Microseconds()) / 1000
	}
	b.ReportMetric(pct(deliver, .5), "p50-ms/deliver")
	b.ReportMetric(pct(deliver, .99), "p99-ms/deliver")
	b.ReportMetric(pct(accept, .5), "p50-ms/accept")
	b.ReportMetric(pct(accept, .99), "p99-ms/accept")
}
