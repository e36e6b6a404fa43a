package timerange

import (
	"testing"
	"time"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/tenant"
)

// FuzzParse holds the time-range rules on any sTime/eTime pair and customer zone: nothing panics, a refusal
// is coded (400, 93-95), and an accepted range is ordered, within its length and within one calendar month.
func FuzzParse(f *testing.F) {
	for _, s := range []struct{ s, e, tz string }{
		{"1709596800000", "1709683199000", "3"}, {"1709683199000", "1709596800000", "0"}, {"-1", "5", "-3.5"},
		{"9223372036854775807", "9223372036854775807", "14"}, {"x", "1", "NaN"}, {"0", "2678400000", "8"},
		{" 1 ", "", "1e9"},
	} {
		f.Add(s.s, s.e, s.tz)
	}
	f.Fuzz(func(t *testing.T, s, e, tz string) {
		loc := tenant.ZoneOf(tz)
		r, err := Parse("sTime", s, "eTime", e, loc, 7*24*time.Hour)
		if err != nil {
			switch httpx.Code(err) {
			case "400", "93", "94", "95":
			default:
				t.Fatalf("Parse(%q, %q, %q): %v", s, e, tz, err)
			}
			return
		}
		if r.From > r.To || r.To-r.From > (7*24*time.Hour).Milliseconds() {
			t.Fatalf("Parse(%q, %q, %q) = %+v", s, e, tz, r)
		}
		_ = Day(r.From, loc)
	})
}
