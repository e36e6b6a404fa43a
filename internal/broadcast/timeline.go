package broadcast

import (
	"slices"
	"time"
)

// Timeline is a task's run laid out in time: its files in order (their lengths), rounds separated by the
// interval, ended by the duration type. Every device that plays the task plays the same point of it, so a
// speaker that joins late (offline tasks) or a task that resumes after a page starts where the run is.
type Timeline struct {
	Lengths  []int64 // ms, the files in playing order
	Interval int64   // ms of silence between rounds
	Type     int     // DurationRounds, DurationFor, DurationUntil
	Rounds   int     // DurationRounds: how many
	Duration int64   // DurationFor: ms
}

// Point is where a run is at some elapsed time.
type Point struct {
	Index    int   // file index in Lengths
	Position int64 // ms into that file
	Gap      bool  // in the silence between rounds
	Done     bool  // the run is over
}

func (tl Timeline) round() int64 {
	var r int64
	for _, l := range tl.Lengths {
		r += l
	}
	return r
}

// Total is the run's whole length in ms; 0 means it never ends on its own.
func (tl Timeline) Total() int64 {
	round := tl.round()
	switch tl.Type {
	case DurationFor:
		return tl.Duration
	case DurationUntil:
		return 0
	default:
		n := int64(max(tl.Rounds, 1))
		return n*round + (n-1)*tl.Interval
	}
}

// At is the point of the run elapsed ms after its start (paused time excluded).
func (tl Timeline) At(elapsed int64) Point {
	round := tl.round()
	if round <= 0 || elapsed < 0 {
		return Point{Done: round <= 0}
	}
	if total := tl.Total(); total > 0 && elapsed >= total {
		return Point{Done: true}
	}
	r := elapsed % (round + tl.Interval)
	if r >= round {
		return Point{Gap: true, Index: len(tl.Lengths) - 1, Position: tl.Lengths[len(tl.Lengths)-1]}
	}
	for i, l := range tl.Lengths {
		if r < l {
			return Point{Index: i, Position: r}
		}
		r -= l
	}
	return Point{Done: true} // unreachable: r < round
}

// StartOf is the elapsed time at which file index i begins in the first round.
func (tl Timeline) StartOf(i int) int64 {
	var t int64
	for j := 0; j < i && j < len(tl.Lengths); j++ {
		t += tl.Lengths[j]
	}
	return t
}

// Occurrences lists the scheduled starts of a timed task in (after, upTo]: start_time "HH:MM:SS" on the listed
// weekdays (Monday = 1; none = every day) in loc.
func Occurrences(startTime string, weekdays []int, loc *time.Location, after, upTo int64) []int64 {
	hms, err := time.Parse(time.TimeOnly, startTime)
	if err != nil || upTo <= after {
		return nil
	}
	var out []int64
	day := time.UnixMilli(after).In(loc)
	day = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc)
	for i := 0; i < 400; i++ { // at most a year and a bit between two passes
		at := time.Date(day.Year(), day.Month(), day.Day(), hms.Hour(), hms.Minute(), hms.Second(), 0, loc)
		ms := at.UnixMilli()
		if ms > upTo {
			break
		}
		wd := int(at.Weekday())
		if wd == 0 {
			wd = 7
		}
		if ms > after && (len(weekdays) == 0 || slices.Contains(weekdays, wd)) {
			out = append(out, ms)
		}
		day = day.AddDate(0, 0, 1)
	}
	return out
}
