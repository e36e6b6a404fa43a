package sos

import (
	"testing"

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

var code = httpx.Code

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
