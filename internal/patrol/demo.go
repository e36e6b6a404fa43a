package patrol

import (
	"context"
	"fmt"
	"time"

	"tenfour/internal/platform/db"
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
	areas, points := map[string]int64{}, map[string]int64{}
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
			if err := tx.QueryRow(ctx, `INSERT INTO patrol_points (customer_id, area_id, name, type, nfc_value, lat, lng, radius, created_at)
				VALUES (?, ?, ?, '0', ?, ?, ?, ?, ?) RETURNING id`, customerID, id, p.name, fmt.Sprintf("NFC-%04d", 1000+n), p.lat, p.lng,
				p.radius, ms).Scan(&pid); err != nil {
				return err
			}
			points[a.name+"/"+p.name] = pid
		}
	}
	routes, routeArea := map[string]int64{}, map[string]string{}
	for _, r := range demoRoutes {
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO patrol_routes (customer_id, area_id, name, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
			customerID, areas[r.area], r.name, ms).Scan(&id); err != nil {
			return err
		}
		routes[r.name], routeArea[r.name] = id, r.area
		for i, p := range r.points {
			if _, err := tx.Exec(ctx, `INSERT INTO patrol_route_points (route_id, seq, point_id) VALUES (?, ?, ?)`, id, i+1,
				points[r.area+"/"+p]); err != nil {
				return err
			}
		}
	}
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
		for i, h := 0, 0; h < 24; i, h = i+1, h+p.hours {
			end := (h + p.hours) % 24
			if _, err := tx.Exec(ctx, `INSERT INTO patrol_plan_classes (plan_id, seq, name, start_time, end_time, ms_id) VALUES (?, ?, ?, ?, ?, ?)`,
				id, i+1, fmt.Sprintf("%02d–%02d", h, h+p.hours), fmt.Sprintf("%02d:00", h), fmt.Sprintf("%02d:00", end),
				p.ms[i%len(p.ms)]); err != nil {
				return err
			}
		}
	}
	return nil
}
