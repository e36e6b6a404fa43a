package broadcast

import (
	"testing"
	"time"
)

func TestTimeline(t *testing.T) {
	tl := Timeline{Lengths: []int64{1000, 2000}, Interval: 500, Type: DurationRounds, Rounds: 2}
	if got := tl.Total(); got != 2*3000+500 {
		t.Fatalf("total %d", got)
	}
	for _, c := range []struct {
		at   int64
		want Point
	}{
		{0, Point{Index: 0, Position: 0}},
		{999, Point{Index: 0, Position: 999}},
		{1000, Point{Index: 1, Position: 0}},
		{2999, Point{Index: 1, Position: 1999}},
		{3000, Point{Index: 1, Position: 2000, Gap: true}},
		{3499, Point{Index: 1, Position: 2000, Gap: true}},
		{3500, Point{Index: 0, Position: 0}},
		{5000, Point{Index: 1, Position: 500}},
		{6499, Point{Index: 1, Position: 1999}},
		{6500, Point{Done: true}},
		{-1, Point{}},
	} {
		if got := tl.At(c.at); got != c.want {
			t.Errorf("At(%d) = %+v, want %+v", c.at, got, c.want)
		}
	}
	if p := (Timeline{Lengths: []int64{1000}, Type: DurationFor, Duration: 2500}).At(2400); p.Position != 400 || p.Done {
		t.Fatalf("duration type 2 at 2.4 s: %+v", p)
	}
	if p := (Timeline{Lengths: []int64{1000}, Type: DurationFor, Duration: 2500}).At(2500); !p.Done {
		t.Fatal("duration type 2 not done at its duration")
	}
	if p := (Timeline{Lengths: []int64{1000}, Type: DurationUntil}).At(1e9 + 250); p.Done || p.Position != 250 {
		t.Fatalf("until stopped: %+v", p)
	}
	if p := (Timeline{Type: DurationUntil}).At(0); !p.Done {
		t.Fatal("a run without files must end")
	}
}

func TestOccurrences(t *testing.T) {
	loc := time.FixedZone("+3", 3*3600)
	mon := time.Date(2026, 11, 23, 0, 0, 0, 0, loc) // a Monday
	ms := func(d time.Time) int64 { return d.UnixMilli() }
	// every day at 08:00 across three days
	got := Occurrences("08:00:00", nil, loc, ms(mon), ms(mon.AddDate(0, 0, 3)))
	if len(got) != 3 || got[0] != ms(mon.Add(8*time.Hour)) || got[2] != ms(mon.AddDate(0, 0, 2).Add(8*time.Hour)) {
		t.Fatalf("daily: %v", got)
	}
	// Monday and Wednesday over a week, the bounds exclusive then inclusive
	got = Occurrences("08:00:00", []int{1, 3}, loc, ms(mon.Add(8*time.Hour)), ms(mon.AddDate(0, 0, 7).Add(8*time.Hour)))
	if len(got) != 2 || got[0] != ms(mon.AddDate(0, 0, 2).Add(8*time.Hour)) || got[1] != ms(mon.AddDate(0, 0, 7).Add(8*time.Hour)) {
		t.Fatalf("Mon+Wed: %v", got)
	}
	// Sunday is 7
	if got = Occurrences("23:59:59", []int{7}, loc, ms(mon), ms(mon.AddDate(0, 0, 7))); len(got) != 1 || time.UnixMilli(got[0]).In(loc).Weekday() != time.Sunday {
		t.Fatalf("Sunday: %v", got)
	}
	if got = Occurrences("bad", nil, loc, 0, ms(mon)); got != nil {
		t.Fatalf("a bad time: %v", got)
	}
}
