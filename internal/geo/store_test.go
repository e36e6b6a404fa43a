package geo_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/geo"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/testkit"
)

// running starts a geo service on d and returns it with a stop function that waits for its final flush.
func running(t *testing.T, d *db.DB, opt geo.Options) (*geo.Service, func()) {
	t.Helper()
	hub := realtime.NewHub(d, nil)
	svc := geo.New(d, directory.NewStore(d), hub, oplog.New(d, hub), opt)
	ctx, cancel := context.WithCancel(context.Background())
	if err := svc.Load(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { svc.Run(ctx); close(done) }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	t.Cleanup(stop)
	return svc, stop
}

func principal(f testkit.Fleet, i int) identity.Principal {
	return identity.Principal{AccountID: f.Terminals[i], CustomerID: f.Customer, Type: "10", Name: "Unit"}
}

func TestStoreContract(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		a, b := seed(t, d, 2), seed(t, d, 1)
		svc, stop := running(t, d, geo.Options{})
		st := svc.Store

		// Ingest: out of order within a batch, committed before Ingest returns.
		base := time.Now().Add(-time.Hour).UnixMilli()
		var pts []geo.Point
		for i := 9; i >= 0; i-- {
			pts = append(pts, geo.Point{Lat: 41 + float64(i)*0.001, Lng: 29, Speed: float64(i), Direction: 10, Altitude: 5, Time: base + int64(i)*1000})
		}
		if err := svc.Ingest(ctx, principal(a, 0), pts, true); err != nil {
			t.Fatal(err)
		}
		// Resent points are not stored twice.
		if err := svc.Ingest(ctx, principal(a, 0), pts[:3], true); err != nil {
			t.Fatal(err)
		}
		if err := svc.Ingest(ctx, principal(b, 0), []geo.Point{{Lat: 1, Lng: 2, Time: base}}, true); err != nil {
			t.Fatal(err)
		}
		var got []geo.Point
		more, err := st.Track(ctx, a.Terminals[0], base, base+9000, 100, func(p geo.Point) { got = append(got, p) })
		if err != nil || more || len(got) != 10 || got[0].Time != base || got[9].Speed != 9 || got[9].Altitude != 5 {
			t.Fatalf("track: %v %v %+v", more, err, got)
		}
		got = got[:0]
		if more, _ := st.Track(ctx, a.Terminals[0], base, base+9000, 4, func(p geo.Point) { got = append(got, p) }); !more || len(got) != 4 {
			t.Fatalf("truncated track: %v %d", more, len(got))
		}
		names, err := st.Terminals(ctx, a.Customer, a.Terminals)
		if err != nil {
			t.Fatal(err)
		}
		rows, total, err := st.GPSData(ctx, names, base, base+9000, 8, 5)
		if err != nil || total != 10 || len(rows) != 2 || rows[0].Time != base+8000 || rows[0].Name != "Name "+a.Terminals[0] {
			t.Fatalf("gps data: %v %d %+v", err, total, rows)
		}
		if _, err := st.Terminals(ctx, a.Customer, []string{b.Terminals[0]}); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("another customer's terminal: %v", err)
		}
		if last := svc.LastPositions(a.Customer); len(last) != 1 || last[0].Time != base+9000 || last[0].Lat != 41.009 {
			t.Fatalf("last positions %+v", last)
		}

		// Retention: everything before the cutoff goes, in slices, the rest stays.
		if _, err := d.Exec(ctx, `INSERT INTO gps_points (terminal_id, at, lat, lng) VALUES (?, ?, 1, 1), (?, ?, 1, 1)`,
			a.Terminals[1], base-3*24*3600_000, a.Terminals[1], base-5*3600_000); err != nil {
			t.Fatal(err)
		}
		n, err := st.Prune(ctx, base-1)
		if err != nil || n != 2 || testkit.Count(t, d, `SELECT COUNT(*) FROM gps_points`) != 11 {
			t.Fatalf("prune: %d %v", n, err)
		}

		// Fences: tenant checks happen inside the transaction; a refused change changes nothing.
		poly, _ := json.Marshal(map[string]any{"type": "Polygon", "coordinates": [][][]float64{{{28, 40}, {29, 40}, {29, 41}, {28, 41}, {28, 40}}}})
		f := &geo.Fence{Name: "F", Type: geo.FenceIn, Shape: geo.ShapePolygon, Geometry: poly, Terminals: []string{a.Terminals[0], b.Terminals[0]}}
		if err := st.CreateFence(ctx, a.Customer, f, base); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("fence with another customer's terminal: %v", err)
		}
		f.Terminals = []string{a.Terminals[0]}
		if err := st.CreateFence(ctx, a.Customer, f, base); err != nil {
			t.Fatal(err)
		}
		fb := &geo.Fence{Name: "FB", Type: geo.FenceOut, Shape: geo.ShapePolygon, Geometry: poly, Terminals: []string{}}
		if err := st.CreateFence(ctx, b.Customer, fb, base); err != nil {
			t.Fatal(err)
		}
		if err := st.SetFenceTerminals(ctx, a.Customer, f.ID, nil, []string{b.Terminals[0]}, nil, base); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("set another customer's terminal: %v", err)
		}
		if err := st.SetFenceTerminals(ctx, a.Customer, fb.ID, []string{}, nil, nil, base); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("set another customer's fence: %v", err)
		}
		if err := st.SetFenceTerminals(ctx, a.Customer, f.ID, nil, []string{a.Terminals[1]}, []string{a.Terminals[0]}, base); err != nil {
			t.Fatal(err)
		}
		name := "G"
		if err := st.EditFence(ctx, a.Customer, fb.ID, geo.FenceEdit{Name: &name}, base); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("edit another customer's fence: %v", err)
		}
		if err := st.EditFence(ctx, a.Customer, f.ID, geo.FenceEdit{Name: &name}, base+1); err != nil {
			t.Fatal(err)
		}
		list, err := st.Fences(ctx, a.Customer, geo.FenceFilter{})
		if err != nil || len(list) != 1 || list[0].Name != "G" || len(list[0].Terminals) != 1 || list[0].Terminals[0] != a.Terminals[1] || list[0].Updated != base+1 {
			t.Fatalf("fences %+v %v", list, err)
		}
		if _, err := st.DeleteFences(ctx, a.Customer, []int64{f.ID, fb.ID}); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("delete with another customer's fence: %v", err)
		}
		if testkit.Count(t, d, `SELECT COUNT(*) FROM fences`) != 2 {
			t.Fatal("a refused delete deleted")
		}

		// Alarms.
		al := geo.Alarm{FenceName: "G", FenceType: "in", MsID: a.Terminals[1], MsName: "Unit 2", Type: geo.AlarmLeave, Time: base, Lat: 1, Lng: 2}
		if err := st.InsertAlarm(ctx, a.Customer, f.ID, &al); err != nil {
			t.Fatal(err)
		}
		alB := geo.Alarm{FenceName: "FB", FenceType: "out", MsID: b.Terminals[0], Type: geo.AlarmEnter, Time: base}
		if err := st.InsertAlarm(ctx, b.Customer, fb.ID, &alB); err != nil {
			t.Fatal(err)
		}
		idA, idB := mustInt(t, al.ID), mustInt(t, alB.ID)
		if _, err := st.HandleAlarms(ctx, a.Customer, []int64{idA, idB}, geo.AlarmClosed, "x", "X", "", base); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("close with another customer's alarm: %v", err)
		}
		changed, err := st.HandleAlarms(ctx, a.Customer, []int64{idA}, geo.AlarmClosed, "d1", "Disp", "ok", base+5)
		if err != nil || len(changed) != 1 || changed[0].Closer != "Disp" || changed[0].Responder != "Disp" || changed[0].CloseTime != base+5 {
			t.Fatalf("close: %+v %v", changed, err)
		}
		counts, err := st.CountAlarms(ctx, a.Customer, geo.AlarmFilter{From: base - 1, To: base + 1}, false)
		if err != nil || len(counts) != 1 || counts[0].Count != 1 || counts[0].Closed != 1 || counts[0].MsName != "Unit 2" {
			t.Fatalf("counts %+v %v", counts, err)
		}
		alarms, total, err := st.Alarms(ctx, b.Customer, geo.AlarmFilter{}, 0, 10)
		if err != nil || total != 1 || alarms[0].Status != geo.AlarmOpen {
			t.Fatalf("B's alarms %+v %v", alarms, err)
		}

		// Marks.
		m := geo.Mark{Type: "point", Name: "M", Geometry: json.RawMessage(`{"type":"Point","coordinates":[1,2]}`), Time: base, Updated: base}
		if err := st.AddMark(ctx, a.Customer, &m); err != nil {
			t.Fatal(err)
		}
		mid := mustInt(t, m.ID)
		m.Name = "N"
		if err := st.UpdateMark(ctx, b.Customer, mid, m); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("update another customer's mark: %v", err)
		}
		if err := st.UpdateMark(ctx, a.Customer, mid, m); err != nil {
			t.Fatal(err)
		}
		if marks, err := st.Marks(ctx, a.Customer, geo.MarkFilter{Name: "N"}); err != nil || len(marks) != 1 {
			t.Fatalf("marks %+v %v", marks, err)
		}
		if err := st.DeleteMarks(ctx, b.Customer, []int64{mid}); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("delete another customer's mark: %v", err)
		}
		if err := st.DeleteMarks(ctx, a.Customer, []int64{mid}); err != nil {
			t.Fatal(err)
		}

		// Restart: the last position survives through the accounts row (synced on shutdown), and the fence
		// engine judges the first fix after the restart against it.
		pIn := geo.Point{Lat: 40.5, Lng: 28.5, Time: base + 20000}
		if err := svc.Ingest(ctx, principal(a, 1), []geo.Point{pIn}, true); err != nil {
			t.Fatal(err)
		}
		stop()
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE id = ? AND last_gps_at = ? AND lat = 40.5`, a.Terminals[1], pIn.Time); n != 1 {
			t.Fatal("accounts row not synced at shutdown")
		}
		svc2, _ := running(t, d, geo.Options{})
		if last := svc2.LastPositions(a.Customer); len(last) != 2 {
			t.Fatalf("after restart: %+v", last)
		}
		before := testkit.Count(t, d, `SELECT COUNT(*) FROM fence_alarms WHERE terminal_id = ?`, a.Terminals[1])
		if err := svc2.Ingest(ctx, principal(a, 1), []geo.Point{{Lat: 45, Lng: 28.5, Time: base + 30000}}, true); err != nil {
			t.Fatal(err)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM fence_alarms WHERE terminal_id = ? AND type = 'leave'`, a.Terminals[1]); n != before+1 {
			t.Fatalf("leaving after a restart: %d alarms, want %d", n, before+1)
		}
	})
}

// A customer holds at most MaxFencesPerCust fences and MaxMarksPerCust marks: the last one fits, the next is
// ErrTooMany, and another customer is not counted. Both engines.
func TestCustomerCaps(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		a, b := seed(t, d, 0), seed(t, d, 0)
		st := geo.NewStore(d, directory.NewStore(d))
		// All but one of the cap, written at once (adding them one by one is what the cap is there to stop).
		fill := func(table, cols, vals string, n int) {
			t.Helper()
			if _, err := d.Exec(ctx, `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
				INSERT INTO `+table+` (customer_id, name, geometry, created_at, updated_at, `+cols+`)
				SELECT ?, 'n', '{}', 0, 0, `+vals+` FROM seq`, n, a.Customer); err != nil {
				t.Fatal(err)
			}
		}
		fill("fences", "type, shape", "'in', 'polygon'", geo.MaxFencesPerCust-1)
		fill("marks", "type", "'point'", geo.MaxMarksPerCust-1)
		poly := json.RawMessage(`{"type":"Polygon","coordinates":[[[28,40],[29,40],[29,41],[28,40]]]}`)
		point := json.RawMessage(`{"type":"Point","coordinates":[1,2]}`)
		fence := func() *geo.Fence {
			return &geo.Fence{Name: "F", Type: geo.FenceIn, Shape: geo.ShapePolygon, Geometry: poly}
		}
		mark := func() *geo.Mark { return &geo.Mark{Type: "point", Name: "M", Geometry: point} }
		for _, c := range []struct {
			what string
			add  func(customer int64) error
		}{
			{"fence", func(c int64) error { return st.CreateFence(ctx, c, fence(), 1) }},
			{"mark", func(c int64) error { return st.AddMark(ctx, c, mark()) }},
		} {
			if err := c.add(a.Customer); err != nil {
				t.Fatalf("the last %s under the cap: %v", c.what, err)
			}
			if err := c.add(a.Customer); !errors.Is(err, geo.ErrTooMany) {
				t.Fatalf("a %s over the cap: %v", c.what, err)
			}
			if err := c.add(b.Customer); err != nil {
				t.Fatalf("another customer's %s: %v", c.what, err)
			}
		}
	})
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		t.Fatal(err)
	}
	return n
}
