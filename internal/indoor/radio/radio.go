// Package radio is the BLE signal model of indoor positioning, shared by the server's estimator (internal/indoor),
// the simulator (internal/sim) and their tests, so all three speak of the same physics: the log-distance path
// loss model (RSSI = A − 10·n·log10(d), A the RSSI at 1 m, n the environment decay), a scanner's noise (Gaussian
// dB noise, dropped readings, multipath outliers, a sensitivity floor, the attenuation of a slab between storeys),
// and the demo building (two storeys, 24 beacons each) with a walk through it. It has no server code.
package radio

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Spec §5 ranges of a beacon's parameters.
const (
	MinRSSI1m, MaxRSSI1m = -100, -50 // RSSI at 1 m, dBm
	MinDecay, MaxDecay   = 1.1, 10.0 // environment decay (path-loss exponent)
)

// RSSI is the mean received power (dBm) at d metres from a beacon whose RSSI at 1 m is a, with decay n. Below
// 10 cm the model is held at 10 cm.
func RSSI(a, n, d float64) float64 {
	return a - 10*n*math.Log10(math.Max(d, 0.1))
}

// Distance inverts RSSI: the distance (metres) at which a beacon (a, n) is received at rssi.
func Distance(a, n, rssi float64) float64 {
	return math.Pow(10, (a-rssi)/(10*n))
}

// Beacon is a beacon of a building model, in metres on its storey (x right, y down from the plan's top-left).
type Beacon struct {
	MAC    string
	Name   string
	Storey int // index into Building.Storeys
	X, Y   float64
	RSSI1m int
	Decay  float64
}

// Storey is one floor of a building model.
type Storey struct {
	Name          string
	Level         int
	Width, Height float64 // metres
}

// Building is a building model: its storeys and beacons.
type Building struct {
	Name    string
	Storeys []Storey
	Beacons []Beacon
	// StoreyHeight is the height between two storeys (metres) and SlabLoss the attenuation (dB) of each slab a
	// signal crosses.
	StoreyHeight, SlabLoss float64
}

// Point is a place in a building model: a storey and metres on it.
type Point struct {
	Storey int
	X, Y   float64
}

// Reading is one beacon heard in a scan: what a terminal reports.
type Reading struct {
	MAC  string `json:"mac"`
	RSSI int    `json:"rssi"`
}

// Channel is a scanner's view of the radio: the noise on each report's RSSI (a report is the mean of about a
// second of advertisements), the share of beacons missing from a report, the share of readings thrown off by
// multipath, and the weakest signal heard.
type Channel struct {
	Sigma       float64 // dB, Gaussian noise of a reported RSSI
	Dropout     float64 // 0..1, a beacon in range missing from a report
	Outlier     float64 // 0..1, a reading off by ±OutlierDB
	OutlierDB   float64
	Sensitivity float64 // dBm; weaker readings are not reported
}

// DemoChannel is the noise the simulator reports with and the estimator test runs against: a report is the mean
// of about ten advertisements a second, so 2 dB of Gaussian noise on it; 15 % of beacons missing from a report,
// 2 % of readings 10 dB off (multipath), nothing below −95 dBm.
var DemoChannel = Channel{Sigma: 2, Dropout: 0.15, Outlier: 0.02, OutlierDB: 10, Sensitivity: -95}

// Mean is the noiseless RSSI of beacon b at p: the path loss over the 3-D distance plus the slabs between them.
func (bd Building) Mean(b Beacon, p Point) float64 {
	dz := float64(b.Storey-p.Storey) * bd.StoreyHeight
	d := math.Sqrt((b.X-p.X)*(b.X-p.X) + (b.Y-p.Y)*(b.Y-p.Y) + dz*dz)
	return RSSI(float64(b.RSSI1m), b.Decay, d) - math.Abs(float64(b.Storey-p.Storey))*bd.SlabLoss
}

// Scan is one report at p: every beacon heard, with the channel's noise, in the building's beacon order.
func (c Channel) Scan(rng *rand.Rand, bd Building, p Point) []Reading {
	var out []Reading
	for _, b := range bd.Beacons {
		v := bd.Mean(b, p) + rng.NormFloat64()*c.Sigma
		if c.Outlier > 0 && rng.Float64() < c.Outlier {
			if rng.IntN(2) == 0 {
				v += c.OutlierDB
			} else {
				v -= c.OutlierDB
			}
		}
		if v < c.Sensitivity || (c.Dropout > 0 && rng.Float64() < c.Dropout) {
			continue
		}
		out = append(out, Reading{MAC: b.MAC, RSSI: int(math.Round(math.Min(v, -1)))})
	}
	return out
}

// Demo building: a two-storey office, 48 m × 24 m, a corridor along its middle, rooms either side, the stairs at
// its east end; 24 beacons on each storey (one per 48 m², docs/adr/0023: the density a 3 m promise needs). Its
// plans are drawn at DemoScale metres per pixel.
const (
	DemoScale        = 0.05 // metres per pixel: 960 × 480 px plans
	DemoWidth        = 48.0
	DemoHeight       = 24.0
	DemoCorridorY    = 12.0
	DemoStairsX      = 45.5
	DemoBuildingName = "Demo Office"
	DemoBeacons      = demoRows * demoPerRow // beacons a storey
	demoStoreyHeight = 3.5
	demoSlabLoss     = 15.0
	demoRows         = 4
	demoPerRow       = 6
)

// DemoMAC is the address of the demo building's beacon i (from 0) on storey s. The fourth byte is the layout:
// 01 for this one (00 was the 13-beacon layout), so a database seeded with the old layout hears none of these
// instead of placing them where the old beacons stood (delete its "Demo Office" and `serve --demo` seeds anew).
func DemoMAC(s, i int) string { return fmt.Sprintf("C0:10:F4:01:%02X:%02X", s+1, i+1) }

// Demo is the demo building (the same every time).
func Demo() Building {
	bd := Building{Name: DemoBuildingName, StoreyHeight: demoStoreyHeight, SlabLoss: demoSlabLoss,
		Storeys: []Storey{{Name: "Ground floor", Level: 0, Width: DemoWidth, Height: DemoHeight},
			{Name: "First floor", Level: 1, Width: DemoWidth, Height: DemoHeight}}}
	// On each storey four rows of six, 6 m apart across the building (two in the rooms either side of the
	// corridor) and 8 m along it, every other row shifted by half a step, so no three neighbours stand in a line
	// and a point and its mirror image about a row read differently: one beacon per 48 m², none more than about
	// 5 m from any point. The calibrations vary as real beacons' do.
	rssi := []int{-59, -61, -58, -63, -60, -59, -62, -60, -57, -61, -60, -58, -62}
	decay := []float64{2.2, 2.0, 2.3, 2.1, 2.2, 2.4, 2.0, 2.2, 2.1, 2.3, 2.0, 2.2, 2.1}
	const step = DemoWidth / demoPerRow
	for s := range bd.Storeys {
		i := 0
		for row := range demoRows {
			y := 3 + 6*float64(row)
			off := step / 2
			if (row+s)%2 == 1 {
				off += step / 2
			}
			for col := range demoPerRow {
				k := (i + 3*s) % len(rssi)
				bd.Beacons = append(bd.Beacons, Beacon{MAC: DemoMAC(s, i), Name: fmt.Sprintf("B%d-%02d", s, i+1),
					Storey: s, X: off + float64(col)*step - 2, Y: y, RSSI1m: rssi[k], Decay: decay[k]})
				i++
			}
		}
	}
	return bd
}

// DemoRoute is a walk through the demo building: along the ground floor's corridor with visits to rooms, up the
// stairs, round the first floor, and back down; it ends where it starts, so a walker can loop it.
func DemoRoute() []Point {
	c := DemoCorridorY
	g := []Point{{0, 3, c}, {0, 10, c}, {0, 10, 5}, {0, 15, 6}, {0, 15, c}, {0, 26, c}, {0, 26, 19}, {0, 31, 19},
		{0, 31, c}, {0, 40, c}, {0, 40, 6}, {0, 43, 6}, {0, 43, c}, {0, DemoStairsX, c}}
	f := []Point{{1, DemoStairsX, c}, {1, 36, c}, {1, 36, 19}, {1, 30, 19}, {1, 30, c}, {1, 20, c}, {1, 20, 5},
		{1, 14, 5}, {1, 14, c}, {1, 5, c}, {1, 5, 18}, {1, 9, 18}, {1, 9, c}, {1, 30, c}, {1, DemoStairsX, c}}
	back := []Point{{0, DemoStairsX, c}, {0, 20, c}, {0, 3, c}}
	out := append(append(g, f...), back...)
	return out
}

// Walk moves along a route at a walking speed, looping; a step between storeys at the same place takes
// StairsTime (the walker is counted on the lower storey for its first half).
type Walk struct {
	Route      []Point
	Speed      float64 // m/s
	StairsTime float64 // s
	legs       []float64
	total      float64
}

// NewWalk prepares a walk.
func NewWalk(route []Point, speed, stairs float64) *Walk {
	w := &Walk{Route: route, Speed: speed, StairsTime: stairs}
	for i := range route {
		a, b := route[i], route[(i+1)%len(route)]
		t := math.Hypot(b.X-a.X, b.Y-a.Y) / speed
		if a.Storey != b.Storey {
			t = max(t, stairs)
		}
		w.legs = append(w.legs, t)
		w.total += t
	}
	return w
}

// Period is how long one loop takes (s).
func (w *Walk) Period() float64 { return w.total }

// At is where the walker is t seconds after starting.
func (w *Walk) At(t float64) Point {
	if w.total <= 0 {
		return w.Route[0]
	}
	t = math.Mod(t, w.total)
	if t < 0 {
		t += w.total
	}
	for i, leg := range w.legs {
		if t > leg {
			t -= leg
			continue
		}
		a, b := w.Route[i], w.Route[(i+1)%len(w.Route)]
		f := 0.0
		if leg > 0 {
			f = t / leg
		}
		p := Point{Storey: a.Storey, X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
		if a.Storey != b.Storey && f >= 0.5 {
			p.Storey = b.Storey
		}
		return p
	}
	return w.Route[0]
}

// Rect is an axis-aligned rectangle in metres on a storey.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Contains tells whether (x, y) is in r (edges included).
func (r Rect) Contains(x, y float64) bool { return x >= r.X0 && x <= r.X1 && y >= r.Y0 && y <= r.Y1 }

// The demo building's walls: DemoWall thick, the corridor's walls centred DemoCorridorHalf either side of
// DemoCorridorY, doors DemoDoor wide.
const (
	DemoWall         = 0.3
	DemoCorridorHalf = 1.5
	DemoDoor         = 1.2
)

// demoRooms lists, per storey, the partitions (x of their centre lines) between the rooms north of the corridor
// and south of it, and the doors (x of their centres) from the corridor into them: the rooms a walk visits have a
// door where it goes in and one where it comes out; every other room has one in its middle.
var demoRooms = [2]struct{ north, south, northDoors, southDoors []float64 }{
	{north: []float64{9, 19, 28.5, 38}, south: []float64{9.5, 19, 35},
		northDoors: []float64{4.5, 10, 15, 24, 33, 40, 43}, southDoors: []float64{4.5, 14, 26, 31, 41.5}},
	{north: []float64{9.5, 24, 33, 40}, south: []float64{10.5, 19, 28.5, 38},
		northDoors: []float64{4.5, 14, 20, 28.5, 36.5, 44}, southDoors: []float64{5, 9, 14.5, 24, 30, 36, 43}},
}

// DemoAreas are the walkable areas of storey s of the demo building: the corridor, each room inside its walls,
// and each door (a rectangle across the corridor wall, overlapping the corridor and the room). Walls are the
// gaps between them; the demo plan (indoor.DemoPlan) is drawn from these, and the demo walk stays in them,
// passing walls only through doors.
func DemoAreas(s int) []Rect {
	const w2 = DemoWall / 2
	c0, c1 := DemoCorridorY-DemoCorridorHalf, DemoCorridorY+DemoCorridorHalf
	out := []Rect{{DemoWall, c0 + w2, DemoWidth - DemoWall, c1 - w2}}
	rooms := func(parts []float64, y0, y1 float64) {
		x0 := DemoWall
		for _, p := range append(append([]float64{}, parts...), DemoWidth-DemoWall+w2) {
			out = append(out, Rect{x0, y0, p - w2, y1})
			x0 = p + w2
		}
	}
	r := demoRooms[s]
	rooms(r.north, DemoWall, c0-w2)
	rooms(r.south, c1+w2, DemoHeight-DemoWall)
	for _, x := range r.northDoors {
		out = append(out, Rect{x - DemoDoor/2, c0 - 2*w2, x + DemoDoor/2, c0 + 2*w2})
	}
	for _, x := range r.southDoors {
		out = append(out, Rect{x - DemoDoor/2, c1 - 2*w2, x + DemoDoor/2, c1 + 2*w2})
	}
	return out
}

// InAreas tells whether (x, y) is in one of the areas.
func InAreas(areas []Rect, x, y float64) bool {
	for _, r := range areas {
		if r.Contains(x, y) {
			return true
		}
	}
	return false
}
