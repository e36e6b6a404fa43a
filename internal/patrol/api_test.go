package patrol_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/patrol"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/testkit"
)

const (
	GET    = http.MethodGet
	POST   = http.MethodPost
	PUT    = http.MethodPut
	DELETE = http.MethodDelete
	OK     = patrol.SuccessCode
)

func P(path string) string { return patrol.Base + path }

// result decodes a reply's result.
func result[T any](t *testing.T, r testkit.Reply) T {
	t.Helper()
	var v T
	r.Into(t, &v)
	return v
}

// sysUsers/poc/findAccountByPoC, sysUsers/login and the patrol token: a dispatcher's PoC account opens the
// patrol service; its token opens nothing else and expires into 1011.
func TestAuthScenarios(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *env) {
		T := e.f.Terminals
		cred := func(u, p string) map[string]any { return map[string]any{"username": u, "password": p} }
		e.api().Run(t, []testkit.Scenario{
			{Name: "find: the dispatcher's PoC account", Method: GET, Path: P("sysUsers/poc/findAccountByPoC"),
				Params: cred(e.f.Dispatcher, testkit.Password), Code: OK, Check: func(t *testing.T, r testkit.Reply) {
					u := result[patrol.User](t, r)
					if u.Username != e.f.Dispatcher || u.PocAccount != e.f.Dispatcher || u.Role != "dispatcher" || u.ID == 0 {
						t.Fatalf("user %+v", u)
					}
				}},
			{Name: "find: wrong password", Method: GET, Path: P("sysUsers/poc/findAccountByPoC"),
				Params: cred(e.f.Dispatcher, "654321"), Code: "2", Changes: true /* counts toward the lockout */},
			{Name: "find: no password", Method: GET, Path: P("sysUsers/poc/findAccountByPoC"),
				Params: map[string]any{"username": e.f.Dispatcher}, Code: "400"},
			{Name: "find: no username", Method: GET, Path: P("sysUsers/poc/findAccountByPoC"),
				Params: map[string]any{"password": testkit.Password}, Code: "400"},
			{Name: "find: a terminal's account", Method: GET, Path: P("sysUsers/poc/findAccountByPoC"),
				Params: cred(T[0], testkit.Password), Code: "6"},
			{Name: "find: unknown account", Method: GET, Path: P("sysUsers/poc/findAccountByPoC"),
				Params: cred("99999999", testkit.Password), Code: "104"},
			{Name: "login: wrong password", Method: POST, Path: P("sysUsers/login"),
				Params: cred(e.f.Dispatcher, "000000"), Code: "2", Changes: true},
			{Name: "login: a terminal's account", Method: POST, Path: P("sysUsers/login"),
				Params: cred(T[1], testkit.Password), Code: "6"},
			{Name: "login", Method: POST, Path: P("sysUsers/login"), Params: cred(e.f.Dispatcher, testkit.Password), Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					res := result[struct {
						Token    string
						UserInfo patrol.User
					}](t, r)
					if res.Token == "" || res.UserInfo.Username != e.f.Dispatcher {
						t.Fatalf("login %s", r.Result)
					}
				}},
			{Name: "a call without a token", Method: GET, Path: P("tbPatrolArea/list"), Code: "1011", Status: 401},
			{Name: "a call with a console token", Method: GET, Path: P("tbPatrolArea/list"), Token: "C", Code: "1011", Status: 401},
			{Name: "a call with a made-up token", Method: GET, Path: P("tbPatrolArea/list"), Token: "nonsense", Code: "1011"},
			{Name: "a call with the patrol token", Method: GET, Path: P("tbPatrolArea/list"), Token: "A", Code: OK},
			{Name: "the patrol token does not open the dispatch service", Method: GET, Path: "/ds/loneWork/list", Token: "A",
				Code: "105"},
		})
		// The patrol token lives for a day (auth.TokenTTL), then answers 1011; signing in again gives a new one.
		e.s.Auth.SetClock(func() time.Time { return time.Now().Add(25 * time.Hour) })
		if r := e.do(GET, "tbPatrolArea/list", e.tok, nil); r.Code != "1011" {
			t.Fatalf("expired patrol token: %s", r.Code)
		}
		if r := e.do(GET, "tbPatrolArea/list", e.login(e.f.Dispatcher), nil); r.Code != OK {
			t.Fatalf("after re-login: %s %s", r.Code, r.Msg)
		}
		e.s.Auth.SetClock(nil)
		if n := e.count("patrol_users"); n != 2 {
			t.Fatalf("%d patrol users, want the two dispatchers", n)
		}
	})
}

// sysUsers/addUserByNms and sysUsers/list.
func TestUserScenarios(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *env) {
		T := e.f.Terminals
		e.api().Run(t, []testkit.Scenario{
			{Name: "add: none", Method: POST, Path: P("sysUsers/addUserByNms"), Token: "A", Params: map[string]any{"msIds": []string{}}, Code: "400"},
			{Name: "add: a dispatcher", Method: POST, Path: P("sysUsers/addUserByNms"), Token: "A",
				Params: map[string]any{"msIds": []string{T[0], e.f.Dispatcher}}, Code: "404"},
			{Name: "add: another customer's terminal", Method: POST, Path: P("sysUsers/addUserByNms"), Token: "A",
				Params: map[string]any{"msIds": []string{e.other.Terminals[0]}}, Code: "404"},
			{Name: "add: no token", Method: POST, Path: P("sysUsers/addUserByNms"), Params: map[string]any{"msIds": []string{T[0]}}, Code: "1011"},
			{Name: "add: three terminals, a comma list", Method: POST, Path: P("sysUsers/addUserByNms"), Token: "A",
				Params: map[string]any{"msIds": T[0] + "," + T[1] + "," + T[2]}, Code: OK, Check: func(t *testing.T, r testkit.Reply) {
					p := result[httpx.Page[patrol.User]](t, r)
					if p.Total != 3 || p.List[0].Name != "Unit 1" || p.List[0].Role != "terminal" {
						t.Fatalf("added %s", r.Result)
					}
				}},
			{Name: "add: again (nothing new)", Method: POST, Path: P("sysUsers/addUserByNms"), Token: "A",
				Params: map[string]any{"pocAccount": T[0]}, Code: OK},
			{Name: "list", Method: GET, Path: P("sysUsers/list"), Token: "A", Code: OK, Check: func(t *testing.T, r testkit.Reply) {
				if p := result[httpx.Page[patrol.User]](t, r); p.Total != 4 { // three terminals and the dispatcher
					t.Fatalf("list %s", r.Result)
				}
			}},
			{Name: "list by name", Method: GET, Path: P("sysUsers/list"), Token: "A", Params: map[string]any{"name": "unit 2"}, Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					if p := result[httpx.Page[patrol.User]](t, r); p.Total != 1 || p.List[0].Username != T[1] {
						t.Fatalf("list %s", r.Result)
					}
				}},
			{Name: "list by pocAccount", Method: GET, Path: P("sysUsers/list"), Token: "A", Params: map[string]any{"pocAccount": T[2]}, Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					if p := result[httpx.Page[patrol.User]](t, r); p.Total != 1 || p.List[0].Name != "Unit 3" {
						t.Fatalf("list %s", r.Result)
					}
				}},
			{Name: "the other customer sees only its own", Method: GET, Path: P("sysUsers/list"), Token: "O", Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					if p := result[httpx.Page[patrol.User]](t, r); p.Total != 1 || p.List[0].Username != e.other.Dispatcher {
						t.Fatalf("other's list %s", r.Result)
					}
				}},
			{Name: "list: bad page size", Method: GET, Path: P("sysUsers/list"), Token: "A", Params: map[string]any{"pageSize": 0}, Code: "400"},
		})
	})
}

// Areas and points: names and NFC values unique per area (checkPointName, checkPointNfc), positions and radii,
// points in a route cannot go.
func TestAreaAndPointScenarios(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *env) {
		a1 := e.area("North")
		a2 := e.area("South")
		p1 := e.point(a1, 1)
		p2 := e.point(a1, 2)
		e.route(a1, "R", p1)
		pt := testkit.Variants(map[string]any{"name": "Gate", "nfcValue": "TAG-GATE", "areaId": a1, "lat": 41.5, "lng": 29.5})
		avail := func(want bool) func(t *testing.T, r testkit.Reply) {
			return func(t *testing.T, r testkit.Reply) {
				if got := result[map[string]bool](t, r)["available"]; got != want {
					t.Fatalf("available %v, want %v", got, want)
				}
			}
		}
		e.api().Run(t, []testkit.Scenario{
			{Name: "area: the same name", Method: POST, Path: P("tbPatrolArea/add"), Token: "A", Params: map[string]any{"name": "North"}, Code: "1020"},
			{Name: "area: no name", Method: POST, Path: P("tbPatrolArea/add"), Token: "A", Params: map[string]any{"name": " "}, Code: "400"},
			{Name: "area: control characters", Method: POST, Path: P("tbPatrolArea/add"), Token: "A", Params: map[string]any{"name": "a\u0007b"}, Code: "1027"},
			{Name: "area: the other customer may use the name", Method: POST, Path: P("tbPatrolArea/add"), Token: "O",
				Params: map[string]any{"name": "North"}, Code: OK},
			{Name: "area: rename", Method: PUT, Path: P("tbPatrolArea/edit"), Token: "A", Params: map[string]any{"id": a2, "name": "South yard",
				"remark": "by the river"}, Code: OK, Contains: []string{`"South yard"`, `"by the river"`}},
			{Name: "area: another customer's", Method: PUT, Path: P("tbPatrolArea/edit"), Token: "O", Params: map[string]any{"id": a2, "name": "X"}, Code: "404"},
			{Name: "area: list", Method: GET, Path: P("tbPatrolArea/list"), Token: "A", Code: OK, Check: func(t *testing.T, r testkit.Reply) {
				p := result[httpx.Page[patrol.Area]](t, r)
				if p.Total != 2 || p.List[0].Name != "North" || p.List[0].Points != 2 || p.List[0].Routes != 1 {
					t.Fatalf("areas %s", r.Result)
				}
			}},
			{Name: "area: delete one with points", Method: DELETE, Path: P("tbPatrolArea/deleteBatch"), Token: "A",
				Params: map[string]any{"ids": a1}, Code: "1022"},

			{Name: "point: no token", Method: POST, Path: P("tbPatrolPoint/add"), Params: pt(nil), Code: "1011"},
			{Name: "point: no name", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A", Params: pt(map[string]any{"name": nil}), Code: "400"},
			{Name: "point: name too long", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A",
				Params: pt(map[string]any{"name": "123456789012345678901234567890123456789012345678901"}), Code: "400"},
			{Name: "point: no NFC value", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A", Params: pt(map[string]any{"nfcValue": ""}), Code: "400"},
			{Name: "point: no position", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A", Params: pt(map[string]any{"lat": nil}), Code: "400"},
			{Name: "point: off the globe", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A", Params: pt(map[string]any{"lat": 91}), Code: "400"},
			{Name: "point: radius too small", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A", Params: pt(map[string]any{"radius": 1}), Code: "400"},
			{Name: "point: type other than 0", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A", Params: pt(map[string]any{"type": "1"}), Code: "400"},
			{Name: "point: no area", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A", Params: pt(map[string]any{"areaId": nil}), Code: "400"},
			{Name: "point: another customer's area", Method: POST, Path: P("tbPatrolPoint/add"), Token: "O", Params: pt(nil), Code: "404"},
			{Name: "point: a name of the area", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A", Params: pt(map[string]any{"name": "P1"}), Code: "1020"},
			{Name: "point: an NFC value of the area", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A",
				Params: pt(map[string]any{"nfcValue": "TAG-2"}), Code: "1021"},
			{Name: "point: add", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A", Params: pt(nil), Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					p := result[patrol.Point](t, r)
					if p.ID == 0 || p.Radius != patrol.DefaultRadius || p.Type != "0" || p.AreaName != "North" || p.Lat != 41.5 {
						t.Fatalf("point %s", r.Result)
					}
				}},
			{Name: "point: the same name and NFC value in another area", Method: POST, Path: P("tbPatrolPoint/add"), Token: "A",
				Params: pt(map[string]any{"areaId": a2, "radius": 80}), Code: OK},
			{Name: "checkPointName: taken", Method: GET, Path: P("tbPatrolPoint/checkPointName"), Token: "A",
				Params: map[string]any{"name": "P1", "areaId": a1}, Code: OK, Check: avail(false)},
			{Name: "checkPointName: free", Method: GET, Path: P("tbPatrolPoint/checkPointName"), Token: "A",
				Params: map[string]any{"name": "P9", "areaId": a1}, Code: OK, Check: avail(true)},
			{Name: "checkPointName: its own name when editing", Method: GET, Path: P("tbPatrolPoint/checkPointName"), Token: "A",
				Params: map[string]any{"name": "P1", "areaId": a1, "id": p1}, Code: OK, Check: avail(true)},
			{Name: "checkPointName: no area", Method: GET, Path: P("tbPatrolPoint/checkPointName"), Token: "A",
				Params: map[string]any{"name": "P1"}, Code: "400"},
			{Name: "checkPointNfc: taken", Method: GET, Path: P("tbPatrolPoint/checkPointNfc"), Token: "A",
				Params: map[string]any{"nfcValue": "TAG-1", "areaId": a1}, Code: OK, Check: avail(false)},
			{Name: "checkPointNfc: free in the other area", Method: GET, Path: P("tbPatrolPoint/checkPointNfc"), Token: "A",
				Params: map[string]any{"nfcValue": "TAG-1", "areaId": a2}, Code: OK, Check: avail(true)},
			{Name: "checkPointNfc: no value", Method: GET, Path: P("tbPatrolPoint/checkPointNfc"), Token: "A",
				Params: map[string]any{"areaId": a2}, Code: "400"},
			{Name: "checkPointNfc: another customer's area", Method: GET, Path: P("tbPatrolPoint/checkPointNfc"), Token: "O",
				Params: map[string]any{"nfcValue": "X", "areaId": a1}, Code: "404"},
			{Name: "edit: to another point's NFC value", Method: PUT, Path: P("tbPatrolPoint/edit"), Token: "A",
				Params: map[string]any{"id": p1, "name": "P1", "nfcValue": "TAG-2", "areaId": a1, "lat": lat(1), "lng": 29}, Code: "1021"},
			{Name: "edit: a point of a route to another area", Method: PUT, Path: P("tbPatrolPoint/edit"), Token: "A",
				Params: map[string]any{"id": p1, "name": "P1", "nfcValue": "TAG-1", "areaId": a2, "lat": lat(1), "lng": 29}, Code: "1022"},
			{Name: "edit: unknown point", Method: PUT, Path: P("tbPatrolPoint/edit"), Token: "A",
				Params: map[string]any{"id": 99999, "name": "P1", "nfcValue": "TAG-1", "areaId": a1, "lat": lat(1), "lng": 29}, Code: "404"},
			{Name: "edit: name, position and radius", Method: PUT, Path: P("tbPatrolPoint/edit"), Token: "A",
				Params: map[string]any{"id": p1, "name": "Main gate", "nfcValue": "TAG-1", "areaId": a1, "lat": 41.2, "lng": 29.2, "radius": 40},
				Code:   OK, Contains: []string{`"Main gate"`, `"radius":40`}},
			{Name: "list: one area, a page", Method: GET, Path: P("tbPatrolPoint/list"), Token: "A",
				Params: map[string]any{"areaId": a1, "pageNo": 1, "pageSize": 2}, Code: OK, Check: func(t *testing.T, r testkit.Reply) {
					p := result[httpx.Page[patrol.Point]](t, r)
					if p.Total != 3 || len(p.List) != 2 {
						t.Fatalf("points %s", r.Result)
					}
				}},
			{Name: "list: by name", Method: GET, Path: P("tbPatrolPoint/list"), Token: "A", Params: map[string]any{"name": "Gate"}, Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					if p := result[httpx.Page[patrol.Point]](t, r); p.Total != 3 { // Main gate, Gate ×2
						t.Fatalf("points %s", r.Result)
					}
				}},
			{Name: "list: page size above 1000", Method: GET, Path: P("tbPatrolPoint/list"), Token: "A", Params: map[string]any{"pageSize": 1001}, Code: "400"},
			{Name: "list: the other customer's is empty", Method: GET, Path: P("tbPatrolPoint/list"), Token: "O", Code: OK, Contains: []string{`"total":0`}},
			{Name: "delete: a point of a route", Method: DELETE, Path: P("tbPatrolPoint/deleteBatch"), Token: "A",
				Params: map[string]any{"ids": idList(p2, p1)}, Code: "1022"},
			{Name: "delete: unknown", Method: DELETE, Path: P("tbPatrolPoint/deleteBatch"), Token: "A",
				Params: map[string]any{"ids": idList(p2, 99999)}, Code: "404"},
			{Name: "delete: not ids", Method: DELETE, Path: P("tbPatrolPoint/deleteBatch"), Token: "A", Params: map[string]any{"ids": "a,b"}, Code: "400"},
			{Name: "delete: another customer's", Method: DELETE, Path: P("tbPatrolPoint/deleteBatch"), Token: "O",
				Params: map[string]any{"ids": idList(p2)}, Code: "404"},
			{Name: "delete", Method: DELETE, Path: P("tbPatrolPoint/deleteBatch"), Token: "A", Params: map[string]any{"ids": idList(p2)}, Code: OK},
			{Name: "area: delete an empty one", Method: POST, Path: P("tbPatrolArea/add"), Token: "A", Params: map[string]any{"name": "Empty"}, Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					a := result[patrol.Area](t, r)
					if d := e.do(DELETE, "tbPatrolArea/deleteBatch", e.tok, map[string]any{"ids": a.ID}); d.Code != OK {
						t.Fatalf("delete: %s %s", d.Code, d.Msg)
					}
					if _, err := e.s.Patrol.Store().Area(context.Background(), e.f.CustomerID, a.ID); err == nil {
						t.Fatal("the area is still there")
					}
				}},
		})
		if n := e.count("patrol_points"); n != 3 {
			t.Fatalf("%d points, want 3", n)
		}
	})
}

func idList[T ~int64](ids ...T) string {
	b, _ := json.Marshal(ids)
	s := string(b)
	return s[1 : len(s)-1]
}

// TestMain: the patrol fixture's dispatcher and guards make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
