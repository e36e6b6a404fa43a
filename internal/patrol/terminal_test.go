package patrol_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/patrol"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// A simulated terminal (termclient, over the socket) walks its route: its order becomes normal, and the console
// sees each punch and the judgement live. Another one skips a point: its order is abnormal, missed.
func TestTerminalPunchesARoute(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *env) {
		T := e.f.Terminals
		a, r, p := e.walk("Depot", "Fence line")
		e.users(T[0], T[1])
		e.plan("Rounds", a, r, "2026-11-26", "2026-11-27", class("Morning", "09:00", "10:00", T[0]), class("Noon", "12:00", "13:00", T[1]))
		con := testkit.Console(t, e.s.URL, e.ctok)

		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		dial := func(ms string) *termclient.Client {
			c, err := termclient.Dial(ctx, termclient.Options{URL: e.s.URL, UID: ms, Password: testkit.Password})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		}
		walker, skipper := dial(T[0]), dial(T[1])

		// The terminal learns its orders and their points from the server.
		var mine struct {
			ServerTime int64
			List       []patrol.Order
		}
		if err := walker.Call(ctx, patrol.ReqOrders, struct{}{}, &mine); err != nil {
			t.Fatal(err)
		}
		if len(mine.List) != 2 || mine.List[0].ClassName != "Morning" || len(mine.List[0].Points) != 3 || mine.ServerTime != base.UnixMilli() {
			t.Fatalf("my orders %+v", mine)
		}
		route := mine.List[0].Points
		orderID := mine.List[0].ID

		e.to(65 * time.Minute)
		// NFC for the first point, the QR code (same tag value) for the second, "I am here" for the third.
		var res patrol.PunchResult
		if err := walker.Call(ctx, patrol.ReqPunch, map[string]any{"method": "nfc", "value": route[0].NfcValue}, &res); err != nil {
			t.Fatal(err)
		}
		if res.Order == nil || res.Order.ID != orderID || res.Order.Punched != 1 {
			t.Fatalf("first punch %+v", res)
		}
		ev := con.WaitEvent(patrol.EventPunch, wait, nil)
		var seen patrol.PunchResult
		ev.Into(t, &seen)
		if seen.Log.MsID != T[0] || seen.Log.PointID != p[0] || seen.Order.Points[0].State != patrol.PointOnTime {
			t.Fatalf("console saw %s", ev.Data)
		}
		e.at(5 * time.Minute)
		if err := walker.Call(ctx, patrol.ReqPunch, map[string]any{"method": "qr", "value": route[1].NfcValue}, nil); err != nil {
			t.Fatal(err)
		}
		e.at(5 * time.Minute)
		if err := walker.Call(ctx, patrol.ReqPunch, map[string]any{"method": "gps", "lat": route[2].Lat + 0.00005, "lng": route[2].Lng}, &res); err != nil {
			t.Fatal(err)
		}
		if res.Order.Punched != 3 || res.Order.State != patrol.Waiting {
			t.Fatalf("third punch %+v", res.Order)
		}
		// Refusals over the socket carry their codes.
		if err := walker.Call(ctx, patrol.ReqPunch, map[string]any{"method": "gps", "lat": 10, "lng": 10}, nil); termclient.Code(err) != "1031" {
			t.Fatalf("far away: %v", err)
		}
		if err := walker.Call(ctx, patrol.ReqPunch, map[string]any{"method": "nfc", "value": "?"}, nil); termclient.Code(err) != "1030" {
			t.Fatalf("unknown tag: %v", err)
		}
		// A console cannot punch.
		if f := con.Call(patrol.ReqPunch, map[string]any{"method": "nfc", "value": "TAG-1"}); f.Code != "107" {
			t.Fatalf("console punch: %s", f.Code)
		}

		e.to(2 * time.Hour)
		judged := func(id patrol.OrderID, st patrol.State) patrol.Order {
			t.Helper()
			ev := con.WaitEvent(patrol.EventOrder, wait, func(f testkit.Frame) bool {
				var o patrol.Order
				return json.Unmarshal(f.Data, &o) == nil && o.ID == id && o.State == st
			})
			var o patrol.Order
			ev.Into(t, &o)
			return o
		}
		if o := judged(orderID, patrol.Normal); len(o.Reasons) != 0 {
			t.Fatalf("walked order %+v", o)
		}

		// The skipper punches the first and the last point only.
		if err := skipper.Call(ctx, patrol.ReqOrders, struct{}{}, &mine); err != nil {
			t.Fatal(err)
		}
		if len(mine.List) != 2 || mine.List[0].ClassName != "Noon" {
			t.Fatalf("skipper's orders %+v", mine.List)
		}
		noon := mine.List[0]
		e.to(4*time.Hour + 10*time.Minute)
		for _, i := range []int{0, 2} {
			if err := skipper.Call(ctx, patrol.ReqPunch, map[string]any{"method": "nfc", "value": noon.Points[i].NfcValue}, nil); err != nil {
				t.Fatal(err)
			}
			e.at(time.Minute)
		}
		e.to(5*time.Hour + 30*time.Minute) // the class and its late grace are over
		o := judged(noon.ID, patrol.Abnormal)
		if len(o.Reasons) != 1 || o.Reasons[0] != patrol.Missed || o.Punched != 2 {
			t.Fatalf("skipped order %+v", o)
		}
		var pts []patrol.OrderPoint
		e.ok(GET, "tbOrderPoint/queryPointsByOrderId", map[string]any{"orderId": noon.ID}, &pts)
		if pts[1].State != patrol.PointWaiting || pts[0].State != patrol.PointOnTime || pts[2].State != patrol.PointOnTime {
			t.Fatalf("skipped order's points %+v", pts)
		}
	})
}
