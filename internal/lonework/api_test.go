package lonework_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"tenfour/internal/lonework"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

const wait = 5 * time.Second

// env is the safety tests' world (four terminals) with a controllable lone-work clock.
type env struct {
	*safetytest.Env
	clock *testkit.Clock
}

func newEnv(t *testing.T) *env {
	s := testkit.Start(t)
	e := &env{Env: safetytest.NewEnv(t, s, 4), clock: testkit.NewClock(testkit.Noon())}
	s.LoneWork.SetClock(e.clock.Now)
	return e
}

// at moves the lone-work clock and runs an engine pass (the server's own loop may run one too: same result).
// Tests also call it from a goroutine, so a failed pass is reported with Error (Fatal must stay on the test's
// goroutine) and the pass is not settled.
func (e *env) at(d time.Duration) {
	e.T.Helper()
	e.clock.Add(d)
	if err := e.S.LoneWork.Tick(context.Background()); err != nil {
		e.T.Error(err)
		return
	}
	e.S.LoneWork.Settle()
}

func (e *env) ms(d time.Duration) int64 { return e.clock.Now().Add(d).UnixMilli() }

// add creates a plan for terminal i starting in `in` (30 min, every 10, countdown 60 s) and returns it.
func (e *env) add(i int, in time.Duration) lonework.Plan {
	e.T.Helper()
	return e.addFor(i, in, 30)
}

// addFor is add with a duration in minutes.
func (e *env) addFor(i int, in time.Duration, minutes int) lonework.Plan {
	e.T.Helper()
	r := e.Do(http.MethodPost, "/ds/loneWork/add", e.Tok, map[string]any{"msIds": []string{e.F.Terminals[i]},
		"sTime": e.ms(in), "duration": minutes, "interval": 10, "countdown": 60})
	if r.Code != "0" {
		e.T.Fatalf("add: %s %s", r.Code, r.Msg)
	}
	var page struct{ List []lonework.Plan }
	r.Into(e.T, &page)
	return page.List[0]
}

func (e *env) plan(id lonework.WorkID) (lonework.Plan, bool) {
	p, err := e.S.LoneWork.Store().Get(context.Background(), e.F.CustomerID, id)
	return p, err == nil
}

// row is one scenario of an endpoint's table: a name, the caller's token, the parameters, the HTTP status (0: not
// checked) and code, and what else a success must show.
type row func(name, tok string, params map[string]any, status int, code string, check ...func(*testing.T, testkit.Reply)) testkit.Scenario

// call makes the rows of one endpoint.
func call(method, path string) row {
	return func(name, tok string, params map[string]any, status int, code string, check ...func(*testing.T, testkit.Reply)) testkit.Scenario {
		sc := testkit.Scenario{Name: name, Method: method, Path: path, Token: tok, Params: params, Status: status, Code: code}
		if len(check) > 0 {
			sc.Check = check[0]
		}
		return sc
	}
}

// plansLeft checks the customer holds n plans after a call.
func (e *env) plansLeft(n int) func(*testing.T, testkit.Reply) {
	return func(t *testing.T, _ testkit.Reply) {
		if got := e.Count("lone_works", e.F.CustomerID); got != n {
			t.Fatalf("%d plans stored, want %d", got, n)
		}
	}
}

// POST /ds/loneWork/add: every rule, good and bad; refusals store nothing.
func TestAddScenarios(t *testing.T) {
	e := newEnv(t)
	con := testkit.Console(t, e.S.URL, e.Tok)
	T := e.F.Terminals
	day := e.clock.Now().Add(2 * time.Hour)
	base := testkit.Variants(map[string]any{"msIds": []string{T[0]}, "sTime": e.ms(time.Hour), "duration": 60, "interval": 20})
	add := call(http.MethodPost, "/ds/loneWork/add")
	testkit.APITest{Server: e.S, State: []string{"lone_works"}}.Run(t, []testkit.Scenario{
		add("no token", "", base(nil), 401, "105"),
		add("other customer's console, our terminal", e.OTok, base(nil), 404, "404"),
		add("no terminal", e.Tok, base(map[string]any{"msIds": []string{}}), 400, "80"),
		add("five terminals", e.Tok, base(map[string]any{"msIds": []string{T[0], T[1], T[2], T[3], e.Other.Terminals[0]}}), 400, "81"),
		add("foreign terminal among ours", e.Tok, base(map[string]any{"msIds": []string{T[1], e.Other.Terminals[0]}}), 404, "404"),
		add("no date or time", e.Tok, base(map[string]any{"sTime": nil}), 400, "86"),
		add("no duration", e.Tok, base(map[string]any{"duration": nil}), 400, "82"),
		add("duration above a day", e.Tok, base(map[string]any{"duration": 1441}), 400, "83"),
		add("no interval", e.Tok, base(map[string]any{"interval": nil}), 400, "84"),
		add("interval above duration", e.Tok, base(map[string]any{"interval": 61}), 400, "85"),
		add("begin equals end", e.Tok, base(map[string]any{"duration": nil, "eTime": e.ms(time.Hour)}), 400, "87"),
		add("in the past", e.Tok, base(map[string]any{"sTime": e.ms(-2 * time.Hour)}), 400, "97"),
		add("four terminals by date and time", e.Tok, base(map[string]any{"msIds": T, "sTime": nil,
			"date": day.Format(time.DateOnly), "time": day.Format("15:04")}), 200, "0", e.plansLeft(4)),
		add("one terminal, comma list, spec aliases", e.Tok, map[string]any{"msIds": T[0], "sTime": e.ms(5 * time.Hour),
			"wTime": "30", "hb": "10"}, 200, "0", e.plansLeft(5)),
		add("overlapping the terminal's plan", e.Tok, base(map[string]any{"sTime": e.ms(2*time.Hour + 30*time.Minute)}), 409, "89"),
	})
	if n := e.Logs(e.F.CustomerID, 120); n != 2 {
		t.Fatalf("log 120 written %d times, want 2", n)
	}
	if n := e.Count("lone_works", e.Other.CustomerID); n != 0 {
		t.Fatalf("other customer got %d plans", n)
	}
	ev := con.WaitEvent(lonework.EventState, wait, nil)
	var p lonework.Plan
	ev.Into(t, &p)
	if p.WorkState != lonework.Waiting || p.Date != day.Format(time.DateOnly) || p.Duration != 60 || p.Interval != 20 {
		t.Fatalf("state event %s", ev.Data)
	}
}

// PUT /ds/loneWork/update: editable only while waiting and normal; refusals change nothing.
func TestUpdateScenarios(t *testing.T) {
	e := newEnv(t)
	waiting := e.add(0, time.Hour)
	working := e.add(1, 0)
	alarmed := e.add(2, 0)
	e.at(0) // working and alarmed start
	if r := e.Do(http.MethodPost, "/ds/loneWork/addAlarm", e.Tok, map[string]any{"workId": alarmed.ID, "reason": 5}); r.Code != "0" {
		t.Fatal(r.Code, r.Msg)
	}
	later := e.clock.Now().Add(3 * time.Hour)
	update := call(http.MethodPut, "/ds/loneWork/update")
	testkit.APITest{Server: e.S, State: []string{"lone_works"}}.Run(t, []testkit.Scenario{
		update("missing id", e.Tok, map[string]any{"interval": 5}, 400, "400"),
		update("bad id", e.Tok, map[string]any{"id": "x", "interval": 5}, 400, "400"),
		update("unknown id", e.Tok, map[string]any{"id": 99999, "interval": 5}, 404, "404"),
		update("other customer's id", e.OTok, map[string]any{"id": waiting.ID, "interval": 5}, 404, "404"),
		update("in progress", e.Tok, map[string]any{"id": working.ID, "interval": 5}, 409, "88"),
		update("in alarm", e.Tok, map[string]any{"id": alarmed.ID, "interval": 5}, 409, "88"),
		update("interval above duration", e.Tok, map[string]any{"id": waiting.ID, "interval": 31}, 400, "85"),
		update("duration above a day", e.Tok, map[string]any{"id": waiting.ID, "duration": 2000}, 400, "83"),
		update("edit interval only", e.Tok, map[string]any{"id": waiting.ID, "interval": 5}, 200, "0"),
		update("move by date and time", e.Tok, map[string]any{"id": waiting.ID, "date": later.Format(time.DateOnly),
			"time": later.Format("15:04")}, 200, "0"),
	})
	got, _ := e.plan(waiting.ID)
	if got.Interval != 5 || got.Duration != 30 || got.STime != e.ms(3*time.Hour) {
		t.Fatalf("edited plan %+v", got)
	}
	// Ending a plan in progress early is the one change it accepts.
	r := e.Do(http.MethodPut, "/ds/loneWork/update", e.Tok, map[string]any{"id": working.ID, "enabled": 0})
	var ended lonework.Plan
	r.Into(t, &ended)
	if r.Code != "0" || ended.WorkState != lonework.Done || ended.Status != lonework.StatusOver {
		t.Fatalf("end early: %s %+v", r.Code, ended)
	}
	if r := e.Do(http.MethodPut, "/ds/loneWork/update", e.Tok, map[string]any{"id": working.ID, "interval": 5}); r.Code != "88" {
		t.Fatalf("edit an ended plan: %s", r.Code)
	}
	if n := e.Logs(e.F.CustomerID, 121); n != 3 {
		t.Fatalf("log 121 written %d times, want 3", n)
	}
}

// DELETE /ds/loneWork/delete: all or none; not while in progress or in alarm.
func TestDeleteScenarios(t *testing.T) {
	e := newEnv(t)
	con := testkit.Console(t, e.S.URL, e.Tok)
	a := e.add(0, time.Hour)
	b := e.add(1, time.Hour)
	working := e.add(2, 0)
	e.at(0)
	del := call(http.MethodDelete, "/ds/loneWork/delete")
	testkit.APITest{Server: e.S, State: []string{"lone_works"}}.Run(t, []testkit.Scenario{
		del("no id", e.Tok, map[string]any{}, 400, "400"),
		del("other customer's token", e.OTok, map[string]any{"id": a.ID}, 404, "404"),
		del("one unknown among good ones", e.Tok, map[string]any{"ids": a.ID.String() + ",99999"}, 404, "404"),
		del("in progress among good ones", e.Tok, map[string]any{"ids": a.ID.String() + "," + working.ID.String()}, 409, "88"),
		del("two waiting", e.Tok, map[string]any{"ids": a.ID.String() + "," + b.ID.String()}, 200, "0", e.plansLeft(1)),
		del("already gone", e.Tok, map[string]any{"id": a.ID}, 404, "404"),
	})
	if n := e.Logs(e.F.CustomerID, 122); n != 1 {
		t.Fatalf("log 122 written %d times", n)
	}
	ev := con.WaitEvent(lonework.EventRemoved, wait, nil)
	if !testkit.Has(ev, `"`+a.ID.String()+`"`, `"`+b.ID.String()+`"`) {
		t.Fatalf("removed event %s", ev.Data)
	}
}

// GET /ds/loneWork/list with filters; live fields (work state, countdown deadline, server time).
func TestListScenarios(t *testing.T) {
	e := newEnv(t)
	a := e.add(0, time.Hour)
	b := e.add(1, 0)
	term := testkit.Terminal(t, e.S.URL, e.F.Terminals[1], safetytest.Password)
	e.at(0)
	go e.at(10 * time.Minute) // b is prompted: countdown running
	req := term.Wait(wait, func(f testkit.Frame) bool { return f.Type == lonework.TermCheck && f.ID != 0 })
	term.Reply(req, "0", nil)
	e.S.LoneWork.Settle()
	today := e.clock.Now().Format(time.DateOnly)
	// listed checks the page holds these plans in this order, the running one with its live fields.
	listed := func(want ...lonework.WorkID) func(*testing.T, testkit.Reply) {
		return func(t *testing.T, r testkit.Reply) {
			list, got := safetytest.PageIDs(t, r, func(p lonework.Plan) lonework.WorkID { return p.ID })
			if !slices.Equal(got, want) {
				t.Fatalf("plans %v, want %v", got, want)
			}
			for _, p := range list {
				if p.ID == b.ID && (p.WorkState != lonework.Working || p.Deadline != e.ms(time.Minute) || p.ServerTime != e.ms(0) || p.RealStart == 0) {
					t.Errorf("live fields of the running plan %+v", p)
				}
			}
		}
	}
	list := call(http.MethodGet, "/ds/loneWork/list")
	testkit.APITest{Server: e.S}.Run(t, []testkit.Scenario{
		list("all, latest start first", e.Tok, nil, 0, "0", listed(a.ID, b.ID)),
		list("one terminal", e.Tok, map[string]any{"msId": e.F.Terminals[1]}, 0, "0", listed(b.ID)),
		list("status normal", e.Tok, map[string]any{"status": 0}, 0, "0", listed(a.ID, b.ID)),
		list("status alarm", e.Tok, map[string]any{"status": 1}, 0, "0", listed()),
		list("today", e.Tok, map[string]any{"queryDate": today}, 0, "0", listed(a.ID, b.ID)),
		list("another day", e.Tok, map[string]any{"queryDate": e.clock.Now().AddDate(0, 0, 3).Format(time.DateOnly)}, 0, "0", listed()),
		list("page 2 of 1", e.Tok, map[string]any{"pageNo": 2, "pageSize": 1}, 0, "0", listed(b.ID)),
		list("other customer", e.OTok, nil, 0, "0", listed()),
		list("bad status", e.Tok, map[string]any{"status": 9}, 0, "400"),
		list("bad date", e.Tok, map[string]any{"queryDate": "soon"}, 0, "400"),
		list("no token", "", nil, 0, "105"),
	})
}

// alarmsListed checks an alarm page (findAlarm, the report) holds n alarms, all of them on the page.
func alarmsListed(n int) func(*testing.T, testkit.Reply) {
	return func(t *testing.T, r testkit.Reply) {
		var page httpx.Page[lonework.Alarm]
		r.Into(t, &page)
		if page.Total != n || len(page.List) != n {
			t.Fatalf("%d alarms (%d on the page), want %d", page.Total, len(page.List), n)
		}
	}
}

// Lone-work alarms: addAlarm, updateAlarm, findAlarm and the report, good and bad, tenant-scoped.
func TestAlarmScenarios(t *testing.T) {
	e := newEnv(t)
	con := testkit.Console(t, e.S.URL, e.Tok)
	waiting := e.add(0, time.Hour)
	w := e.add(1, 0)
	e.at(0)
	addAlarm, updateAlarm := call(http.MethodPost, "/ds/loneWork/addAlarm"), call(http.MethodPut, "/ds/loneWork/updateAlarm")
	findAlarm, report := call(http.MethodGet, "/ds/loneWork/findAlarm"), call(http.MethodPost, "/ds/report/findLoneWorkAlarm")
	// A refused alarm call stores and changes no alarm.
	api := testkit.APITest{Server: e.S, State: []string{"lone_work_alarms"}}
	api.Run(t, []testkit.Scenario{
		addAlarm("addAlarm not in progress", e.Tok, map[string]any{"workId": waiting.ID, "reason": 2}, 0, "96"),
		addAlarm("addAlarm bad reason", e.Tok, map[string]any{"workId": w.ID, "reason": 9}, 0, "400"),
		addAlarm("addAlarm no reason", e.Tok, map[string]any{"workId": w.ID}, 0, "400"),
		addAlarm("addAlarm no work id", e.Tok, map[string]any{"reason": 2}, 0, "400"),
		addAlarm("addAlarm other customer's plan", e.OTok, map[string]any{"workId": w.ID, "reason": 2}, 0, "404"),
		addAlarm("addAlarm good", e.Tok, map[string]any{"workId": w.ID, "reason": 4}, 0, "0"),
	})
	ev := con.WaitEvent(lonework.EventAlarm, wait, nil)
	var a lonework.Alarm
	ev.Into(t, &a)
	if ev.Seq == 0 || a.WorkID != w.ID || a.Reason != lonework.ReasonBusy || a.MsID != e.F.Terminals[1] || a.AlarmTime != e.ms(0) {
		t.Fatalf("alarm event seq %d %s", ev.Seq, ev.Data)
	}
	if p, _ := e.plan(w.ID); p.Status != lonework.StatusAlarm || p.AlarmCount != 1 {
		t.Fatalf("plan after addAlarm %+v", p)
	}

	long := strings.Repeat("y", lonework.MaxRemark+1)
	api.Run(t, []testkit.Scenario{
		updateAlarm("updateAlarm no remark", e.Tok, map[string]any{"id": a.ID}, 0, "400"),
		updateAlarm("updateAlarm remark too long", e.Tok, map[string]any{"id": a.ID, "remark": long}, 0, "400"),
		updateAlarm("updateAlarm no id", e.Tok, map[string]any{"remark": "x"}, 0, "400"),
		updateAlarm("updateAlarm other customer's alarm", e.OTok, map[string]any{"id": a.ID, "remark": "hijack"}, 0, "404"),
		updateAlarm("updateAlarm good", e.Tok, map[string]any{"id": a.ID, "remark": "called, he is fine"}, 0, "0"),
	})
	up := con.WaitEvent(lonework.EventAlarmUpdated, wait, nil)
	var ua lonework.Alarm
	up.Into(t, &ua)
	if ua.Remark != "called, he is fine" || ua.Handler != e.F.Dispatcher || up.Seq == 0 {
		t.Fatalf("alarmUpdated %s", up.Data)
	}
	if p, _ := e.plan(w.ID); p.Status != lonework.StatusNormal {
		t.Fatalf("plan after handling: %+v", p)
	}

	today := e.clock.Now().Format(time.DateOnly)
	api.Run(t, []testkit.Scenario{
		findAlarm("findAlarm by plan", e.Tok, map[string]any{"ids": w.ID}, 0, "0", alarmsListed(1)),
		findAlarm("findAlarm by plan and day", e.Tok, map[string]any{"ids": w.ID.String() + "," + waiting.ID.String(), "queryDate": today}, 0, "0",
			alarmsListed(1)),
		findAlarm("findAlarm by plan, day as ms", e.Tok, map[string]any{"ids": w.ID, "queryDate": e.ms(0)}, 0, "0", alarmsListed(1)),
		findAlarm("findAlarm another day", e.Tok, map[string]any{"ids": w.ID, "queryDate": e.clock.Now().AddDate(0, 0, -2).Format(time.DateOnly)},
			0, "0", alarmsListed(0)),
		findAlarm("findAlarm other customer's plan ids", e.OTok, map[string]any{"ids": w.ID}, 0, "0", alarmsListed(0)),
		findAlarm("findAlarm no ids", e.Tok, map[string]any{}, 0, "400"),
		findAlarm("findAlarm bad ids", e.Tok, map[string]any{"ids": "a,b"}, 0, "400"),
	})

	now := e.clock.Now()
	from := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	to := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	api.Run(t, []testkit.Scenario{
		report("report this month", e.Tok, map[string]any{"sTime": from, "eTime": to}, 0, "0", alarmsListed(1)),
		report("report terminal filter", e.Tok, map[string]any{"sTime": from, "eTime": to, "msIds": []string{e.F.Terminals[0]}}, 0, "0",
			alarmsListed(0)),
		report("report other customer", e.OTok, map[string]any{"sTime": from, "eTime": to}, 0, "0", alarmsListed(0)),
		report("report no range", e.Tok, map[string]any{}, 0, "400"),
		report("report start after end", e.Tok, map[string]any{"sTime": to, "eTime": from}, 0, "93"),
		report("report cross month", e.Tok, map[string]any{"sTime": from - 1, "eTime": to}, 0, "95"),
	})
}

// The whole loop over a real socket: the terminal is prompted, checks in, later forgets; the console sees the
// live state and a durable alarm with the reason.
func TestTerminalLoop(t *testing.T) {
	e := newEnv(t)
	con := testkit.Console(t, e.S.URL, e.Tok)
	term := testkit.Terminal(t, e.S.URL, e.F.Terminals[0], safetytest.Password)
	if r := con.Call(lonework.ReqCheckin, map[string]any{}); r.Code != "107" {
		t.Fatalf("console check-in: %s", r.Code)
	}
	if r := term.Call(lonework.ReqCheckin, map[string]any{}); r.Code != "96" {
		t.Fatalf("check-in without lone work: %s", r.Code)
	}
	p := e.addFor(0, time.Minute, 120)
	r := term.Call(lonework.ReqGet, map[string]any{})
	var mine struct{ List []lonework.Plan }
	r.Into(t, &mine)
	if len(mine.List) != 1 || mine.List[0].ID != p.ID {
		t.Fatalf("lonework.get: %s", r.Data)
	}
	e.at(time.Minute)
	term.WaitEvent(lonework.TermStart, wait, nil)

	// First check: prompted, acknowledged, checked in.
	go e.at(10 * time.Minute)
	req := term.Wait(wait, func(f testkit.Frame) bool { return f.Type == lonework.TermCheck && f.ID != 0 })
	var check struct {
		WorkID    string `json:"workId"`
		Countdown int    `json:"countdown"`
		Deadline  int64  `json:"deadline"`
	}
	req.Into(t, &check)
	if check.WorkID != p.ID.String() || check.Countdown != 60 {
		t.Fatalf("prompt %s", req.Data)
	}
	term.Reply(req, "0", nil)
	con.Wait(wait, testkit.Event(lonework.EventState, `"deadline":`+itoa(check.Deadline)))
	if r := term.Call(lonework.ReqCheckin, map[string]any{"workId": p.ID}); r.Code != "0" {
		t.Fatalf("check-in: %s %s", r.Code, r.Msg)
	}
	con.Wait(wait, testkit.Event(lonework.EventState, `"deadline":0`))

	// Second check: the worker forgets.
	testkit.Eventually(t, wait, "first engine pass done", func() bool { p2, _ := e.plan(p.ID); return p2.Deadline == 0 })
	go e.at(10 * time.Minute)
	req = term.Wait(wait, func(f testkit.Frame) bool { return f.Type == lonework.TermCheck && f.ID != 0 })
	term.Reply(req, "0", nil)
	testkit.Eventually(t, wait, "prompt delivered", func() bool { p2, _ := e.plan(p.ID); return p2.Deadline != 0 })
	e.S.LoneWork.Settle()
	e.at(time.Minute)
	ev := con.WaitEvent(lonework.EventAlarm, wait, nil)
	var a lonework.Alarm
	ev.Into(t, &a)
	if a.Reason != lonework.ReasonNoReply || a.WorkID != p.ID || ev.Seq == 0 {
		t.Fatalf("alarm %s (seq %d)", ev.Data, ev.Seq)
	}
	// A console that reconnects gets the alarm from sync.
	con2 := testkit.Console(t, e.S.URL, e.Tok)
	if r := con2.Call("sync", map[string]any{"after": ev.Seq - 1}); r.Code != "0" {
		t.Fatal(r.Code)
	}
	if got := con2.WaitEvent(lonework.EventAlarm, wait, nil); got.Seq != ev.Seq {
		t.Fatalf("replayed seq %d, want %d", got.Seq, ev.Seq)
	}

	// A terminal that answers busy.
	e.S.LoneWork.Settle()
	go e.at(10 * time.Minute)
	req = term.Wait(wait, func(f testkit.Frame) bool { return f.Type == lonework.TermCheck && f.ID != 0 })
	term.Reply(req, lonework.BusyCode, nil)
	ev = con.WaitEvent(lonework.EventAlarm, wait, nil)
	ev.Into(t, &a)
	if a.Reason != lonework.ReasonBusy {
		t.Fatalf("busy alarm %s", ev.Data)
	}
}

// TestMain: the lone-work fixture's dispatcher and workers make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
