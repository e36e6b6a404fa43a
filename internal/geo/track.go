package geo

import (
	"math"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/platform/httpx"
)

// Summary is a track's summary (spec §3 "Track summary"): point count, distance, start and end time, max, min
// and average speed. Speeds are in SpeedUnit and the distance in DistanceUnit (spec §9); DistanceM is the
// distance in metres whatever the unit.
type Summary struct {
	Count        int     `json:"count"`
	Distance     float64 `json:"distance"`
	DistanceUnit string  `json:"distanceUnit"`
	DistanceM    float64 `json:"distanceM"`
	StartTime    int64   `json:"startTime"`
	EndTime      int64   `json:"endTime"`
	MaxSpeed     float64 `json:"maxSpeed"`
	MinSpeed     float64 `json:"minSpeed"`
	AvgSpeed     float64 `json:"avgSpeed"`
	SpeedUnit    Unit    `json:"speedUnit"`
}

// summarizer accumulates a summary point by point, in time order.
type summarizer struct {
	n             int
	dist          float64
	first, last   Point
	max, min, sum float64
}

// add takes the next point and returns the length of the segment from the previous one in metres.
func (s *summarizer) add(p Point) float64 {
	var seg float64
	if s.n == 0 {
		s.first, s.min, s.max = p, p.Speed, p.Speed
	} else {
		seg = Haversine(s.last.pos(), p.pos())
		s.dist += seg
		s.min, s.max = math.Min(s.min, p.Speed), math.Max(s.max, p.Speed)
	}
	s.sum += p.Speed
	s.last = p
	s.n++
	return seg
}

// result presents the summary in unit. The average speed is the mean of the reported speeds (like max and
// min, it describes what the terminal reported, including time standing still).
func (s *summarizer) result(u Unit) Summary {
	out := Summary{Count: s.n, DistanceUnit: u.DistanceUnit(), SpeedUnit: u}
	if s.n == 0 {
		return out
	}
	out.DistanceM = round(s.dist, 1)
	out.Distance = round(u.Distance(s.dist), 3)
	out.StartTime, out.EndTime = s.first.Time, s.last.Time
	out.MaxSpeed = round(u.Speed(s.max), 2)
	out.MinSpeed = round(u.Speed(s.min), 2)
	out.AvgSpeed = round(u.Speed(s.sum/float64(s.n)), 2)
	return out
}

// Summarize is the summary of points in time order.
func Summarize(points []Point, u Unit) Summary {
	var s summarizer
	for _, p := range points {
		s.add(p)
	}
	return s.result(u)
}

func round(v float64, digits int) float64 {
	f := math.Pow(10, float64(digits))
	return math.Round(v*f) / f
}

// Stop is a place where the terminal stayed: consecutive points all within StopRadiusM of the first one,
// spanning at least the minimum duration. Lat/Lng is the mean of those points; Start and End are the times of
// the first and the last of them; Duration is in seconds.
type Stop struct {
	Lat      float64 `json:"lat"`
	Lng      float64 `json:"lng"`
	Start    int64   `json:"start"`
	End      int64   `json:"end"`
	Duration int64   `json:"duration"`
	Points   int     `json:"points"`
}

// stopDetector finds stops point by point, in time order.
type stopDetector struct {
	minDur       int64 // ms
	radius       float64
	anchor, last Point
	n            int
	sumLat       float64
	sumLng       float64
	out          []Stop
}

func newStopDetector(minDur time.Duration) *stopDetector {
	return &stopDetector{minDur: minDur.Milliseconds(), radius: StopRadiusM, out: []Stop{}}
}

func (d *stopDetector) add(p Point) {
	if d.n > 0 && Haversine(d.anchor.pos(), p.pos()) <= d.radius {
		d.last = p
		d.n++
		d.sumLat += p.Lat
		d.sumLng += p.Lng
		return
	}
	d.close()
	d.anchor, d.last, d.n, d.sumLat, d.sumLng = p, p, 1, p.Lat, p.Lng
}

func (d *stopDetector) close() {
	if d.n < 2 || d.last.Time-d.anchor.Time < d.minDur {
		return
	}
	d.out = append(d.out, Stop{
		Lat: round(d.sumLat/float64(d.n), 7), Lng: round(d.sumLng/float64(d.n), 7),
		Start: d.anchor.Time, End: d.last.Time, Duration: (d.last.Time - d.anchor.Time) / 1000, Points: d.n,
	})
}

// result ends the last run and returns the stops.
func (d *stopDetector) result() []Stop {
	d.close()
	d.n = 0
	return d.out
}

// DetectStops returns the stops of points in time order.
func DetectStops(points []Point, minDur time.Duration) []Stop {
	d := newStopDetector(minDur)
	for _, p := range points {
		d.add(p)
	}
	return d.result()
}

// Time parameters are UTC: milliseconds since the epoch, or "2006-01-02 15:04:05" / "2006-01-02T15:04:05" /
// RFC 3339 text (text without a zone is UTC).
var timeLayouts = []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", time.RFC3339, time.RFC3339Nano, "2006-01-02 15:04", "2006-01-02"}

// ParseTime reads a time parameter into UTC milliseconds; ok is false for a blank value.
func ParseTime(name, v string) (ms int64, ok bool, err error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false, httpx.BadParam(name, "negative time")
		}
		return n, true, nil
	}
	for _, l := range timeLayouts {
		if t, err := time.ParseInLocation(l, v, time.UTC); err == nil {
			return t.UnixMilli(), true, nil
		}
	}
	return 0, false, httpx.BadParam(name, "a time: UTC milliseconds or yyyy-MM-dd HH:mm:ss")
}
