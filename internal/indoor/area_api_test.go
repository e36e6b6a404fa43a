package indoor_test

import (
	"math"
	"strings"
	"testing"

	"tenfour/internal/indoor"
	"tenfour/internal/testkit"
)

// Every walkable-area call and refusal, on both engines; a refusal leaves the indoor tables as they were.
func TestIndoorAreaAPI(t *testing.T) { eachEnv(t, indoorAreaAPI) }

func indoorAreaAPI(t *testing.T, e *env) {
	s := e.S
	plan, small, otherPlan := e.floorPlans()
	termTok := s.Token(e.F.Terminals[0], e.F.CustomerID)
	bld := idOf(t, s.Do("POST", "/ds/indoor/building/add", e.Tok, map[string]any{"name": "HQ"}))
	floor := idOf(t, s.Do("POST", "/ds/indoor/floor/add", e.Tok, map[string]any{"buildingId": bld, "name": "G", "fileId": plan, "scale": 0.05}))
	otherBld := idOf(t, s.Do("POST", "/ds/indoor/building/add", e.OTok, map[string]any{"name": "Depot"}))
	otherFloor := idOf(t, s.Do("POST", "/ds/indoor/floor/add", e.OTok, map[string]any{"buildingId": otherBld, "name": "G", "fileId": otherPlan, "scale": 0.1}))

	var corridor, room int64
	corridorPts := [][]float64{{0, 80}, {400, 80}, {400, 120}, {0, 120}}
	api := testkit.APITest{Server: s, Token: e.token, State: append(state, "indoor_areas"), Socket: e.con}
	scenarios := []testkit.Scenario{
		{Name: "add area", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "name": " Corridor ", "points": corridorPts}, Code: "0", Events: []string{indoor.EventChanged},
			Check: func(t *testing.T, r testkit.Reply) {
				var a indoor.Area
				r.Into(t, &a)
				if a.Name != "Corridor" || len(a.Points) != 4 || a.Points[1] != [2]float64{400, 80} || int64(a.FloorID) != floor || int64(a.BuildingID) != bld {
					t.Fatalf("%+v", a)
				}
				corridor = int64(a.ID)
			}},
		{Name: "add area, points as a JSON string and numeric strings, no name", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": `[["10","0"],["90","0"],["90","79.5"],["60","90"],["10","79.5"]]`}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var a indoor.Area
				r.Into(t, &a)
				if a.Name != "" || len(a.Points) != 5 || a.Points[2] != [2]float64{90, 79.5} {
					t.Fatalf("%+v", a)
				}
				room = int64(a.ID)
			}},
		{Name: "area without token", Method: "POST", Path: "/ds/indoor/area/add", Params: map[string]any{"floorId": "{floor}", "points": corridorPts}, Code: "105", Status: 401},
		{Name: "area by a terminal's token", Method: "POST", Path: "/ds/indoor/area/add", Token: termTok,
			Params: map[string]any{"floorId": "{floor}", "points": corridorPts}, Code: "107", Status: 403},
		{Name: "area without points", Method: "POST", Path: "/ds/indoor/area/add", Token: "A", Params: map[string]any{"floorId": "{floor}"}, Code: "160", Status: 400},
		{Name: "area with two points", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": [][]float64{{0, 0}, {100, 100}}}, Code: "160"},
		{Name: "area with 65 points", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": circle(65)}, Code: "160"},
		{Name: "area with 64 points", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": circle(64)}, Code: "0"},
		{Name: "area off the plan", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": [][]float64{{0, 0}, {401, 0}, {401, 10}}}, Code: "160"},
		{Name: "area with a negative corner", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": [][]float64{{-1, 0}, {40, 0}, {40, 10}}}, Code: "160"},
		{Name: "area crossing itself (a bow tie)", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": [][]float64{{0, 0}, {100, 100}, {100, 0}, {0, 100}}}, Code: "160"},
		{Name: "area smaller than 0.25 m²", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": [][]float64{{0, 0}, {9, 0}, {9, 9}, {0, 9}}}, Code: "160"},
		{Name: "area with all corners in a line", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": [][]float64{{0, 0}, {100, 0}, {200, 0}}}, Code: "160"},
		{Name: "area with a corner that is not a pair", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": [][]float64{{0, 0}, {100}, {100, 100}}}, Code: "160"},
		{Name: "area with a corner that is not a number", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": `[["a","0"],["100","0"],["100","100"]]`}, Code: "160"},
		{Name: "area points not a list", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "points": "0,0 1,1 2,0"}, Code: "160"},
		{Name: "area name too long", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "name": strings.Repeat("n", 41), "points": corridorPts}, Code: "152"},
		{Name: "area without floor", Method: "POST", Path: "/ds/indoor/area/add", Token: "A", Params: map[string]any{"points": corridorPts}, Code: "400"},
		{Name: "area on unknown floor", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": 999999, "points": corridorPts}, Code: "404", Status: 404},
		{Name: "area on other customer's floor", Method: "POST", Path: "/ds/indoor/area/add", Token: "A",
			Params: map[string]any{"floorId": "{other}", "points": corridorPts}, Code: "404"},
		{Name: "rename area and move a corner", Method: "PUT", Path: "/ds/indoor/area/update", Token: "A",
			Params: map[string]any{"id": "{room}", "name": "Office 1", "points": [][]float64{{10, 0}, {90, 0}, {90, 79.5}, {10, 79.5}}}, Code: "0",
			Events: []string{indoor.EventChanged},
			Check: func(t *testing.T, r testkit.Reply) {
				var a indoor.Area
				r.Into(t, &a)
				if a.Name != "Office 1" || len(a.Points) != 4 {
					t.Fatalf("%+v", a)
				}
			}},
		{Name: "rename area only keeps its polygon", Method: "PUT", Path: "/ds/indoor/area/update", Token: "A",
			Params: map[string]any{"id": "{corridor}", "name": "Main corridor"}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var a indoor.Area
				r.Into(t, &a)
				if a.Name != "Main corridor" || len(a.Points) != 4 || a.Points[2] != [2]float64{400, 120} {
					t.Fatalf("%+v", a)
				}
			}},
		{Name: "update area to a bow tie", Method: "PUT", Path: "/ds/indoor/area/update", Token: "A",
			Params: map[string]any{"id": "{room}", "points": [][]float64{{0, 0}, {100, 100}, {100, 0}, {0, 100}}}, Code: "160"},
		{Name: "update unknown area", Method: "PUT", Path: "/ds/indoor/area/update", Token: "A", Params: map[string]any{"id": 999999, "name": "x"}, Code: "404"},
		{Name: "update other customer's area", Method: "PUT", Path: "/ds/indoor/area/update", Token: "B", Params: map[string]any{"id": "{room}", "name": "x"}, Code: "404"},
		{Name: "update area bad id", Method: "PUT", Path: "/ds/indoor/area/update", Token: "A", Params: map[string]any{"id": "x", "name": "x"}, Code: "400"},
		{Name: "floor update: smaller plan would leave areas off it", Method: "PUT", Path: "/ds/indoor/floor/update", Token: "A",
			Params: map[string]any{"id": "{floor}", "fileId": small}, Code: "158"},
		{Name: "list buildings with areas", Method: "GET", Path: "/ds/indoor/building/list", Token: "A", Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var p struct{ List []indoor.Building }
				r.Into(t, &p)
				if len(p.List) != 1 || len(p.List[0].Floors) != 1 || len(p.List[0].Floors[0].Areas) != 3 || p.List[0].Floors[0].Areas[0].Name != "Main corridor" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "delete areas: one unknown among them deletes none", Method: "DELETE", Path: "/ds/indoor/area/delete", Token: "A",
			Params: map[string]any{"ids": "{room},999999"}, Code: "404"},
		{Name: "delete areas: other customer's", Method: "DELETE", Path: "/ds/indoor/area/delete", Token: "B", Params: map[string]any{"id": "{room}"}, Code: "404"},
		{Name: "delete areas: none given", Method: "DELETE", Path: "/ds/indoor/area/delete", Token: "A", Code: "400"},
		{Name: "delete area", Method: "DELETE", Path: "/ds/indoor/area/delete", Token: "A", Params: map[string]any{"id": "{room}"}, Code: "0",
			Events: []string{indoor.EventChanged}},
		{Name: "delete area twice", Method: "DELETE", Path: "/ds/indoor/area/delete", Token: "A", Params: map[string]any{"id": "{room}"}, Code: "404"},
		{Name: "delete floor takes its areas", Method: "DELETE", Path: "/ds/indoor/floor/delete", Token: "A", Params: map[string]any{"id": "{floor}"}, Code: "0",
			Check: func(t *testing.T, _ testkit.Reply) {
				var n int
				if err := s.DB.QueryRow(t.Context(), `SELECT COUNT(*) FROM indoor_areas`).Scan(&n); err != nil || n != 0 {
					t.Fatalf("%d areas left (%v)", n, err)
				}
			}},
	}
	runWithIDs(t, api, scenarios, func() map[string]int64 {
		return map[string]int64{"floor": floor, "other": otherFloor, "corridor": corridor, "room": room}
	})
}

// circle is a polygon of n corners on a circle of 80 px around (200, 100).
func circle(n int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = []float64{200 + 80*math.Cos(a), 100 + 80*math.Sin(a)}
	}
	return out
}
