package geo

import (
	"encoding/json"
	"math"
	"testing"
)

func TestNormalizeCoord(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{41.0082, 41.0082}, {-199.999, -199.999}, {200, 0.0002}, {-200, -0.0002},
		{41008200, 41.0082}, {-122419400, -122.4194}, {0, 0},
	} {
		if got := NormalizeCoord(c.in); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("NormalizeCoord(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if _, ok := normalizeLatLng(91, 0); ok {
		t.Error("lat 91 accepted")
	}
	if _, ok := normalizeLatLng(0, 181); ok {
		t.Error("lng 181 accepted")
	}
	if p, ok := normalizeLatLng(41008200, 28978400); !ok || math.Abs(p.Lat-41.0082) > 1e-12 || math.Abs(p.Lng-28.9784) > 1e-12 {
		t.Errorf("micro-degrees: %+v %v", p, ok)
	}
	if _, ok := normalizeLatLng(math.NaN(), 0); ok {
		t.Error("NaN accepted")
	}
}

func TestHaversine(t *testing.T) {
	// One degree of latitude on a sphere of 6371 km is 2πR/360 = 111194.93 m.
	if d := Haversine(LatLng{0, 0}, LatLng{1, 0}); math.Abs(d-111194.93) > 0.01 {
		t.Errorf("1° of latitude = %.2f m", d)
	}
	// Istanbul (Sultanahmet) to Ankara (Kızılay): about 350 km on a 6371 km sphere.
	if d := Haversine(LatLng{41.0054, 28.9768}, LatLng{39.9208, 32.8541}); math.Abs(d-350_300) > 1000 {
		t.Errorf("Istanbul–Ankara = %.0f m", d)
	}
	if d := Haversine(LatLng{10, 10}, LatLng{10, 10}); d != 0 {
		t.Errorf("same point = %v", d)
	}
	// Antipodes: half the circumference.
	if d := Haversine(LatLng{0, 0}, LatLng{0, 180}); math.Abs(d-math.Pi*EarthRadiusM) > 0.01 {
		t.Errorf("antipodes = %v", d)
	}
}

// uShape is a concave polygon in {lat, lng}: a bar lat 0..1 × lng 0..3 with two arms lat 1..3 over lng 0..1
// and lng 2..3, leaving a notch lat 1..3 × lng 1..2 that is inside the bounding box but outside the polygon.
var uShape = []LatLng{{0, 0}, {0, 3}, {3, 3}, {3, 2}, {1, 2}, {1, 1}, {3, 1}, {3, 0}}

func TestPolygonConcave(t *testing.T) {
	// Coordinates are {lat, lng}: the U above is drawn with x = lat, y = lng.
	p := NewPolygon(uShape)
	for _, c := range []struct {
		q    LatLng
		want bool
		why  string
	}{
		{LatLng{0.5, 1.5}, true, "bottom bar"},
		{LatLng{2, 0.5}, true, "left arm"},
		{LatLng{2, 2.5}, true, "right arm"},
		{LatLng{2, 1.5}, false, "the notch (inside the bounding box, outside the polygon)"},
		{LatLng{2.9, 1.5}, false, "top of the notch"},
		{LatLng{-0.1, 1}, false, "below"},
		{LatLng{1.5, 3.1}, false, "east of the box"},
		{LatLng{1.5, 1.5}, false, "just inside the notch"},
		{LatLng{0.99, 1.5}, true, "bar, just below the notch"},
		{LatLng{1, 2}, true, "on the vertex row of the notch, inside the arm (half-open rule)"},
	} {
		if got := p.Contains(c.q); got != c.want {
			t.Errorf("%s: Contains(%v) = %v, want %v", c.why, c.q, got, c.want)
		}
	}
	// A closing vertex repeated at the end changes nothing.
	closed := NewPolygon(append(append([]LatLng{}, uShape...), uShape[0]))
	if len(closed.ring) != len(uShape) || !closed.Contains(LatLng{0.5, 1.5}) || closed.Contains(LatLng{2, 1.5}) {
		t.Error("closed ring differs from open ring")
	}
}

func TestCircleAndRect(t *testing.T) {
	c := Circle{Center: LatLng{41, 29}, Radius: 500}
	north := func(m float64) LatLng { return LatLng{41 + m/111194.93, 29} }
	if !c.Contains(north(499)) || c.Contains(north(501)) || !c.Contains(LatLng{41, 29}) {
		t.Error("circle containment by haversine distance")
	}
	// 500 m east at latitude 41 is 500/(111194.93·cos 41°) degrees of longitude: the circle is round on the ground.
	east := func(m float64) LatLng { return LatLng{41, 29 + m/(111194.93*math.Cos(41*math.Pi/180))} }
	if !c.Contains(east(499)) || c.Contains(east(501)) {
		t.Error("circle is not round on the ground")
	}
	r := Rect{MinLat: 40, MinLng: 28, MaxLat: 41, MaxLng: 29}
	for q, want := range map[LatLng]bool{{40.5, 28.5}: true, {40, 28}: true, {41, 29}: true, {41.0001, 28.5}: false, {40.5, 27.9}: false} {
		if r.Contains(q) != want {
			t.Errorf("rect Contains(%v) != %v", q, want)
		}
	}
}

func TestCompileFence(t *testing.T) {
	poly := `{"type":"Polygon","coordinates":[[[28,40],[29,40],[29,41],[28,41],[28,40]]]}`
	for _, c := range []struct {
		shape, geom string
		radius      float64
		ok          bool
	}{
		{ShapePolygon, poly, 0, true},
		{ShapeRectangle, `{"type":"Polygon","coordinates":[[[29,41],[28,40],[28.5,40.2]]]}`, 0, true},
		{ShapeCircle, `{"type":"Point","coordinates":[29,41]}`, 500, true},
		{ShapeCircle, `{"type":"Point","coordinates":[29000000,41000000]}`, 500, true}, // micro-degrees
		{ShapeCircle, `{"type":"Point","coordinates":[29,41]}`, 0, false},
		{ShapeCircle, `{"type":"Point","coordinates":[29,41]}`, MaxFenceRadius + 1, false},
		{ShapeCircle, poly, 500, false},
		{ShapePolygon, `{"type":"Point","coordinates":[29,41]}`, 0, false},
		{ShapePolygon, `{"type":"Polygon","coordinates":[[[28,40],[29,40],[28,40]]]}`, 0, false}, // 2 vertices
		{ShapePolygon, `{"type":"Polygon","coordinates":[[[28,40],[29,40],[30,40]]]}`, 0, false}, // no area
		{ShapePolygon, `{"type":"Polygon","coordinates":[[[28,40],[29,95],[29,41]]]}`, 0, false}, // lat 95
		{ShapePolygon, `[1,2]`, 0, false},
		{ShapePolygon, ``, 0, false},
		{"hexagon", poly, 0, false},
	} {
		out, region, err := compileFence(c.shape, json.RawMessage(c.geom), c.radius)
		if (err == nil) != c.ok {
			t.Errorf("%s %s r=%v: err = %v, want ok=%v", c.shape, c.geom, c.radius, err, c.ok)
			continue
		}
		if err != nil {
			if e, _ := err.(interface{ Error() string }); e == nil || ErrGeometry.Code != "63" {
				t.Errorf("unexpected error %v", err)
			}
			continue
		}
		if region == nil || len(out) == 0 {
			t.Errorf("%s: no region/geometry", c.shape)
		}
	}
	// The rectangle is the bounding box of what was drawn, stored as its five corners.
	out, region, _ := compileFence(ShapeRectangle, json.RawMessage(`{"type":"Polygon","coordinates":[[[29,41],[28,40],[28.5,40.2]]]}`), 0)
	if string(out) != `{"coordinates":[[[28,40],[29,40],[29,41],[28,41],[28,40]]],"type":"Polygon"}` {
		t.Errorf("rectangle stored as %s", out)
	}
	if !region.Contains(LatLng{40.9, 28.9}) {
		t.Error("rectangle region")
	}
}

// walk feeds fixes to evaluate like the ingest does and returns the alarm kinds per fix.
func walk(fences []*Fence, marks map[int64]fenceMark, prev *Point, path []LatLng) [][]string {
	var out [][]string
	for i, q := range path {
		p := Point{Lat: q.Lat, Lng: q.Lng, Time: int64(i + 1)}
		var kinds []string
		for _, c := range evaluate(fences, marks, prev, p) {
			kinds = append(kinds, c.fence.Name+":"+c.kind)
		}
		out = append(out, kinds)
		prev = &p
	}
	return out
}

func fence(id int64, name, typ string, r Region) *Fence {
	return &Fence{ID: id, Name: name, Type: typ, ver: 1, region: r}
}

func TestFenceTransitions(t *testing.T) {
	u := NewPolygon(uShape)
	circle := Circle{Center: LatLng{41, 29}, Radius: 100}
	near := func(m float64) LatLng { return LatLng{41 + m/111194.93, 29} }
	rect := Rect{MinLat: 10, MinLng: 10, MaxLat: 11, MaxLng: 11}
	cases := []struct {
		name   string
		fences []*Fence
		path   []LatLng
		want   []string // alarms per fix, "" = none
	}{
		{"in-fence concave: leaving into the notch alarms once, staying out is silent, leaving again alarms again",
			[]*Fence{fence(1, "U", FenceIn, u)},
			[]LatLng{{0.5, 1.5}, {2, 0.5}, {2, 1.5}, {2.5, 1.5}, {2, 0.5}, {4, 0.5}, {5, 0.5}},
			[]string{"", "", "U:leave", "", "", "U:leave", ""}},
		{"out-fence concave: the notch is allowed, entering the arm alarms",
			[]*Fence{fence(2, "U", FenceOut, u)},
			[]LatLng{{2, 1.5}, {2.5, 1.5}, {2, 2.5}, {2, 2.6}, {2, 1.5}, {2, 0.5}},
			[]string{"", "", "U:enter", "", "", "U:enter"}},
		{"in-fence circle by haversine",
			[]*Fence{fence(3, "C", FenceIn, circle)},
			[]LatLng{near(0), near(99), near(101), near(150), near(50), near(120)},
			[]string{"", "", "C:leave", "", "", "C:leave"}},
		{"out-fence circle: entering alarms, leaving does not",
			[]*Fence{fence(4, "C", FenceOut, circle)},
			[]LatLng{near(300), near(90), near(10), near(200), near(300)},
			[]string{"", "C:enter", "", "", ""}},
		{"rectangle in and out at once",
			[]*Fence{fence(5, "in", FenceIn, rect), fence(6, "out", FenceOut, rect)},
			[]LatLng{{9, 9}, {10.5, 10.5}, {12, 12}, {10.5, 10.5}},
			[]string{"", "out:enter", "in:leave", "out:enter"}},
		{"first fix only records containment: starting outside an in-fence is no alarm",
			[]*Fence{fence(7, "R", FenceIn, rect)},
			[]LatLng{{0, 0}, {1, 1}},
			[]string{"", ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := walk(c.fences, map[int64]fenceMark{}, nil, c.path)
			for i := range c.want {
				g := ""
				if len(got[i]) > 0 {
					g = got[i][0]
					for _, k := range got[i][1:] {
						g += "," + k
					}
				}
				if g != c.want[i] {
					t.Errorf("fix %d %v: alarms %q, want %q", i, c.path[i], g, c.want[i])
				}
			}
		})
	}
}

func TestFenceStateWithoutMark(t *testing.T) {
	rect := Rect{MinLat: 10, MinLng: 10, MaxLat: 11, MaxLng: 11}
	f := fence(1, "R", FenceIn, rect)
	// Assigned while inside (the previous fix is inside), then the next fix is outside: the crossing counts.
	prev := &Point{Lat: 10.5, Lng: 10.5}
	if got := walk([]*Fence{f}, map[int64]fenceMark{}, prev, []LatLng{{12, 12}}); len(got[0]) != 1 {
		t.Errorf("crossing after assignment: %v", got)
	}
	// An edit bumps the version: the old mark is not compared, the new geometry is judged from the previous fix.
	marks := map[int64]fenceMark{1: {ver: 1, inside: false}}
	f2 := fence(1, "R", FenceIn, Rect{MinLat: 0, MinLng: 0, MaxLat: 20, MaxLng: 20})
	f2.ver = 2
	if got := walk([]*Fence{f2}, marks, prev, []LatLng{{10.6, 10.6}}); len(got[0]) != 0 || !marks[1].inside || marks[1].ver != 2 {
		t.Errorf("edited fence: %v %+v", got, marks)
	}
}
