// Package presence owns the online/offline intervals of every account (presence_intervals): one row from a
// login to the logout that follows it, recorded by the hub's login/logout hooks next to the directory's own
// presence flag, and the online reports of spec §7 built on them (findOnlineDurationPost,
// findOnlineDetailData). docs/adr/0022 says why the intervals are a table of their own.
//
// model.go holds the interval arithmetic (clipping to a range, splitting at the customer's midnights), store.go
// the SQL, service.go the hooks and the background loop, http.go the reports.
package presence

import (
	"sort"
	"time"
)

// Interval is one online period of an account in UTC ms. Off is 0 while the account is still online.
type Interval struct {
	On  int64 `json:"online"`
	Off int64 `json:"offline"`
}

// Span is an interval cut to a report's range: [From, To).
type Span struct {
	From, To int64
}

// Ms is the span's length.
func (s Span) Ms() int64 { return s.To - s.From }

// Clip cuts intervals to [from, to]: an open interval ends at now (never after to). Intervals outside the
// range, or empty after clipping, are left out. The result keeps the input order.
func Clip(list []Interval, from, to, now int64) []Span {
	out := make([]Span, 0, len(list))
	for _, iv := range list {
		end := iv.Off
		if end == 0 {
			end = now
		}
		s := Span{From: max(iv.On, from), To: min(end, to)}
		if s.To > s.From {
			out = append(out, s)
		}
	}
	return out
}

// Merge sorts spans and joins overlapping ones, so a total never counts a moment twice (two intervals of one
// account can overlap only after a crash left one open, see Service.Prepare).
func Merge(spans []Span) []Span {
	if len(spans) < 2 {
		return spans
	}
	s := append([]Span(nil), spans...)
	sort.Slice(s, func(i, j int) bool { return s[i].From < s[j].From })
	out := s[:1]
	for _, x := range s[1:] {
		last := &out[len(out)-1]
		if x.From <= last.To {
			last.To = max(last.To, x.To)
			continue
		}
		out = append(out, x)
	}
	return out
}

// Total is the summed length of spans (merged first).
func Total(spans []Span) int64 {
	var n int64
	for _, s := range Merge(spans) {
		n += s.Ms()
	}
	return n
}

// DayMs is the online time of one calendar day.
type DayMs struct {
	Day      string `json:"day"` // YYYY-MM-DD in the customer's zone
	OnlineMs int64  `json:"onlineMs"`
}

// PerDay splits spans at the midnights of loc and sums them per day, in day order. Days without online time
// are left out.
func PerDay(spans []Span, loc *time.Location) []DayMs {
	sum := map[string]int64{}
	for _, s := range Merge(spans) {
		for from := s.From; from < s.To; {
			t := time.UnixMilli(from).In(loc)
			next := time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, loc).UnixMilli()
			to := min(next, s.To)
			sum[t.Format(time.DateOnly)] += to - from
			from = to
		}
	}
	out := make([]DayMs, 0, len(sum))
	for d, ms := range sum {
		out = append(out, DayMs{Day: d, OnlineMs: ms})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Day < out[j].Day })
	return out
}
