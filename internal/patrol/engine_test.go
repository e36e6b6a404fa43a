package patrol_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"tenfour/internal/patrol"
	"tenfour/internal/platform/httpx"
)

func reasons(rs ...patrol.Reason) []patrol.Reason { return rs }

// The generator makes one order per plan class per day (none for a class that ended before the plan was made),
// and the judge decides each once its class is over: normal, or abnormal with every reason (missed, late, out of
// order); an order waits until then.
func TestGenerateAndJudge(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *env) {
		T := e.f.Terminals
		a, r, _ := e.walk("Plant", "Loop")
		e.users(T...)
		e.plan("Today", a, r, "2026-11-26", "2026-11-26",
			class("Early", "07:00", "07:30", T[0]),  // ended before the plan was made (08:00): no order
			class("Normal", "09:00", "10:00", T[0]), // 1, 2, 3 in time and order
			class("Late", "10:00", "11:00", T[1]),   // 3 punched after the class
			class("Missed", "11:00", "12:00", T[2]), // 2 never punched
			class("Order", "12:00", "13:00", T[3]),  // 2, 1, 3
			class("All", "14:00", "15:00", T[0]))    // 3 by "I am here", 1 late, 2 never
		orders := e.orders()
		names := []string{}
		for _, o := range orders {
			names = append(names, o.ClassName)
		}
		if !slices.Equal(names, []string{"Normal", "Late", "Missed", "Order", "All"}) {
			t.Fatalf("orders generated for %v", names)
		}
		id := map[string]patrol.OrderID{}
		for _, o := range orders {
			id[o.ClassName] = o.ID
		}
		// A second pass generates nothing more.
		e.at(0)
		if n := len(e.orders()); n != 5 {
			t.Fatalf("%d orders after a second pass", n)
		}
		expect := func(class string, st patrol.State, want []patrol.Reason) {
			t.Helper()
			o := e.order(id[class])
			if o.State != st || !slices.Equal(o.Reasons, want) {
				t.Fatalf("%s: state %d reasons %v, want %d %v", class, o.State, o.Reasons, st, want)
			}
		}

		// Too early: the Normal class has not begun, so the punch is kept without an order.
		e.to(50 * time.Minute)
		if res := e.mustPunch(0, "TAG-1"); res.Order != nil || res.Log.State != patrol.LogNoOrder || res.Log.OrderID != 0 {
			t.Fatalf("early punch %+v", res)
		}
		// Normal: all three in time and in order; it waits until the class ends.
		e.to(70 * time.Minute)
		e.mustPunch(0, "TAG-1")
		e.to(80 * time.Minute)
		if res := e.mustPunch(0, "TAG-1"); res.Log.State != patrol.LogRepeated || res.Order.Punched != 1 {
			t.Fatalf("repeated punch %+v", res)
		}
		e.mustPunch(0, "TAG-2")
		e.to(90 * time.Minute)
		res := e.mustPunch(0, "TAG-3")
		if res.Order.Punched != 3 || res.Order.State != patrol.Waiting || res.Log.State != patrol.LogOnTime {
			t.Fatalf("complete before the class ends: %+v", res.Order)
		}
		e.to(119 * time.Minute)
		expect("Normal", patrol.Waiting, reasons())
		e.to(2 * time.Hour)
		expect("Normal", patrol.Normal, reasons())

		// Late: 1 and 2 in time, 3 ten minutes after the class: judged at that punch.
		e.mustPunch(1, "TAG-1")
		e.to(150 * time.Minute)
		e.mustPunch(1, "TAG-2")
		e.to(3 * time.Hour)
		expect("Late", patrol.Waiting, reasons())
		e.to(190 * time.Minute)
		if res := e.mustPunch(1, "TAG-3"); res.Log.State != patrol.LogLate || res.Order.State != patrol.Abnormal {
			t.Fatalf("late punch %+v", res)
		}
		expect("Late", patrol.Abnormal, reasons(patrol.Late))

		// Missed: 1 and 3 only; the order waits through the late grace, then 2 is missed.
		e.to(200 * time.Minute)
		e.mustPunch(2, "TAG-1")
		e.mustPunch(2, "TAG-3")
		e.to(4 * time.Hour)
		expect("Missed", patrol.Waiting, reasons())
		e.to(4*time.Hour + 29*time.Minute)
		expect("Missed", patrol.Waiting, reasons())
		e.to(4*time.Hour + 30*time.Minute)
		expect("Missed", patrol.Abnormal, reasons(patrol.Missed))

		// Out of order: 2, 1, 3.
		e.to(4*time.Hour + 35*time.Minute)
		e.mustPunch(3, "TAG-2")
		e.at(time.Minute)
		e.mustPunch(3, "TAG-1")
		e.at(time.Minute)
		e.mustPunch(3, "TAG-3")
		e.to(5 * time.Hour)
		expect("Order", patrol.Abnormal, reasons(patrol.OutOfOrder))

		// All three: 3 by "I am here" 11 m from it, 1 five minutes late, 2 never.
		e.to(6*time.Hour + 10*time.Minute)
		far := lat(3) + 0.01
		if _, err := e.s.Patrol.Punch(context.Background(), e.principal(0), patrol.PunchInput{Method: patrol.MethodGPS, Lat: &far,
			Lng: ptr(29.0)}); !errors.Is(err, patrol.ErrNotNear) {
			t.Fatalf("far away: %v", err)
		}
		near := lat(3) + 0.0001
		res, err := e.s.Patrol.Punch(context.Background(), e.principal(0), patrol.PunchInput{Method: patrol.MethodGPS, Lat: &near, Lng: ptr(29.0)})
		if err != nil || res.Order == nil || res.Order.Points[2].State != patrol.PointOnTime || res.Order.Points[2].Method != patrol.MethodGPS {
			t.Fatalf("I am here: %+v %v", res, err)
		}
		e.to(7*time.Hour + 5*time.Minute)
		e.mustPunch(0, "TAG-1")
		expect("All", patrol.Waiting, reasons())
		e.to(7*time.Hour + 30*time.Minute)
		expect("All", patrol.Abnormal, reasons(patrol.Missed, patrol.Late, patrol.OutOfOrder))

		// Refusals store nothing.
		logs := e.count("patrol_order_logs")
		if _, err := e.punch(0, "NO-SUCH-TAG"); !errors.Is(err, patrol.ErrUnknownTag) {
			t.Fatalf("unknown tag: %v", err)
		}
		if _, err := e.s.Patrol.Punch(context.Background(), e.principal(0), patrol.PunchInput{Method: "laser"}); httpx.Code(err) != "400" {
			t.Fatalf("bad method: %v", err)
		}
		if _, err := e.s.Patrol.Punch(context.Background(), e.principal(0), patrol.PunchInput{Method: patrol.MethodGPS}); httpx.Code(err) != "400" {
			t.Fatalf("gps without a position: %v", err)
		}
		if n := e.count("patrol_order_logs"); n != logs {
			t.Fatalf("refused punches stored: %d logs, want %d", n, logs)
		}
		// Every punch is in the order logs: by terminal and state.
		var page httpx.Page[patrol.OrderLog]
		e.ok(GET, "tbOrderLog/list", map[string]any{"startTime": "2026-11-26 00:00:00", "endTime": "2026-11-26 23:59:59", "msId": T[0]}, &page)
		if page.Total != 7 || page.List[0].PointName != "P1" || page.List[0].State != patrol.LogLate || page.List[0].MsName != "Unit 1" {
			t.Fatalf("logs of T0: %d %+v", page.Total, page.List)
		}
		e.ok(GET, "tbOrderLog/list", map[string]any{"startTime": base.UnixMilli(), "endTime": base.Add(24 * time.Hour).UnixMilli(),
			"state": patrol.LogNoOrder}, &page)
		if page.Total != 1 || page.List[0].OrderID != 0 {
			t.Fatalf("punches without an order: %+v", page.List)
		}
	})
}

func ptr(v float64) *float64 { return &v }

// Judge alone: every combination of point states gives its reasons, in a fixed order.
func TestJudge(t *testing.T) {
	pt := func(seq, state int, at int64) patrol.OrderPoint {
		return patrol.OrderPoint{Seq: seq, State: state, PunchedAt: at}
	}
	cases := []struct {
		name   string
		points []patrol.OrderPoint
		state  patrol.State
		want   []patrol.Reason
	}{
		{"in order, in time", []patrol.OrderPoint{pt(1, 1, 10), pt(2, 1, 20), pt(3, 1, 30)}, patrol.Normal, reasons()},
		{"listed out of seq, punched in order", []patrol.OrderPoint{pt(3, 1, 30), pt(1, 1, 10), pt(2, 1, 20)}, patrol.Normal, reasons()},
		{"one missed", []patrol.OrderPoint{pt(1, 1, 10), pt(2, 0, 0), pt(3, 1, 30)}, patrol.Abnormal, reasons(patrol.Missed)},
		{"none punched", []patrol.OrderPoint{pt(1, 0, 0), pt(2, 0, 0)}, patrol.Abnormal, reasons(patrol.Missed)},
		{"one late", []patrol.OrderPoint{pt(1, 1, 10), pt(2, 2, 20)}, patrol.Abnormal, reasons(patrol.Late)},
		{"swapped", []patrol.OrderPoint{pt(1, 1, 20), pt(2, 1, 10)}, patrol.Abnormal, reasons(patrol.OutOfOrder)},
		{"late and swapped", []patrol.OrderPoint{pt(1, 2, 20), pt(2, 1, 10), pt(3, 0, 0)}, patrol.Abnormal,
			reasons(patrol.Missed, patrol.Late, patrol.OutOfOrder)},
	}
	for _, c := range cases {
		st, got := patrol.Judge(c.points)
		if st != c.state || !slices.Equal(got, c.want) {
			t.Errorf("%s: %d %v, want %d %v", c.name, st, got, c.state, c.want)
		}
	}
}
