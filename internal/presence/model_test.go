package presence

import (
	"reflect"
	"testing"
	"time"
)

func TestClipMergeTotal(t *testing.T) {
	list := []Interval{
		{On: 0, Off: 50},    // ends before the range
		{On: 80, Off: 120},  // starts before it
		{On: 150, Off: 170}, // inside
		{On: 160, Off: 190}, // overlaps the previous (a crash left one open)
		{On: 250, Off: 0},   // still online: ends at now
	}
	got := Clip(list, 100, 400, 300)
	want := []Span{{100, 120}, {150, 170}, {160, 190}, {250, 300}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("clip %v, want %v", got, want)
	}
	if m := Merge(got); !reflect.DeepEqual(m, []Span{{100, 120}, {150, 190}, {250, 300}}) {
		t.Fatalf("merge %v", m)
	}
	if n := Total(got); n != 20+40+50 {
		t.Fatalf("total %d", n)
	}
	// now after the range: an open interval ends at the range's end.
	if got := Clip([]Interval{{On: 250}}, 100, 400, 900); !reflect.DeepEqual(got, []Span{{250, 400}}) {
		t.Fatalf("open past the end %v", got)
	}
	if got := Clip([]Interval{{On: 10, Off: 100}}, 100, 400, 900); len(got) != 0 {
		t.Fatalf("touching the start only %v", got)
	}
}

func TestPerDaySplitsAtTheCustomersMidnight(t *testing.T) {
	utc8 := time.FixedZone("UTC+8", 8*3600)
	// 2026-11-02 22:00 to 2026-11-04 01:30 in UTC+8.
	from := time.Date(2026, 11, 2, 22, 0, 0, 0, utc8).UnixMilli()
	to := time.Date(2026, 11, 4, 1, 30, 0, 0, utc8).UnixMilli()
	h := int64(time.Hour / time.Millisecond)
	got := PerDay([]Span{{from, to}}, utc8)
	want := []DayMs{{"2026-11-02", 2 * h}, {"2026-11-03", 24 * h}, {"2026-11-04", h + h/2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("per day %v, want %v", got, want)
	}
	// The same span in UTC: 14:00 on the 2nd to 17:30 on the 3rd.
	if got := PerDay([]Span{{from, to}}, time.UTC); !reflect.DeepEqual(got, []DayMs{{"2026-11-02", 10 * h}, {"2026-11-03", 17*h + h/2}}) {
		t.Fatalf("per day in UTC %v", got)
	}
}
