package indoor_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"
	"time"

	"tenfour/internal/files/filetest"
	"tenfour/internal/indoor"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

const wait = 5 * time.Second

func planPNG(w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// fakeWebP passes the upload's content check as image/webp but is no image the server can size.
func fakeWebP() []byte {
	b := []byte("RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00")
	return append(b, make([]byte, 40)...)
}

// env is the safety world (safetytest.Env: F with three terminals, Other with one) and F's console socket;
// scenarios name the two dispatchers "A" and "B".
type env struct {
	*safetytest.Env
	con *testkit.Socket
}

func newEnv(t *testing.T, engine string) *env {
	e := &env{Env: safetytest.NewEnv(t, testkit.StartOn(t, engine), 3)}
	e.con = e.Console()
	return e
}

// eachEnv runs fn on a fresh env on every engine: the opening of each indoor scenario.
func eachEnv(t *testing.T, fn func(t *testing.T, e *env)) {
	testkit.EachEngine(t, func(t *testing.T, engine string) { fn(t, newEnv(t, engine)) })
}

// floorPlans uploads the floor plans the API tests draw on: A's 400×200 and 100×50 pixel PNGs, B's 400×200.
func (e *env) floorPlans() (plan, small, otherPlan string) {
	e.T.Helper()
	up := func(tok, name string, w, h int) string {
		return filetest.MustUpload(e.T, e.S, tok, name, planPNG(w, h), "image").ID
	}
	return up(e.Tok, "plan.png", 400, 200), up(e.Tok, "small.png", 100, 50), up(e.OTok, "plan.png", 400, 200)
}

func (e *env) token(alias string) string {
	switch alias {
	case "A":
		return e.Tok
	case "B":
		return e.OTok
	}
	return alias
}

func idOf(t *testing.T, r testkit.Reply) int64 {
	t.Helper()
	var v struct{ ID int64 }
	r.Into(t, &v)
	if v.ID == 0 {
		t.Fatalf("no id in %s", r.Result)
	}
	return v.ID
}

var state = []string{"indoor_buildings", "indoor_floors", "indoor_beacons", "indoor_positions"}

// Every indoor call and refusal, on both engines; a refusal leaves the indoor tables as they were.
func TestIndoorAPI(t *testing.T) { eachEnv(t, indoorAPI) }

func indoorAPI(t *testing.T, e *env) {
	s := e.S
	plan, small, otherPlan := e.floorPlans()
	webp := filetest.MustUpload(t, s, e.Tok, "plan.webp", fakeWebP(), "image").ID
	pdf := filetest.MustUpload(t, s, e.Tok, "plan.pdf", filetest.PDF(), "").ID
	termTok := s.Token(e.F.Terminals[0], e.F.CustomerID)

	var bld, bld2, floor, floor2, beacon, beacon2, otherFloor int64
	// The other customer's building and floor, for the tenancy refusals.
	r := s.Do("POST", "/ds/indoor/building/add", e.OTok, map[string]any{"name": "Depot"})
	otherBld := idOf(t, r)
	otherFloor = idOf(t, s.Do("POST", "/ds/indoor/floor/add", e.OTok, map[string]any{"buildingId": otherBld, "name": "G",
		"fileId": otherPlan, "scale": 0.1}))

	api := testkit.APITest{Server: s, Token: e.token, State: state, Socket: e.con}
	scenarios := []testkit.Scenario{
		// buildings
		{Name: "add building", Method: "POST", Path: "/ds/indoor/building/add", Token: "A",
			Params: map[string]any{"name": " HQ ", "remark": "main site"}, Code: "0", Events: []string{indoor.EventChanged},
			Check: func(t *testing.T, r testkit.Reply) {
				var b indoor.Building
				r.Into(t, &b)
				if b.Name != "HQ" || b.Remark != "main site" || len(b.Floors) != 0 {
					t.Fatalf("%+v", b)
				}
				bld = int64(b.ID)
			}},
		{Name: "add second building", Method: "POST", Path: "/ds/indoor/building/add", Token: "A",
			Params: map[string]any{"name": "Annex"}, Code: "0", Check: func(t *testing.T, r testkit.Reply) { bld2 = idOf(t, r) }},
		{Name: "building without token", Method: "POST", Path: "/ds/indoor/building/add", Params: map[string]any{"name": "X"}, Code: "105", Status: 401},
		{Name: "building by a terminal's token", Method: "POST", Path: "/ds/indoor/building/add", Token: termTok,
			Params: map[string]any{"name": "X"}, Code: "107", Status: 403},
		{Name: "building without name", Method: "POST", Path: "/ds/indoor/building/add", Token: "A", Params: map[string]any{"name": "  "}, Code: "152", Status: 400},
		{Name: "building name too long", Method: "POST", Path: "/ds/indoor/building/add", Token: "A",
			Params: map[string]any{"name": strings.Repeat("b", 41)}, Code: "152"},
		{Name: "building name with a control character", Method: "POST", Path: "/ds/indoor/building/add", Token: "A",
			Params: map[string]any{"name": "a\tb"}, Code: "152"},
		{Name: "building name taken", Method: "POST", Path: "/ds/indoor/building/add", Token: "A", Params: map[string]any{"name": "HQ"}, Code: "153", Status: 409},
		{Name: "building remark too long", Method: "POST", Path: "/ds/indoor/building/add", Token: "A",
			Params: map[string]any{"name": "Y", "remark": strings.Repeat("r", 201)}, Code: "400"},
		{Name: "rename building", Method: "PUT", Path: "/ds/indoor/building/update", Token: "A",
			Params: map[string]any{"id": "{bld}", "name": "Head office"}, Code: "0", Events: []string{indoor.EventChanged}},
		{Name: "rename to a taken name", Method: "PUT", Path: "/ds/indoor/building/update", Token: "A",
			Params: map[string]any{"id": "{bld}", "name": "Annex"}, Code: "153"},
		{Name: "update unknown building", Method: "PUT", Path: "/ds/indoor/building/update", Token: "A",
			Params: map[string]any{"id": 999999, "name": "Z"}, Code: "404", Status: 404},
		{Name: "update other customer's building", Method: "PUT", Path: "/ds/indoor/building/update", Token: "B",
			Params: map[string]any{"id": "{bld}", "name": "Z"}, Code: "404"},
		{Name: "update building bad id", Method: "PUT", Path: "/ds/indoor/building/update", Token: "A",
			Params: map[string]any{"id": "x", "name": "Z"}, Code: "400"},

		// floors
		{Name: "add floor by scale", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "Ground", "level": 0, "fileId": plan, "scale": 0.05}, Code: "0",
			Events: []string{indoor.EventChanged},
			Check: func(t *testing.T, r testkit.Reply) {
				var f indoor.Floor
				r.Into(t, &f)
				if f.Width != 400 || f.Height != 200 || f.Scale != 0.05 || f.Ref != nil || f.URL != "/filews/files/"+plan {
					t.Fatalf("%+v", f)
				}
				floor = int64(f.ID)
			}},
		{Name: "add floor by two reference points", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "First", "level": 1, "fileId": plan,
				"refX1": 0, "refY1": 0, "refX2": 300, "refY2": 400, "refDistance": 25}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var f indoor.Floor
				r.Into(t, &f)
				if math.Abs(f.Scale-0.05) > 1e-9 || f.Ref == nil || f.Ref.Distance != 25 {
					t.Fatalf("%+v", f)
				}
				floor2 = int64(f.ID)
			}},
		{Name: "floor without building", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"name": "G", "fileId": plan, "scale": 0.05}, Code: "400"},
		{Name: "floor in other customer's building", Method: "POST", Path: "/ds/indoor/floor/add", Token: "B",
			Params: map[string]any{"buildingId": "{bld}", "name": "G", "fileId": otherPlan, "scale": 0.05}, Code: "404"},
		{Name: "floor without name", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "fileId": plan, "scale": 0.05}, Code: "152"},
		{Name: "floor name taken in the building", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "Ground", "fileId": plan, "scale": 0.05}, Code: "153"},
		{Name: "floor without scale", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": plan}, Code: "155"},
		{Name: "floor scale zero", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": plan, "scale": 0}, Code: "155"},
		{Name: "floor scale above 10 m per pixel", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": plan, "scale": 10.5}, Code: "155"},
		{Name: "floor reference points the same", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": plan, "refX1": 5, "refY1": 5, "refX2": 5, "refY2": 5, "refDistance": 3}, Code: "155"},
		{Name: "floor reference without distance", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": plan, "refX1": 0, "refY1": 0, "refX2": 50, "refY2": 0}, Code: "155"},
		{Name: "floor plan unknown", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": strings.Repeat("a", 32), "scale": 0.05}, Code: "154"},
		{Name: "floor plan of another customer", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": otherPlan, "scale": 0.05}, Code: "154"},
		{Name: "floor plan not an image", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": pdf, "scale": 0.05}, Code: "154"},
		{Name: "floor plan an image the server cannot size", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": webp, "scale": 0.05}, Code: "154"},
		{Name: "floor level out of range", Method: "POST", Path: "/ds/indoor/floor/add", Token: "A",
			Params: map[string]any{"buildingId": "{bld}", "name": "G2", "fileId": plan, "scale": 0.05, "level": 201}, Code: "400"},

		// beacons
		{Name: "add beacon", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "c0:10:f4:00:01:01", "name": "Lobby", "x": 40, "y": 40, "rssi": -59, "decay": 2.2},
			Code:   "0", Events: []string{indoor.EventChanged},
			Check: func(t *testing.T, r testkit.Reply) {
				var b indoor.Beacon
				r.Into(t, &b)
				if b.MAC != "C0:10:F4:00:01:01" || b.RSSI != -59 || b.Decay != 2.2 || b.X != 40 || int64(b.BuildingID) != bld {
					t.Fatalf("%+v", b)
				}
				beacon = int64(b.ID)
			}},
		{Name: "add beacon at the spec's limits", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C010F4000102", "x": 400, "y": 0, "rssi": -100, "decay": 10.0},
			Code:   "0", Check: func(t *testing.T, r testkit.Reply) { beacon2 = idOf(t, r) }},
		{Name: "beacon at the other end of the limits", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C0:10:F4:00:01:03", "x": 0, "y": 200, "rssi": -50, "decay": 1.1}, Code: "0"},
		{Name: "beacon rssi below -100", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C0:10:F4:00:01:09", "x": 1, "y": 1, "rssi": -101, "decay": 2}, Code: "151", Status: 400},
		{Name: "beacon rssi above -50", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C0:10:F4:00:01:09", "x": 1, "y": 1, "rssi": -49, "decay": 2}, Code: "151"},
		{Name: "beacon rssi missing", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C0:10:F4:00:01:09", "x": 1, "y": 1, "decay": 2}, Code: "151"},
		{Name: "beacon decay below 1.1", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C0:10:F4:00:01:09", "x": 1, "y": 1, "rssi": -60, "decay": 1.0}, Code: "150", Status: 400},
		{Name: "beacon decay above 10", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C0:10:F4:00:01:09", "x": 1, "y": 1, "rssi": -60, "decay": 10.1}, Code: "150"},
		{Name: "beacon bad mac", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C0:10:F4:00:01", "x": 1, "y": 1, "rssi": -60, "decay": 2}, Code: "156"},
		{Name: "beacon mac taken on another floor", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor2}", "mac": "C0-10-F4-00-01-01", "x": 1, "y": 1, "rssi": -60, "decay": 2}, Code: "157", Status: 409},
		{Name: "beacon off the plan", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C0:10:F4:00:01:09", "x": 401, "y": 1, "rssi": -60, "decay": 2}, Code: "158"},
		{Name: "beacon without position", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{floor}", "mac": "C0:10:F4:00:01:09", "x": 1, "rssi": -60, "decay": 2}, Code: "400"},
		{Name: "beacon on unknown floor", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": 999999, "mac": "C0:10:F4:00:01:09", "x": 1, "y": 1, "rssi": -60, "decay": 2}, Code: "404"},
		{Name: "beacon on other customer's floor", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "A",
			Params: map[string]any{"floorId": "{other}", "mac": "C0:10:F4:00:01:09", "x": 1, "y": 1, "rssi": -60, "decay": 2}, Code: "404"},
		{Name: "other customer may use the same mac", Method: "POST", Path: "/ds/indoor/beacon/add", Token: "B",
			Params: map[string]any{"floorId": "{other}", "mac": "C0:10:F4:00:01:01", "x": 1, "y": 1, "rssi": -60, "decay": 2}, Code: "0"},
		{Name: "move beacon to the first floor and recalibrate", Method: "PUT", Path: "/ds/indoor/beacon/update", Token: "A",
			Params: map[string]any{"id": "{beacon2}", "floorId": "{floor2}", "x": 100, "y": 100, "rssi": -65}, Code: "0",
			Events: []string{indoor.EventChanged},
			Check: func(t *testing.T, r testkit.Reply) {
				var b indoor.Beacon
				r.Into(t, &b)
				if int64(b.FloorID) != floor2 || b.RSSI != -65 || b.Decay != 10 || b.MAC != "C0:10:F4:00:01:02" {
					t.Fatalf("%+v", b)
				}
			}},
		{Name: "update beacon decay out of range", Method: "PUT", Path: "/ds/indoor/beacon/update", Token: "A",
			Params: map[string]any{"id": "{beacon}", "decay": 0.5}, Code: "150"},
		{Name: "update beacon rssi out of range", Method: "PUT", Path: "/ds/indoor/beacon/update", Token: "A",
			Params: map[string]any{"id": "{beacon}", "rssi": -20}, Code: "151"},
		{Name: "update beacon to a taken mac", Method: "PUT", Path: "/ds/indoor/beacon/update", Token: "A",
			Params: map[string]any{"id": "{beacon}", "mac": "C0:10:F4:00:01:02"}, Code: "157"},
		{Name: "update beacon off the plan", Method: "PUT", Path: "/ds/indoor/beacon/update", Token: "A",
			Params: map[string]any{"id": "{beacon}", "y": -1}, Code: "158"},
		{Name: "update unknown beacon", Method: "PUT", Path: "/ds/indoor/beacon/update", Token: "A",
			Params: map[string]any{"id": 999999, "rssi": -60}, Code: "404"},
		{Name: "update other customer's beacon", Method: "PUT", Path: "/ds/indoor/beacon/update", Token: "B",
			Params: map[string]any{"id": "{beacon}", "rssi": -60}, Code: "404"},

		// floor update after beacons
		{Name: "floor update: smaller plan would leave beacons off it", Method: "PUT", Path: "/ds/indoor/floor/update", Token: "A",
			Params: map[string]any{"id": "{floor}", "fileId": small}, Code: "158"},
		{Name: "floor update: scale by reference and rename", Method: "PUT", Path: "/ds/indoor/floor/update", Token: "A",
			Params: map[string]any{"id": "{floor}", "name": "Ground floor", "refX1": 0, "refY1": 0, "refX2": 100, "refY2": 0, "refDistance": 4},
			Code:   "0", Events: []string{indoor.EventChanged},
			Check: func(t *testing.T, r testkit.Reply) {
				var f indoor.Floor
				r.Into(t, &f)
				if f.Name != "Ground floor" || f.Scale != 0.04 || f.FileID != plan || len(f.Beacons) != 2 {
					t.Fatalf("%+v", f)
				}
			}},
		{Name: "floor update: bad scale", Method: "PUT", Path: "/ds/indoor/floor/update", Token: "A",
			Params: map[string]any{"id": "{floor}", "scale": -1}, Code: "155"},
		{Name: "floor update: unknown", Method: "PUT", Path: "/ds/indoor/floor/update", Token: "A",
			Params: map[string]any{"id": 999999, "name": "x"}, Code: "404"},
		{Name: "floor update: other customer's", Method: "PUT", Path: "/ds/indoor/floor/update", Token: "B",
			Params: map[string]any{"id": "{floor}", "name": "x"}, Code: "404"},

		// list
		{Name: "list buildings with floors and beacons", Method: "GET", Path: "/ds/indoor/building/list", Token: "A", Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var p httpx.Page[indoor.Building]
				r.Into(t, &p)
				if p.Total != 2 || p.List[0].Name != "Annex" || p.List[1].Name != "Head office" || len(p.List[1].Floors) != 2 ||
					p.List[1].Floors[0].Name != "Ground floor" || len(p.List[1].Floors[0].Beacons) != 2 || len(p.List[1].Floors[1].Beacons) != 1 {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "other customer lists only its own", Method: "GET", Path: "/ds/indoor/building/list", Token: "B", Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if strings.Contains(string(r.Result), "Head office") || !strings.Contains(string(r.Result), "Depot") {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "list by a terminal's token", Method: "GET", Path: "/ds/indoor/building/list", Token: termTok, Code: "107"},

		// beacon delete
		{Name: "delete beacons: one unknown among them deletes none", Method: "DELETE", Path: "/ds/indoor/beacon/delete", Token: "A",
			Params: map[string]any{"ids": "{beacon},999999"}, Code: "404"},
		{Name: "delete beacons: bad id", Method: "DELETE", Path: "/ds/indoor/beacon/delete", Token: "A",
			Params: map[string]any{"ids": "x"}, Code: "400"},
		{Name: "delete beacons: none given", Method: "DELETE", Path: "/ds/indoor/beacon/delete", Token: "A", Code: "400"},
		{Name: "delete beacon", Method: "DELETE", Path: "/ds/indoor/beacon/delete", Token: "A",
			Params: map[string]any{"id": "{beacon2}"}, Code: "0", Events: []string{indoor.EventChanged}},

		// deletes
		{Name: "delete unknown floor", Method: "DELETE", Path: "/ds/indoor/floor/delete", Token: "A", Params: map[string]any{"id": 999999}, Code: "404"},
		{Name: "delete other customer's floor", Method: "DELETE", Path: "/ds/indoor/floor/delete", Token: "A", Params: map[string]any{"id": "{other}"}, Code: "404"},
		{Name: "delete floor", Method: "DELETE", Path: "/ds/indoor/floor/delete", Token: "A", Params: map[string]any{"id": "{floor2}"}, Code: "0",
			Events: []string{indoor.EventChanged}},
		{Name: "delete other customer's building", Method: "DELETE", Path: "/ds/indoor/building/delete", Token: "B", Params: map[string]any{"id": "{bld2}"}, Code: "404"},
		{Name: "delete building", Method: "DELETE", Path: "/ds/indoor/building/delete", Token: "A", Params: map[string]any{"id": "{bld2}"}, Code: "0",
			Events: []string{indoor.EventChanged}},
		{Name: "delete building twice", Method: "DELETE", Path: "/ds/indoor/building/delete", Token: "A", Params: map[string]any{"id": "{bld2}"}, Code: "404"},
	}
	runWithIDs(t, api, scenarios, func() map[string]int64 {
		return map[string]int64{"bld": bld, "bld2": bld2, "floor": floor, "floor2": floor2, "beacon": beacon, "beacon2": beacon2, "other": otherFloor}
	})
}

// runWithIDs runs the scenarios in order. Ids come from earlier scenarios: "{name}" in a string parameter is
// replaced by ids()[name] just before its scenario runs (points are coordinates, never names).
func runWithIDs(t *testing.T, api testkit.APITest, scenarios []testkit.Scenario, ids func() map[string]int64) {
	t.Helper()
	for _, sc := range scenarios {
		params := map[string]any{}
		for k, v := range sc.Params {
			if str, ok := v.(string); ok && k != "points" {
				for name, id := range ids() {
					str = strings.ReplaceAll(str, "{"+name+"}", fmt.Sprint(id))
				}
				v = str
			}
			params[k] = v
		}
		sc.Params = params
		api.Run(t, []testkit.Scenario{sc})
	}
}

// TestMain: the indoor fixture's accounts make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
