package patrol_test

import (
	"context"
	"net/http"
	"sort"
	"testing"
	"time"

	"tenfour/internal/patrol"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// BenchmarkPunchToConsole measures a terminal's patrol punch until a dispatcher's console has it (make bench,
// row "patrol punch: terminal → console p99"): the punch is matched to the open order, stored (log and order
// point) and published as patrol.punch. Each op is one punch of the order's point (a repeat after the first:
// stored and published like any other).
func BenchmarkPunchToConsole(b *testing.B) {
	s := testkit.Start(b)
	f := safetytest.Seed(b, s.DB, 1, "")
	do := func(method, path, tok string, params map[string]any) testkit.Reply {
		r := testkit.Do(b, s.URL, method, patrol.Base+path, tok, params)
		if r.Code != patrol.SuccessCode {
			b.Fatalf("%s: %s %s", path, r.Code, r.Msg)
		}
		return r
	}
	var login struct{ Token string }
	do(http.MethodPost, "sysUsers/login", "", map[string]any{"username": f.Dispatcher, "password": testkit.Password}).Into(b, &login)
	tok := login.Token
	var area patrol.Area
	do(http.MethodPost, "tbPatrolArea/add", tok, map[string]any{"name": "Bench"}).Into(b, &area)
	var pt patrol.Point
	do(http.MethodPost, "tbPatrolPoint/add", tok, map[string]any{"name": "Gate", "nfcValue": "BENCH-1", "areaId": area.ID, "lat": 41, "lng": 29}).Into(b, &pt)
	var rt patrol.Route
	do(http.MethodPost, "tbPatrolRoute/add", tok, map[string]any{"name": "Loop", "areaId": area.ID, "routePoints": []any{pt.ID}}).Into(b, &rt)
	do(http.MethodPost, "sysUsers/addUserByNms", tok, map[string]any{"msIds": f.Terminals[0]})
	now := time.Now().UTC()
	// a class from the start of this hour for four hours: open now whatever the hour
	start := now.Truncate(time.Hour).Format("15:04")
	end := now.Truncate(time.Hour).Add(4 * time.Hour).Format("15:04")
	do(http.MethodPost, "tbPatrolPlan/add", tok, map[string]any{"name": "Bench", "model": 2, "startDate": now.Format(time.DateOnly),
		"endDate": now.Add(24 * time.Hour).Format(time.DateOnly), "areaId": area.ID, "routeId": rt.ID,
		"classes": []any{map[string]any{"name": "C", "startTime": start, "endTime": end, "msId": f.Terminals[0]}}})
	con := testkit.Console(b, s.URL, f.Token(b, s.DB))
	ctx := context.Background()
	term, err := termclient.Dial(ctx, termclient.Options{URL: s.URL, UID: f.Terminals[0], Password: testkit.Password})
	if err != nil {
		b.Fatal(err)
	}
	defer term.Close()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		var res patrol.PunchResult
		if err := term.Call(ctx, patrol.ReqPunch, map[string]any{"method": "nfc", "value": "BENCH-1"}, &res); err != nil {
			b.Fatal(err)
		}
		if res.Order == nil {
			b.Fatalf("the punch matched no order: %+v", res)
		}
		con.WaitEvent(patrol.EventPunch, 5*time.Second, nil)
		lat = append(lat, time.Since(t0))
		con.Drain()
		// Stay under a terminal's 50 frames/s (realtime.RatePerSecond), outside the timings: a punch that reaches
		// the console quickly must not make the next one a flood (the step refused 429 once it did).
		b.StopTimer()
		time.Sleep(25 * time.Millisecond)
		b.StartTimer()
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	at := func(p float64) float64 {
		return float64(lat[max(0, min(len(lat)-1, int(float64(len(lat))*p+0.5)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(at(.5), "p50-ms")
	b.ReportMetric(at(.99), "p99-ms")
}
