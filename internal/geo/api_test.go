package geo_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/geo"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/testkit"
)

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
	return testkit.Count(t, s.DB, `SELECT COUNT(*) FROM oplog WHERE customer_id = ? AND type = ?`, customer, typ)
}

func TestTrackAndReportAPI(t *testing.T) { testkit.EachEngine(t, trackAndReportAPI) }

func trackAndReportAPI(t *testing.T, engine string) {
	s := testkit.StartOn(t, engine)
	a, b := seed(t, s.DB, 2), seed(t, s.DB, 1)
	tokA, tokB := a.Token, b.Token
	insertTrack(t, s, a.Terminals[0])
	insertTrack(t, s, b.Terminals[0])
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
	before117 := logCount(t, s, a.Customer, 117)
	testkit.APITest{Server: s}.Run(t, []testkit.Scenario{
		{Name: "track with summary in km/h", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: with(day, "dcid", a.Terminals[0], "scid", a.Customer, "unit", "km/h"), Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var tr geo.Track
				r.Into(t, &tr)
				want := geo.Summary{Count: 10, Distance: 1.001, DistanceUnit: "km", DistanceM: 1000.8, StartTime: t0,
					EndTime: t0 + 540000, MaxSpeed: 32.4, MinSpeed: 0, AvgSpeed: 16.2, SpeedUnit: geo.KMH}
				if tr.Summary != want || len(tr.Points) != 10 || tr.Name != "Name "+a.Terminals[0] || tr.Truncated {
					t.Fatalf("track %+v", tr)
				}
				if p := tr.Points[1]; p.Dist != 111.2 || p.Precision != 6 || p.Altitude != 10 || p.Speed != 1 {
					t.Errorf("second point %+v", p)
				}
				if tr.Points[0].Precision != 0 || len(tr.Stops) != 0 {
					t.Errorf("first point %+v stops %v", tr.Points[0], tr.Stops)
				}
			}},
		{Name: "track default unit mph, times as UTC ms", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: map[string]any{"dcid": a.Terminals[0], "btime": t0, "etime": t0 + 120000}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var tr geo.Track
				r.Into(t, &tr)
				if tr.Summary.Count != 3 || tr.Summary.SpeedUnit != geo.MPH || tr.Summary.MaxSpeed != 4.47 {
					t.Fatalf("summary %+v", tr.Summary)
				}
			}},
		{Name: "empty range", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: with(day, "dcid", a.Terminals[1]), Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"points":[]`) || !strings.Contains(string(r.Result), `"stops":[]`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "track needs a terminal", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA, Params: day, Code: "61", Status: 400},
		{Name: "another customer's terminal is unknown", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: with(day, "dcid", b.Terminals[0]), Code: "404", Status: 404},
		{Name: "another customer's scid is unknown", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: with(day, "dcid", a.Terminals[0], "scid", b.Customer), Code: "404", Status: 404},
		{Name: "start after end", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: map[string]any{"dcid": a.Terminals[0], "btime": "2024-03-06 00:00:00", "etime": "2024-03-05 00:00:00"}, Code: "93"},
		{Name: "more than 7 days", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: map[string]any{"dcid": a.Terminals[0], "btime": "2024-03-01 00:00:00", "etime": "2024-03-09 00:00:00"}, Code: "94"},
		{Name: "cross-month", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: map[string]any{"dcid": a.Terminals[0], "btime": "2024-02-28 00:00:00", "etime": "2024-03-01 10:00:00"}, Code: "95"},
		{Name: "start required", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: map[string]any{"dcid": a.Terminals[0], "etime": "2024-03-01 10:00:00"}, Code: "400"},
		{Name: "bad time", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA,
			Params: map[string]any{"dcid": a.Terminals[0], "btime": "monday", "etime": "2024-03-01 10:00:00"}, Code: "400"},
		{Name: "bad unit", Method: "GET", Path: "/ds/data/gpsByUTC", Token: tokA, Params: with(day, "dcid", a.Terminals[0], "unit", "knots"), Code: "400"},
		{Name: "no token", Method: "GET", Path: "/ds/data/gpsByUTC", Params: with(day, "dcid", a.Terminals[0]), Code: "105", Status: 401},

		{Name: "gps data report paged", Method: "GET", Path: "/ds/report/findGpsData", Token: tokA,
			Params: map[string]any{"msIds": a.Terminals[0] + "," + a.Terminals[1], "sTime": day["btime"], "eTime": day["etime"], "pageNo": 2, "pageSize": 4}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var res httpx.Page[geo.GPSRow]
				r.Into(t, &res)
				if res.Total != 10 || len(res.List) != 4 || res.List[0].Time != t0+4*60000 || res.List[0].Name != "Name "+a.Terminals[0] {
					t.Fatalf("%+v", res)
				}
			}},
		{Name: "gps data report POST", Method: "POST", Path: "/ds/report/findGpsDataPost", Token: tokA,
			Params: map[string]any{"msIds": []string{a.Terminals[0]}, "sTime": t0, "eTime": t0 + 60000}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"total":2`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "gps data of another customer's terminal", Method: "GET", Path: "/ds/report/findGpsData", Token: tokA,
			Params: map[string]any{"msIds": a.Terminals[0] + "," + b.Terminals[0], "sTime": day["btime"], "eTime": day["etime"]}, Code: "404"},
		{Name: "gps data needs terminals", Method: "GET", Path: "/ds/report/findGpsData", Token: tokA,
			Params: map[string]any{"sTime": day["btime"], "eTime": day["etime"]}, Code: "61"},
		{Name: "gps data cross-month", Method: "GET", Path: "/ds/report/findGpsData", Token: tokB,
			Params: map[string]any{"msIds": b.Terminals[0], "sTime": "2024-02-29 00:00:00", "eTime": "2024-03-01 00:00:01"}, Code: "95"},
		{Name: "gps data page size", Method: "GET", Path: "/ds/report/findGpsData", Token: tokA,
			Params: map[string]any{"msIds": a.Terminals[0], "sTime": day["btime"], "eTime": day["etime"], "pageSize": 0}, Code: "400"},
	})
	if got := logCount(t, s, a.Customer, 117); got != before117+3 {
		t.Errorf("log 117 entries: %d new, want 3 (one per successful track query)", got-before117)
	}
	_ = tokB
}

func TestSnapshotBin(t *testing.T) { testkit.EachEngine(t, snapshotBin) }

func snapshotBin(t *testing.T, engine string) {
	// the fixture's fix time is a fixed day in 2024: accept fixes that old
	s := testkit.StartOn(t, engine, func(c *config.Config) { c.GPS.MaxAge = 100 * 365 * 24 * time.Hour })
	a, b := seed(t, s.DB, 2), seed(t, s.DB, 1)
	tokA := a.Token
	term := testkit.Terminal(t, s.URL, a.Terminals[0], testkit.Password)
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
	res, body := get(fmt.Sprintf("/static/gps/gps_%d.bin", a.Customer), tokA, "")
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
		string(r[25:25+int(r[24])]) != a.Terminals[0] {
		t.Fatalf("record % x", r)
	}
	// Unchanged since: 304 by ETag.
	if res2, _ := get(fmt.Sprintf("/static/gps/gps_%d.bin", a.Customer), tokA, res.Header.Get("ETag")); res2.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", res2.StatusCode)
	}
	for _, c := range []struct {
		path, tok string
		status    int
	}{
		{fmt.Sprintf("/static/gps/gps_%d.bin", b.Customer), tokA, 404}, // another customer's snapshot
		{"/static/gps/gps_x.bin", tokA, 404},
		{fmt.Sprintf("/static/gps/gps_%d.bin", a.Customer), "", 401},
	} {
		if res, body := get(c.path, c.tok, ""); res.StatusCode != c.status {
			t.Errorf("%s: %d %s", c.path, res.StatusCode, body)
		}
	}
}

// listOf checks an answer is a list of n T.
func listOf[T any](n int) func(*testing.T, testkit.Reply) {
	return func(t *testing.T, r testkit.Reply) {
		var list []T
		r.Into(t, &list)
		if len(list) != n {
			t.Fatalf("%d listed, want %d: %+v", len(list), n, list)
		}
	}
}

// marksFound checks a findMark answer lists exactly the marks ids, in that order.
func marksFound(ids ...string) func(*testing.T, testkit.Reply) {
	return func(t *testing.T, r testkit.Reply) {
		var list []geo.Mark
		r.Into(t, &list)
		got := make([]string, len(list))
		for i, m := range list {
			got[i] = m.ID
		}
		if !slices.Equal(got, ids) {
			t.Fatalf("marks %v, want %v", got, ids)
		}
	}
}

func TestMarksAndCustomAPI(t *testing.T) { testkit.EachEngine(t, marksAndCustomAPI) }

func marksAndCustomAPI(t *testing.T, engine string) {
	s := testkit.StartOn(t, engine)
	a, b := seed(t, s.DB, 1), seed(t, s.DB, 1)
	tokA, tokB := a.Token, b.Token
	point := map[string]any{"type": "Point", "coordinates": []float64{29, 41}}
	line := map[string]any{"type": "LineString", "coordinates": [][]float64{{29, 41}, {29.1, 41.1}}}
	var markA, markB string
	addB := s.Do("POST", "/ds/custom/addMark", tokB, map[string]any{"type": "point", "name": "B depot", "geometry": point})
	var mb geo.Mark
	addB.Into(t, &mb)
	markB = mb.ID
	testkit.APITest{Server: s}.Run(t, []testkit.Scenario{
		{Name: "add point mark", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "point", "name": "Depot", "geometry": point, "color": "#ff0000", "link": "https://example.com/depot?id=1", "remark": "gate 2"},
			Code:   "0", Check: func(t *testing.T, r testkit.Reply) {
				var m geo.Mark
				r.Into(t, &m)
				markA = m.ID
				if m.Name != "Depot" || m.Creator != "Name "+a.Dispatcher || m.Link != "https://example.com/depot?id=1" || string(m.Geometry) != `{"coordinates":[29,41],"type":"Point"}` {
					t.Fatalf("%+v %s", m, m.Geometry)
				}
			}},
		{Name: "add line mark, geometry as text", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "line", "name": "Route", "geometry": `{"type":"LineString","coordinates":[[29,41],[29.1,41.1]]}`}, Code: "0"},
		{Name: "add shape mark", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "shape", "name": "Area", "geometry": polygonA}, Code: "0"},
		{Name: "link must be http(s)", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "point", "name": "X", "geometry": point, "link": "ftp://example.com/x"}, Code: "62"},
		{Name: "link must be a URL", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "point", "name": "X", "geometry": point, "link": "javascript:alert(1)"}, Code: "62"},
		{Name: "link without spaces", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "point", "name": "X", "geometry": point, "link": "https://exa mple.com"}, Code: "62"},
		{Name: "geometry must match the type", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "point", "name": "X", "geometry": line}, Code: "63"},
		{Name: "name required", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "point", "name": " ", "geometry": point}, Code: "400"},
		{Name: "unknown type", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "circle", "name": "X", "geometry": point}, Code: "400"},
		{Name: "bad colour", Method: "POST", Path: "/ds/custom/addMark", Token: tokA,
			Params: map[string]any{"type": "point", "name": "X", "geometry": point, "color": "red"}, Code: "400"},
	})
	testkit.APITest{Server: s}.Run(t, []testkit.Scenario{
		{Name: "update own mark", Method: "PUT", Path: "/ds/custom/updateMark", Token: tokA,
			Params: map[string]any{"id": markA, "name": "Depot 2", "link": ""}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var m geo.Mark
				r.Into(t, &m)
				if m.Name != "Depot 2" || m.Link != "" || m.Remark != "gate 2" || m.Color != "#ff0000" {
					t.Fatalf("%+v", m)
				}
			}},
		{Name: "update another customer's mark", Method: "PUT", Path: "/ds/custom/updateMark", Token: tokA,
			Params: map[string]any{"id": markB, "name": "Mine"}, Code: "404"},
		{Name: "update with a bad link", Method: "PUT", Path: "/ds/custom/updateMark", Token: tokA,
			Params: map[string]any{"id": markA, "link": "www.example.com"}, Code: "62"},
		{Name: "find by type", Method: "GET", Path: "/ds/custom/findMark", Token: tokA, Params: map[string]any{"type": "point"}, Code: "0",
			Check: marksFound(markA)},
		// The name search ignores case on both engines (PostgreSQL's LIKE did not) and reads % and _ as themselves.
		{Name: "find by name, any case", Method: "GET", Path: "/ds/custom/findMark", Token: tokA, Params: map[string]any{"name": "DEPOT"}, Code: "0",
			Check: marksFound(markA)},
		{Name: "find by name, wildcards literal", Method: "GET", Path: "/ds/custom/findMark", Token: tokA, Params: map[string]any{"name": "_"}, Code: "0",
			Check: marksFound()},
		{Name: "find all of own customer only", Method: "GET", Path: "/ds/custom/findMark", Token: tokA, Code: "0",
			Check: listOf[geo.Mark](3)},
		{Name: "delete another customer's mark (with own)", Method: "DELETE", Path: "/ds/custom/deleteMark", Token: tokA,
			Params: map[string]any{"id": markA + "," + markB}, Code: "404"},
		{Name: "delete own mark", Method: "DELETE", Path: "/ds/custom/deleteMark", Token: tokA, Params: map[string]any{"id": markA}, Code: "0"},
		{Name: "delete it again", Method: "DELETE", Path: "/ds/custom/deleteMark", Token: tokA, Params: map[string]any{"id": markA}, Code: "404"},

		{Name: "group colour", Method: "PUT", Path: "/ds/custom/updateGrpColor", Token: tokA,
			Params: map[string]any{"gid": a.Groups[0], "color": "#00ff00"}, Code: "0"},
		{Name: "another customer's group colour", Method: "PUT", Path: "/ds/custom/updateGrpColor", Token: tokA,
			Params: map[string]any{"gid": b.Groups[0], "color": "#00ff00"}, Code: "404"},
		{Name: "group colour format", Method: "PUT", Path: "/ds/custom/updateGrpColor", Token: tokA,
			Params: map[string]any{"gid": a.Groups[0], "color": "green"}, Code: "400"},
		{Name: "an uploaded file as the image", Method: "PUT", Path: "/ds/custom/updateMsIcon", Token: tokA,
			Params: map[string]any{"msId": a.Terminals[0], "icon": "car", "image": "/filews/files/0123456789abcdef0123456789abcdef"}, Code: "0"},
		{Name: "terminal icon", Method: "PUT", Path: "/ds/custom/updateMsIcon", Token: tokA,
			Params: map[string]any{"msId": a.Terminals[0], "icon": "car", "image": carPNG}, Code: "0"},
		{Name: "another customer's terminal icon", Method: "PUT", Path: "/ds/custom/updateMsIcon", Token: tokA,
			Params: map[string]any{"msId": a.Terminals[0] + "," + b.Terminals[0], "icon": "truck", "image": carPNG}, Code: "404"},
		{Name: "icon needs an image", Method: "PUT", Path: "/ds/custom/updateMsIcon", Token: tokA,
			Params: map[string]any{"msId": a.Terminals[0], "icon": "car"}, Code: "400"},
	})
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM marks WHERE id = ? AND name = 'B depot'`, markB); n != 1 {
		t.Error("another customer's mark changed or deleted")
	}
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM ptt_groups WHERE id = ? AND color = ''`, b.Groups[0]); n != 1 {
		t.Error("another customer's group colour changed")
	}
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM accounts WHERE avatar = ? AND map_icon = 'car'`, carPNG); n != 1 {
		t.Error("icon not stored, or stored on a refused call")
	}
}

// carPNG is a terminal avatar as the console sends it: the chosen picture inline.
const carPNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

func TestFenceAPI(t *testing.T) { testkit.EachEngine(t, fenceAPI) }

func fenceAPI(t *testing.T, engine string) {
	s := testkit.StartOn(t, engine)
	a, b := seed(t, s.DB, 3), seed(t, s.DB, 1)
	tokA, tokB := a.Token, b.Token
	var fb geo.Fence
	s.Do("POST", "/ds/fence/create", tokB, map[string]any{"name": "B yard", "type": "in", "shape": "circle", "geometry": circleA, "radius": 300, "msIds": b.Terminals}).Into(t, &fb)
	var fenceA string
	testkit.APITest{Server: s}.Run(t, []testkit.Scenario{
		{Name: "create polygon with terminals", Method: "POST", Path: "/ds/fence/create", Token: tokA,
			Params: map[string]any{"name": "Depot", "type": "in", "shape": "polygon", "geometry": polygonA, "msIds": a.Terminals[:2]}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var f geo.Fence
				r.Into(t, &f)
				fenceA = f.FenceID
				if f.Name != "Depot" || f.Type != "in" || len(f.Terminals) != 2 || f.Creator != "Name "+a.Dispatcher || f.Time == 0 {
					t.Fatalf("%+v", f)
				}
			}},
		{Name: "create circle", Method: "POST", Path: "/ds/fence/create", Token: tokA,
			Params: map[string]any{"name": "No-go", "type": "out", "shape": "circle", "geometry": circleA, "radius": "250"}, Code: "0"},
		{Name: "create rectangle", Method: "POST", Path: "/ds/fence/create", Token: tokA,
			Params: map[string]any{"name": "Box", "type": "out", "shape": "rectangle", "geometry": polygonA}, Code: "0"},
		{Name: "name required", Method: "POST", Path: "/ds/fence/create", Token: tokA,
			Params: map[string]any{"name": "  ", "type": "in", "shape": "polygon", "geometry": polygonA}, Code: "60"},
		{Name: "name too long", Method: "POST", Path: "/ds/fence/create", Token: tokA,
			Params: map[string]any{"name": strings.Repeat("x", 65), "type": "in", "shape": "polygon", "geometry": polygonA}, Code: "65"},
		{Name: "type in or out", Method: "POST", Path: "/ds/fence/create", Token: tokA,
			Params: map[string]any{"name": "X", "type": "both", "shape": "polygon", "geometry": polygonA}, Code: "400"},
		{Name: "circle needs a radius", Method: "POST", Path: "/ds/fence/create", Token: tokA,
			Params: map[string]any{"name": "X", "type": "in", "shape": "circle", "geometry": circleA}, Code: "63"},
		{Name: "unknown shape", Method: "POST", Path: "/ds/fence/create", Token: tokA,
			Params: map[string]any{"name": "X", "type": "in", "shape": "star", "geometry": polygonA}, Code: "63"},
		{Name: "another customer's terminal: nothing created", Method: "POST", Path: "/ds/fence/create", Token: tokA,
			Params: map[string]any{"name": "Sneaky", "type": "in", "shape": "polygon", "geometry": polygonA, "msIds": []string{a.Terminals[0], b.Terminals[0]}}, Code: "404"},
	})
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM fences WHERE name = 'Sneaky'`); n != 0 {
		t.Fatal("a refused fence was stored")
	}
	if n := logCount(t, s, a.Customer, 113); n != 3 {
		t.Errorf("log 113: %d", n)
	}
	testkit.APITest{Server: s}.Run(t, []testkit.Scenario{
		{Name: "list all", Method: "GET", Path: "/ds/fence/list", Token: tokA, Code: "0",
			Check: listOf[geo.Fence](3)},
		{Name: "list by type and cid", Method: "GET", Path: "/ds/fence/list", Token: tokA, Params: map[string]any{"type": "out", "cid": a.Customer}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var list []geo.Fence
				r.Into(t, &list)
				if len(list) != 2 || list[0].Type != "out" {
					t.Fatalf("%+v", list)
				}
			}},
		{Name: "list of a terminal", Method: "GET", Path: "/ds/fence/list", Token: tokA, Params: map[string]any{"msId": a.Terminals[1]}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var list []geo.Fence
				r.Into(t, &list)
				if len(list) != 1 || list[0].FenceID != fenceA {
					t.Fatalf("%+v", list)
				}
			}},
		{Name: "list of another customer", Method: "GET", Path: "/ds/fence/list", Token: tokA, Params: map[string]any{"cid": b.Customer}, Code: "404"},
		{Name: "set: add and remove", Method: "POST", Path: "/ds/fence/set", Token: tokA,
			Params: map[string]any{"fenceid": fenceA, "add": []string{a.Terminals[2]}, "remove": []string{a.Terminals[0]}}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var f geo.Fence
				r.Into(t, &f)
				if fmt.Sprint(f.Terminals) != fmt.Sprint([]string{a.Terminals[1], a.Terminals[2]}) {
					t.Fatalf("%v", f.Terminals)
				}
			}},
		{Name: "set: another customer's terminal changes nothing", Method: "POST", Path: "/ds/fence/set", Token: tokA,
			Params: map[string]any{"fenceid": fenceA, "add": []string{b.Terminals[0]}, "remove": []string{a.Terminals[1]}}, Code: "404"},
		{Name: "set on another customer's fence", Method: "POST", Path: "/ds/fence/set", Token: tokA,
			Params: map[string]any{"fenceid": fb.FenceID, "msIds": []string{}}, Code: "404"},
		{Name: "set needs a change", Method: "POST", Path: "/ds/fence/set", Token: tokA, Params: map[string]any{"fenceid": fenceA}, Code: "400"},
		{Name: "findter", Method: "GET", Path: "/ds/fence/findter", Token: tokA, Params: map[string]any{"fenceid": fenceA, "cid": a.Customer}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"msId":"`+a.Terminals[1]+`","name":"Name `+a.Terminals[1]+`","online":"0"`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "findter of another customer's fence", Method: "GET", Path: "/ds/fence/findter", Token: tokA, Params: map[string]any{"fenceid": fb.FenceID}, Code: "404"},
		{Name: "edit name and turn into a circle", Method: "PUT", Path: "/ds/fence/edit", Token: tokA,
			Params: map[string]any{"fenceid": fenceA, "name": "Depot east", "shape": "circle", "geometry": circleA, "radius": 800}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var f geo.Fence
				r.Into(t, &f)
				if f.Name != "Depot east" || f.Shape != "circle" || f.Radius != 800 || f.Type != "in" {
					t.Fatalf("%+v", f)
				}
			}},
		{Name: "edit: blank name", Method: "PUT", Path: "/ds/fence/edit", Token: tokA, Params: map[string]any{"fenceid": fenceA, "name": ""}, Code: "60"},
		{Name: "edit another customer's fence", Method: "PUT", Path: "/ds/fence/edit", Token: tokA,
			Params: map[string]any{"fenceid": fb.FenceID, "name": "Mine"}, Code: "404"},
		{Name: "delete another customer's fence (with own)", Method: "PUT", Path: "/ds/fence/del", Token: tokA,
			Params: map[string]any{"fenceid": fenceA + "," + fb.FenceID}, Code: "404"},
	})
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM fences f JOIN fence_terminals ft ON ft.fence_id = f.id WHERE f.id = ? AND f.name = 'B yard'`, fb.FenceID); n != 1 {
		t.Fatal("another customer's fence changed")
	}
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM fence_terminals WHERE fence_id = ?`, fenceA); n != 2 {
		t.Fatalf("refused set changed the terminals: %d", n)
	}

	// Alarm records: one of each customer, stored as the engine stores them.
	for _, c := range []struct {
		customer int64
		fence    string
		term     string
	}{{a.Customer, fenceA, a.Terminals[1]}, {b.Customer, fb.FenceID, b.Terminals[0]}} {
		if _, err := s.DB.Exec(context.Background(), `INSERT INTO fence_alarms (customer_id, fence_id, fence_name, fence_type,
			terminal_id, terminal_name, type, at, lat, lng) VALUES (?, ?, 'F', 'in', ?, 'T', 'leave', ?, 41, 29)`,
			c.customer, c.fence, c.term, t0); err != nil {
			t.Fatal(err)
		}
	}
	var alarmA, alarmB string
	s.DB.QueryRow(context.Background(), `SELECT id FROM fence_alarms WHERE customer_id = ?`, a.Customer).Scan(&alarmA)
	s.DB.QueryRow(context.Background(), `SELECT id FROM fence_alarms WHERE customer_id = ?`, b.Customer).Scan(&alarmB)
	march := map[string]any{"sTime": "2024-03-01 00:00:00", "eTime": "2024-03-31 23:59:59"}
	testkit.APITest{Server: s}.Run(t, []testkit.Scenario{
		{Name: "alarm records", Method: "GET", Path: "/ds/fence/fa", Token: tokA, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var res httpx.Page[geo.Alarm]
				r.Into(t, &res)
				if res.Total != 1 || res.List[0].ID != alarmA || res.List[0].Status != 0 {
					t.Fatalf("%+v", res)
				}
			}},
		{Name: "alarm records by range and terminal", Method: "GET", Path: "/ds/fence/fa", Token: tokA,
			Params: map[string]any{"sTime": march["sTime"], "eTime": march["eTime"], "msIds": a.Terminals[0]}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"total":0`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "alarm records cross-month", Method: "GET", Path: "/ds/fence/fa", Token: tokA,
			Params: map[string]any{"sTime": "2024-02-20 00:00:00", "eTime": "2024-03-02 00:00:00"}, Code: "95"},
		{Name: "respond to an alarm", Method: "PUT", Path: "/ds/fence/fa", Token: tokA, Params: map[string]any{"id": alarmA, "status": 1}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"status":1`) || !strings.Contains(string(r.Result), `"responder":"Name `+a.Dispatcher+`"`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "close another customer's alarm", Method: "PUT", Path: "/ds/fence/fa", Token: tokA, Params: map[string]any{"id": alarmB, "status": 2}, Code: "404"},
		{Name: "close (cancel) an alarm", Method: "PUT", Path: "/ds/fence/fa", Token: tokA, Params: map[string]any{"id": alarmA, "status": 2, "remark": "false alarm"}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var res struct{ List []geo.Alarm }
				r.Into(t, &res)
				al := res.List[0]
				if al.Status != 2 || al.Closer != "Name "+a.Dispatcher || al.CloseTime == 0 || al.ResponseTime == 0 || al.ResponseTime > al.CloseTime || al.Remark != "false alarm" {
					t.Fatalf("%+v", al)
				}
			}},
		{Name: "closing twice changes nothing", Method: "PUT", Path: "/ds/fence/fa", Token: tokA, Params: map[string]any{"id": alarmA, "status": 2}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if string(r.Result) != `{"list":[]}` {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "bad status", Method: "PUT", Path: "/ds/fence/fa", Token: tokA, Params: map[string]any{"id": alarmA, "status": 0}, Code: "400"},
		{Name: "alarm count by terminal", Method: "POST", Path: "/ds/report/findFenceAlarmCountPost", Token: tokA, Params: march, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var res httpx.Page[geo.AlarmCount]
				r.Into(t, &res)
				if res.Total != 1 || len(res.List) != 1 || res.List[0].MsID != a.Terminals[1] || res.List[0].Leave != 1 || res.List[0].Closed != 1 {
					t.Fatalf("%+v", res)
				}
			}},
		{Name: "alarm count by fence", Method: "POST", Path: "/ds/report/findFenceAlarmCountPost", Token: tokA,
			Params: map[string]any{"sTime": march["sTime"], "eTime": march["eTime"], "groupBy": "fence"}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"fenceid":"`+fenceA+`"`) {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "alarm count needs a range", Method: "POST", Path: "/ds/report/findFenceAlarmCountPost", Token: tokA, Params: map[string]any{}, Code: "400"},
		{Name: "alarm count of another customer's terminal finds nothing", Method: "POST", Path: "/ds/report/findFenceAlarmCountPost", Token: tokA,
			Params: map[string]any{"sTime": march["sTime"], "eTime": march["eTime"], "msIds": b.Terminals[0]}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if string(r.Result) != `{"total":0,"list":[]}` {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "delete own fence", Method: "PUT", Path: "/ds/fence/del", Token: tokA, Params: map[string]any{"fenceid": fenceA}, Code: "0"},
		{Name: "records outlive the fence", Method: "GET", Path: "/ds/fence/fa", Token: tokA, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if !strings.Contains(string(r.Result), `"total":1`) {
					t.Fatalf("%s", r.Result)
				}
			}},
	})
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM fence_alarms WHERE id = ? AND status = 0`, alarmB); n != 1 {
		t.Error("another customer's alarm changed")
	}
	for typ, want := range map[int]int{114: 1, 115: 2, 127: 1} {
		if n := logCount(t, s, a.Customer, typ); n != want {
			t.Errorf("log %d: %d, want %d", typ, n, want)
		}
	}
}
