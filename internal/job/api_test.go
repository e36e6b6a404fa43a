package job_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"tenfour/internal/job"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

const wait = 5 * time.Second

var jobTables = []string{"jobs", "job_tickets", "job_history"}

// env is the safety world (safetytest.Env: F with three terminals, Other with one) and a terminal's HTTP
// session, which the console endpoints refuse.
type env struct {
	*safetytest.Env
	ttok string
}

func newEnv(t *testing.T, engine string) *env {
	s := testkit.StartOn(t, engine)
	e := &env{Env: safetytest.NewEnv(t, s, 3)}
	var err error
	if e.ttok, err = s.Sessions.Create(context.Background(), e.F.Terminals[0], e.F.CustomerID); err != nil {
		t.Fatal(err)
	}
	return e
}

// eachEnv runs fn on a fresh env on every engine: the opening of each job scenario.
func eachEnv(t *testing.T, fn func(t *testing.T, e *env)) {
	testkit.EachEngine(t, func(t *testing.T, engine string) { fn(t, newEnv(t, engine)) })
}

// add sends a job and returns it.
func (e *env) add(task string, ms ...string) job.Job {
	e.T.Helper()
	r := e.Do(http.MethodPost, "/ds/job/add", e.Tok, map[string]any{"job": task, "msIds": ms, "address": "Gate 4",
		"lat": 41.01, "lng": 29.02})
	if r.Code != "0" {
		e.T.Fatalf("add: %s %s", r.Code, r.Msg)
	}
	var j job.Job
	r.Into(e.T, &j)
	return j
}

func (e *env) count(q string, args ...any) int {
	e.T.Helper()
	return testkit.Count(e.T, e.S.DB, q, args...)
}

func (e *env) logs() int { return e.Logs(e.F.CustomerID, 140) }

func page(t *testing.T, r testkit.Reply) httpx.Page[job.Job] {
	var p httpx.Page[job.Job]
	r.Into(t, &p)
	return p
}

// POST /ds/job/add, GET /ds/job/list, DELETE /ds/job/delete, GET /ds/job/history: every rule, good and bad, on
// both engines; refusals store nothing.
func TestJobAPI(t *testing.T) { eachEnv(t, jobAPI) }

func jobAPI(t *testing.T, e *env) {
	T := e.F.Terminals
	con := testkit.Console(t, e.S.URL, e.Tok)
	many := make([]string, job.MaxAssignees+1)
	for i := range many {
		many[i] = fmt.Sprintf("9%07d", i)
	}
	base := func(kv ...any) map[string]any {
		m := map[string]any{"job": "Check the pump at gate 4", "address": "Harbour road 12", "lat": 41.0123, "lng": 29.0456,
			"msIds": []string{T[0], T[1]}}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(m, kv[i].(string))
			} else {
				m[kv[i].(string)] = kv[i+1]
			}
		}
		return m
	}
	var first, second job.Job
	api := testkit.APITest{Server: e.S, State: jobTables, Socket: con}
	api.Run(t, []testkit.Scenario{
		{Name: "add: no token", Method: "POST", Path: "/ds/job/add", Params: base(), Code: "105", Status: 401},
		{Name: "add: a terminal's session", Method: "POST", Path: "/ds/job/add", Token: e.ttok, Params: base(), Code: "107", Status: 403},
		{Name: "add: no task", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("job", nil), Code: "130", Status: 400},
		{Name: "add: blank task", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("job", "   "), Code: "130"},
		{Name: "add: no terminal", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("msIds", nil), Code: "131"},
		{Name: "add: empty terminal list", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("msIds", []string{}), Code: "131"},
		{Name: "add: 101 terminals", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("msIds", many), Code: "132"},
		{Name: "add: lat without lng", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("lng", nil), Code: "133"},
		{Name: "add: lat off the globe", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("lat", 95), Code: "133"},
		{Name: "add: task too long", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("job", strings.Repeat("x", 501)), Code: "136"},
		{Name: "add: address too long", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("address", strings.Repeat("x", 201)), Code: "136"},
		{Name: "add: illegal characters", Method: "POST", Path: "/ds/job/add", Token: e.Tok, Params: base("job", "pump\u202e"), Code: "400"},
		{Name: "add: another customer's terminal", Method: "POST", Path: "/ds/job/add", Token: e.Tok,
			Params: base("msIds", []string{T[0], e.Other.Terminals[0]}), Code: "404", Status: 404},
		{Name: "add: a dispatcher as assignee", Method: "POST", Path: "/ds/job/add", Token: e.Tok,
			Params: base("msIds", []string{e.F.Dispatcher}), Code: "404"},
		{Name: "add: our terminal from another customer's console", Method: "POST", Path: "/ds/job/add", Token: e.OTok,
			Params: base(), Code: "404"},
		{Name: "add: two terminals, micro-degrees", Method: "POST", Path: "/ds/job/add", Token: e.Tok,
			Params: base("lat", 41012300, "lng", 29045600), Code: "0", Events: []string{job.EventChanged},
			Check: func(t *testing.T, r testkit.Reply) {
				r.Into(t, &first)
				if first.JobID == 0 || first.Status != job.Unsettled || len(first.JobMsList) != 2 || first.Lat == nil ||
					*first.Lat != 41.0123 || *first.Lng != 29.0456 || first.Creator != e.F.Dispatcher || first.SendTime == 0 {
					t.Fatalf("%s", r.Result)
				}
				for _, tk := range first.JobMsList {
					if tk.State != job.Unsettled || tk.Delivered || tk.MsName == "" {
						t.Fatalf("ticket %+v", tk)
					}
				}
			}},
		{Name: "add: jobMsList objects, task alias, no position", Method: "POST", Path: "/ds/job/add", Token: e.Tok,
			Params: map[string]any{"task": "Unlock the east door", "jobMsList": []map[string]any{{"msId": T[2]}}}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				r.Into(t, &second)
				if second.Job != "Unlock the east door" || second.Lat != nil || len(second.JobMsList) != 1 || second.JobMsList[0].MsID != T[2] {
					t.Fatalf("%s", r.Result)
				}
			}},
	})
	if n := e.count(`SELECT COUNT(*) FROM job_history WHERE customer_id = ? AND action = 'created'`, e.F.CustomerID); n != 3 {
		t.Fatalf("%d created history entries, want 3", n)
	}
	if n := e.logs(); n != 2 {
		t.Fatalf("%d job log entries, want 2", n)
	}
	day := time.Now().UTC()
	from := time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC)
	// lists checks a list answer: these jobs, in this order, and no other.
	lists := func(want ...job.ID) func(*testing.T, testkit.Reply) {
		return func(t *testing.T, r testkit.Reply) {
			p := page(t, r)
			ok := p.Total == len(want) && len(p.List) == len(want)
			for i := 0; ok && i < len(want); i++ {
				ok = p.List[i].JobID == want[i]
			}
			if !ok {
				t.Fatalf("want jobs %v: %s", want, r.Result)
			}
		}
	}
	list := func(name string, params map[string]any, want ...job.ID) testkit.Scenario {
		return testkit.Scenario{Name: "list: " + name, Method: "GET", Path: "/ds/job/list", Token: e.Tok, Params: params,
			Code: "0", Check: lists(want...)}
	}
	api.Run(t, []testkit.Scenario{
		list("newest first", nil, second.JobID, first.JobID),
		list("by terminal", map[string]any{"msId": T[2]}, second.JobID),
		list("by state", map[string]any{"state": "1,3"}),
		list("by keyword, any case", map[string]any{"keyword": "PUMP"}, first.JobID),
		list("by keyword in the address", map[string]any{"keyword": "harbour ROAD"}, first.JobID),
		// LIKE's wildcards match themselves: "_" is no "any character", "%" no "anything".
		list("by keyword: _ is literal", map[string]any{"keyword": "p_mp"}),
		list("by keyword: % is literal", map[string]any{"keyword": "%"}),
		list("by keyword: \\ is literal", map[string]any{"keyword": `east\`}),
		list("by jobId", map[string]any{"jobId": first.JobID}, first.JobID),
		list("this month", map[string]any{"sTime": from.UnixMilli(), "eTime": from.AddDate(0, 1, 0).UnixMilli() - 1},
			second.JobID, first.JobID),
		{Name: "list: start after end", Method: "GET", Path: "/ds/job/list", Token: e.Tok,
			Params: map[string]any{"sTime": from.UnixMilli() + 1, "eTime": from.UnixMilli()}, Code: "93"},
		{Name: "list: across months", Method: "GET", Path: "/ds/job/list", Token: e.Tok,
			Params: map[string]any{"sTime": from.UnixMilli() - 1, "eTime": from.UnixMilli() + 1}, Code: "95"},
		{Name: "list: a state that does not exist", Method: "GET", Path: "/ds/job/list", Token: e.Tok, Params: map[string]any{"state": 9}, Code: "400"},
		{Name: "list: page size 0", Method: "GET", Path: "/ds/job/list", Token: e.Tok, Params: map[string]any{"pageSize": 0}, Code: "400"},
		{Name: "list: another customer sees none", Method: "GET", Path: "/ds/job/list", Token: e.OTok, Code: "0", Check: lists()},
		{Name: "list: a terminal's session", Method: "GET", Path: "/ds/job/list", Token: e.ttok, Code: "107"},
		{Name: "history: created per ticket", Method: "GET", Path: "/ds/job/history", Token: e.Tok,
			Params: map[string]any{"jobId": first.JobID}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var h struct{ List []job.HistoryEntry }
				r.Into(t, &h)
				if len(h.List) != 2 || h.List[0].Action != "created" || h.List[0].By != e.F.Dispatcher {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "history: another customer's job", Method: "GET", Path: "/ds/job/history", Token: e.OTok,
			Params: map[string]any{"jobId": first.JobID}, Code: "404"},
		{Name: "history: no jobId", Method: "GET", Path: "/ds/job/history", Token: e.Tok, Code: "400"},

		{Name: "delete: no jobId", Method: "DELETE", Path: "/ds/job/delete", Token: e.Tok, Code: "400"},
		{Name: "delete: not an id", Method: "DELETE", Path: "/ds/job/delete", Token: e.Tok, Params: map[string]any{"jobId": "x"}, Code: "400"},
		{Name: "delete: unknown job", Method: "DELETE", Path: "/ds/job/delete", Token: e.Tok, Params: map[string]any{"jobId": 99999}, Code: "404"},
		{Name: "delete: another customer's job", Method: "DELETE", Path: "/ds/job/delete", Token: e.OTok,
			Params: map[string]any{"jobId": first.JobID}, Code: "404"},
		{Name: "delete: a terminal without a ticket of it", Method: "DELETE", Path: "/ds/job/delete", Token: e.Tok,
			Params: map[string]any{"jobId": first.JobID, "msId": T[2]}, Code: "404"},
		{Name: "delete: a terminal's session", Method: "DELETE", Path: "/ds/job/delete", Token: e.ttok,
			Params: map[string]any{"jobId": first.JobID, "msId": T[1]}, Code: "107"},
		{Name: "delete: one terminal's ticket", Method: "DELETE", Path: "/ds/job/delete", Token: e.Tok,
			Params: map[string]any{"jobId": first.JobID, "msId": T[1]}, Code: "0", Events: []string{job.EventRemoved},
			Check: func(t *testing.T, r testkit.Reply) {
				j, err := e.S.Jobs.Store().Get(context.Background(), e.F.CustomerID, first.JobID)
				if err != nil || len(j.JobMsList) != 1 || j.JobMsList[0].MsID != T[0] {
					t.Fatalf("%+v %v", j, err)
				}
			}},
		{Name: "delete: the whole job", Method: "DELETE", Path: "/ds/job/delete", Token: e.Tok,
			Params: map[string]any{"jobId": second.JobID}, Code: "0", Events: []string{job.EventRemoved},
			Check: func(t *testing.T, r testkit.Reply) {
				if n := e.count(`SELECT COUNT(*) FROM jobs WHERE id = ?`, second.JobID); n != 0 {
					t.Fatal("the job is still stored")
				}
				if n := e.count(`SELECT COUNT(*) FROM job_tickets WHERE job_id = ?`, second.JobID); n != 0 {
					t.Fatal("its tickets are still stored")
				}
			}},
		{Name: "delete: the last ticket takes the job with it", Method: "DELETE", Path: "/ds/job/delete", Token: e.Tok,
			Params: map[string]any{"jobId": first.JobID, "msId": T[0]}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if n := e.count(`SELECT COUNT(*) FROM jobs WHERE customer_id = ?`, e.F.CustomerID); n != 0 {
					t.Fatalf("%d jobs left", n)
				}
			}},
	})
	if n := e.logs(); n != 5 {
		t.Fatalf("%d job log entries, want 5 (2 sent, 3 deleted)", n)
	}
	// Spec §9: page 1, size 20 by default.
	for i := range 23 {
		e.add(fmt.Sprintf("Round %d", i), T[i%3])
	}
	r := e.Do(http.MethodGet, "/ds/job/list", e.Tok, nil)
	if p := page(t, r); p.Total != 23 || len(p.List) != job.DefPageSize || p.List[0].Job != "Round 22" {
		t.Fatalf("default page: total %d, %d rows", p.Total, len(p.List))
	}
	r = e.Do(http.MethodGet, "/ds/job/list", e.Tok, map[string]any{"pageNo": 2})
	if p := page(t, r); len(p.List) != 3 || p.List[2].Job != "Round 0" {
		t.Fatalf("page 2: %d rows", len(p.List))
	}
}

// TestMain: the job fixture's dispatcher and field terminals make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
