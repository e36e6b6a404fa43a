package sos

import (
	"testing"
	"time"

	"tenfour/internal/platform/httpx"
)

// Every pair of states: only 0→1, 0→2 and 1→2 are allowed.
func TestStateMachine(t *testing.T) {
	allowed := map[[2]State]bool{{Sending, Acknowledged}: true, {Sending, Closed}: true, {Acknowledged, Closed}: true}
	for _, from := range []State{Sending, Acknowledged, Closed} {
		for _, to := range []State{Sending, Acknowledged, Closed} {
			if got := from.CanBecome(to); got != allowed[[2]State{from, to}] {
				t.Errorf("%d→%d: CanBecome = %v", from, to, got)
			}
		}
	}
	if !Sending.Open() || !Acknowledged.Open() || Closed.Open() {
		t.Error("Open: 0 and 1 are open, 2 is not")
	}
}

func code(err error) string {
	if err == nil {
		return "0"
	}
	e, _ := httpx.AsError(err)
	return e.Code
}

func TestParseRange(t *testing.T) {
	utc := time.UTC
	plus8 := ZoneOf("8")
	ms := func(s string, loc *time.Location) string {
		tm, err := time.ParseInLocation(time.DateTime, s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return itoa(tm.UnixMilli())
	}
	cases := []struct {
		name, s, e string
		loc        *time.Location
		code       string
	}{
		{"same day", ms("2026-11-01 00:00:00", utc), ms("2026-11-01 23:59:59", utc), utc, "0"},
		{"whole month", ms("2026-11-01 00:00:00", utc), ms("2026-11-30 23:59:59", utc), utc, "0"},
		{"to first instant of next month", ms("2026-11-01 00:00:00", utc), ms("2026-12-01 00:00:00", utc), utc, "0"},
		{"equal ends", ms("2026-11-05 10:00:00", utc), ms("2026-11-05 10:00:00", utc), utc, "0"},
		{"start after end", ms("2026-11-05 10:00:00", utc), ms("2026-11-04 10:00:00", utc), utc, "93"},
		{"cross month", ms("2026-10-31 10:00:00", utc), ms("2026-11-01 10:00:00", utc), utc, "95"},
		{"cross year", ms("2026-12-31 10:00:00", utc), ms("2027-01-01 10:00:00", utc), utc, "95"},
		// 2026-10-31 20:00 UTC is already November 1st in UTC+8.
		{"month of the customer's zone", ms("2026-11-01 04:00:00", plus8), ms("2026-11-20 10:00:00", plus8), plus8, "0"},
		{"zone makes it cross", ms("2026-10-31 23:00:00", plus8), ms("2026-11-01 01:00:00", plus8), plus8, "95"},
		{"missing start", "", "1", utc, "400"},
		{"missing end", "1", "", utc, "400"},
		{"not a number", "yesterday", "1", utc, "400"},
		{"negative", "-5", "1", utc, "400"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseRange(c.s, c.e, c.loc)
			if got := code(err); got != c.code {
				t.Fatalf("code %s, want %s (%v)", got, c.code, err)
			}
		})
	}
}

func itoa(n int64) string { return AlarmID(n).String() }

func TestZoneOf(t *testing.T) {
	for in, want := range map[string]int{"8": 8 * 3600, "-3.5": -3*3600 - 1800, "0": 0, "": 0, "x": 0, "99": 0} {
		_, off := time.Unix(0, 0).In(ZoneOf(in)).Zone()
		if off != want {
			t.Errorf("ZoneOf(%q) offset %d, want %d", in, off, want)
		}
	}
}

func TestCheckInput(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name     string
		lat, lng *float64
		code     string
		wantLat  float64
	}{
		{"none", nil, nil, "0", 0},
		{"degrees", f(41.01), f(28.97), "0", 41.01},
		{"micro-degrees", f(41010000), f(28970000), "0", 41.01},
		{"only lat", f(41), nil, "400", 0},
		{"lat out of range", f(91), f(0), "400", 0},
		{"lng out of range", f(0), f(181), "400", 0},
	}
	for _, c := range cases {
		lat, _, err := checkLatLng(c.lat, c.lng)
		if got := code(err); got != c.code {
			t.Errorf("%s: code %s, want %s", c.name, got, c.code)
		}
		if err == nil && lat != nil && *lat != c.wantLat {
			t.Errorf("%s: lat %v, want %v", c.name, *lat, c.wantLat)
		}
	}
	for typ, want := range map[string]string{"": "0", "1": "1", "manDown": "manDown", "a b": "400", "12345678901234567": "400"} {
		got, err := checkType(typ)
		if err != nil {
			got = code(err)
		}
		if got != want {
			t.Errorf("checkType(%q) = %q, want %q", typ, got, want)
		}
	}
	long := make([]rune, MaxRemark+1)
	for i := range long {
		long[i] = '字'
	}
	if code(checkRemark(string(long[:MaxRemark]))) != "0" || code(checkRemark(string(long))) != "400" {
		t.Error("remark limit is 200 characters")
	}
}
