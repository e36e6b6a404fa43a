package lonework

import (
	"testing"
	"time"

	"tenfour/internal/platform/httpx"
)

var code = httpx.Code

// Every lone-worker rule of spec §5, with its code.
func TestCheckInput(t *testing.T) {
	loc := time.FixedZone("UTC+3", 3*3600)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, loc)
	future := itoa64(now.Add(time.Hour).UnixMilli())
	cases := []struct {
		name string
		in   RawInput
		code string
		want Input
	}{
		{"date and time", RawInput{Date: "2026-11-21", Time: "14:30", Duration: "90", Interval: "30"}, "0",
			Input{Start: time.Date(2026, 11, 21, 14, 30, 0, 0, loc).UnixMilli(), Duration: 90, Interval: 30, Countdown: 60, Enabled: true}},
		{"date and time with seconds", RawInput{Date: "2026-11-21", Time: "14:30:00", Duration: "90", Interval: "30"}, "0",
			Input{Start: time.Date(2026, 11, 21, 14, 30, 0, 0, loc).UnixMilli(), Duration: 90, Interval: 30, Countdown: 60, Enabled: true}},
		{"sTime and spec aliases", RawInput{STime: future, WTime: "60", HB: "15", Countdown: "30", Enabled: "0"}, "0",
			Input{Start: now.Add(time.Hour).UnixMilli(), Duration: 60, Interval: 15, Countdown: 30}},
		{"eTime instead of duration", RawInput{STime: future, ETime: itoa64(now.Add(3 * time.Hour).UnixMilli()), Interval: "60"}, "0",
			Input{Start: now.Add(time.Hour).UnixMilli(), Duration: 120, Interval: 60, Countdown: 60, Enabled: true}},
		{"one whole day", RawInput{STime: future, Duration: "1440", Interval: "1440"}, "0",
			Input{Start: now.Add(time.Hour).UnixMilli(), Duration: 1440, Interval: 1440, Countdown: 60, Enabled: true}},
		{"interval equal to duration", RawInput{STime: future, Duration: "30", Interval: "30"}, "0",
			Input{Start: now.Add(time.Hour).UnixMilli(), Duration: 30, Interval: 30, Countdown: 60, Enabled: true}},
		{"started already, ends later", RawInput{STime: itoa64(now.Add(-time.Hour).UnixMilli()), Duration: "120", Interval: "10"}, "0",
			Input{Start: now.Add(-time.Hour).UnixMilli(), Duration: 120, Interval: 10, Countdown: 60, Enabled: true}},
		{"no date", RawInput{Time: "14:30", Duration: "90", Interval: "30"}, "86", Input{}},
		{"no time", RawInput{Date: "2026-11-21", Duration: "90", Interval: "30"}, "86", Input{}},
		{"nothing", RawInput{}, "86", Input{}},
		{"bad date", RawInput{Date: "21/11/2026", Time: "14:30", Duration: "90", Interval: "30"}, "400", Input{}},
		{"bad sTime", RawInput{STime: "soon", Duration: "90", Interval: "30"}, "400", Input{}},
		{"no duration", RawInput{STime: future, Interval: "30"}, "82", Input{}},
		{"duration not a number", RawInput{STime: future, Duration: "an hour", Interval: "30"}, "82", Input{}},
		{"negative duration", RawInput{STime: future, Duration: "-5", Interval: "30"}, "82", Input{}},
		{"duration above a day", RawInput{STime: future, Duration: "1441", Interval: "30"}, "83", Input{}},
		{"zero duration: begin equals end", RawInput{STime: future, Duration: "0", Interval: "30"}, "87", Input{}},
		{"eTime equals sTime", RawInput{STime: future, ETime: future, Interval: "30"}, "87", Input{}},
		{"eTime before sTime", RawInput{STime: future, ETime: itoa64(now.UnixMilli()), Interval: "30"}, "82", Input{}},
		{"no interval", RawInput{STime: future, Duration: "60"}, "84", Input{}},
		{"zero interval", RawInput{STime: future, Duration: "60", Interval: "0"}, "84", Input{}},
		{"interval above duration", RawInput{STime: future, Duration: "60", Interval: "61"}, "85", Input{}},
		{"countdown too short", RawInput{STime: future, Duration: "60", Interval: "5", Countdown: "5"}, "400", Input{}},
		{"countdown above interval", RawInput{STime: future, Duration: "60", Interval: "1", Countdown: "61"}, "400", Input{}},
		{"bad enabled", RawInput{STime: future, Duration: "60", Interval: "5", Enabled: "yes"}, "400", Input{}},
		{"ended already", RawInput{STime: itoa64(now.Add(-2 * time.Hour).UnixMilli()), Duration: "120", Interval: "10"}, "97", Input{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.in.Check(loc, now)
			if code(err) != c.code {
				t.Fatalf("code %s (%v), want %s", code(err), err, c.code)
			}
			if err == nil && got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestCheckTerminals(t *testing.T) {
	cases := []struct {
		in   []string
		code string
		n    int
	}{
		{[]string{"a"}, "0", 1},
		{[]string{"a", "b", "c", "d"}, "0", 4},
		{[]string{"a", "a", " a ", "b"}, "0", 2},
		{nil, "80", 0},
		{[]string{"", " "}, "80", 0},
		{[]string{"a", "b", "c", "d", "e"}, "81", 0},
	}
	for _, c := range cases {
		got, err := checkTerminals(c.in)
		if code(err) != c.code || len(got) != c.n {
			t.Errorf("%q: %v %v, want %s with %d", c.in, got, err, c.code, c.n)
		}
	}
}

// Work states and the edit rule: editable only while waiting with status normal.
func TestWorkStateAndEditable(t *testing.T) {
	base := Plan{STime: 1_000_000, Duration: 10, Enabled: 1}
	end := base.end()
	cases := []struct {
		name     string
		p        func(Plan) Plan
		now      int64
		state    WorkState
		editable bool
	}{
		{"waiting", func(p Plan) Plan { return p }, 0, Waiting, true},
		{"due but not started yet", func(p Plan) Plan { return p }, base.STime + 1, Waiting, true},
		{"in progress", func(p Plan) Plan { p.RealStart = base.STime; return p }, base.STime + 1, Working, false},
		{"over", func(p Plan) Plan { p.RealStart, p.RealStop, p.Status = base.STime, end, StatusOver; return p }, end, Done, false},
		{"waiting in alarm", func(p Plan) Plan { p.Status = StatusAlarm; return p }, 0, Waiting, false},
		{"disabled, window passed", func(p Plan) Plan { p.Enabled = 0; return p }, end, Done, false},
		{"disabled, window ahead", func(p Plan) Plan { p.Enabled = 0; return p }, 0, Waiting, true},
	}
	for _, c := range cases {
		p := c.p(base)
		if got := p.workState(c.now); got != c.state {
			t.Errorf("%s: work state %d, want %d", c.name, got, c.state)
		}
		if got := p.Editable(c.now); got != c.editable {
			t.Errorf("%s: editable %v, want %v", c.name, got, c.editable)
		}
	}
}
