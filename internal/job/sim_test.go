package job_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/job"
	"tenfour/internal/sim"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

// Issue 18's "done when": a ticket sent to a simulated terminal goes accepted → working → over, and the
// console receives each change in that order; a simulated worker who turns tickets down rejects with a reason.
func TestSimulatedTerminalWorksTicket(t *testing.T) {
	e := newEnv(t, "sqlite")
	T := e.F.Terminals
	con := testkit.Console(t, e.S.URL, e.Tok)
	run := func(ids []string, reject float64) {
		var accts []sim.Account
		for _, id := range ids {
			accts = append(accts, sim.Account{ID: id, Password: safetytest.Password, Type: "10"})
		}
		rates := sim.Quiet
		rates.JobPace, rates.JobReject = 2*time.Second, reject
		f, err := sim.New(sim.Options{URL: e.S.URL, Accounts: accts, Seed: 3, Rates: rates, Loopback: true})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { _ = f.Run(ctx); close(done) }()
		t.Cleanup(func() { cancel(); <-done })
		for _, id := range ids {
			testkit.Eventually(t, 15*time.Second, id+" online", func() bool { return e.S.Hub.Online(id) })
		}
	}
	run([]string{T[0]}, -1) // never rejects
	j := e.add("Check the pump at gate 4", T[0])
	var seen []job.State
	deadline := time.Now().Add(30 * time.Second)
	for len(seen) == 0 || seen[len(seen)-1] != job.Over {
		f, err := con.TryRead(time.Until(deadline))
		if err != nil {
			t.Fatalf("states seen %v: %v", seen, err)
		}
		var got job.Job
		if f.Type != job.EventChanged || f.Decode(&got) != nil || got.JobID != j.JobID {
			continue
		}
		st := got.JobMsList[0].State
		if len(seen) == 0 || seen[len(seen)-1] != st {
			seen = append(seen, st)
		}
	}
	want := []job.State{job.Unsettled, job.Accepted, job.Working, job.Over}
	if len(seen) != len(want) {
		t.Fatalf("states %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("states %v, want %v", seen, want)
		}
	}
	r := e.Do(http.MethodGet, "/ds/job/history", e.Tok, map[string]any{"jobId": j.JobID})
	var h struct{ List []job.HistoryEntry }
	r.Into(t, &h)
	if len(h.List) != 5 || h.List[4].Action != "completed" {
		t.Fatalf("history %s", r.Result)
	}

	run([]string{T[1]}, 1) // rejects every ticket
	j2 := e.add("Move the barrier", T[1])
	got := changed(t, con, j2.JobID, T[1], job.Rejected, true)
	if got.JobMsList[0].Reason == "" || got.Status != job.Rejected {
		t.Fatalf("rejected without a reason: %+v", got)
	}
}
