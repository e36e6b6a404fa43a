package patrol_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/patrol"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

const wait = 5 * time.Second

// base is the patrol clock's start in the tests: 08:00 UTC (the seeded customers' zone) on a fixed day, so
// classes of the day lie ahead whatever hour the suite runs at.
var base = time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)

// env is a running server with a controllable patrol clock and two customers, each signed in to patrol.
type env struct {
	t     *testing.T
	s     *testkit.Server
	f     safetytest.Fleet
	other safetytest.Fleet
	tok   string // patrol token of f's dispatcher
	otok  string // patrol token of other's dispatcher
	ctok  string // console (dispatch) token of f's dispatcher
	clock *testkit.Clock
}

func newEnv(t *testing.T, engine string) *env {
	s := testkit.StartOn(t, engine)
	e := &env{t: t, s: s, clock: testkit.NewClock(base)}
	s.Patrol.SetClock(e.clock.Now)
	e.f = safetytest.Seed(t, s.DB, 4, "")
	e.other = safetytest.Seed(t, s.DB, 1, "")
	e.tok = e.login(e.f.Dispatcher)
	e.otok = e.login(e.other.Dispatcher)
	e.ctok = e.f.Token(t, s.DB)
	return e
}

// eachEnv runs fn on a fresh env on every engine: the opening of each patrol scenario.
func eachEnv(t *testing.T, fn func(t *testing.T, e *env)) {
	testkit.EachEngine(t, func(t *testing.T, engine string) { fn(t, newEnv(t, engine)) })
}

// at moves the patrol clock by d and runs an engine pass.
func (e *env) at(d time.Duration) {
	e.t.Helper()
	e.clock.Add(d)
	if err := e.s.Patrol.Tick(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// to sets the patrol clock to base + d and runs an engine pass.
func (e *env) to(d time.Duration) {
	e.t.Helper()
	e.at(base.Add(d).Sub(e.clock.Now()))
}

func (e *env) login(ms string) string {
	e.t.Helper()
	var res struct{ Token string }
	e.do(http.MethodPost, "sysUsers/login", "", map[string]any{"username": ms, "password": testkit.Password}).Want(e.t, patrol.SuccessCode, &res)
	return res.Token
}

func (e *env) do(method, path, tok string, params map[string]any) testkit.Reply {
	e.t.Helper()
	return testkit.Do(e.t, e.s.URL, method, patrol.Base+path, tok, params)
}

// ok calls the patrol service as f's dispatcher and decodes the result into out (may be nil).
func (e *env) ok(method, path string, params map[string]any, out any) {
	e.t.Helper()
	e.do(method, path, e.tok, params).Want(e.t, patrol.SuccessCode, out)
}

func (e *env) area(name string) patrol.AreaID {
	e.t.Helper()
	var a patrol.Area
	e.ok(http.MethodPost, "tbPatrolArea/add", map[string]any{"name": name}, &a)
	return a.ID
}

// lat of point i of the fixtures: points lie 0.001° (≈111 m) apart on a meridian, radius 30 m.
func lat(i int) float64 { return 41 + float64(i)*0.001 }

func (e *env) point(area patrol.AreaID, i int) patrol.PointID {
	e.t.Helper()
	var p patrol.Point
	e.ok(http.MethodPost, "tbPatrolPoint/add", map[string]any{"name": fmt.Sprintf("P%d", i), "nfcValue": fmt.Sprintf("TAG-%d", i),
		"areaId": area, "lat": lat(i), "lng": 29.0, "radius": 30}, &p)
	return p.ID
}

func (e *env) route(area patrol.AreaID, name string, pts ...patrol.PointID) patrol.RouteID {
	e.t.Helper()
	var r patrol.Route
	e.ok(http.MethodPost, "tbPatrolRoute/add", map[string]any{"name": name, "areaId": area, "routePoints": pts}, &r)
	return r.ID
}

// walk makes the area a walking scenario patrols: points 1, 2 and 3 (see lat) and one route through them in order.
func (e *env) walk(area, route string) (patrol.AreaID, patrol.RouteID, []patrol.PointID) {
	e.t.Helper()
	a := e.area(area)
	p := []patrol.PointID{e.point(a, 1), e.point(a, 2), e.point(a, 3)}
	return a, e.route(a, route, p...), p
}

func (e *env) users(ms ...string) {
	e.t.Helper()
	e.ok(http.MethodPost, "sysUsers/addUserByNms", map[string]any{"msIds": ms}, nil)
}

// class is a plan class for the request.
func class(name, from, to, ms string) map[string]any {
	return map[string]any{"name": name, "startTime": from, "endTime": to, "msId": ms}
}

func (e *env) plan(name string, area patrol.AreaID, route patrol.RouteID, from, to string, classes ...map[string]any) patrol.Plan {
	e.t.Helper()
	var p patrol.Plan
	e.ok(http.MethodPost, "tbPatrolPlan/add", map[string]any{"name": name, "model": 2, "type": "0", "startDate": from, "endDate": to,
		"areaId": area, "routeId": route, "classes": classes}, &p)
	return p
}

// orders lists the orders of f whose class starts on the fixture's day (and the next).
func (e *env) orders() []patrol.Order {
	e.t.Helper()
	var page httpx.Page[patrol.Order]
	e.ok(http.MethodGet, "tbPatrolOrder/list", map[string]any{"pageSize": 10000, "model": 2, "startDate": "2026-11-26",
		"endDate": "2026-11-27"}, &page)
	return page.List
}

func (e *env) order(id patrol.OrderID) patrol.Order {
	e.t.Helper()
	for _, o := range e.orders() {
		if o.ID == id {
			return o
		}
	}
	e.t.Fatalf("order %d not listed", id)
	return patrol.Order{}
}

// principal is terminal i of f as the socket knows it.
func (e *env) principal(i int) identity.Principal {
	return identity.Principal{AccountID: e.f.Terminals[i], CustomerID: e.f.CustomerID, Type: "10", Name: fmt.Sprintf("Unit %d", i+1)}
}

// punch punches by tag value as terminal i.
func (e *env) punch(i int, tag string) (patrol.PunchResult, error) {
	return e.s.Patrol.Punch(context.Background(), e.principal(i), patrol.PunchInput{Method: patrol.MethodNFC, Value: tag})
}

func (e *env) mustPunch(i int, tag string) patrol.PunchResult {
	e.t.Helper()
	r, err := e.punch(i, tag)
	if err != nil {
		e.t.Fatalf("punch %s by %d: %v", tag, i, err)
	}
	return r
}

func (e *env) count(table string) int {
	e.t.Helper()
	return testkit.Count(e.t, e.s.DB, `SELECT COUNT(*) FROM `+table)
}

// state are the tables a refused call must leave as they were.
var state = []string{"patrol_users", "patrol_areas", "patrol_points", "patrol_routes", "patrol_route_points", "patrol_plans",
	"patrol_plan_classes", "patrol_orders", "patrol_order_points", "patrol_order_logs"}

func (e *env) api() testkit.APITest {
	return testkit.APITest{Server: e.s, State: state, Success: patrol.SuccessCode, Token: func(a string) string {
		switch a {
		case "A":
			return e.tok
		case "O":
			return e.otok
		case "C":
			return e.ctok
		}
		return a
	}}
}
