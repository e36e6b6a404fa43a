package geo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
)

// Fence is a geofence (spec §3): a named region of type in or out, assigned to terminals.
type Fence struct {
	ID        int64           `json:"-"`
	FenceID   string          `json:"fenceid"`
	Name      string          `json:"name"`
	Type      string          `json:"type"`  // in | out
	Shape     string          `json:"shape"` // polygon | circle | rectangle
	Geometry  json.RawMessage `json:"geometry"`
	Radius    float64         `json:"radius,omitempty"` // circle: metres
	Terminals []string        `json:"terminals"`        // assigned msIds
	CreatorID string          `json:"creatorId"`
	Creator   string          `json:"creator"`
	Time      int64           `json:"time"`    // created (ms)
	Updated   int64           `json:"updated"` // last edit (ms)

	ver    int64  // bumped by every edit: containment marks of an older version are recomputed, not compared
	region Region // compiled geometry
}

// geoJSON is the subset of GeoJSON geometry that fences and marks use.
type geoJSON struct {
	Type        string          `json:"type"`
	Coordinates json.RawMessage `json:"coordinates"`
}

// rawJSON accepts a JSON object or a string holding one (form bodies send geometry as text).
type rawJSON json.RawMessage

func (r *rawJSON) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		b = []byte(s)
	}
	if string(b) == "null" || len(b) == 0 {
		*r = nil
		return nil
	}
	*r = append((*r)[:0], b...)
	return nil
}

// parsePosition reads a GeoJSON position [lng, lat] (extra members such as altitude are ignored) and normalizes
// micro-degrees.
func parsePosition(c []float64) (LatLng, error) {
	if len(c) < 2 {
		return LatLng{}, badGeometry("a position is [lng, lat]")
	}
	p, ok := normalizeLatLng(c[1], c[0])
	if !ok {
		return LatLng{}, badGeometry("coordinates out of range")
	}
	return p, nil
}

func parseRing(raw [][]float64, maxVertices int) ([]LatLng, error) {
	if len(raw) > maxVertices+1 {
		return nil, badGeometry(fmt.Sprintf("at most %d vertices", maxVertices))
	}
	ring := make([]LatLng, 0, len(raw))
	for _, c := range raw {
		p, err := parsePosition(c)
		if err != nil {
			return nil, err
		}
		ring = append(ring, p)
	}
	if n := len(ring); n > 1 && ring[0] == ring[n-1] {
		ring = ring[:n-1]
	}
	if len(ring) < 3 {
		return nil, badGeometry("a polygon needs at least 3 vertices")
	}
	if math.Abs(ringArea(ring)) < 1e-14 {
		return nil, badGeometry("the polygon has no area")
	}
	return ring, nil
}

// ringArea is the shoelace area in square degrees (sign = orientation); zero means a degenerate ring.
func ringArea(ring []LatLng) float64 {
	var a float64
	for i := range ring {
		j := (i + 1) % len(ring)
		a += ring[i].Lng*ring[j].Lat - ring[j].Lng*ring[i].Lat
	}
	return a / 2
}

func closedRing(ring []LatLng) [][]float64 {
	out := make([][]float64, 0, len(ring)+1)
	for _, p := range ring {
		out = append(out, []float64{p.Lng, p.Lat})
	}
	return append(out, []float64{ring[0].Lng, ring[0].Lat})
}

// compileFence validates a fence's geometry for its shape and returns the canonical GeoJSON to store (micro-
// degrees normalized, rings closed, rectangles as their five corners) and the compiled region.
//   - polygon: GeoJSON Polygon, outer ring only (holes are ignored), 3 to MaxFenceVertices vertices, concave allowed
//   - rectangle: GeoJSON Polygon; its bounding box is the rectangle
//   - circle: GeoJSON Point (the centre) and radius in metres, 1 to MaxFenceRadius
func compileFence(shape string, raw json.RawMessage, radius float64) (json.RawMessage, Region, error) {
	var g geoJSON
	if len(raw) == 0 || json.Unmarshal(raw, &g) != nil {
		return nil, nil, badGeometry("geometry must be a GeoJSON object")
	}
	switch shape {
	case ShapePolygon, ShapeRectangle:
		var rings [][][]float64
		if g.Type != "Polygon" || json.Unmarshal(g.Coordinates, &rings) != nil || len(rings) == 0 {
			return nil, nil, badGeometry(shape + " needs a GeoJSON Polygon")
		}
		ring, err := parseRing(rings[0], MaxFenceVertices)
		if err != nil {
			return nil, nil, err
		}
		if shape == ShapeRectangle {
			p := NewPolygon(ring)
			r := Rect{MinLat: p.minLat, MinLng: p.minLng, MaxLat: p.maxLat, MaxLng: p.maxLng}
			corners := []LatLng{{r.MinLat, r.MinLng}, {r.MinLat, r.MaxLng}, {r.MaxLat, r.MaxLng}, {r.MaxLat, r.MinLng}}
			out, _ := json.Marshal(map[string]any{"type": "Polygon", "coordinates": [][][]float64{closedRing(corners)}})
			return out, r, nil
		}
		out, _ := json.Marshal(map[string]any{"type": "Polygon", "coordinates": [][][]float64{closedRing(ring)}})
		return out, NewPolygon(ring), nil
	case ShapeCircle:
		var c []float64
		if g.Type != "Point" || json.Unmarshal(g.Coordinates, &c) != nil {
			return nil, nil, badGeometry("circle needs a GeoJSON Point centre")
		}
		center, err := parsePosition(c)
		if err != nil {
			return nil, nil, err
		}
		if !(radius >= 1 && radius <= MaxFenceRadius) {
			return nil, nil, badGeometry(fmt.Sprintf("radius: 1 to %.0f metres", MaxFenceRadius))
		}
		out, _ := json.Marshal(map[string]any{"type": "Point", "coordinates": []float64{center.Lng, center.Lat}})
		return out, Circle{Center: center, Radius: radius}, nil
	}
	return nil, nil, badGeometry("shape: polygon, circle or rectangle")
}

// crossing is a forbidden transition found for one fence.
type crossing struct {
	fence *Fence
	kind  string // AlarmLeave | AlarmEnter
}

// evaluate updates a terminal's containment marks for a new fix p and returns the forbidden crossings, at most
// one per fence and fix. A fence the terminal has no current mark for (just assigned, edited, or the node just
// started) is judged against the previous fix prev when there is one, so a crossing between the two still
// counts; with no previous fix its first containment is only recorded.
func evaluate(fences []*Fence, marks map[int64]fenceMark, prev *Point, p Point) []crossing {
	var out []crossing
	for _, f := range fences {
		in := f.region.Contains(p.pos())
		m, ok := marks[f.ID]
		if !ok || m.ver != f.ver {
			if prev == nil {
				marks[f.ID] = fenceMark{ver: f.ver, inside: in}
				continue
			}
			m = fenceMark{ver: f.ver, inside: f.region.Contains(prev.pos())}
		}
		t := Crossing(m.inside, in)
		if Forbidden(f.Type, t) {
			kind := AlarmLeave
			if t == Entered {
				kind = AlarmEnter
			}
			out = append(out, crossing{fence: f, kind: kind})
		}
		marks[f.ID] = fenceMark{ver: f.ver, inside: in}
	}
	return out
}

// fenceIndex maps each terminal to its fences, per customer. Readers (every ingested position) never lock:
// a change builds a new customer set and swaps the top map (copy-on-write).
type fenceIndex struct {
	mu  sync.Mutex // serializes writers
	cur atomic.Pointer[map[int64]map[string][]*Fence]
}

func newFenceIndex() *fenceIndex {
	x := &fenceIndex{}
	m := map[int64]map[string][]*Fence{}
	x.cur.Store(&m)
	return x
}

func (x *fenceIndex) forTerminal(customer int64, id string) []*Fence {
	return (*x.cur.Load())[customer][id]
}

// replace installs a customer's fences (nil removes them all).
func (x *fenceIndex) replace(customer int64, fences []*Fence) {
	byTerm := map[string][]*Fence{}
	for _, f := range fences {
		for _, t := range f.Terminals {
			byTerm[t] = append(byTerm[t], f)
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	old := *x.cur.Load()
	next := make(map[int64]map[string][]*Fence, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	if len(byTerm) == 0 {
		delete(next, customer)
	} else {
		next[customer] = byTerm
	}
	x.cur.Store(&next)
}

func fenceIDString(id int64) string { return strconv.FormatInt(id, 10) }
