package directory

import (
	"math"

	"tenfour/internal/platform/httpx"
)

// NormalizeCoord turns a coordinate sent in micro-degrees into degrees: spec §5 "coordinates with absolute
// value 200 or more are divided by 1,000,000". Values below 200 are already degrees and pass unchanged.
func NormalizeCoord(v float64) float64 {
	if math.Abs(v) >= 200 {
		return v / 1e6
	}
	return v
}

// NormalizeLatLng normalizes both coordinates and checks they are on the globe (after normalization);
// GPS reports and every other domain that takes positions use it.
func NormalizeLatLng(lat, lng float64) (float64, float64, error) {
	if math.IsNaN(lat) || math.IsInf(lat, 0) || math.IsNaN(lng) || math.IsInf(lng, 0) {
		return 0, 0, httpx.BadParam("lat/lng", "not a number")
	}
	lat, lng = NormalizeCoord(lat), NormalizeCoord(lng)
	if lat < -90 || lat > 90 {
		return 0, 0, httpx.BadParam("lat", "out of range")
	}
	if lng < -180 || lng > 180 {
		return 0, 0, httpx.BadParam("lng", "out of range")
	}
	return lat, lng, nil
}
