package sim

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// LatLng is a WGS-84 position in degrees.
type LatLng struct{ Lat, Lng float64 }

// district is a patch of a city where routes stay: inland centres chosen so that routes do not run through
// the sea (the simulator has no road data; a street-like grid inside each patch stands in for roads).
type district struct {
	name   string
	at     LatLng
	radius float64 // metres
}

// City is where a fleet moves.
type City struct {
	Name      string
	Center    LatLng
	districts []district
}

// Cities are the demo cities: Istanbul for "Demo Fleet", Izmir for "Second Tenant".
var (
	Istanbul = City{Name: "istanbul", Center: LatLng{41.01, 28.97}, districts: []district{
		{"fatih", LatLng{41.0150, 28.9480}, 1400},
		{"zeytinburnu", LatLng{41.0040, 28.9050}, 1200},
		{"bayrampasa", LatLng{41.0420, 28.9100}, 1500},
		{"eyup", LatLng{41.0480, 28.9350}, 900},
		{"beyoglu", LatLng{41.0360, 28.9770}, 800},
		{"sisli", LatLng{41.0600, 28.9870}, 1300},
		{"besiktas", LatLng{41.0500, 29.0010}, 700},
		{"uskudar", LatLng{41.0250, 29.0380}, 1000},
		{"kadikoy", LatLng{40.9930, 29.0400}, 900},
	}}
	Izmir = City{Name: "izmir", Center: LatLng{38.42, 27.14}, districts: []district{
		{"konak", LatLng{38.4120, 27.1420}, 900},
		{"harbor", LatLng{38.4450, 27.1520}, 600},
		{"bornova", LatLng{38.4650, 27.2150}, 1500},
		{"buca", LatLng{38.3850, 27.1750}, 1500},
		{"karsiyaka", LatLng{38.4650, 27.1150}, 900},
		{"airport", LatLng{38.2920, 27.1570}, 900},
	}}
)

// CityByName returns a known city ("" = Istanbul).
func CityByName(name string) (City, bool) {
	switch strings.ToLower(name) {
	case "", "istanbul":
		return Istanbul, true
	case "izmir":
		return Izmir, true
	}
	return City{}, false
}

// AroundCity is a city without districts: routes anywhere within radius metres of center.
func AroundCity(center LatLng, radius float64) City {
	return City{Name: "custom", Center: center, districts: []district{{"center", center, radius}}}
}

// district picks the patch a terminal lives in: one whose name the hint contains (a group called "Harbor"
// works at the harbor), else a random one.
func (c City) district(hint string, rng *rand.Rand) district {
	hint = strings.ToLower(hint)
	for _, d := range c.districts {
		if hint != "" && strings.Contains(hint, d.name) {
			return d
		}
	}
	return c.districts[rng.IntN(len(c.districts))]
}

const earthRadius = 6371000.0 // metres (spec §9)

// offset moves p by north and east metres.
func offset(p LatLng, north, east float64) LatLng {
	dLat := north / earthRadius * 180 / math.Pi
	dLng := east / (earthRadius * math.Cos(p.Lat*math.Pi/180)) * 180 / math.Pi
	return LatLng{p.Lat + dLat, p.Lng + dLng}
}

// metres returns the north and east distance from a to b (small distances).
func metres(a, b LatLng) (north, east float64) {
	north = (b.Lat - a.Lat) * math.Pi / 180 * earthRadius
	east = (b.Lng - a.Lng) * math.Pi / 180 * earthRadius * math.Cos(a.Lat*math.Pi/180)
	return
}

// leg is one straight stretch of a route, then a stop.
type leg struct {
	from, to LatLng
	speed    float64       // m/s
	move     time.Duration // time to drive or walk it
	dwell    time.Duration // stop at its end
	bearing  float64       // degrees from north
	start    time.Duration // offset of its start in the loop
}

// Route is a closed loop a terminal follows forever: position at any time is a pure function of the time, so
// the schedule does not depend on when reports happen to run.
type Route struct {
	legs     []leg
	period   time.Duration
	phase    time.Duration // where in the loop the terminal is at the fleet's start
	altitude float64
	fixed    *LatLng // a terminal that never moves
}

// Fix is a position report.
type Fix struct {
	LatLng
	Speed     float64 // m/s
	Direction float64 // degrees
	Altitude  float64 // metres
}

// Mobility says how a terminal moves.
type Mobility int

const (
	Fixed   Mobility = iota // cameras, gateways: mounted
	Still                   // worn or parked; now and then a short walk
	Walking                 // on foot: 1.1-1.6 m/s, short stops
	Driving                 // in a vehicle on a street grid: 6-14 m/s, stops at junctions and jobs
)

func (m Mobility) String() string {
	return [...]string{"fixed", "still", "walking", "driving"}[m]
}

// newRoute plans a loop inside a district.
func newRoute(d district, m Mobility, rng *rand.Rand) *Route {
	// Home: somewhere in the inner part of the district.
	r := d.radius * math.Sqrt(rng.Float64()) * 0.7
	a := rng.Float64() * 2 * math.Pi
	home := offset(d.at, r*math.Cos(a), r*math.Sin(a))
	rt := &Route{altitude: 20 + rng.Float64()*80}
	if m == Fixed {
		rt.fixed = &home
		return rt
	}
	// A street grid rotated per district-and-terminal, blocks of 80-250 m.
	rot := rng.Float64() * math.Pi / 2
	block := 80 + rng.Float64()*170
	var speed func() float64
	var dwell func() time.Duration
	steps := 6 + rng.IntN(7)
	switch m {
	case Driving:
		speed = func() float64 { return 6 + rng.Float64()*8 }
		dwell = func() time.Duration {
			if rng.Float64() < 0.25 {
				return time.Duration(30+rng.IntN(300)) * time.Second // a job, a delivery
			}
			return time.Duration(rng.IntN(25)) * time.Second // traffic lights
		}
	case Walking:
		block /= 2.5
		speed = func() float64 { return 1.1 + rng.Float64()*0.5 }
		dwell = func() time.Duration { return time.Duration(rng.IntN(90)) * time.Second }
	default: // Still: long stays, a few short walks
		block /= 5
		steps = 3 + rng.IntN(3)
		speed = func() float64 { return 0.6 + rng.Float64()*0.6 }
		dwell = func() time.Duration { return time.Duration(600+rng.IntN(3000)) * time.Second }
	}
	// Walk the grid: n, e in block units; alternate axes like streets, stay within the district.
	inside := func(nn, ee float64) bool {
		dn, de := metres(d.at, gridPoint(home, nn, ee, block, rot))
		return math.Hypot(dn, de) <= d.radius
	}
	pts := []LatLng{home}
	n, e := 0.0, 0.0
	axis := rng.IntN(2)
	for range steps {
		k := float64(1 + rng.IntN(4))
		if rng.IntN(2) == 0 {
			k = -k
		}
		// Along the current axis, k blocks one way or, if that leaves the district, the other; else stay.
		for _, dir := range []float64{k, -k} {
			nn, ee := n, e
			if axis == 0 {
				nn += dir
			} else {
				ee += dir
			}
			if inside(nn, ee) {
				n, e = nn, ee
				pts = append(pts, gridPoint(home, n, e, block, rot))
				break
			}
		}
		axis = 1 - axis
	}
	// Back home along the grid (two legs) where the corner is in the district, else straight.
	if n != 0 && e != 0 {
		if inside(0, e) {
			pts = append(pts, gridPoint(home, 0, e, block, rot))
		} else if inside(n, 0) {
			pts = append(pts, gridPoint(home, n, 0, block, rot))
		}
	}
	pts = append(pts, home)
	var at time.Duration
	for i := 1; i < len(pts); i++ {
		from, to := pts[i-1], pts[i]
		dn, de := metres(from, to)
		dist := math.Hypot(dn, de)
		if dist < 1 {
			continue
		}
		sp := speed()
		l := leg{from: from, to: to, speed: sp, move: time.Duration(dist / sp * float64(time.Second)), dwell: dwell(),
			bearing: math.Mod(math.Atan2(de, dn)*180/math.Pi+360, 360), start: at}
		rt.legs = append(rt.legs, l)
		at += l.move + l.dwell
	}
	if len(rt.legs) == 0 {
		rt.fixed = &home
		return rt
	}
	rt.period = at
	rt.phase = time.Duration(rng.Int64N(int64(at)))
	return rt
}

func gridPoint(home LatLng, n, e, block, rot float64) LatLng {
	north := (n*math.Cos(rot) - e*math.Sin(rot)) * block
	east := (n*math.Sin(rot) + e*math.Cos(rot)) * block
	return offset(home, north, east)
}

// At is the position elapsed after the fleet's start.
func (r *Route) At(elapsed time.Duration) Fix {
	if r.fixed != nil {
		return Fix{LatLng: *r.fixed, Altitude: r.altitude}
	}
	t := (elapsed + r.phase) % r.period
	if t < 0 {
		t += r.period
	}
	i := sort.Search(len(r.legs), func(i int) bool { return r.legs[i].start > t }) - 1
	l := r.legs[max(i, 0)]
	in := t - l.start
	if in >= l.move {
		return Fix{LatLng: l.to, Direction: l.bearing, Altitude: r.altitude}
	}
	f := float64(in) / float64(l.move)
	p := LatLng{l.from.Lat + (l.to.Lat-l.from.Lat)*f, l.from.Lng + (l.to.Lng-l.from.Lng)*f}
	return Fix{LatLng: p, Speed: l.speed, Direction: l.bearing, Altitude: r.altitude}
}

// Period is the loop's length (0 for a fixed terminal).
func (r *Route) Period() time.Duration { return r.period }

// jitter adds GPS noise of about sigma metres.
func jitter(f Fix, sigma float64, rng *rand.Rand) Fix {
	if sigma <= 0 {
		return f
	}
	f.LatLng = offset(f.LatLng, rng.NormFloat64()*sigma, rng.NormFloat64()*sigma)
	return f
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
func round1(v float64) float64 { return math.Round(v*10) / 10 }
