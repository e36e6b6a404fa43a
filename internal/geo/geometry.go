package geo

import (
	"math"
)

// EarthRadiusM is the mean Earth radius of spec §9 (6371 km), used by every distance.
const EarthRadiusM = 6371000.0

// NormalizeCoord turns a coordinate sent in micro-degrees into degrees: spec §5/§9 "coordinates with absolute
// value 200 or more are divided by 1,000,000". Smaller values are already degrees.
func NormalizeCoord(v float64) float64 {
	if math.Abs(v) >= 200 {
		return v / 1e6
	}
	return v
}

// LatLng is a position in WGS-84 degrees.
type LatLng struct {
	Lat, Lng float64
}

// normalizeLatLng normalizes both coordinates and checks they lie on the globe.
func normalizeLatLng(lat, lng float64) (LatLng, bool) {
	if !finite(lat) || !finite(lng) {
		return LatLng{}, false
	}
	lat, lng = NormalizeCoord(lat), NormalizeCoord(lng)
	if lat < -90 || lat > 90 || lng < -180 || lng > 180 {
		return LatLng{}, false
	}
	return LatLng{lat, lng}, true
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Haversine is the great-circle distance in metres between two positions (spec §9: R = 6371 km).
func Haversine(a, b LatLng) float64 {
	const rad = math.Pi / 180
	dLat := (b.Lat - a.Lat) * rad
	dLng := (b.Lng - a.Lng) * rad
	s := math.Sin(dLat/2)*math.Sin(dLat/2) +
		math.Cos(a.Lat*rad)*math.Cos(b.Lat*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * EarthRadiusM * math.Asin(math.Min(1, math.Sqrt(s)))
}

// Region is an area a position can be inside of: a geofence's compiled shape.
type Region interface {
	Contains(p LatLng) bool
}

// Polygon is a simple polygon (one outer ring, concave allowed, no holes) in degrees, planar in lng/lat as the
// map draws it. Fences are small against the Earth, so the planar test is what a dispatcher sees on the map.
// Rings that cross the antimeridian are not supported (documented in docs/geo.md).
type Polygon struct {
	ring                           []LatLng // open ring: the last vertex is not a repeat of the first
	minLat, maxLat, minLng, maxLng float64
}

// NewPolygon builds a polygon from at least three vertices; a closing vertex equal to the first is dropped.
func NewPolygon(ring []LatLng) *Polygon {
	if n := len(ring); n > 1 && ring[0] == ring[n-1] {
		ring = ring[:n-1]
	}
	p := &Polygon{ring: ring, minLat: 90, maxLat: -90, minLng: 180, maxLng: -180}
	for _, v := range ring {
		p.minLat, p.maxLat = math.Min(p.minLat, v.Lat), math.Max(p.maxLat, v.Lat)
		p.minLng, p.maxLng = math.Min(p.minLng, v.Lng), math.Max(p.maxLng, v.Lng)
	}
	return p
}

// Contains is the even-odd ray-casting test (a horizontal ray towards +lng), after a bounding-box check.
// Points exactly on an edge may fall either way; fences do not depend on it.
func (p *Polygon) Contains(q LatLng) bool {
	if q.Lat < p.minLat || q.Lat > p.maxLat || q.Lng < p.minLng || q.Lng > p.maxLng {
		return false
	}
	in := false
	n := len(p.ring)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		a, b := p.ring[i], p.ring[j]
		// The edge a–b straddles the ray's latitude (half-open, so a vertex on the ray counts once)…
		if (a.Lat > q.Lat) != (b.Lat > q.Lat) {
			// …and crosses it east of q.
			x := a.Lng + (q.Lat-a.Lat)*(b.Lng-a.Lng)/(b.Lat-a.Lat)
			if q.Lng < x {
				in = !in
			}
		}
	}
	return in
}

// Circle is a centre and a radius in metres; containment is by great-circle distance.
type Circle struct {
	Center LatLng
	Radius float64
}

// Contains tells whether q is within Radius metres of the centre.
func (c Circle) Contains(q LatLng) bool { return Haversine(c.Center, q) <= c.Radius }

// Rect is an axis-aligned box in degrees (as drawn on a web map).
type Rect struct {
	MinLat, MinLng, MaxLat, MaxLng float64
}

// Contains tells whether q is inside the box, edges included.
func (r Rect) Contains(q LatLng) bool {
	return q.Lat >= r.MinLat && q.Lat <= r.MaxLat && q.Lng >= r.MinLng && q.Lng <= r.MaxLng
}

// Transition is what happened when a terminal crossed a fence boundary.
type Transition int

const (
	NoTransition Transition = iota
	Entered
	Left
)

// Forbidden tells whether a crossing raises an alarm for a fence type: leaving an "in" fence (the terminal must
// stay inside) or entering an "out" fence (it must stay outside).
func Forbidden(fenceType string, t Transition) bool {
	return (fenceType == FenceIn && t == Left) || (fenceType == FenceOut && t == Entered)
}

// Crossing compares two containment results.
func Crossing(wasInside, isInside bool) Transition {
	switch {
	case wasInside == isInside:
		return NoTransition
	case isInside:
		return Entered
	default:
		return Left
	}
}
