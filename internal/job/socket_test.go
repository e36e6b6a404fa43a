package job_test

import (
	"net/http"
	"testing"
	"time"

	"tenfour/internal/job"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

// changed waits for the console's job.changed of job id whose ticket of msID is in state st.
func changed(t *testing.T, con *testkit.Socket, id job.ID, msID string, st job.State, delivered bool) job.Job {
	t.Helper()
	var out job.Job
	con.WaitEvent(job.EventChanged, wait, func(f testkit.Frame) bool {
		var j job.Job
		if f.Decode(&j) != nil || j.JobID != id {
			return false
		}
		for _, tk := range j.JobMsList {
			if tk.MsID == msID && tk.State == st && tk.Delivered == delivered {
				out = j
				return true
			}
		}
		return false
	})
	return out
}

// deliver waits for the terminal's job.deliver of job id and acknowledges it.
func deliver(t *testing.T, term *testkit.Socket, id job.ID) job.TerminalView {
	t.Helper()
	f := term.WaitEvent(job.TermDeliver, wait, func(f testkit.Frame) bool {
		var v job.TerminalView
		return f.Decode(&v) == nil && v.JobID == id
	})
	var v job.TerminalView
	f.Into(t, &v)
	term.Reply(f, "0", nil)
	return v
}

func act(t *testing.T, term *testkit.Socket, typ string, data map[string]any, code string) job.TerminalView {
	t.Helper()
	r := term.Call(typ, data)
	if r.Code != code {
		t.Fatalf("%s %v: code %s (%s), want %s", typ, data, r.Code, r.Msg, code)
	}
	var v job.TerminalView
	if code == "0" {
		r.Into(t, &v)
	}
	return v
}

// A ticket's whole life over the socket, on both engines: an offline terminal gets it at its login, an online
// one at once; each acknowledges, accepts or rejects, starts and completes, and the console receives every
// change; every refusal is coded and changes nothing; the history and the log keep every step.
func TestTicketLifecycle(t *testing.T) { eachEnv(t, ticketLifecycle) }

func ticketLifecycle(t *testing.T, e *env) {
	T := e.F.Terminals
	con := testkit.Console(t, e.S.URL, e.Tok)
	t1 := testkit.Terminal(t, e.S.URL, T[1], safetytest.Password)

	// T[0] is offline: its ticket waits. T[1] is online: it gets it at once.
	j := e.add("Check the pump at gate 4", T[0], T[1])
	changed(t, con, j.JobID, T[0], job.Unsettled, false)
	v := deliver(t, t1, j.JobID)
	if v.Job != "Check the pump at gate 4" || v.State != job.Unsettled || v.Address != "Gate 4" || v.Lat == nil || *v.Lat != 41.01 ||
		v.CreatorName == "" {
		t.Fatalf("delivered %+v", v)
	}
	changed(t, con, j.JobID, T[1], job.Unsettled, true)

	t0 := testkit.Terminal(t, e.S.URL, T[0], safetytest.Password)
	deliver(t, t0, j.JobID)
	changed(t, con, j.JobID, T[0], job.Unsettled, true)
	testkit.Eventually(t, wait, "both delivered", func() bool {
		return e.count(`SELECT COUNT(*) FROM job_tickets WHERE job_id = ? AND delivered_at > 0`, j.JobID) == 2
	})

	id := map[string]any{"jobId": j.JobID}
	snap := testkit.Snapshot(t, e.S.DB, jobTables...)
	// Refusals before anything happened: start and complete an unsettled ticket, reject without a reason, an
	// unknown job, a reason too long, a console asking.
	act(t, t0, job.ReqStart, id, "134")
	act(t, t0, job.ReqComplete, id, "134")
	act(t, t0, job.ReqReject, id, "135")
	act(t, t0, job.ReqReject, map[string]any{"jobId": j.JobID, "reason": string(make([]byte, 201))}, "136")
	act(t, t0, job.ReqAccept, map[string]any{"jobId": 99999}, "404")
	act(t, t0, job.ReqAccept, map[string]any{"jobId": "x"}, "400")
	act(t, t0, job.ReqAccept, map[string]any{}, "400")
	if r := con.Call(job.ReqAccept, id); r.Code != "107" {
		t.Fatalf("a console accepted: %s", r.Code)
	}
	if after := testkit.Snapshot(t, e.S.DB, jobTables...); after != snap {
		t.Fatalf("refusals changed the store:\n%s\n%s", snap, after)
	}

	// T[0]: accepted → working → over; the console sees each step.
	if v := act(t, t0, job.ReqAccept, id, "0"); v.State != job.Accepted || v.AcceptTime == 0 {
		t.Fatalf("accept: %+v", v)
	}
	if got := changed(t, con, j.JobID, T[0], job.Accepted, true); got.Status != job.Accepted {
		t.Fatalf("job status %s", got.Status)
	}
	act(t, t0, job.ReqAccept, id, "134") // twice
	act(t, t0, job.ReqComplete, id, "134")
	if v := act(t, t0, job.ReqStart, id, "0"); v.State != job.Working || v.StartTime == 0 {
		t.Fatalf("start: %+v", v)
	}
	if got := changed(t, con, j.JobID, T[0], job.Working, true); got.Status != job.Working {
		t.Fatalf("job status %s", got.Status)
	}
	act(t, t0, job.ReqReject, map[string]any{"jobId": j.JobID, "reason": "changed my mind"}, "134")
	if v := act(t, t0, job.ReqComplete, map[string]any{"jobId": j.JobID, "remark": "Pump restarted"}, "0"); v.State != job.Over ||
		v.EndTime == 0 || v.Remark != "Pump restarted" {
		t.Fatalf("complete: %+v", v)
	}
	changed(t, con, j.JobID, T[0], job.Over, true)
	for _, a := range []string{job.ReqAccept, job.ReqReject, job.ReqStart, job.ReqComplete} {
		act(t, t0, a, map[string]any{"jobId": j.JobID, "reason": "x"}, "134") // over is final
	}

	// T[1] rejects with a reason; a rejected ticket cannot be completed (nor anything else).
	if v := act(t, t1, job.ReqReject, map[string]any{"jobId": j.JobID, "reason": "Too far away"}, "0"); v.State != job.Rejected ||
		v.Reason != "Too far away" {
		t.Fatalf("reject: %+v", v)
	}
	if got := changed(t, con, j.JobID, T[1], job.Rejected, true); got.Status != job.Over {
		t.Fatalf("one over, one rejected: status %s, want over", got.Status)
	}
	act(t, t1, job.ReqComplete, id, "134")
	act(t, t1, job.ReqStart, id, "134")

	// T[2] has no ticket of this job.
	t2 := testkit.Terminal(t, e.S.URL, T[2], safetytest.Password)
	act(t, t2, job.ReqAccept, id, "404")
	// A terminal of another customer neither.
	o := testkit.Terminal(t, e.S.URL, e.Other.Terminals[0], safetytest.Password)
	act(t, o, job.ReqAccept, id, "404")

	// job.list: the terminal's open tickets and those settled lately.
	var list struct{ List []job.TerminalView }
	r := t0.Call(job.ReqList, nil)
	r.Into(t, &list)
	if len(list.List) != 1 || list.List[0].State != job.Over {
		t.Fatalf("job.list %s", r.Data)
	}
	r = t2.Call(job.ReqList, nil)
	r.Into(t, &list)
	if len(list.List) != 0 {
		t.Fatalf("T2's job.list %s", r.Data)
	}

	// History: created, delivered, accepted, started, completed for T[0]; created, delivered, rejected for T[1].
	hr := e.Do(http.MethodGet, "/ds/job/history", e.Tok, map[string]any{"jobId": j.JobID, "msId": T[0]})
	var h struct{ List []job.HistoryEntry }
	hr.Into(t, &h)
	want := []string{"created", "delivered", "accepted", "started", "completed"}
	if len(h.List) != len(want) {
		t.Fatalf("history %s", hr.Result)
	}
	for i, w := range want {
		if h.List[i].Action != w || h.List[i].MsID != T[0] {
			t.Fatalf("history %d: %+v, want %s", i, h.List[i], w)
		}
	}
	if h.List[4].Reason != "Pump restarted" || h.List[4].State != job.Over || h.List[2].By != T[0] {
		t.Fatalf("history %+v", h.List)
	}
	hr = e.Do(http.MethodGet, "/ds/job/history", e.Tok, map[string]any{"jobId": j.JobID, "msId": T[1]})
	hr.Into(t, &h)
	if len(h.List) != 3 || h.List[2].Action != "rejected" || h.List[2].Reason != "Too far away" {
		t.Fatalf("history %s", hr.Result)
	}
	// Log: sent, accepted, started, completed, rejected.
	if n := e.logs(); n != 5 {
		t.Fatalf("%d job log entries, want 5", n)
	}

	// A deleted ticket: the online terminal is told, and can no longer act on it.
	j2 := e.add("Second task", T[2])
	deliver(t, t2, j2.JobID)
	if r := e.Do(http.MethodDelete, "/ds/job/delete", e.Tok, map[string]any{"jobId": j2.JobID, "msId": T[2]}); r.Code != "0" {
		t.Fatalf("delete: %s", r.Code)
	}
	t2.WaitEvent(job.TermCanceled, wait, nil)
	act(t, t2, job.ReqAccept, map[string]any{"jobId": j2.JobID}, "404")

	// A ticket not acknowledged stays pending and comes again at the next login.
	j3 := e.add("Third task", T[2])
	t2.WaitEvent(job.TermDeliver, wait, nil) // not acknowledged: the server times out and keeps it pending
	t2.Close()
	testkit.Eventually(t, 10*time.Second, "the terminal offline", func() bool { return !e.S.Hub.Online(T[2]) })
	if n := e.count(`SELECT COUNT(*) FROM job_tickets WHERE job_id = ? AND delivered_at = 0`, j3.JobID); n != 1 {
		t.Fatal("an unacknowledged ticket counts as delivered")
	}
	t2 = testkit.Terminal(t, e.S.URL, T[2], safetytest.Password)
	deliver(t, t2, j3.JobID)
	changed(t, con, j3.JobID, T[2], job.Unsettled, true)
}

// POST /ds/report/findJobReport: tickets by terminal and state over a time range (spec §5 rules).
func TestJobReport(t *testing.T) { eachEnv(t, jobReport) }

func jobReport(t *testing.T, e *env) {
	T := e.F.Terminals
	a := e.add("A", T[0], T[1])
	b := e.add("B", T[0])
	e.add("C", T[1], T[2])
	st := e.S.Jobs.Store()
	ctx := t.Context()
	now := time.Now().UnixMilli()
	for _, step := range []struct {
		id  job.ID
		ms  string
		act job.Action
	}{{a.JobID, T[0], job.Accept}, {a.JobID, T[0], job.Start}, {a.JobID, T[0], job.Complete}, {a.JobID, T[1], job.Reject},
		{b.JobID, T[0], job.Accept}} {
		if _, err := st.Act(ctx, e.F.CustomerID, step.id, step.ms, step.act, "r", "", "", now); err != nil {
			t.Fatal(err)
		}
	}
	day := time.Now().UTC()
	from := time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	to := time.Date(day.Year(), day.Month()+1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() - 1
	api := testkit.APITest{Server: e.S, State: jobTables}
	api.Run(t, []testkit.Scenario{
		{Name: "by terminal and state", Method: "POST", Path: "/ds/report/findJobReport", Token: e.Tok,
			Params: map[string]any{"sTime": from, "eTime": to}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var rep job.Report
				r.Into(t, &rep)
				want := []job.ReportRow{
					{MsID: T[0], MsName: "Unit 1", Total: 2, Accepted: 1, Over: 1},
					{MsID: T[1], MsName: "Unit 2", Total: 2, Unsettled: 1, Rejected: 1},
					{MsID: T[2], MsName: "Unit 3", Total: 1, Unsettled: 1},
				}
				if len(rep.List) != 3 {
					t.Fatalf("%s", r.Result)
				}
				for i := range want {
					if rep.List[i] != want[i] {
						t.Errorf("row %d: %+v, want %+v", i, rep.List[i], want[i])
					}
				}
				if rep.Total.Total != 5 || rep.Total.Unsettled != 2 || rep.Total.Over != 1 {
					t.Errorf("total %+v", rep.Total)
				}
			}},
		{Name: "some terminals", Method: "POST", Path: "/ds/report/findJobReport", Token: e.Tok,
			Params: map[string]any{"sTime": from, "eTime": to, "msIds": T[2]}, Code: "0", Contains: []string{`"total":{"msId":"","msName":"","total":1`}},
		{Name: "a range before the jobs", Method: "POST", Path: "/ds/report/findJobReport", Token: e.Tok,
			Params: map[string]any{"sTime": from, "eTime": from + 1}, Code: "0", Contains: []string{`"list":[]`}},
		{Name: "another customer", Method: "POST", Path: "/ds/report/findJobReport", Token: e.OTok,
			Params: map[string]any{"sTime": from, "eTime": to}, Code: "0", Contains: []string{`"list":[]`}},
		{Name: "no start", Method: "POST", Path: "/ds/report/findJobReport", Token: e.Tok, Params: map[string]any{"eTime": to}, Code: "400"},
		{Name: "start after end", Method: "POST", Path: "/ds/report/findJobReport", Token: e.Tok,
			Params: map[string]any{"sTime": to, "eTime": from}, Code: "93"},
		{Name: "across months", Method: "POST", Path: "/ds/report/findJobReport", Token: e.Tok,
			Params: map[string]any{"sTime": from - 1, "eTime": to}, Code: "95"},
		{Name: "a terminal's session", Method: "POST", Path: "/ds/report/findJobReport", Token: e.ttok,
			Params: map[string]any{"sTime": from, "eTime": to}, Code: "107"},
	})
}
