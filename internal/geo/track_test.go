package geo

import (
	"testing"
	"time"
)

// trackFixture: ten fixes one minute apart going due north along lng 29 in steps of 0.001° of latitude
// (111.19493 m each on the 6371 km sphere), with speeds 0, 1, …, 9 m/s.
func trackFixture() []Point {
	var pts []Point
	t0 := time.Date(2024, 3, 5, 8, 0, 0, 0, time.UTC).UnixMilli()
	for i := range 10 {
		pts = append(pts, Point{Lat: 41 + float64(i)*0.001, Lng: 29, Speed: float64(i), Direction: 0, Time: t0 + int64(i)*60000})
	}
	return pts
}

func TestTrackSummaryFixture(t *testing.T) {
	pts := trackFixture()
	t0 := pts[0].Time
	for _, c := range []struct {
		unit Unit
		want Summary
	}{
		// 9 segments × 111.19493 m = 1000.754 m; speeds: max 9, min 0, mean 4.5 m/s.
		{MPH, Summary{Count: 10, Distance: 1.001, DistanceUnit: "km", DistanceM: 1000.8, StartTime: t0, EndTime: t0 + 540000,
			MaxSpeed: 20.13, MinSpeed: 0, AvgSpeed: 10.07, SpeedUnit: MPH}},
		{KMH, Summary{Count: 10, Distance: 1.001, DistanceUnit: "km", DistanceM: 1000.8, StartTime: t0, EndTime: t0 + 540000,
			MaxSpeed: 32.4, MinSpeed: 0, AvgSpeed: 16.2, SpeedUnit: KMH}},
		{MPS, Summary{Count: 10, Distance: 1000.754, DistanceUnit: "m", DistanceM: 1000.8, StartTime: t0, EndTime: t0 + 540000,
			MaxSpeed: 9, MinSpeed: 0, AvgSpeed: 4.5, SpeedUnit: MPS}},
	} {
		if got := Summarize(pts, c.unit); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.unit, got, c.want)
		}
	}
	if got := Summarize(nil, MPH); got.Count != 0 || got.Distance != 0 || got.DistanceUnit != "km" {
		t.Errorf("empty track: %+v", got)
	}
}

func TestDetectStops(t *testing.T) {
	t0 := int64(1_700_000_000_000)
	at := func(min float64) int64 { return t0 + int64(min*60000) }
	pts := []Point{
		{Lat: 41, Lng: 29, Time: at(0)},
		{Lat: 41.01, Lng: 29, Time: at(1)}, // moving
		// parked 5 minutes, jittering within 20 m
		{Lat: 41.02, Lng: 29, Time: at(2)},
		{Lat: 41.02015, Lng: 29, Time: at(3)},
		{Lat: 41.02, Lng: 29.0002, Time: at(5)},
		{Lat: 41.0201, Lng: 29.0001, Time: at(7)},
		{Lat: 41.03, Lng: 29, Time: at(8)}, // away
		// a 2-minute pause: shorter than 3 minutes, no stop
		{Lat: 41.04, Lng: 29, Time: at(9)},
		{Lat: 41.04, Lng: 29, Time: at(11)},
		{Lat: 41.05, Lng: 29, Time: at(12)},
		// parked at the end of the track for 4 minutes
		{Lat: 41.06, Lng: 29, Time: at(13)},
		{Lat: 41.06, Lng: 29, Time: at(17)},
	}
	stops := DetectStops(pts, 3*time.Minute)
	if len(stops) != 2 {
		t.Fatalf("stops = %+v", stops)
	}
	if s := stops[0]; s.Start != at(2) || s.End != at(7) || s.Duration != 300 || s.Points != 4 || s.Lat < 41.02 || s.Lat > 41.0202 {
		t.Errorf("first stop %+v", s)
	}
	if s := stops[1]; s.Start != at(13) || s.End != at(17) || s.Duration != 240 {
		t.Errorf("last stop %+v", s)
	}
	if len(DetectStops(trackFixture(), 3*time.Minute)) != 0 {
		t.Error("a moving track has no stop")
	}
}

func TestParseTime(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1709625600000", 1709625600000, true},
		{"2024-03-05 08:00:00", 1709625600000, true},
		{"2024-03-05T08:00:00Z", 1709625600000, true},
		{"2024-03-05T11:00:00+03:00", 1709625600000, true},
		{"", 0, false},
	} {
		got, ok, err := ParseTime("t", c.in)
		if err != nil || ok != c.ok || got != c.want {
			t.Errorf("ParseTime(%q) = %v %v %v", c.in, got, ok, err)
		}
	}
	if _, _, err := ParseTime("t", "yesterday"); err == nil {
		t.Error("text accepted")
	}
	if _, _, err := ParseTime("t", "-5"); err == nil {
		t.Error("negative accepted")
	}
}
