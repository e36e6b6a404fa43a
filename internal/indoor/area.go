package indoor

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// Walkable areas (docs/adr/0023 "Walkable areas"): corridors, rooms and doors drawn as polygons on a floor's
// plan. The estimator keeps a terminal's track inside their union on a floor that has any; on a floor without,
// it uses the fit and the Kalman track.

// AreaID is an area's row id.
type AreaID int64

func (id AreaID) String() string { return strconv.FormatInt(int64(id), 10) }

// Area is a walkable area of a floor: a simple polygon in plan pixels.
type Area struct {
	ID         AreaID       `json:"id"`
	FloorID    FloorID      `json:"floorId"`
	BuildingID BuildingID   `json:"buildingId"`
	Name       string       `json:"name"`
	Points     [][2]float64 `json:"points"`
	CreatedAt  int64        `json:"createdAt"`
}

// Limits of an area.
const (
	MinAreaPoints = 3
	MaxAreaPoints = 64
	MaxAreas      = 300  // areas of a floor
	MinAreaM2     = 0.25 // the smallest area (m²): half a metre square, less than a door
)

// ErrArea is the refusal of a polygon (docs/api.md "Walkable areas").
var ErrArea = httpx.E(http.StatusBadRequest, "160", "errors.indoor.area",
	"points: 3 to 64 corners [[x, y], …] on the floor plan, a simple polygon (its edges do not cross) of at least 0.25 m²")

// Points is a polygon as a request gives it: [[x, y], …] of numbers (or numeric strings), or that JSON as a
// string (a form field).
type Points struct {
	Set bool
	P   [][2]float64
	Bad bool
}

// UnmarshalJSON reads either form; anything else marks the value bad (the handler answers ErrArea).
func (p *Points) UnmarshalJSON(b []byte) error {
	p.Set = true
	var s string
	if json.Unmarshal(b, &s) == nil {
		b = []byte(s)
	}
	var raw [][]json.RawMessage
	if json.Unmarshal(b, &raw) != nil {
		p.Bad = true
		return nil
	}
	for _, pt := range raw {
		if len(pt) != 2 {
			p.Bad = true
			return nil
		}
		var xy [2]float64
		for i, v := range pt {
			var str string
			if json.Unmarshal(v, &str) != nil {
				str = string(v)
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(str), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				p.Bad = true
				return nil
			}
			xy[i] = round(f, 2)
		}
		p.P = append(p.P, xy)
	}
	return nil
}

// CheckPolygon is the rule of an area's polygon on a floor of w × h pixels at scale metres per pixel: 3 to 64
// corners on the plan, no two edges crossing (nor touching but at their shared corner), at least MinAreaM2.
func CheckPolygon(pts [][2]float64, w, h int, scale float64) error {
	n := len(pts)
	if n < MinAreaPoints || n > MaxAreaPoints {
		return ErrArea
	}
	for _, p := range pts {
		if p[0] < 0 || p[1] < 0 || p[0] > float64(w) || p[1] > float64(h) {
			return ErrArea
		}
	}
	a := 0.0
	for i := range n {
		j := (i + 1) % n
		a += pts[i][0]*pts[j][1] - pts[j][0]*pts[i][1]
	}
	if math.Abs(a)/2*scale*scale < MinAreaM2 {
		return ErrArea
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if j == i+1 || (i == 0 && j == n-1) { // neighbours share a corner
				continue
			}
			if segmentsMeet(pts[i], pts[(i+1)%n], pts[j], pts[(j+1)%n]) {
				return ErrArea
			}
		}
	}
	return nil
}

// segmentsMeet tells whether segments ab and cd have a point in common.
func segmentsMeet(a, b, c, d [2]float64) bool {
	cross := func(o, p, q [2]float64) float64 { return (p[0]-o[0])*(q[1]-o[1]) - (p[1]-o[1])*(q[0]-o[0]) }
	on := func(o, p, q [2]float64) bool { // q on segment op, given collinear
		return math.Min(o[0], p[0]) <= q[0] && q[0] <= math.Max(o[0], p[0]) && math.Min(o[1], p[1]) <= q[1] && q[1] <= math.Max(o[1], p[1])
	}
	d1, d2, d3, d4 := cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d)
	if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
		return true
	}
	return (d1 == 0 && on(c, d, a)) || (d2 == 0 && on(c, d, b)) || (d3 == 0 && on(a, b, c)) || (d4 == 0 && on(a, b, d))
}

func encodePoints(p [][2]float64) string {
	b, _ := json.Marshal(p)
	return string(b)
}

func decodePoints(s string) [][2]float64 {
	var p [][2]float64
	_ = json.Unmarshal([]byte(s), &p)
	return p
}

// onPlan tells whether every corner of the areas is on a w × h plan.
func onPlan(areas []Area, w, h int) bool {
	for _, a := range areas {
		for _, p := range a.Points {
			if p[0] > float64(w) || p[1] > float64(h) {
				return false
			}
		}
	}
	return true
}

const areaCols = `a.id, a.floor_id, f.building_id, a.name, a.points, a.created_at`
const areaFrom = `indoor_areas a JOIN indoor_floors f ON f.id = a.floor_id`

// areas reads the areas f matches, in the order they were drawn.
func (s *Store) areas(ctx context.Context, f *db.Filter) ([]Area, error) {
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: areaCols, From: areaFrom, Where: f, Order: `a.id`},
		func(r db.Scanner) (Area, error) {
			var a Area
			var pts string
			err := r.Scan(&a.ID, &a.FloorID, &a.BuildingID, &a.Name, &pts, &a.CreatedAt)
			a.Points = decodePoints(pts)
			return a, err
		})
	return out, err
}

// Area reads one area.
func (s *Store) Area(ctx context.Context, customerID int64, id AreaID) (Area, error) {
	return db.First(s.areas(ctx, db.Scope("a.customer_id", customerID).Eq("a.id", id)))
}

// CreateArea stores an area (ErrTooMany beyond MaxAreas on its floor).
func (s *Store) CreateArea(ctx context.Context, customerID int64, a Area, now int64) (AreaID, error) {
	var id AreaID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := room(ctx, tx, "indoor_areas", "floor_id", a.FloorID, MaxAreas); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO indoor_areas (customer_id, floor_id, name, points, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			customerID, a.FloorID, a.Name, encodePoints(a.Points), now).Scan(&id)
	})
	return id, err
}

// UpdateArea writes an area's name and polygon.
func (s *Store) UpdateArea(ctx context.Context, customerID int64, a Area) error {
	return db.OneRow(s.db.Exec(ctx, `UPDATE indoor_areas SET name = ?, points = ? WHERE id = ? AND customer_id = ?`,
		a.Name, encodePoints(a.Points), a.ID, customerID))
}

// DeleteAreas removes areas, all or none (db.ErrNotFound when one is not the customer's).
func (s *Store) DeleteAreas(ctx context.Context, customerID int64, ids []AreaID) error {
	return deleteEach(ctx, s.db, "indoor_areas", customerID, ids)
}
