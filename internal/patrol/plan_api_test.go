package patrol_test

import (
	"testing"
	"time"

	"tenfour/internal/patrol"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/testkit"
)

// Routes (ordered points of one area) and plans (model 2, date range, classes of patrol users), their lists,
// and deletions that would break what uses them.
func TestRouteAndPlanScenarios(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *env) {
		T := e.f.Terminals
		a1, a2 := e.area("North"), e.area("South")
		p1, p2, p3 := e.point(a1, 1), e.point(a1, 2), e.point(a1, 3)
		q1 := e.point(a2, 11)
		e.users(T[0], T[1])
		var r1, r2 patrol.RouteID
		rt := testkit.Variants(map[string]any{"name": "Night round", "areaId": a1, "routePoints": []any{p3, p1, p2}})
		pl := func(extra map[string]any) map[string]any { // r1 is set by the route scenarios before the plans run
			return testkit.Variants(map[string]any{"name": "Winter", "model": 2, "type": "0", "startDate": "2026-11-26",
				"endDate": "2026-12-31", "areaId": a1, "routeId": r1,
				"classes": []any{class("Morning", "09:00", "10:00", T[0]), class("Night", "22:00", "06:00", T[1])}})(extra)
		}
		var plan patrol.Plan
		e.api().Run(t, []testkit.Scenario{
			{Name: "route: no points", Method: POST, Path: P("tbPatrolRoute/add"), Token: "A", Params: rt(map[string]any{"routePoints": []any{}}), Code: "400"},
			{Name: "route: a point twice", Method: POST, Path: P("tbPatrolRoute/add"), Token: "A",
				Params: rt(map[string]any{"routePoints": []any{p1, p2, p1}}), Code: "400"},
			{Name: "route: a point of another area", Method: POST, Path: P("tbPatrolRoute/add"), Token: "A",
				Params: rt(map[string]any{"routePoints": []any{p1, q1}}), Code: "1023"},
			{Name: "route: an unknown point", Method: POST, Path: P("tbPatrolRoute/add"), Token: "A",
				Params: rt(map[string]any{"routePoints": []any{p1, 99999}}), Code: "404"},
			{Name: "route: another customer's points", Method: POST, Path: P("tbPatrolRoute/add"), Token: "O", Params: rt(nil), Code: "404"},
			{Name: "route: no token", Method: POST, Path: P("tbPatrolRoute/add"), Params: rt(nil), Code: "1011"},
			{Name: "route: add", Method: POST, Path: P("tbPatrolRoute/add"), Token: "A", Params: rt(nil), Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					rr := result[patrol.Route](t, r)
					r1 = rr.ID
					if len(rr.RoutePoints) != 3 || rr.RoutePoints[0].ID != p3 || rr.RoutePoints[2].ID != p2 || rr.RoutePoints[0].Seq != 1 {
						t.Fatalf("route %s", r.Result)
					}
				}},
			{Name: "route: the same name in the area", Method: POST, Path: P("tbPatrolRoute/add"), Token: "A", Params: rt(nil), Code: "1020"},
			{Name: "route: a second one", Method: POST, Path: P("tbPatrolRoute/add"), Token: "A",
				Params: rt(map[string]any{"name": "Day round", "routePoints": p1}), Code: OK,
				Check: func(t *testing.T, r testkit.Reply) { r2 = result[patrol.Route](t, r).ID }},
			{Name: "route: list (newest first)", Method: GET, Path: P("tbPatrolRoute/list"), Token: "A",
				Params: map[string]any{"type": 0, "pageNo": 1, "pageSize": 100, "order": "desc", "column": "id"}, Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					p := result[httpx.Page[patrol.Route]](t, r)
					if p.Total != 2 || p.List[0].Name != "Day round" || len(p.List[1].RoutePoints) != 3 {
						t.Fatalf("routes %s", r.Result)
					}
				}},
			{Name: "route: list by name", Method: GET, Path: P("tbPatrolRoute/list"), Token: "A", Params: map[string]any{"name": "night"}, Code: OK,
				Contains: []string{`"total":1`, `"Night round"`}},
			{Name: "route: list, bad order", Method: GET, Path: P("tbPatrolRoute/list"), Token: "A", Params: map[string]any{"order": "up"}, Code: "400"},
			{Name: "route: list, bad column", Method: GET, Path: P("tbPatrolRoute/list"), Token: "A", Params: map[string]any{"column": "name"}, Code: "400"},
			{Name: "route: list, bad type", Method: GET, Path: P("tbPatrolRoute/list"), Token: "A", Params: map[string]any{"type": 1}, Code: "400"},
			{Name: "queryPointById: not an id", Method: GET, Path: P("tbPatrolRoute/queryPointById"), Token: "A", Params: map[string]any{"id": 0}, Code: "400"},
			{Name: "queryPointById: another customer's", Method: GET, Path: P("tbPatrolRoute/queryPointById"), Token: "O",
				Params: map[string]any{"id": 1}, Code: "404"},
		})
		e.api().Run(t, []testkit.Scenario{
			{Name: "plan: model 1", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A", Params: pl(map[string]any{"model": 1}), Code: "400"},
			{Name: "plan: no start date", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A", Params: pl(map[string]any{"startDate": nil}), Code: "400"},
			{Name: "plan: bad date", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A", Params: pl(map[string]any{"endDate": "31/12/2026"}), Code: "400"},
			{Name: "plan: end before start", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A",
				Params: pl(map[string]any{"startDate": "2026-12-01", "endDate": "2026-11-30"}), Code: "1025"},
			{Name: "plan: ended already", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A",
				Params: pl(map[string]any{"startDate": "2026-11-01", "endDate": "2026-11-25"}), Code: "1025"},
			{Name: "plan: no classes", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A", Params: pl(map[string]any{"classes": []any{}}), Code: "400"},
			{Name: "plan: a class ending as it starts", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A",
				Params: pl(map[string]any{"classes": []any{class("A", "09:00", "09:00", T[0])}}), Code: "1024"},
			{Name: "plan: a bad time", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A",
				Params: pl(map[string]any{"classes": []any{class("A", "9h", "10:00", T[0])}}), Code: "1024"},
			{Name: "plan: overlapping classes", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A",
				Params: pl(map[string]any{"classes": []any{class("A", "09:00", "11:00", T[0]), class("B", "10:00", "12:00", T[1])}}), Code: "1024"},
			{Name: "plan: a night class overlapping the next morning's", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A",
				Params: pl(map[string]any{"classes": []any{class("A", "05:00", "07:00", T[0]), class("N", "22:00", "06:00", T[1])}}), Code: "1024"},
			{Name: "plan: a terminal that is no patrol user", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A",
				Params: pl(map[string]any{"classes": []any{class("A", "09:00", "10:00", T[3])}}), Code: "1026"},
			{Name: "plan: a route of another area", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A",
				Params: pl(map[string]any{"areaId": a2}), Code: "1023"},
			{Name: "plan: an unknown route", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A",
				Params: pl(map[string]any{"routeId": 99999}), Code: "404"},
			{Name: "plan: add", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A", Params: pl(nil), Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					plan = result[patrol.Plan](t, r)
					if plan.Model != 2 || len(plan.Classes) != 2 || plan.Classes[1].MsName != "Unit 2" || plan.RouteName != "Night round" {
						t.Fatalf("plan %s", r.Result)
					}
				}},
			{Name: "plan: the same name", Method: POST, Path: P("tbPatrolPlan/add"), Token: "A", Params: pl(nil), Code: "1020"},
			{Name: "plan: list of the days", Method: GET, Path: P("tbPatrolPlan/list"), Token: "A",
				Params: map[string]any{"model": 2, "dtStart": "2026-12-01", "dtEnd": "2026-12-31"}, Code: OK, Contains: []string{`"total":1`}},
			{Name: "plan: list of days after it", Method: GET, Path: P("tbPatrolPlan/list"), Token: "A",
				Params: map[string]any{"model": 2, "dtStart": "2027-01-01", "dtEnd": "2027-01-31"}, Code: OK, Contains: []string{`"total":0`}},
			{Name: "plan: list, start after end", Method: GET, Path: P("tbPatrolPlan/list"), Token: "A",
				Params: map[string]any{"dtStart": "2027-01-31", "dtEnd": "2027-01-01"}, Code: "93"},
			{Name: "route: delete one a plan uses", Method: DELETE, Path: P("tbPatrolRoute/deleteBatch"), Token: "A",
				Params: map[string]any{"ids": r1}, Code: "1022"},
			{Name: "queryPointById", Method: GET, Path: P("tbPatrolRoute/queryPointById"), Token: "A", Params: map[string]any{"id": r1}, Code: OK,
				Check: func(t *testing.T, r testkit.Reply) {
					pts := result[[]patrol.RoutePoint](t, r)
					if len(pts) != 3 || pts[0].ID != p3 || pts[1].ID != p1 || pts[2].ID != p2 || pts[2].Seq != 3 || pts[0].NfcValue != "TAG-3" {
						t.Fatalf("route points %s", r.Result)
					}
				}},
			{Name: "route: delete one no plan uses", Method: DELETE, Path: P("tbPatrolRoute/deleteBatch"), Token: "A",
				Params: map[string]any{"ids": r2}, Code: OK, Check: func(t *testing.T, r testkit.Reply) {
					if n := e.count("patrol_routes"); n != 1 {
						t.Fatalf("%d routes left", n)
					}
				}},
		})
		// The plan's orders of today and tomorrow exist at once: Morning today and tomorrow, Night today and tomorrow.
		orders := e.orders()
		if len(orders) != 4 {
			t.Fatalf("%d orders, want 4: %+v", len(orders), orders)
		}
		o := orders[0]
		if o.ClassName != "Morning" || o.Day != "2026-11-26" || o.MsID != T[0] || o.MsName != "Unit 1" || o.Total != 3 || o.State != patrol.Waiting ||
			o.StartTime != base.Add(time.Hour).UnixMilli() || o.EndTime != base.Add(2*time.Hour).UnixMilli() {
			t.Fatalf("first order %+v", o)
		}
		night := orders[1]
		if night.ClassName != "Night" || night.EndTime != time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC).UnixMilli() {
			t.Fatalf("night order %+v", night)
		}
		e.api().Run(t, []testkit.Scenario{
			{Name: "order points", Method: GET, Path: P("tbOrderPoint/queryPointsByOrderId"), Token: "A", Params: map[string]any{"orderId": o.ID},
				Code: OK, Check: func(t *testing.T, r testkit.Reply) {
					pts := result[[]patrol.OrderPoint](t, r)
					if len(pts) != 3 || pts[0].PointID != p3 || pts[0].NfcValue != "TAG-3" || pts[0].State != patrol.PointWaiting {
						t.Fatalf("order points %s", r.Result)
					}
				}},
			{Name: "order points: another customer's order", Method: GET, Path: P("tbOrderPoint/queryPointsByOrderId"), Token: "O",
				Params: map[string]any{"orderId": o.ID}, Code: "404"},
			{Name: "order points: no order id", Method: GET, Path: P("tbOrderPoint/queryPointsByOrderId"), Token: "A", Code: "400"},
			{Name: "orders: by terminal and state", Method: GET, Path: P("tbPatrolOrder/list"), Token: "A",
				Params: map[string]any{"pageSize": 10000, "model": 2, "startDate": "2026-11-26", "endDate": "2026-11-26", "msId": T[1], "state": 0},
				Code:   OK, Contains: []string{`"total":1`, `"Night"`}},
			{Name: "orders: no start date", Method: GET, Path: P("tbPatrolOrder/list"), Token: "A",
				Params: map[string]any{"endDate": "2026-11-26"}, Code: "400"},
			{Name: "orders: page size above 10000", Method: GET, Path: P("tbPatrolOrder/list"), Token: "A",
				Params: map[string]any{"pageSize": 10001, "startDate": "2026-11-26", "endDate": "2026-11-26"}, Code: "400"},
			{Name: "orders: end before start", Method: GET, Path: P("tbPatrolOrder/list"), Token: "A",
				Params: map[string]any{"startDate": "2026-11-27", "endDate": "2026-11-26"}, Code: "93"},
			{Name: "orders: a bad state", Method: GET, Path: P("tbPatrolOrder/list"), Token: "A",
				Params: map[string]any{"startDate": "2026-11-26", "endDate": "2026-11-26", "state": 3}, Code: "400"},
			{Name: "orders: the other customer has none", Method: GET, Path: P("tbPatrolOrder/list"), Token: "O",
				Params: map[string]any{"startDate": "2026-11-26", "endDate": "2026-11-27"}, Code: OK, Contains: []string{`"total":0`}},
			{Name: "order logs: no range", Method: GET, Path: P("tbOrderLog/list"), Token: "A", Params: map[string]any{"msId": T[0]}, Code: "400"},
			{Name: "order logs: across a month", Method: GET, Path: P("tbOrderLog/list"), Token: "A",
				Params: map[string]any{"startTime": "2026-11-26 00:00:00", "endTime": "2026-12-02 00:00:00"}, Code: "95"},
			{Name: "order logs: a bad state", Method: GET, Path: P("tbOrderLog/list"), Token: "A",
				Params: map[string]any{"startTime": "2026-11-26", "endTime": "2026-11-27", "state": 9}, Code: "400"},
			{Name: "order logs: none yet", Method: GET, Path: P("tbOrderLog/list"), Token: "A",
				Params: map[string]any{"startTime": "2026-11-26 00:00:00", "endTime": "2026-11-27 00:00:00", "msId": T[0], "state": 1},
				Code:   OK, Contains: []string{`"total":0`}},
			{Name: "route: to another area while a plan uses it", Method: PUT, Path: P("tbPatrolRoute/edit"), Token: "A",
				Params: map[string]any{"id": r1, "name": "Night round", "areaId": a2, "routePoints": []any{q1}}, Code: "1022"},
			// Editing the route drops the orders that have not begun and makes them again on the new points.
			{Name: "route: edit its points", Method: PUT, Path: P("tbPatrolRoute/edit"), Token: "A",
				Params: map[string]any{"id": r1, "name": "Night round", "areaId": a1, "routePoints": []any{p1, p2}}, Code: OK, Changes: true},
			{Name: "plan: delete, another customer's", Method: DELETE, Path: P("tbPatrolPlan/deleteBatch"), Token: "O",
				Params: map[string]any{"ids": plan.ID}, Code: "404"},
		})
		for _, o := range e.orders() {
			if o.Total != 2 {
				t.Fatalf("order %d has %d points after the route edit, want 2", o.ID, o.Total)
			}
		}
		// Deleting the plan once the morning class began keeps that order (history) and drops the others.
		e.to(90 * time.Minute)
		e.ok(DELETE, "tbPatrolPlan/deleteBatch", map[string]any{"ids": plan.ID}, nil)
		left := e.orders()
		if len(left) != 1 || left[0].ClassName != "Morning" || left[0].Day != "2026-11-26" {
			t.Fatalf("orders after the plan was deleted: %+v", left)
		}
		if n := e.count("patrol_plan_classes"); n != 0 {
			t.Fatalf("%d classes left", n)
		}
	})
}
