package patrol

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/tenant"
)

// demoArea is a demo area with its points.
type demoArea struct {
	name   string
	points []demoPoint
}

type demoPoint struct {
	name     string
	lat, lng float64
	radius   int
}

type demoRoute struct {
	name, area string
	points     []string
}

type demoPlan struct {
	name, route string
	ms          []string // the classes' terminals, in turn
	hours       int      // each class's length; classes cover the day
}

// The demo's patrol (internal/demo, Demo Fleet around Istanbul): 2 areas, 13 points, 3 routes, 3 plans whose
// classes cover every hour of every day from a week before the seed to a year after, so orders run today.
// Terminals 10000101, 10000102, 10000107, 10000108 and 10000143 are simulated (tenfour sim patrols); the
// phone-app terminals 10000161 and 10000162 are for people and the browser suite.
var (
	demoAreas = []demoArea{
		{name: "North Campus", points: []demoPoint{
			{"Main gate", 41.0402, 28.9791, 40}, {"Car park", 41.0418, 28.9812, 50}, {"Warehouse A", 41.0437, 28.9798, 40},
			{"Fuel station", 41.0449, 28.9770, 30}, {"Generator room", 41.0431, 28.9752, 30}, {"Server room", 41.0415, 28.9765, 25},
			{"North fence", 41.0460, 28.9790, 60},
		}},
		{name: "South Depot", points: []demoPoint{
			{"Depot gate", 40.9921, 28.9583, 40}, {"Loading bay", 40.9908, 28.9601, 50}, {"Cold store", 40.9893, 28.9590, 30},
			{"Workshop", 40.9889, 28.9568, 40}, {"Water tank", 40.9902, 28.9549, 30}, {"South fence", 40.9917, 28.9561, 60},
		}},
	}
	demoRoutes = []demoRoute{
		{"North perimeter", "North Campus", []string{"Main gate", "Car park", "Warehouse A", "North fence", "Fuel station"}},
		{"North inner", "North Campus", []string{"Main gate", "Server room", "Generator room", "Warehouse A"}},
		{"South yard", "South Depot", []string{"Depot gate", "Loading bay", "Cold store", "Workshop", "Water tank", "South fence"}},
	}
	demoPlans = []demoPlan{
		{"North perimeter rounds", "North perimeter", []string{"10000101", "10000102"}, 2},
		{"North inner checks", "North inner", []string{"10000143", "10000161"}, 3},
		{"South yard rounds", "South yard", []string{"10000107", "10000108", "10000162"}, 2},
	}
)

// SeedDemo writes the demo patrol of a customer in the demo's transaction: its dispatcher and terminals become
// patrol users, and the areas, points, routes and plans above. The engine makes the orders at start-up.
func SeedDemo(ctx context.Context, tx *db.Tx, customerID int64, dispatcher string, now time.Time) error {
	ms := now.UnixMilli()
	users := map[string]bool{}
	for _, p := range demoPlans {
		for _, id := range p.ms {
			users[id] = true
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO patrol_users (customer_id, ms_id, role, created_at) VALUES (?, ?, 'dispatcher', ?)`,
		customerID, dispatcher, ms); err != nil {
		return err
	}
	for id := range users {
		if _, err := tx.Exec(ctx, `INSERT INTO patrol_users (customer_id, ms_id, role, created_at) VALUES (?, ?, 'terminal', ?)`,
			customerID, id, ms); err != nil {
			return err
		}
	}
	areas, stops := map[string]int64{}, map[string]OrderPoint{} // stops: the points by "area/name"
	n := 0
	for _, a := range demoAreas {
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO patrol_areas (customer_id, name, created_at) VALUES (?, ?, ?) RETURNING id`,
			customerID, a.name, ms).Scan(&id); err != nil {
			return err
		}
		areas[a.name] = id
		for _, p := range a.points {
			n++
			var pid int64
			nfc := fmt.Sprintf("NFC-%04d", 1000+n)
			if err := tx.QueryRow(ctx, `INSERT INTO patrol_points (customer_id, area_id, name, type, nfc_value, lat, lng, radius, created_at)
				VALUES (?, ?, ?, '0', ?, ?, ?, ?, ?) RETURNING id`, customerID, id, p.name, nfc, p.lat, p.lng,
				p.radius, ms).Scan(&pid); err != nil {
				return err
			}
			stops[a.name+"/"+p.name] = OrderPoint{PointID: PointID(pid), Name: p.name, NfcValue: nfc, Lat: p.lat, Lng: p.lng, Radius: p.radius}
		}
	}
	routes, routeArea, walked := map[string]int64{}, map[string]string{}, map[string][]OrderPoint{}
	for _, r := range demoRoutes {
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO patrol_routes (customer_id, area_id, name, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
			customerID, areas[r.area], r.name, ms).Scan(&id); err != nil {
			return err
		}
		routes[r.name], routeArea[r.name] = id, r.area
		for i, p := range r.points {
			stop := stops[r.area+"/"+p]
			stop.Seq = i + 1
			if _, err := tx.Exec(ctx, `INSERT INTO patrol_route_points (route_id, seq, point_id) VALUES (?, ?, ?)`, id, stop.Seq,
				stop.PointID); err != nil {
				return err
			}
			walked[r.name] = append(walked[r.name], stop)
		}
	}
	loc, err := tenant.TimeZone(ctx, tx, customerID)
	if err != nil {
		return err
	}
	rounds := demoRounds{tx: tx, customerID: customerID, now: now, loc: loc,
		rng: rand.New(rand.NewPCG(uint64(customerID), uint64(now.UnixMilli())))}
	// A week of history: the plans began a week ago, so today's classes that are over are judged at start-up.
	from, to := now.AddDate(0, 0, -7).UTC().Format(time.DateOnly), now.AddDate(1, 0, 0).UTC().Format(time.DateOnly)
	for _, p := range demoPlans {
		route := p.route
		area := routeArea[route]
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO patrol_plans (customer_id, area_id, route_id, name, model, type, start_date, end_date,
			created_by, created_at) VALUES (?, ?, ?, ?, 2, '0', ?, ?, ?, ?) RETURNING id`, customerID, areas[area], routes[route], p.name,
			from, to, dispatcher, now.AddDate(0, 0, -7).UnixMilli()).Scan(&id); err != nil {
			return err
		}
		plan := Plan{ID: PlanID(id), Name: p.name, StartDate: from, AreaID: AreaID(areas[area]), AreaName: area, RouteID: RouteID(routes[route]),
			RouteName: route}
		for i, h := 0, 0; h < 24; i, h = i+1, h+p.hours {
			c := Class{Seq: i + 1, Name: fmt.Sprintf("%02d–%02d", h, h+p.hours), StartTime: fmt.Sprintf("%02d:00", h),
				EndTime: fmt.Sprintf("%02d:00", (h+p.hours)%24), MsID: p.ms[i%len(p.ms)]}
			if _, err := tx.Exec(ctx, `INSERT INTO patrol_plan_classes (plan_id, seq, name, start_time, end_time, ms_id) VALUES (?, ?, ?, ?, ?, ?)`,
				id, c.Seq, c.Name, c.StartTime, c.EndTime, c.MsID); err != nil {
				return err
			}
			plan.Classes = append(plan.Classes, c)
		}
		if err := rounds.seed(ctx, plan, walked[route]); err != nil {
			return err
		}
	}
	return nil
}

// demoRounds writes the demo's patrol history: the orders of every class of the past week and of today that is
// over, walked as guards walk them (the simulator walks the classes from now on, sim/patrol.go). Without it the
// engine made today's orders at start-up and judged every class already over as missed (issue 33: nearly every
// class of the demo was "missed").
type demoRounds struct {
	tx         *db.Tx
	customerID int64
	now        time.Time
	loc        *time.Location
	rng        *rand.Rand
}

// Shares of the demo's past orders with a point punched after the class (late) and with a point never punched
// (missed); the rest are walked in time and in order.
const (
	demoLateShare   = 0.08
	demoMissedShare = 0.06
)

// seed writes plan's orders of the seven days before today and of today whose class has ended, each judged as the
// engine judges (Judge) once its judgement is due.
func (d demoRounds) seed(ctx context.Context, p Plan, route []OrderPoint) error {
	today := time.Date(d.now.In(d.loc).Year(), d.now.In(d.loc).Month(), d.now.In(d.loc).Day(), 0, 0, 0, 0, d.loc)
	for day := today.AddDate(0, 0, -7); !day.After(today); day = day.AddDate(0, 0, 1) {
		for _, c := range p.Classes {
			start, end, _ := classWindow(day, c, d.loc)
			if end.After(d.now) {
				continue // still on, or to come: the engine makes it and the simulator walks it
			}
			if day.Format(time.DateOnly) < p.StartDate || !end.After(d.now.AddDate(0, 0, -7)) {
				continue // before the plan (the engine's rule: a class that ended before its plan was made has no order)
			}
			o := Order{PlanID: p.ID, PlanName: p.Name, ClassSeq: c.Seq, ClassName: c.Name, Day: day.Format(time.DateOnly), MsID: c.MsID,
				AreaID: p.AreaID, AreaName: p.AreaName, RouteID: p.RouteID, RouteName: p.RouteName, StartTime: start.UnixMilli(),
				EndTime: end.UnixMilli(), JudgeTime: end.Add(DefaultOptions.LateGrace).UnixMilli()}
			if err := d.order(ctx, o, d.walk(o, route)); err != nil {
				return err
			}
		}
	}
	return nil
}

// walk punches route's points through the order's window, in order: most orders in time, a few with the last point
// after the class (within the late grace; not one whose grace is still running, which a guard could still punch
// in time), a few with one point left out.
func (d demoRounds) walk(o Order, route []OrderPoint) []OrderPoint {
	late, missed := false, -1
	switch x := d.rng.Float64(); {
	case x < demoMissedShare:
		missed = d.rng.IntN(len(route))
	case x < demoMissedShare+demoLateShare && o.JudgeTime <= d.now.UnixMilli():
		late = true
	}
	step := (o.EndTime - o.StartTime) / int64(len(route)+1)
	out := make([]OrderPoint, len(route))
	for i, rp := range route {
		p := rp
		switch {
		case i == missed:
		case late && i == len(route)-1:
			p.State, p.PunchedAt = PointLate, o.EndTime+int64(3+d.rng.IntN(20))*time.Minute.Milliseconds()
		default:
			p.State, p.PunchedAt = PointOnTime, o.StartTime+step*int64(i+1)+d.rng.Int64N(step/2)
		}
		if p.State != PointWaiting {
			p.Method = MethodNFC
		}
		out[i] = p
	}
	return out
}

// order stores one walked order: its points, a log of each punch, and its judgement when it is due (every point
// punched, or the late grace over).
func (d demoRounds) order(ctx context.Context, o Order, points []OrderPoint) error {
	// every point punched: judged at the end of the class or at the late punch; a point left out: when the grace is over
	judgedAt, all := o.EndTime, true
	for _, p := range points {
		judgedAt, all = max(judgedAt, p.PunchedAt), all && p.State != PointWaiting
	}
	if !all {
		judgedAt = o.JudgeTime
	}
	reason := ""
	if judgedAt <= d.now.UnixMilli() {
		st, reasons := Judge(points)
		o.State, reason, o.JudgedAt = st, joinReasons(reasons), judgedAt
	}
	var id int64
	if err := d.tx.QueryRow(ctx, `INSERT INTO patrol_orders (customer_id, plan_id, class_seq, day, ms_id, area_id, route_id, plan_name,
		class_name, route_name, area_name, start_at, end_at, judge_at, state, reason, judged_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, d.customerID, o.PlanID, o.ClassSeq, o.Day, o.MsID,
		o.AreaID, o.RouteID, o.PlanName, o.ClassName, o.RouteName, o.AreaName, o.StartTime, o.EndTime, o.JudgeTime, o.State, reason,
		o.JudgedAt, o.StartTime).Scan(&id); err != nil {
		return err
	}
	for _, p := range points {
		if _, err := d.tx.Exec(ctx, `INSERT INTO patrol_order_points (order_id, seq, point_id, point_name, nfc_value, lat, lng, radius,
			state, punched_at, method) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, p.Seq, p.PointID, p.Name, p.NfcValue, p.Lat, p.Lng,
			p.Radius, p.State, p.PunchedAt, p.Method); err != nil {
			return err
		}
		if p.State == PointWaiting {
			continue
		}
		logState := LogOnTime
		if p.State == PointLate {
			logState = LogLate
		}
		if _, err := d.tx.Exec(ctx, `INSERT INTO patrol_order_logs (customer_id, order_id, ms_id, point_id, point_name, method, value,
			lat, lng, at, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, d.customerID, id, o.MsID, p.PointID, p.Name,
			p.Method, p.NfcValue, p.Lat, p.Lng, p.PunchedAt, logState, p.PunchedAt); err != nil {
			return err
		}
	}
	return nil
}
