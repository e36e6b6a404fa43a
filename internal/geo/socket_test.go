package geo_test

import (
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/geo"
	"tenfour/internal/testkit"
)

func gpsItems(t *testing.T, f testkit.Frame) []geo.Live {
	t.Helper()
	var ev geo.GPSEvent
	if err := json.Unmarshal(f.Data, &ev); err != nil {
		t.Fatalf("gps event %s: %v", f.Data, err)
	}
	return ev.List
}

func hasItem(t *testing.T, id string, ok func(geo.Live) bool) func(testkit.Frame) bool {
	return func(f testkit.Frame) bool {
		for _, l := range gpsItems(t, f) {
			if l.MsID == id && ok(l) {
				return true
			}
		}
		return false
	}
}

// A terminal reports positions over the socket; its customer's console receives them coalesced and a fence
// alarm, each within 1 s; the other customer's console receives nothing.
func TestLivePositionsAndFenceAlarm(t *testing.T) {
	s := testkit.Start(t)
	a, b := seed(t, s.DB, 2), seed(t, s.DB, 1)
	tokA, tokB := a.Token, b.Token
	id := a.Terminals[0]
	// An "in" rectangle lat 40..41, lng 28..29 around the start.
	if r := s.Do("POST", "/ds/fence/create", tokA, map[string]any{"name": "Yard", "type": "in", "shape": "rectangle",
		"geometry": polygonA, "msIds": []string{id}}); r.Code != "0" {
		t.Fatalf("create fence: %s %s", r.Code, r.Msg)
	}
	con := testkit.Console(t, s.URL, tokA)
	conB := testkit.Console(t, s.URL, tokB)
	term := testkit.Terminal(t, s.URL, id, testkit.Password)

	now := time.Now().UnixMilli()
	sent := time.Now()
	r := term.Call("gps.report", map[string]any{"lat": 40.5, "lng": 28.5, "speed": 3, "direction": 90, "time": now})
	if r.Code != "0" || string(r.Data) != `{"accepted":1}` {
		t.Fatalf("report: %s %s %s", r.Code, r.Msg, r.Data)
	}
	// Acknowledged means committed.
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM gps_points WHERE terminal_id = ?`, id); n != 1 {
		t.Fatalf("acknowledged point not stored: %d", n)
	}
	con.WaitEvent("gps", time.Second, hasItem(t, id, func(l geo.Live) bool { return l.Lat != nil && *l.Lat == 40.5 && *l.Speed == 3 }))
	if d := time.Since(sent); d > time.Second {
		t.Errorf("position reached the console after %v", d)
	}

	// A batch: still inside, then outside (in micro-degrees), plus one invalid point that is skipped.
	sent = time.Now()
	r = term.Call("gps.report", map[string]any{"points": []map[string]any{
		{"lat": 40.6, "lng": 28.6, "time": now + 1000},
		{"lat": 41500000, "lng": 28500000, "speed": "12.5", "time": now + 2000},
		{"lat": 95, "lng": 28.5, "time": now + 3000},
	}})
	if r.Code != "0" || string(r.Data) != `{"accepted":2,"rejected":[2]}` {
		t.Fatalf("batch: %s %s %s", r.Code, r.Msg, r.Data)
	}
	ev := con.WaitEvent("fence.alarm", time.Second, nil)
	if d := time.Since(sent); d > time.Second {
		t.Errorf("fence alarm reached the console after %v", d)
	}
	var al geo.Alarm
	if err := json.Unmarshal(ev.Data, &al); err != nil || ev.Seq == 0 {
		t.Fatalf("alarm %s seq %d", ev.Data, ev.Seq)
	}
	if al.Type != geo.AlarmLeave || al.MsID != id || al.MsName != "Name "+id || al.FenceName != "Yard" || al.Lat != 41.5 || al.Lng != 28.5 || al.Time != now+2000 {
		t.Fatalf("alarm %+v", al)
	}
	con.WaitEvent("gps", time.Second, hasItem(t, id, func(l geo.Live) bool { return *l.Lat == 41.5 && l.Time == now+2000 }))

	// Staying outside raises nothing more; a late fix (older than the last) is stored but judged by nobody.
	for _, p := range []map[string]any{{"lat": 41.6, "lng": 28.5, "time": now + 4000}, {"lat": 40.5, "lng": 28.5, "time": now + 2500}} {
		if r := term.Call("gps.report", p); r.Code != "0" {
			t.Fatalf("report: %s", r.Msg)
		}
	}
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM fence_alarms WHERE terminal_id = ?`, id); n != 1 {
		t.Errorf("fence alarms: %d, want exactly one for one transition", n)
	}
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM gps_points WHERE terminal_id = ?`, id); n != 5 {
		t.Errorf("stored points: %d", n)
	}
	// Battery and signal ride the same event.
	if r := term.Call("status.report", map[string]any{"battery": 55, "signal": 3}); r.Code != "0" {
		t.Fatalf("status: %s", r.Msg)
	}
	con.WaitEvent("gps", time.Second, hasItem(t, id, func(l geo.Live) bool {
		return l.Battery != nil && *l.Battery == 55 && *l.Signal == 3 && *l.Lat == 41.6
	}))
	// Log 101: one entry for all these reports (the rule is one per terminal per hour).
	testkit.Eventually(t, time.Second, "log 101", func() bool { return logCount(t, s, a.Customer, 101) == 1 })

	// Bad input.
	for _, c := range []struct {
		data map[string]any
		code string
	}{
		{map[string]any{"lat": 91, "lng": 28}, "400"},
		{map[string]any{"lng": 28}, "400"},
		{map[string]any{"lat": 41, "lng": 28, "speed": -1}, "400"},
		{map[string]any{"lat": 41, "lng": 28, "direction": 361}, "400"},
		{map[string]any{"lat": 41, "lng": 28, "time": now + 3600_000}, "400"},
		{map[string]any{"lat": 41, "lng": 28, "time": 1000}, "400"},
		{map[string]any{"lat": "north", "lng": 28}, "400"},
		{map[string]any{"points": []any{}}, "400"},
		{map[string]any{"points": []map[string]any{{"lat": 95, "lng": 1}}}, "400"},
	} {
		if r := term.Call("gps.report", c.data); r.Code != c.code {
			t.Errorf("gps.report %v: code %s (%s), want %s", c.data, r.Code, r.Msg, c.code)
		}
	}
	if r := term.Call("status.report", map[string]any{"battery": 101}); r.Code != "400" {
		t.Errorf("battery 101: %s", r.Code)
	}
	if r := con.Call("gps.report", map[string]any{"lat": 41, "lng": 28}); r.Code != "107" {
		t.Errorf("a console reporting a position: %s", r.Code)
	}

	// The other customer's console got nothing, live or durable.
	if r := conB.Call("sync", map[string]any{"after": 0}); r.Code != "0" {
		t.Fatalf("sync: %s", r.Msg)
	}
	for _, f := range conB.Events {
		if f.Type == "gps" || f.Type == "fence.alarm" {
			t.Errorf("customer B received %s %s", f.Type, f.Data)
		}
	}
	// A console that was away gets the alarm on sync.
	late := testkit.Console(t, s.URL, tokA)
	late.Call("sync", map[string]any{"after": 0})
	late.WaitEvent("fence.alarm", time.Second, nil)
}

// ack:false answers as soon as the points are queued; they are committed by the next flush all the same.
func TestReportWithoutAck(t *testing.T) {
	s := testkit.Start(t)
	a := seed(t, s.DB, 1)
	term := testkit.Terminal(t, s.URL, a.Terminals[0], testkit.Password)
	now := time.Now().UnixMilli()
	pts := make([]map[string]any, 0, 50)
	for i := range 50 {
		pts = append(pts, map[string]any{"lat": 41 + float64(i)/1000, "lng": 29, "time": now - 60000 + int64(i)*1000})
	}
	if r := term.Call("gps.report", map[string]any{"points": pts, "ack": false}); r.Code != "0" {
		t.Fatalf("%s", r.Msg)
	}
	testkit.Eventually(t, 2*time.Second, "points committed", func() bool {
		return testkit.Count(t, s.DB, `SELECT COUNT(*) FROM gps_points WHERE terminal_id = ?`, a.Terminals[0]) == 50
	})
	// The accounts row follows within the account-sync interval (2 s).
	testkit.Eventually(t, 4*time.Second, "accounts row", func() bool {
		return testkit.Count(t, s.DB, `SELECT COUNT(*) FROM accounts WHERE id = ? AND last_gps_at = ?`, a.Terminals[0], now-60000+49000) == 1
	})
	// A resent batch is not stored twice.
	if r := term.Call("gps.report", map[string]any{"points": pts}); r.Code != "0" {
		t.Fatalf("%s", r.Msg)
	}
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM gps_points WHERE terminal_id = ?`, a.Terminals[0]); n != 50 {
		t.Errorf("after resend: %d points", n)
	}
}
