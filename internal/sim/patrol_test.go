package sim_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"tenfour/internal/patrol"
	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// TestFleetPatrols runs a demo patrol terminal (10000101, on the demo's "North perimeter rounds" every other
// two-hour class) through a morning of the server's patrol clock: it walks its orders as the simulator decides
// — in time, late or skipping a point — and the server judges each accordingly. The morning is tomorrow's: the
// demo comes with today's classes that are over already walked (patrol.SeedDemo).
func TestFleetPatrols(t *testing.T) {
	s := demoServer(t)
	var mu sync.Mutex
	day := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 1)
	now := day
	s.Patrol.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	ctx := context.Background()
	if err := s.Patrol.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	var accts []sim.Account
	for _, a := range sim.FleetAccounts() {
		if a.ID == "10000101" {
			accts = append(accts, a)
		}
	}
	rates := sim.Quiet
	rates.PatrolEvery = 150 * time.Millisecond
	f := testkit.RunFleet(t, sim.Options{URL: s.URL, Accounts: accts, Seed: 7, Loopback: true, Rates: rates})
	st := f.Stats()
	testkit.Eventually(t, 20*time.Second, "the terminal online", func() bool { return st.Online.Load() == 1 })

	// Ten minutes of patrol clock at a time; each step waits for two looks of the terminal at its orders, so
	// every point due by then has been punched (a look punches one due point; points are 20 minutes apart).
	for now.Before(day.Add(10*time.Hour + 40*time.Minute)) {
		mu.Lock()
		now = now.Add(10 * time.Minute)
		mu.Unlock()
		if err := s.Patrol.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		looks := st.PatrolLooks.Load()
		testkit.Eventually(t, 10*time.Second, "the terminal looking at its orders", func() bool { return st.PatrolLooks.Load() >= looks+2 })
	}

	var cust int64
	if err := s.DB.QueryRow(ctx, `SELECT id FROM customers WHERE name = 'Demo Fleet'`).Scan(&cust); err != nil {
		t.Fatal(err)
	}
	orders, _, err := s.Patrol.Store().Orders(ctx, cust, patrol.OrderQuery{From: day.UnixMilli(), To: day.Add(10*time.Hour).UnixMilli() - 1,
		MsID: "10000101", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(orders) != 3 {
		t.Fatalf("%d orders of 10000101 this morning, want 3 (00–02, 04–06, 08–10)", len(orders))
	}
	var normal, late, missed int64
	for _, o := range orders {
		switch {
		case o.State == patrol.Normal:
			normal++
		case o.State == patrol.Abnormal && len(o.Reasons) == 1 && o.Reasons[0] == patrol.Late:
			late++
		case o.State == patrol.Abnormal && len(o.Reasons) == 1 && o.Reasons[0] == patrol.Missed && o.Punched == o.Total-1:
			missed++
		default:
			t.Errorf("order %+v: not what a walk in time, late or with one point skipped gives", o)
		}
	}
	if late != st.PatrolLate.Load() || missed != st.PatrolSkips.Load() || normal+late+missed != 3 {
		logs, _, _ := s.Patrol.Store().Logs(ctx, cust, patrol.LogQuery{From: day.UnixMilli(), To: day.Add(24 * time.Hour).UnixMilli(), Limit: 1000})
		for _, l := range logs {
			t.Logf("punch %+v", l)
		}
		for _, o := range orders {
			t.Logf("order %+v", o)
		}
		t.Fatalf("judged %d normal, %d late, %d missed; the terminal walked %d late and skipped a point in %d (%s)", normal, late, missed,
			st.PatrolLate.Load(), st.PatrolSkips.Load(), st)
	}
	if st.Punches.Load() == 0 {
		t.Fatal("no punches")
	}
	for k := range st.Refused() {
		t.Errorf("refused: %s", k)
	}
	t.Log(st)
}
