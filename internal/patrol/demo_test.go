package patrol_test

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/patrol"
	"tenfour/internal/testkit"
)

// The demo (serve --demo) has 2 areas, at least 12 points, 3 routes and plans running today: the engine makes
// today's orders for every class of every plan, for simulated terminals and the phone-app ones alike.
func TestDemoPatrol(t *testing.T) {
	s := testkit.Start(t, func(c *config.Config) { c.Demo = true })
	ctx := context.Background()
	var cust int64
	if err := s.DB.QueryRow(ctx, `SELECT id FROM customers WHERE name = 'Demo Fleet'`).Scan(&cust); err != nil {
		t.Fatal(err)
	}
	areas, err := s.Patrol.Store().Areas(ctx, cust)
	if err != nil {
		t.Fatal(err)
	}
	points, _, _ := s.Patrol.Store().Points(ctx, cust, patrol.PointQuery{Limit: 1000})
	routes, _, _ := s.Patrol.Store().Routes(ctx, cust, patrol.RouteQuery{Limit: 100})
	today := time.Now().UTC().Format(time.DateOnly)
	plans, _, _ := s.Patrol.Store().Plans(ctx, cust, patrol.PlanQuery{From: today, To: today, Limit: 100})
	if len(areas) != 2 || len(points) < 12 || len(routes) != 3 || len(plans) != 3 {
		t.Fatalf("demo patrol: %d areas, %d points, %d routes, %d plans running today", len(areas), len(points), len(routes), len(plans))
	}
	if err := s.Patrol.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	day := time.Now().UTC().Truncate(24 * time.Hour)
	orders, _, err := s.Patrol.Store().Orders(ctx, cust, patrol.OrderQuery{From: day.UnixMilli(), To: day.Add(24*time.Hour).UnixMilli() - 1, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	phone := map[string]int{}
	for _, o := range orders {
		phone[o.MsID]++
	}
	// 12 + 8 + 12 classes a day
	if len(orders) != 32 || phone["10000161"] == 0 || phone["10000162"] == 0 {
		t.Fatalf("%d orders today (%v)", len(orders), phone)
	}
}
