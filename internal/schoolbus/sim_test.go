package schoolbus_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/schoolbus"
	"tenfour/internal/sim"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

// A simulated school bus reads its students' cards at its stops: every punch reaches the console live, is stored
// once, and who is on the bus now is what the last punch of each student says.
func TestSimulatedBusPunches(t *testing.T) {
	s := testkit.Start(t)
	e := safetytest.NewEnv(t, s, 1)
	f, tok := e.F, e.Tok
	con := e.Console()
	bus := f.Terminals[0]
	cards := []string{"S1", "S2", "S3"}
	ids := map[string]schoolbus.StudentID{}
	for _, c := range cards {
		r := testkit.Do(t, s.URL, http.MethodPost, "/ds/schoolCar/add", tok, student(c, "Kid "+c))
		var st schoolbus.Student
		r.Into(t, &st)
		ids[c] = st.ID
	}
	rates := sim.Quiet
	rates.PunchEvery = 300 * time.Millisecond
	fl, err := sim.New(sim.Options{URL: s.URL, Accounts: []sim.Account{{ID: bus, Password: safetytest.Password, Type: "DMR"}},
		Seed: 5, Rates: rates, BusCards: map[string][]string{bus: cards}, Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = fl.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	for seen := 0; seen < 8; seen++ {
		ev := con.WaitEvent(schoolbus.EventPunched, 20*time.Second, nil)
		var p schoolbus.Punched
		ev.Into(t, &p)
		if p.Punch.BusID != bus || p.Punch.Lat == nil {
			t.Fatalf("punch %s", ev.Data)
		}
		if (p.Student.OnBus == bus) != (p.Punch.Kind == schoolbus.Boarded) {
			t.Fatalf("after a %d punch the student is on %q", p.Punch.Kind, p.Student.OnBus)
		}
	}
	// The bus counts a punch when the server's answer reaches it, which can come just after the console's event
	// (CI run 9: 7 counted when the eighth event arrived): wait for the answers before stopping the bus.
	testkit.Eventually(t, 10*time.Second, "the bus counts 8 punches stored", func() bool { return fl.Stats().BusPunches.Load() >= 8 })
	cancel()
	<-done
	// Punches the bus sent just before it stopped may still be landing: wait until the store is still.
	stored := func() int {
		var n int
		if err := s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM school_punches`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	prev := -1
	testkit.Eventually(t, 10*time.Second, "no punch landing", func() bool {
		n := stored()
		still := n == prev
		prev = n
		time.Sleep(200 * time.Millisecond)
		return still
	})
	// Every stored punch, and the bus's load now, agree with what the server answers.
	r := testkit.Do(t, s.URL, http.MethodGet, "/ds/schoolCar/onboard", tok, map[string]any{"busId": bus})
	var ob struct{ List []schoolbus.Bus }
	r.Into(t, &ob)
	aboard := map[string]bool{}
	for _, b := range ob.List {
		for _, st := range b.Students {
			aboard[st.StudentNum] = true
		}
	}
	for _, c := range cards {
		r := testkit.Do(t, s.URL, http.MethodGet, "/ds/schoolCar/checklist", tok, map[string]any{"studentId": ids[c], "pageSize": 1})
		var pg httpx.Page[schoolbus.Punch]
		r.Into(t, &pg)
		want := len(pg.List) == 1 && pg.List[0].Kind == schoolbus.Boarded
		if aboard[c] != want {
			t.Errorf("%s: on the bus %v, its last punch says %v", c, aboard[c], want)
		}
		// Kinds alternate per student: a student never boards twice in a row.
		var n int
		if err := s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM school_punches a JOIN school_punches b
			ON a.student_id = b.student_id AND a.kind = b.kind AND a.at < b.at
			AND NOT EXISTS (SELECT 1 FROM school_punches m WHERE m.student_id = a.student_id AND m.at > a.at AND m.at < b.at)
			WHERE a.student_id = ?`, ids[c]).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%s: %d punches of the same kind in a row", c, n)
		}
	}
}
