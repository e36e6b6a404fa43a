package geo_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"tenfour/internal/geo"
	"tenfour/internal/testkit"
)

// scenario is one API call and what the caller must see.
type scenario struct {
	name   string
	method string
	path   string
	token  string
	params map[string]any
	code   string // envelope code ("0" = success)
	status int    // HTTP status; 0 = 200 for "0", else not checked
	check  func(t *testing.T, r testkit.Reply)
}

// onEngines runs an API test against a server on each store engine (PostgreSQL when TENFOUR_TEST_PG is set).
func onEngines(t *testing.T, fn func(t *testing.T, engine string)) {
	for _, e := range testkit.Engines() {
		t.Run(e, func(t *testing.T) { fn(t, e) })
	}
}

func run(t *testing.T, s *testkit.Server, list []scenario) {
	t.Helper()
	for _, sc := range list {
		t.Run(sc.name, func(t *testing.T) {
			r := s.Do(sc.method, sc.path, sc.token, sc.params)
			if r.Code != sc.code {
				t.Fatalf("%s %s: code %q (%s), want %q; result %s", sc.method, sc.path, r.Code, r.Msg, sc.code, r.Result)
			}
			want := sc.status
			if want == 0 && sc.code == "0" {
				want = http.StatusOK
			}
			if want != 0 && r.Status != want {
				t.Fatalf("status %d, want %d", r.Status, want)
			}
			if sc.check != nil {
				sc.check(t, r)
			}
		})
	}
}

var (
	t0       = time.Date(2024, 3, 5, 8, 0, 0, 0, time.UTC).UnixMilli()
	polygonA = map[string]any{"type": "Polygon", "coordinates": [][][]float64{{{28, 40}, {29, 40}, {29, 41}, {28, 41}, {28, 40}}}}
	circleA  = map[string]any{"type": "Point", "coordinates": []float64{29, 41}}
)

// insertTrack stores the track fixture (ten fixes a minute apart, 0.001° north each, 0..9 m/s) for a terminal.
func insertTrack(t *testing.T, s *testkit.Server, id string) {
	t.Helper()
	for i := range 10 {
		if _, err := s.DB.Exec(context.Background(), `INSERT INTO gps_points (terminal_id, at, lat, lng, speed, direction, altitude)
			VALUES (?, ?, ?, 29, ?, 0, 10)`, id, t0+int64(i)*60000, 41+float64(i)*0.001, float64(i)); err != nil {
			t.Fatal(err)
		}
	}
}

func logCount(t *testing.T, s *testkit.Server, customer int64, typ int) int {
	return count(t, s.DB, `SELECT COUNT(*) FROM oplog WHERE customer_id = ? AND type = ?`, customer, typ)
}

func TestTrackAndReportAPI(t *testing.T) { onEngines(t, trackAndReportAPI) }

func trackAndReportAPI(t *testing.T, engine string) {
	s := testkit.StartOn(t, engine)
	a, b := seed(t, s.DB, 2), seed(t, s.DB, 1)
	tokA, tokB := a.token(t, s), b.token(t, s)
	insertTrack(t, s, a.terminals[0])
	insertTrack(t, s, b.terminals[0])
	day := map[string]any{"btime": "2024-03-05 00:00:00", "etime": "2024-03-05 23:59:59"}
	with := func(m map[string]any, kv ...any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	before117 := logCount(t, s, a.customer, 117)
	run(t, s, []scenario{
		{name: "track with summary in km/h", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: with(day, "dcid", a.terminals[0], "scid", a.customer, "unit", "km/h"), code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var tr geo.Track
				r.Into(t, &tr)
				want := geo.Summary{Count: 10, Distance: 1.001, DistanceUnit: "km", DistanceM: 1000.8, StartTime: t0,
					EndTime: t0 + 540000, MaxSpeed: 32.4, MinSpeed: 0, AvgSpeed: 16.2, SpeedUnit: geo.KMH}
				if tr.Summary != want || len(tr.Points) != 10 || tr.Name != "Unit 1" || tr.Truncated {
					t.Fatalf("track %+v", tr)
				}
				if p := tr.Points[1]; p.Dist != 111.2 || p.Precision != 6 || p.Altitude != 10 || p.Speed != 1 {
					t.Errorf("second point %+v", p)
				}
				if tr.Points[0].Precision != 0 || len(tr.Stops) != 0 {
					t.Errorf("first point %+v stops %v", tr.Points[0], tr.Stops)
				}
			}},
		{name: "track default unit mph, times as UTC ms", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: map[string]any{"dcid": a.terminals[0], "btime": t0, "etime": t0 + 120000}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var tr geo.Track
				r.Into(t, &tr)
				if tr.Summary.Count != 3 || tr.Summary.SpeedUnit != geo.MPH || tr.Summary.MaxSpeed != 4.47 {
					t.Fatalf("summary %+v", tr.Summary)
				}
			}},
		{name: "empty range", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: with(day, "dcid", a.terminals[1]), code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"points":[]`) || !strings.Contains(string(r.Result), `"stops":[]`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "track needs a terminal", method: "GET", path: "/ds/data/gpsByUTC", token: tokA, params: day, code: "61", status: 400},
		{name: "another customer's terminal is unknown", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: with(day, "dcid", b.terminals[0]), code: "404", status: 404},
		{name: "another customer's scid is unknown", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: with(day, "dcid", a.terminals[0], "scid", b.customer), code: "404", status: 404},
		{name: "start after end", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: map[string]any{"dcid": a.terminals[0], "btime": "2024-03-06 00:00:00", "etime": "2024-03-05 00:00:00"}, code: "93"},
		{name: "more than 7 days", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: map[string]any{"dcid": a.terminals[0], "btime": "2024-03-01 00:00:00", "etime": "2024-03-09 00:00:00"}, code: "94"},
		{name: "cross-month", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: map[string]any{"dcid": a.terminals[0], "btime": "2024-02-28 00:00:00", "etime": "2024-03-01 10:00:00"}, code: "95"},
		{name: "start required", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: map[string]any{"dcid": a.terminals[0], "etime": "2024-03-01 10:00:00"}, code: "400"},
		{name: "bad time", method: "GET", path: "/ds/data/gpsByUTC", token: tokA,
			params: map[string]any{"dcid": a.terminals[0], "btime": "monday", "etime": "2024-03-01 10:00:00"}, code: "400"},
		{name: "bad unit", method: "GET", path: "/ds/data/gpsByUTC", token: tokA, params: with(day, "dcid", a.terminals[0], "unit", "knots"), code: "400"},
		{name: "no token", method: "GET", path: "/ds/data/gpsByUTC", params: with(day, "dcid", a.terminals[0]), code: "105", status: 401},

		{name: "gps data report paged", method: "GET", path: "/ds/report/findGpsData", token: tokA,
			params: map[string]any{"msIds": a.terminals[0] + "," + a.terminals[1], "sTime": day["btime"], "eTime": day["etime"], "pageNo": 2, "pageSize": 4}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var res struct {
					Total int          `json:"total"`
					List  []geo.GPSRow `json:"list"`
				}
				r.Into(t, &res)
				if res.Total != 10 || len(res.List) != 4 || res.List[0].Time != t0+4*60000 || res.List[0].Name != "Unit 1" {
					t.Fatalf("%+v", res)
				}
			}},
		{name: "gps data report POST", method: "POST", path: "/ds/report/findGpsDataPost", token: tokA,
			params: map[string]any{"msIds": []string{a.terminals[0]}, "sTime": t0, "eTime": t0 + 60000}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"total":2`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "gps data of another customer's terminal", method: "GET", path: "/ds/report/findGpsData", token: tokA,
			params: map[string]any{"msIds": a.terminals[0] + "," + b.terminals[0], "sTime": day["btime"], "eTime": day["etime"]}, code: "404"},
		{name: "gps data needs terminals", method: "GET", path: "/ds/report/findGpsData", token: tokA,
			params: map[string]any{"sTime": day["btime"], "eTime": day["etime"]}, code: "61"},
		{name: "gps data cross-month", method: "GET", path: "/ds/report/findGpsData", token: tokB,
			params: map[string]any{"msIds": b.terminals[0], "sTime": "2024-02-29 00:00:00", "eTime": "2024-03-01 00:00:01"}, code: "95"},
		{name: "gps data page size", method: "GET", path: "/ds/report/findGpsData", token: tokA,
			params: map[string]any{"msIds": a.terminals[0], "sTime": day["btime"], "eTime": day["etime"], "pageSize": 0}, code: "400"},
	})
	if got := logCount(t, s, a.customer, 117); got != before117+3 {
		t.Errorf("log 117 entries: %d new, want 3 (one per successful track query)", got-before117)
	}
	_ = tokB
}

func TestSnapshotBin(t *testing.T) { onEngines(t, snapshotBin) }

func snapshotBin(t *testing.T, engine string) {
	s := testkit.StartOn(t, engine)
	a, b := seed(t, s.DB, 2), seed(t, s.DB, 1)
	tokA := a.token(t, s)
	term := terminal(t, s, a.terminals[0])
	if r := term.Call("gps.report", map[string]any{"lat": 41.0082, "lng": 28.9784, "speed": 12.5, "direction": 271.5, "altitude": 35, "time": t0}); r.Code != "0" {
		t.Fatalf("report: %s %s", r.Code, r.Msg)
	}
	if r := term.Call("status.report", map[string]any{"battery": 80, "signal": 4}); r.Code != "0" {
		t.Fatalf("status: %s %s", r.Code, r.Msg)
	}
	get := func(path, tok, etag string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", s.URL+path, nil)
		if tok != "" {
			req.Header.Set("token", tok)
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	res, body := get(fmt.Sprintf("/static/gps/gps_%d.bin", a.customer), tokA, "")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/octet-stream" {
		t.Fatalf("status %d %s", res.StatusCode, body)
	}
	le := binary.LittleEndian
	if string(body[:4]) != "T4GP" || le.Uint16(body[4:]) != 1 || le.Uint16(body[6:]) != 24 || le.Uint32(body[8:]) != 1 {
		t.Fatalf("header % x", body[:24])
	}
	r := body[24:]
	lat, lng := int32(le.Uint32(r[0:])), int32(le.Uint32(r[4:]))
	if lat != 410082000 || lng != 289784000 || int64(le.Uint64(r[8:])) != t0 || le.Uint16(r[16:]) != 1250 ||
		le.Uint16(r[18:]) != 27150 || int16(le.Uint16(r[20:])) != 35 || int8(r[22]) != 80 || int8(r[23]) != 4 ||
		string(r[25:25+int(r[24])]) != a.terminals[0] {
		t.Fatalf("record % x", r)
	}
	// Unchanged since: 304 by ETag.
	if res2, _ := get(fmt.Sprintf("/static/gps/gps_%d.bin", a.customer), tokA, res.Header.Get("ETag")); res2.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", res2.StatusCode)
	}
	for _, c := range []struct {
		path, tok string
		status    int
	}{
		{fmt.Sprintf("/static/gps/gps_%d.bin", b.customer), tokA, 404}, // another customer's snapshot
		{"/static/gps/gps_x.bin", tokA, 404},
		{fmt.Sprintf("/static/gps/gps_%d.bin", a.customer), "", 401},
	} {
		if res, body := get(c.path, c.tok, ""); res.StatusCode != c.status {
			t.Errorf("%s: %d %s", c.path, res.StatusCode, body)
		}
	}
}

func TestMarksAndCustomAPI(t *testing.T) { onEngines(t, marksAndCustomAPI) }

func marksAndCustomAPI(t *testing.T, engine string) {
	s := testkit.StartOn(t, engine)
	a, b := seed(t, s.DB, 1), seed(t, s.DB, 1)
	tokA, tokB := a.token(t, s), b.token(t, s)
	point := map[string]any{"type": "Point", "coordinates": []float64{29, 41}}
	line := map[string]any{"type": "LineString", "coordinates": [][]float64{{29, 41}, {29.1, 41.1}}}
	var markA, markB string
	addB := s.Do("POST", "/ds/custom/addMark", tokB, map[string]any{"type": "point", "name": "B depot", "geometry": point})
	var mb geo.Mark
	addB.Into(t, &mb)
	markB = mb.ID
	run(t, s, []scenario{
		{name: "add point mark", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "point", "name": "Depot", "geometry": point, "color": "#ff0000", "link": "https://example.com/depot?id=1", "remark": "gate 2"},
			code:   "0", check: func(t *testing.T, r testkit.Reply) {
				var m geo.Mark
				r.Into(t, &m)
				markA = m.ID
				if m.Name != "Depot" || m.Creator != "Dispatcher" || m.Link != "https://example.com/depot?id=1" || string(m.Geometry) != `{"coordinates":[29,41],"type":"Point"}` {
					t.Fatalf("%+v %s", m, m.Geometry)
				}
			}},
		{name: "add line mark, geometry as text", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "line", "name": "Route", "geometry": `{"type":"LineString","coordinates":[[29,41],[29.1,41.1]]}`}, code: "0"},
		{name: "add shape mark", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "shape", "name": "Area", "geometry": polygonA}, code: "0"},
		{name: "link must be http(s)", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "point", "name": "X", "geometry": point, "link": "ftp://example.com/x"}, code: "62"},
		{name: "link must be a URL", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "point", "name": "X", "geometry": point, "link": "javascript:alert(1)"}, code: "62"},
		{name: "link without spaces", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "point", "name": "X", "geometry": point, "link": "https://exa mple.com"}, code: "62"},
		{name: "geometry must match the type", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "point", "name": "X", "geometry": line}, code: "63"},
		{name: "name required", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "point", "name": " ", "geometry": point}, code: "400"},
		{name: "unknown type", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "circle", "name": "X", "geometry": point}, code: "400"},
		{name: "bad colour", method: "POST", path: "/ds/custom/addMark", token: tokA,
			params: map[string]any{"type": "point", "name": "X", "geometry": point, "color": "red"}, code: "400"},
	})
	run(t, s, []scenario{
		{name: "update own mark", method: "PUT", path: "/ds/custom/updateMark", token: tokA,
			params: map[string]any{"id": markA, "name": "Depot 2", "link": ""}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var m geo.Mark
				r.Into(t, &m)
				if m.Name != "Depot 2" || m.Link != "" || m.Remark != "gate 2" || m.Color != "#ff0000" {
					t.Fatalf("%+v", m)
				}
			}},
		{name: "update another customer's mark", method: "PUT", path: "/ds/custom/updateMark", token: tokA,
			params: map[string]any{"id": markB, "name": "Mine"}, code: "404"},
		{name: "update with a bad link", method: "PUT", path: "/ds/custom/updateMark", token: tokA,
			params: map[string]any{"id": markA, "link": "www.example.com"}, code: "62"},
		{name: "find by type", method: "GET", path: "/ds/custom/findMark", token: tokA, params: map[string]any{"type": "point"}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var list []geo.Mark
				r.Into(t, &list)
				if len(list) != 1 || list[0].ID != markA {
					t.Fatalf("%+v", list)
				}
			}},
		{name: "find all of own customer only", method: "GET", path: "/ds/custom/findMark", token: tokA, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var list []geo.Mark
				r.Into(t, &list)
				if len(list) != 3 {
					t.Fatalf("%d marks", len(list))
				}
			}},
		{name: "delete another customer's mark (with own)", method: "DELETE", path: "/ds/custom/deleteMark", token: tokA,
			params: map[string]any{"id": markA + "," + markB}, code: "404"},
		{name: "delete own mark", method: "DELETE", path: "/ds/custom/deleteMark", token: tokA, params: map[string]any{"id": markA}, code: "0"},
		{name: "delete it again", method: "DELETE", path: "/ds/custom/deleteMark", token: tokA, params: map[string]any{"id": markA}, code: "404"},

		{name: "group colour", method: "PUT", path: "/ds/custom/updateGrpColor", token: tokA,
			params: map[string]any{"gid": a.group, "color": "#00ff00"}, code: "0"},
		{name: "another customer's group colour", method: "PUT", path: "/ds/custom/updateGrpColor", token: tokA,
			params: map[string]any{"gid": b.group, "color": "#00ff00"}, code: "404"},
		{name: "group colour format", method: "PUT", path: "/ds/custom/updateGrpColor", token: tokA,
			params: map[string]any{"gid": a.group, "color": "green"}, code: "400"},
		{name: "terminal icon", method: "PUT", path: "/ds/custom/updateMsIcon", token: tokA,
			params: map[string]any{"msId": a.terminals[0], "icon": "car", "image": "/icons/car.png"}, code: "0"},
		{name: "another customer's terminal icon", method: "PUT", path: "/ds/custom/updateMsIcon", token: tokA,
			params: map[string]any{"msId": a.terminals[0] + "," + b.terminals[0], "icon": "truck", "image": "/icons/truck.png"}, code: "404"},
		{name: "icon needs an image", method: "PUT", path: "/ds/custom/updateMsIcon", token: tokA,
			params: map[string]any{"msId": a.terminals[0], "icon": "car"}, code: "400"},
	})
	if n := count(t, s.DB, `SELECT COUNT(*) FROM marks WHERE id = ? AND name = 'B depot'`, markB); n != 1 {
		t.Error("another customer's mark changed or deleted")
	}
	if n := count(t, s.DB, `SELECT COUNT(*) FROM ptt_groups WHERE id = ? AND color = ''`, b.group); n != 1 {
		t.Error("another customer's group colour changed")
	}
	if n := count(t, s.DB, `SELECT COUNT(*) FROM accounts WHERE avatar = '/icons/car.png' AND map_icon = 'car'`); n != 1 {
		t.Error("icon not stored, or stored on a refused call")
	}
}

func TestFenceAPI(t *testing.T) { onEngines(t, fenceAPI) }

func fenceAPI(t *testing.T, engine string) {
	s := testkit.StartOn(t, engine)
	a, b := seed(t, s.DB, 3), seed(t, s.DB, 1)
	tokA, tokB := a.token(t, s), b.token(t, s)
	var fb geo.Fence
	s.Do("POST", "/ds/fence/create", tokB, map[string]any{"name": "B yard", "type": "in", "shape": "circle", "geometry": circleA, "radius": 300, "msIds": b.terminals}).Into(t, &fb)
	var fenceA string
	run(t, s, []scenario{
		{name: "create polygon with terminals", method: "POST", path: "/ds/fence/create", token: tokA,
			params: map[string]any{"name": "Depot", "type": "in", "shape": "polygon", "geometry": polygonA, "msIds": a.terminals[:2]}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var f geo.Fence
				r.Into(t, &f)
				fenceA = f.FenceID
				if f.Name != "Depot" || f.Type != "in" || len(f.Terminals) != 2 || f.Creator != "Dispatcher" || f.Time == 0 {
					t.Fatalf("%+v", f)
				}
			}},
		{name: "create circle", method: "POST", path: "/ds/fence/create", token: tokA,
			params: map[string]any{"name": "No-go", "type": "out", "shape": "circle", "geometry": circleA, "radius": "250"}, code: "0"},
		{name: "create rectangle", method: "POST", path: "/ds/fence/create", token: tokA,
			params: map[string]any{"name": "Box", "type": "out", "shape": "rectangle", "geometry": polygonA}, code: "0"},
		{name: "name required", method: "POST", path: "/ds/fence/create", token: tokA,
			params: map[string]any{"name": "  ", "type": "in", "shape": "polygon", "geometry": polygonA}, code: "60"},
		{name: "name too long", method: "POST", path: "/ds/fence/create", token: tokA,
			params: map[string]any{"name": strings.Repeat("x", 65), "type": "in", "shape": "polygon", "geometry": polygonA}, code: "65"},
		{name: "type in or out", method: "POST", path: "/ds/fence/create", token: tokA,
			params: map[string]any{"name": "X", "type": "both", "shape": "polygon", "geometry": polygonA}, code: "400"},
		{name: "circle needs a radius", method: "POST", path: "/ds/fence/create", token: tokA,
			params: map[string]any{"name": "X", "type": "in", "shape": "circle", "geometry": circleA}, code: "63"},
		{name: "unknown shape", method: "POST", path: "/ds/fence/create", token: tokA,
			params: map[string]any{"name": "X", "type": "in", "shape": "star", "geometry": polygonA}, code: "63"},
		{name: "another customer's terminal: nothing created", method: "POST", path: "/ds/fence/create", token: tokA,
			params: map[string]any{"name": "Sneaky", "type": "in", "shape": "polygon", "geometry": polygonA, "msIds": []string{a.terminals[0], b.terminals[0]}}, code: "404"},
	})
	if n := count(t, s.DB, `SELECT COUNT(*) FROM fences WHERE name = 'Sneaky'`); n != 0 {
		t.Fatal("a refused fence was stored")
	}
	if n := logCount(t, s, a.customer, 113); n != 3 {
		t.Errorf("log 113: %d", n)
	}
	run(t, s, []scenario{
		{name: "list all", method: "GET", path: "/ds/fence/list", token: tokA, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var list []geo.Fence
				r.Into(t, &list)
				if len(list) != 3 {
					t.Fatalf("%d fences", len(list))
				}
			}},
		{name: "list by type and cid", method: "GET", path: "/ds/fence/list", token: tokA, params: map[string]any{"type": "out", "cid": a.customer}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var list []geo.Fence
				r.Into(t, &list)
				if len(list) != 2 || list[0].Type != "out" {
					t.Fatalf("%+v", list)
				}
			}},
		{name: "list of a terminal", method: "GET", path: "/ds/fence/list", token: tokA, params: map[string]any{"msId": a.terminals[1]}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var list []geo.Fence
				r.Into(t, &list)
				if len(list) != 1 || list[0].FenceID != fenceA {
					t.Fatalf("%+v", list)
				}
			}},
		{name: "list of another customer", method: "GET", path: "/ds/fence/list", token: tokA, params: map[string]any{"cid": b.customer}, code: "404"},
		{name: "set: add and remove", method: "POST", path: "/ds/fence/set", token: tokA,
			params: map[string]any{"fenceid": fenceA, "add": []string{a.terminals[2]}, "remove": []string{a.terminals[0]}}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var f geo.Fence
				r.Into(t, &f)
				if fmt.Sprint(f.Terminals) != fmt.Sprint([]string{a.terminals[1], a.terminals[2]}) {
					t.Fatalf("%v", f.Terminals)
				}
			}},
		{name: "set: another customer's terminal changes nothing", method: "POST", path: "/ds/fence/set", token: tokA,
			params: map[string]any{"fenceid": fenceA, "add": []string{b.terminals[0]}, "remove": []string{a.terminals[1]}}, code: "404"},
		{name: "set on another customer's fence", method: "POST", path: "/ds/fence/set", token: tokA,
			params: map[string]any{"fenceid": fb.FenceID, "msIds": []string{}}, code: "404"},
		{name: "set needs a change", method: "POST", path: "/ds/fence/set", token: tokA, params: map[string]any{"fenceid": fenceA}, code: "400"},
		{name: "findter", method: "GET", path: "/ds/fence/findter", token: tokA, params: map[string]any{"fenceid": fenceA, "cid": a.customer}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"msId":"`+a.terminals[1]+`","name":"Unit 2","online":"0"`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "findter of another customer's fence", method: "GET", path: "/ds/fence/findter", token: tokA, params: map[string]any{"fenceid": fb.FenceID}, code: "404"},
		{name: "edit name and turn into a circle", method: "PUT", path: "/ds/fence/edit", token: tokA,
			params: map[string]any{"fenceid": fenceA, "name": "Depot east", "shape": "circle", "geometry": circleA, "radius": 800}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var f geo.Fence
				r.Into(t, &f)
				if f.Name != "Depot east" || f.Shape != "circle" || f.Radius != 800 || f.Type != "in" {
					t.Fatalf("%+v", f)
				}
			}},
		{name: "edit: blank name", method: "PUT", path: "/ds/fence/edit", token: tokA, params: map[string]any{"fenceid": fenceA, "name": ""}, code: "60"},
		{name: "edit another customer's fence", method: "PUT", path: "/ds/fence/edit", token: tokA,
			params: map[string]any{"fenceid": fb.FenceID, "name": "Mine"}, code: "404"},
		{name: "delete another customer's fence (with own)", method: "PUT", path: "/ds/fence/del", token: tokA,
			params: map[string]any{"fenceid": fenceA + "," + fb.FenceID}, code: "404"},
	})
	if n := count(t, s.DB, `SELECT COUNT(*) FROM fences f JOIN fence_terminals ft ON ft.fence_id = f.id WHERE f.id = ? AND f.name = 'B yard'`, fb.FenceID); n != 1 {
		t.Fatal("another customer's fence changed")
	}
	if n := count(t, s.DB, `SELECT COUNT(*) FROM fence_terminals WHERE fence_id = ?`, fenceA); n != 2 {
		t.Fatalf("refused set changed the terminals: %d", n)
	}

	// Alarm records: one of each customer, stored as the engine stores them.
	for _, c := range []struct {
		customer int64
		fence    string
		term     string
	}{{a.customer, fenceA, a.terminals[1]}, {b.customer, fb.FenceID, b.terminals[0]}} {
		if _, err := s.DB.Exec(context.Background(), `INSERT INTO fence_alarms (customer_id, fence_id, fence_name, fence_type,
			terminal_id, terminal_name, type, at, lat, lng) VALUES (?, ?, 'F', 'in', ?, 'T', 'leave', ?, 41, 29)`,
			c.customer, c.fence, c.term, t0); err != nil {
			t.Fatal(err)
		}
	}
	var alarmA, alarmB string
	s.DB.QueryRow(context.Background(), `SELECT id FROM fence_alarms WHERE customer_id = ?`, a.customer).Scan(&alarmA)
	s.DB.QueryRow(context.Background(), `SELECT id FROM fence_alarms WHERE customer_id = ?`, b.customer).Scan(&alarmB)
	march := map[string]any{"sTime": "2024-03-01 00:00:00", "eTime": "2024-03-31 23:59:59"}
	run(t, s, []scenario{
		{name: "alarm records", method: "GET", path: "/ds/fence/fa", token: tokA, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var res struct {
					Total int         `json:"total"`
					List  []geo.Alarm `json:"list"`
				}
				r.Into(t, &res)
				if res.Total != 1 || res.List[0].ID != alarmA || res.List[0].Status != 0 {
					t.Fatalf("%+v", res)
				}
			}},
		{name: "alarm records by range and terminal", method: "GET", path: "/ds/fence/fa", token: tokA,
			params: map[string]any{"sTime": march["sTime"], "eTime": march["eTime"], "msIds": a.terminals[0]}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"total":0`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "alarm records cross-month", method: "GET", path: "/ds/fence/fa", token: tokA,
			params: map[string]any{"sTime": "2024-02-20 00:00:00", "eTime": "2024-03-02 00:00:00"}, code: "95"},
		{name: "respond to an alarm", method: "PUT", path: "/ds/fence/fa", token: tokA, params: map[string]any{"id": alarmA, "status": 1}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"status":1`) || !strings.Contains(string(r.Result), `"responder":"Dispatcher"`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "close another customer's alarm", method: "PUT", path: "/ds/fence/fa", token: tokA, params: map[string]any{"id": alarmB, "status": 2}, code: "404"},
		{name: "close (cancel) an alarm", method: "PUT", path: "/ds/fence/fa", token: tokA, params: map[string]any{"id": alarmA, "status": 2, "remark": "false alarm"}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var res struct{ List []geo.Alarm }
				r.Into(t, &res)
				al := res.List[0]
				if al.Status != 2 || al.Closer != "Dispatcher" || al.CloseTime == 0 || al.ResponseTime == 0 || al.ResponseTime > al.CloseTime || al.Remark != "false alarm" {
					t.Fatalf("%+v", al)
				}
			}},
		{name: "closing twice changes nothing", method: "PUT", path: "/ds/fence/fa", token: tokA, params: map[string]any{"id": alarmA, "status": 2}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				if string(r.Result) != `{"list":[]}` {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "bad status", method: "PUT", path: "/ds/fence/fa", token: tokA, params: map[string]any{"id": alarmA, "status": 0}, code: "400"},
		{name: "alarm count by terminal", method: "POST", path: "/ds/report/findFenceAlarmCountPost", token: tokA, params: march, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var res struct {
					Total int              `json:"total"`
					List  []geo.AlarmCount `json:"list"`
				}
				r.Into(t, &res)
				if res.Total != 1 || len(res.List) != 1 || res.List[0].MsID != a.terminals[1] || res.List[0].Leave != 1 || res.List[0].Closed != 1 {
					t.Fatalf("%+v", res)
				}
			}},
		{name: "alarm count by fence", method: "POST", path: "/ds/report/findFenceAlarmCountPost", token: tokA,
			params: map[string]any{"sTime": march["sTime"], "eTime": march["eTime"], "groupBy": "fence"}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"fenceid":"`+fenceA+`"`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "alarm count needs a range", method: "POST", path: "/ds/report/findFenceAlarmCountPost", token: tokA, params: map[string]any{}, code: "400"},
		{name: "alarm count of another customer's terminal finds nothing", method: "POST", path: "/ds/report/findFenceAlarmCountPost", token: tokA,
			params: map[string]any{"sTime": march["sTime"], "eTime": march["eTime"], "msIds": b.terminals[0]}, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				if string(r.Result) != `{"list":[],"total":0}` {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "delete own fence", method: "PUT", path: "/ds/fence/del", token: tokA, params: map[string]any{"fenceid": fenceA}, code: "0"},
		{name: "records outlive the fence", method: "GET", path: "/ds/fence/fa", token: tokA, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"total":1`) {
					t.Fatalf("%s", r.Result)
				}
			}},
	})
	if n := count(t, s.DB, `SELECT COUNT(*) FROM fence_alarms WHERE id = ? AND status = 0`, alarmB); n != 1 {
		t.Error("another customer's alarm changed")
	}
	for typ, want := range map[int]int{114: 1, 115: 2, 127: 1} {
		if n := logCount(t, s, a.customer, typ); n != want {
			t.Errorf("log %d: %d, want %d", typ, n, want)
		}
	}
}
