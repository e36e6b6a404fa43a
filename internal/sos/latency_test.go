package sos_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"tenfour/internal/platform/identity"
	"tenfour/internal/sos"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

// Consoles is the fan-out the latency goal is stated for.
const Consoles = 20

// fanout raises n alarms from a terminal of a fleet watched by 20 consoles and returns, per alarm and console,
// the time from the terminal sending `sos.raise` to that console reading `sos.alarm`, and per alarm the time
// until the last console had it ("every console").
func fanout(tb testing.TB, n int) (each, every []time.Duration) {
	s := testkit.Start(tb)
	f := safetytest.Seed(tb, s.DB, 10, "505")
	tok := f.Token(tb, s.DB)
	cons := make([]*testkit.Socket, Consoles)
	for i := range cons {
		cons[i] = testkit.Console(tb, s.URL, tok)
	}
	terms := make([]*testkit.Socket, len(f.Terminals))
	for i, ms := range f.Terminals {
		terms[i] = testkit.Terminal(tb, s.URL, ms, safetytest.Password)
	}
	disp := identity.Principal{AccountID: f.Dispatcher, CustomerID: f.CustomerID, Type: "20", Name: "bench"}
	ctx := context.Background()
	for i := 0; i < n; i++ {
		term := terms[i%len(terms)]
		start := time.Now()
		r := term.Call(sos.ReqRaise, map[string]any{"lat": 41, "lng": 29})
		if r.Code != "0" {
			tb.Fatalf("raise: %s %s", r.Code, r.Msg)
		}
		var res struct {
			ID sos.AlarmID `json:"id"`
		}
		r.Into(tb, &res)
		var worst time.Duration
		for _, c := range cons {
			a := c.Wait(5*time.Second, func(fr testkit.Frame) bool {
				if fr.Type != sos.EventAlarm {
					return false
				}
				var al sos.Alarm
				fr.Into(tb, &al)
				return al.ID == res.ID
			})
			d := a.At.Sub(start)
			each = append(each, d)
			worst = max(worst, d)
		}
		every = append(every, worst)
		// Close it (unmeasured) so the terminal can raise again; drop what the consoles got meanwhile.
		if _, err := s.SOS.Close(ctx, disp, res.ID, "bench"); err != nil {
			tb.Fatal(err)
		}
		for _, c := range cons {
			c.Drain()
		}
	}
	return each, every
}

func pct(ds []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	k := int(float64(len(s))*p+0.5) - 1
	return s[max(0, min(k, len(s)-1))]
}

// TestAlarmReachesEveryConsole raises alarms with 20 consoles connected: each alarm reaches every console (a
// console that misses one fails the wait), and the latencies are printed. The 250 ms goal for the p99 until every
// console has it is a row of make bench (BenchmarkAlarmFanout20, 200 alarms on a quiet machine), not a timed
// assertion here, where the test shares the cores with the rest of the suite. TENFOUR_SOS_ALARMS sets the number
// of alarms (default 20).
func TestAlarmReachesEveryConsole(t *testing.T) {
	n := testkit.EnvInt("TENFOUR_SOS_ALARMS", 20)
	each, every := fanout(t, n)
	if len(each) != n*Consoles || len(every) != n {
		t.Fatalf("%d deliveries of %d alarms, want %d", len(each), len(every), n*Consoles)
	}
	t.Logf("SOS alarm terminal→console latency, %d consoles, %d alarms (%d deliveries):", Consoles, n, len(each))
	t.Logf("  each console:   p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms", ms(pct(each, .5)), ms(pct(each, .99)), ms(pct(each, 1)))
	t.Logf("  every console:  p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms", ms(pct(every, .5)), ms(pct(every, .99)), ms(pct(every, 1)))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkAlarmFanout20 reports the same figures as metrics (make bench).
func BenchmarkAlarmFanout20(b *testing.B) {
	each, every := fanout(b, max(b.N, 20))
	b.ReportMetric(ms(pct(each, .5)), "p50-ms/console")
	b.ReportMetric(ms(pct(each, .99)), "p99-ms/console")
	b.ReportMetric(ms(pct(every, .5)), "p50-ms/all20")
	b.ReportMetric(ms(pct(every, .99)), "p99-ms/all20")
}
