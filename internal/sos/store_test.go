package sos_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/timerange"
	"tenfour/internal/sos"
	"tenfour/internal/sos/safetytest"
)

// The alarm store behaves the same on every engine: raise, one open alarm per terminal, the state machine,
// tenant isolation, and search filters.
func TestStoreContract(t *testing.T) {
	safetytest.EachStore(t, 3, "505", func(t *testing.T, d *db.DB, f safetytest.Fleet) {
		ctx := context.Background()
		st := sos.NewStore(d, directory.NewStore(d))
		other := safetytest.Seed(t, d, 1, "")
		lat, lng := 10.5, 20.25

		a, created, err := st.Raise(ctx, f.CustomerID, sos.NewAlarm{MsID: f.Terminals[0], Type: "1", Lat: &lat, Lng: &lng, At: 1000})
		if err != nil || !created {
			t.Fatalf("raise: %v created=%v", err, created)
		}
		if a.State != sos.Sending || a.MsName != "Unit 1" || a.MsType != "505" || *a.Lat != lat || a.Time != 1000 || a.FixTime != 1000 {
			t.Fatalf("raised alarm %+v", a)
		}
		// A second press while open refers to the same alarm and refreshes its position and fix time.
		lat2 := 11.0
		again, created, err := st.Raise(ctx, f.CustomerID, sos.NewAlarm{MsID: f.Terminals[0], Type: "0", Lat: &lat2, Lng: &lng, At: 2000})
		if err != nil || created || again.ID != a.ID || *again.Lat != 11 || again.FixTime != 2000 {
			t.Fatalf("second raise: %+v created=%v err=%v", again, created, err)
		}
		if got, _ := st.Get(ctx, f.CustomerID, a.ID); *got.Lat != 11 || got.FixTime != 2000 || got.Time != 1000 {
			t.Fatalf("second raise stored %+v", got)
		}
		// Without a position the terminal's last known one is used, with its own fix time (Seed's: 1).
		b, _, err := st.Raise(ctx, f.CustomerID, sos.NewAlarm{MsID: f.Terminals[1], Type: "0", At: 3000})
		if err != nil || b.Lat == nil || *b.Lat != 41.02 || *b.Lng != 29 || b.FixTime != 1 {
			t.Fatalf("raise without position: %+v %v", b, err)
		}
		if got, _ := st.Get(ctx, f.CustomerID, b.ID); got.FixTime != 1 {
			t.Fatalf("raise without position stored fix time %d, want 1", got.FixTime)
		}
		// A row stored before fix times were kept reads as fixed at its raise.
		if _, err := d.Exec(ctx, `UPDATE sos_alarms SET fix_at = NULL WHERE id = ?`, b.ID); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.Get(ctx, f.CustomerID, b.ID); got.FixTime != b.Time {
			t.Fatalf("old row's fix time %d, want the raise %d", got.FixTime, b.Time)
		}
		// Another customer's terminal is unknown here.
		if _, _, err := st.Raise(ctx, f.CustomerID, sos.NewAlarm{MsID: other.Terminals[0], At: 1}); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("foreign terminal: %v", err)
		}

		disp := sos.Actor{ID: f.Dispatcher, Name: "D"}
		if _, err := st.Acknowledge(ctx, other.CustomerID, a.ID, disp, 5000); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("acknowledge by another customer: %v", err)
		}
		acked, err := st.Acknowledge(ctx, f.CustomerID, a.ID, disp, 5000)
		if err != nil || acked.State != sos.Acknowledged || acked.Responder != f.Dispatcher || acked.ResponseTime != 5000 {
			t.Fatalf("acknowledge: %+v %v", acked, err)
		}
		if _, err := st.Acknowledge(ctx, f.CustomerID, a.ID, disp, 6000); !errors.Is(err, sos.ErrTransition) {
			t.Fatalf("acknowledge twice: %v", err)
		}
		closed, err := st.Close(ctx, f.CustomerID, a.ID, disp, sos.ClosedByConsole, "false alarm", 7000)
		if err != nil || closed.State != sos.Closed || closed.CloseTime != 7000 || closed.Remark != "false alarm" || closed.ResponseTime != 5000 {
			t.Fatalf("close: %+v %v", closed, err)
		}
		if _, err := st.Close(ctx, f.CustomerID, a.ID, disp, sos.ClosedByConsole, "", 8000); !errors.Is(err, sos.ErrTransition) {
			t.Fatalf("close twice: %v", err)
		}
		if _, err := st.Acknowledge(ctx, f.CustomerID, a.ID, disp, 8000); !errors.Is(err, sos.ErrTransition) {
			t.Fatalf("acknowledge a closed alarm: %v", err)
		}
		// Closing an unacknowledged alarm makes the closer its responder; a terminal's cancel does not.
		cb, err := st.Close(ctx, f.CustomerID, b.ID, disp, sos.ClosedByConsole, "", 9000)
		if err != nil || cb.Responder != f.Dispatcher || cb.ResponseTime != 9000 {
			t.Fatalf("close unacknowledged: %+v %v", cb, err)
		}
		c, _, _ := st.Raise(ctx, f.CustomerID, sos.NewAlarm{MsID: f.Terminals[2], Type: "0", At: 10000})
		cc, err := st.Close(ctx, f.CustomerID, c.ID, sos.Actor{ID: f.Terminals[2]}, sos.ClosedByTerminal, "", 11000)
		if err != nil || cc.Responder != "" || cc.ResponseTime != 0 || cc.CloseKind != sos.ClosedByTerminal {
			t.Fatalf("terminal cancel: %+v %v", cc, err)
		}
		// After closing, the terminal may raise a new alarm.
		n, created, err := st.Raise(ctx, f.CustomerID, sos.NewAlarm{MsID: f.Terminals[0], Type: "0", At: 12000})
		if err != nil || !created || n.ID == a.ID {
			t.Fatalf("raise after close: %+v %v %v", n, created, err)
		}

		find := func(q sos.Query) []sos.Alarm {
			t.Helper()
			list, total, err := st.Find(ctx, f.CustomerID, q)
			if err != nil || (q.Limit == 0 && total != len(list)) {
				t.Fatalf("find: %v total=%d len=%d", err, total, len(list))
			}
			return list
		}
		if got := find(sos.Query{}); len(got) != 4 || got[0].ID != n.ID {
			t.Fatalf("all, newest first: %d alarms", len(got))
		}
		if got := find(sos.Query{Range: &timerange.Range{From: 2500, To: 10000}}); len(got) != 2 {
			t.Fatalf("range: %d", len(got))
		}
		if got := find(sos.Query{MsIDs: []string{f.Terminals[0]}}); len(got) != 2 {
			t.Fatalf("by terminal: %d", len(got))
		}
		if got := find(sos.Query{States: []sos.State{sos.Sending, sos.Acknowledged}}); len(got) != 1 || got[0].ID != n.ID {
			t.Fatalf("open: %+v", got)
		}
		if got := find(sos.Query{Type: "1"}); len(got) != 1 || got[0].ID != a.ID {
			t.Fatalf("by type: %+v", got)
		}
		if got, total, _ := st.Find(ctx, f.CustomerID, sos.Query{Limit: 1, Offset: 1}); len(got) != 1 || total != 4 || got[0].ID != c.ID {
			t.Fatalf("paging: %d of %d", len(got), total)
		}
		if list, _, _ := st.Find(ctx, other.CustomerID, sos.Query{}); len(list) != 0 {
			t.Fatalf("another customer sees %d alarms", len(list))
		}
		un, err := st.Unacknowledged(ctx)
		if err != nil || len(un) != 1 || un[0].CustomerID != f.CustomerID || un[0].ID != n.ID {
			t.Fatalf("unacknowledged: %+v %v", un, err)
		}
	})
}

// Racing raises of one terminal store exactly one alarm.
func TestStoreRaiseRace(t *testing.T) {
	safetytest.EachStore(t, 1, "", func(t *testing.T, d *db.DB, f safetytest.Fleet) {
		ctx := context.Background()
		st := sos.NewStore(d, directory.NewStore(d))
		var wg sync.WaitGroup
		ids := make([]sos.AlarmID, 8)
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a, _, err := st.Raise(ctx, f.CustomerID, sos.NewAlarm{MsID: f.Terminals[0], Type: "0", At: int64(i)})
				if err != nil {
					t.Error(err)
				}
				ids[i] = a.ID
			}()
		}
		wg.Wait()
		for _, id := range ids {
			if id != ids[0] {
				t.Fatalf("different alarms for one terminal: %v", ids)
			}
		}
		var n int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM sos_alarms`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d rows stored", n)
		}
	})
}
