package demo_test

import (
	"context"
	"testing"

	"tenfour/internal/config"
	"tenfour/internal/demo"
	"tenfour/internal/job"
	"tenfour/internal/testkit"
)

// The demo's field work: job tickets in every state but working-only, students with some on the bus now; a
// second start seeds nothing twice.
func TestDemoFieldWork(t *testing.T) {
	s := testkit.Start(t, func(c *config.Config) { c.Demo = true })
	ctx := context.Background()
	cust := customer(t, s.DB, "Demo Fleet")
	list, total, err := s.Jobs.Store().List(ctx, cust, job.ListQuery{Limit: 100})
	if err != nil || total != 5 {
		t.Fatalf("%d demo jobs, %v", total, err)
	}
	seen := map[job.State]bool{}
	for _, j := range list {
		seen[j.Status] = true
	}
	for _, st := range []job.State{job.Unsettled, job.Rejected, job.Working, job.Over} {
		if !seen[st] {
			t.Errorf("no demo job %s", st)
		}
	}
	buses, err := s.Bus.OnBoard(ctx, cust, "")
	if err != nil || len(buses) != 1 || buses[0].BusID != demo.DemoBus || len(buses[0].Students) != 3 {
		t.Fatalf("on the bus now: %+v %v", buses, err)
	}
	if err := demo.SeedField(ctx, s.DB, true, s.Jobs.Store(), s.Bus); err != nil {
		t.Fatal(err)
	}
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM jobs WHERE customer_id = ?`, cust); n != 5 {
		t.Fatalf("seeded twice: %d jobs", n)
	}
}
