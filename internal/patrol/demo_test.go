package patrol_test

import (
	"context"
	"slices"
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
	phone, missedToday, overToday := map[string]int{}, 0, 0
	for _, o := range orders {
		phone[o.MsID]++
		if o.JudgeTime <= time.Now().UnixMilli() { // today so far: the classes over were walked too
			overToday++
			if slices.Contains(o.Reasons, patrol.Missed) {
				missedToday++
			}
		}
	}
	if missedToday > overToday/3 {
		t.Fatalf("%d of today's %d classes that are over were missed", missedToday, overToday)
	}
	// 12 + 8 + 12 classes a day
	if len(orders) != 32 || phone["10000161"] == 0 || phone["10000162"] == 0 {
		t.Fatalf("%d orders today (%v)", len(orders), phone)
	}

	// The week before: every class has its order, walked as guards walk (issue 33: the demo judged nearly every
	// class "missed"): most done in time, a few with a late point, a few with a point missed.
	week, _, err := s.Patrol.Store().Orders(ctx, cust, patrol.OrderQuery{From: day.AddDate(0, 0, -8).UnixMilli(), To: day.UnixMilli() - 1, Limit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, o := range week {
		switch {
		case o.State == patrol.Normal:
			n["done"]++
		case o.State == patrol.Abnormal && slices.Contains(o.Reasons, patrol.Missed):
			n["missed"]++
		case o.State == patrol.Abnormal && slices.Contains(o.Reasons, patrol.Late):
			n["late"]++
		default:
			n["other"]++
		}
	}
	t.Logf("the week before today: %d orders, %v", len(week), n)
	if len(week) < 6*32 || n["done"] < len(week)*3/4 || n["late"] == 0 || n["missed"] == 0 || n["missed"] > len(week)/5 || n["other"] != 0 {
		t.Fatalf("%d orders in the week before today: %v; want most done in time, a few late, a few missed", len(week), n)
	}
}
