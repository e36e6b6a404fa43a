package lonework_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/lonework"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/timerange"
	"tenfour/internal/sos/safetytest"
)

// The plan and alarm store behaves the same on every engine.
func TestStoreContract(t *testing.T) {
	safetytest.EachStore(t, 3, "", func(t *testing.T, d *db.DB, f safetytest.Fleet) {
		ctx := context.Background()
		st := lonework.NewStore(d, directory.NewStore(d))
		other := safetytest.Seed(t, d, 1, "")
		h := int64(3_600_000)
		t0 := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC).UnixMilli()
		in := lonework.Input{Start: t0, Duration: 120, Interval: 30, Countdown: 60, Enabled: true}

		plans, err := st.Create(ctx, f.CustomerID, []string{f.Terminals[0], f.Terminals[1]}, in, f.Dispatcher, t0-h)
		if err != nil || len(plans) != 2 {
			t.Fatalf("create: %v", err)
		}
		p := plans[0]
		if p.MsName != "Unit 1" || p.Date != "2026-11-21" || p.Time != "08:00" || p.ETime != t0+2*h || p.Enabled != 1 || p.CreatedBy != f.Dispatcher {
			t.Fatalf("plan %+v", p)
		}
		// All or none: one bad terminal stores nothing.
		for name, ms := range map[string]string{"foreign terminal": other.Terminals[0], "dispatcher": f.Dispatcher, "unknown": "nobody"} {
			_, err := st.Create(ctx, f.CustomerID, []string{f.Terminals[2], ms}, in, f.Dispatcher, t0-h)
			if !errors.Is(err, httpx.ErrNotFound) {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if list, _, _ := st.List(ctx, f.CustomerID, lonework.ListQuery{MsIDs: []string{f.Terminals[2]}}); len(list) != 0 {
			t.Fatal("a refused create stored a plan")
		}
		// Overlap with the terminal's own plan; touching ends are fine.
		if _, err := st.Create(ctx, f.CustomerID, []string{f.Terminals[0]}, lonework.Input{Start: t0 + h, Duration: 120, Interval: 30, Countdown: 60}, "", t0-h); !errors.Is(err, lonework.ErrOverlap) {
			t.Fatalf("overlap: %v", err)
		}
		later, err := st.Create(ctx, f.CustomerID, []string{f.Terminals[0]}, lonework.Input{Start: t0 + 2*h, Duration: 60, Interval: 30, Countdown: 60, Enabled: true}, "", t0-h)
		if err != nil {
			t.Fatalf("back-to-back plan: %v", err)
		}

		// Update: overlap ignores the plan itself; another customer's id is not found.
		up, err := st.Update(ctx, f.CustomerID, p.ID, lonework.Input{Start: t0 + 30*60000, Duration: 90, Interval: 15, Countdown: 30, Enabled: false}, t0-h)
		if err != nil || up.Duration != 90 || up.Interval != 15 || up.Enabled != 0 || up.Time != "08:30" {
			t.Fatalf("update: %+v %v", up, err)
		}
		if _, err := st.Update(ctx, other.CustomerID, p.ID, in, t0-h); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("update by another customer: %v", err)
		}
		if _, err := st.Update(ctx, f.CustomerID, p.ID, lonework.Input{Start: t0 + 90*60000, Duration: 60, Interval: 30, Countdown: 60}, t0-h); !errors.Is(err, lonework.ErrOverlap) {
			t.Fatalf("update into the next plan: %v", err)
		}

		// Running: enabled plans whose start passed and that have not stopped, across customers.
		run, err := st.Running(ctx, t0+2*h)
		if err != nil || len(run) != 2 { // plans[1] and later (plans[0] is disabled now)
			t.Fatalf("running: %d %v", len(run), err)
		}
		// Runtime and alarms.
		q := plans[1]
		q.RealStart, q.NextCheck, q.Deadline = t0, t0+30*60000, t0+31*60000
		if err := st.SaveRuntime(ctx, q); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Update(ctx, f.CustomerID, q.ID, in, t0+1); !errors.Is(err, lonework.ErrNotEditable) {
			t.Fatalf("update in progress: %v", err)
		}
		if got, _ := st.WorkingOf(ctx, f.CustomerID, f.Terminals[1]); len(got) != 1 || got[0].Deadline != t0+31*60000 {
			t.Fatalf("working of: %+v", got)
		}
		a1, err := st.AddAlarm(ctx, q, lonework.ReasonNoReply, t0+31*60000)
		if err != nil {
			t.Fatal(err)
		}
		a2, _ := st.AddAlarm(ctx, q, lonework.ReasonWeakSignal, t0+61*60000)
		if got, _ := st.Get(ctx, f.CustomerID, q.ID); got.Status != lonework.StatusAlarm || got.AlarmCount != 2 {
			t.Fatalf("after alarms: %+v", got)
		}
		if _, err := st.Delete(ctx, f.CustomerID, []lonework.WorkID{q.ID}, t0+1); !errors.Is(err, lonework.ErrNotEditable) {
			t.Fatalf("delete in progress: %v", err)
		}
		if _, err := st.HandleAlarm(ctx, other.CustomerID, a1.ID, "x", "y", "z", 1); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("handle by another customer: %v", err)
		}
		if _, err := st.HandleAlarm(ctx, f.CustomerID, a1.ID, "checked", f.Dispatcher, "D", t0+40*60000); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.Get(ctx, f.CustomerID, q.ID); got.Status != lonework.StatusAlarm {
			t.Fatal("status left alarm with one alarm unhandled")
		}
		if err := st.Finish(ctx, q.ID, t0+2*h); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.Get(ctx, f.CustomerID, q.ID); got.Status != lonework.StatusAlarm || got.RealStop != t0+2*h {
			t.Fatalf("finished with an open alarm: %+v", got)
		}
		if _, err := st.HandleAlarm(ctx, f.CustomerID, a2.ID, "ok", f.Dispatcher, "D", t0+3*h); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.Get(ctx, f.CustomerID, q.ID); got.Status != lonework.StatusOver {
			t.Fatalf("all handled after the end: %+v", got)
		}

		// Alarm search: by plan, by terminal, by range; scoped to the customer.
		find := func(cust int64, q lonework.AlarmQuery) int {
			list, total, err := st.FindAlarms(ctx, cust, q)
			if err != nil || total != len(list) {
				t.Fatalf("find alarms: %v", err)
			}
			return len(list)
		}
		if n := find(f.CustomerID, lonework.AlarmQuery{WorkIDs: []lonework.WorkID{q.ID}}); n != 2 {
			t.Fatalf("by plan: %d", n)
		}
		if n := find(f.CustomerID, lonework.AlarmQuery{MsIDs: []string{f.Terminals[1]}, Range: &timerange.Range{From: t0 + 60*60000, To: t0 + 2*h}}); n != 1 {
			t.Fatalf("by terminal and range: %d", n)
		}
		if n := find(other.CustomerID, lonework.AlarmQuery{WorkIDs: []lonework.WorkID{q.ID}}); n != 0 {
			t.Fatalf("another customer sees %d alarms", n)
		}

		// List filters.
		list, total, err := st.List(ctx, f.CustomerID, lonework.ListQuery{})
		if err != nil || total != 3 || list[0].ID != later[0].ID {
			t.Fatalf("list: %d %v", total, err)
		}
		if list, _, _ := st.List(ctx, f.CustomerID, lonework.ListQuery{Statuses: []lonework.Status{lonework.StatusOver}}); len(list) != 1 || list[0].ID != q.ID {
			t.Fatalf("by status: %+v", list)
		}
		day := timerange.Range{From: t0 + 3*h, To: t0 + 4*h}
		if list, _, _ := st.List(ctx, f.CustomerID, lonework.ListQuery{Day: &day}); len(list) != 0 {
			t.Fatalf("by window: %d", len(list))
		}
		if list, _, _ := st.List(ctx, other.CustomerID, lonework.ListQuery{}); len(list) != 0 {
			t.Fatalf("another customer lists %d plans", len(list))
		}

		// Delete: all or none; over plans may go; their alarms stay.
		if _, err := st.Delete(ctx, f.CustomerID, []lonework.WorkID{q.ID, 999999}, t0+3*h); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("delete with an unknown id: %v", err)
		}
		if _, err := st.Get(ctx, f.CustomerID, q.ID); err != nil {
			t.Fatal("a refused delete removed a plan")
		}
		if _, err := st.Delete(ctx, other.CustomerID, []lonework.WorkID{q.ID}, t0+3*h); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("delete by another customer: %v", err)
		}
		gone, err := st.Delete(ctx, f.CustomerID, []lonework.WorkID{q.ID, p.ID}, t0+3*h)
		if err != nil || len(gone) != 2 {
			t.Fatalf("delete: %v", err)
		}
		if n := find(f.CustomerID, lonework.AlarmQuery{WorkIDs: []lonework.WorkID{q.ID}}); n != 2 {
			t.Fatalf("alarms of a deleted plan: %d", n)
		}
		ts, err := st.Terminals(ctx, f.CustomerID, f.Terminals)
		if err != nil || len(ts) != 3 || ts[f.Terminals[0]].Battery != -1 {
			t.Fatalf("terminals: %+v %v", ts, err)
		}
	})
}
