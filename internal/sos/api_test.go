package sos_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/sos"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

const wait = 5 * time.Second

// env is the safety tests' world with three terminals.
type env struct{ *safetytest.Env }

func newEnv(t *testing.T) *env { return &env{safetytest.NewEnv(t, testkit.Start(t), 3)} }

// raise has terminal c raise an SOS and returns the alarm id.
func raise(t *testing.T, c *testkit.Socket, data map[string]any) sos.AlarmID {
	t.Helper()
	r := c.Call(sos.ReqRaise, data)
	if r.Code != "0" {
		t.Fatalf("sos.raise: %s %s", r.Code, r.Msg)
	}
	var res struct {
		ID string `json:"id"`
	}
	r.Into(t, &res)
	id, err := httpx.RowID[sos.AlarmID]("id", res.ID)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (e *env) alarm(id sos.AlarmID) sos.Alarm {
	e.T.Helper()
	a, err := e.S.SOS.Store().Get(context.Background(), e.F.CustomerID, id)
	if err != nil {
		e.T.Fatalf("alarm %d: %v", id, err)
	}
	return a
}

func alarmOf(t *testing.T, f testkit.Frame) sos.Alarm {
	t.Helper()
	var a sos.Alarm
	f.Into(t, &a)
	return a
}

// barrier proves nothing else was queued to c before now: frames on a connection are ordered, so every event
// published before the sync reply arrives before it. It returns the frames that came first.
func barrier(t *testing.T, c *testkit.Socket) []testkit.Frame {
	t.Helper()
	r := c.Call("sync", map[string]any{"after": 1 << 60})
	if r.Code != "0" {
		t.Fatalf("sync: %s", r.Code)
	}
	return c.Drain()
}

func noEvent(t *testing.T, c *testkit.Socket, typ string) {
	t.Helper()
	for _, a := range barrier(t, c) {
		if a.Type == typ {
			t.Fatalf("unexpected %s event: %s", typ, a.Data)
		}
	}
}

// A terminal's SOS is stored (state 0) before the terminal's ack, reaches every console of its customer as a
// durable event, is logged (102), and another customer hears nothing.
func TestRaise(t *testing.T) {
	e := newEnv(t)
	con := e.Console()
	ocon := testkit.Console(t, e.S.URL, e.OTok)
	term := e.Terminal(0)

	id := raise(t, term, map[string]any{"lat": 41.5, "lng": 29.5, "type": "1"})
	// The ack means the row is committed.
	a := e.alarm(id)
	if a.State != sos.Sending || a.Type != "1" || *a.Lat != 41.5 || a.MsID != e.F.Terminals[0] || a.MsName != "Unit 1" {
		t.Fatalf("stored alarm %+v", a)
	}
	ev := con.WaitEvent(sos.EventAlarm, wait, nil)
	if ev.Seq == 0 {
		t.Fatal("sos.alarm carries no seq: it is not durable")
	}
	if got := alarmOf(t, ev); got.ID != id || got.State != sos.Sending || got.MsName != "Unit 1" {
		t.Fatalf("event alarm %+v", got)
	}
	if n := e.Logs(e.F.CustomerID, 102); n != 1 {
		t.Fatalf("log 102 written %d times", n)
	}
	noEvent(t, ocon, sos.EventAlarm)

	// Micro-degree positions are normalized; without one, the last known position is used.
	id2 := raise(t, e.Terminal(1), map[string]any{"lat": "41010000", "lng": 28970000})
	if a := e.alarm(id2); *a.Lat != 41.01 || *a.Lng != 28.97 || a.Type != "0" {
		t.Fatalf("micro-degrees: %+v", a)
	}
	id3 := raise(t, e.Terminal(2), map[string]any{})
	if a := e.alarm(id3); a.Lat == nil || *a.Lat != 41.03 || *a.Lng != 29 {
		t.Fatalf("last known position: %+v", a)
	}

	// Pressing again while open: same alarm, consoles re-alerted, nothing new stored or logged.
	again := term.Call(sos.ReqRaise, map[string]any{"lat": 41.6, "lng": 29.6})
	var res struct {
		ID        string `json:"id"`
		Duplicate bool   `json:"duplicate"`
	}
	again.Into(t, &res)
	if res.ID != id.String() || !res.Duplicate {
		t.Fatalf("second press: %s", again.Data)
	}
	// (The periodic re-alert of the still-open alarm may come first on a slow machine: it carries the old position.)
	re := con.WaitEvent(sos.EventRealert, wait, func(f testkit.Frame) bool { return *alarmOf(t, f).Lat != 41.5 })
	if got := alarmOf(t, re); got.ID != id || *got.Lat != 41.6 {
		t.Fatalf("realert on second press: %s", re.Data)
	}
	if n := e.Logs(e.F.CustomerID, 102); n != 3 {
		t.Fatalf("log 102 written %d times, want 3", n)
	}
}

// An alarm whose durable event cannot be written (the database lost between the alarm's row and its event, as in
// a PostgreSQL restart) still reaches the consoles live before the terminal's "0".
func TestRaiseReachesConsolesWhenItsEventCannotBeStored(t *testing.T) {
	e := newEnv(t)
	con := e.Console()
	term := e.Terminal(0)
	if _, err := e.S.DB.Exec(context.Background(), `ALTER TABLE events RENAME TO events_away`); err != nil {
		t.Fatal(err)
	}
	id := raise(t, term, map[string]any{"lat": 41.5, "lng": 29.5})
	ev := con.WaitEvent(sos.EventAlarm, wait, nil)
	if got := alarmOf(t, ev); got.ID != id || got.State != sos.Sending {
		t.Fatalf("event alarm %+v", got)
	}
}

// An SOS says how old its position is (issue 32): a position sent with the SOS is fixed at the raise; without one,
// the terminal's last known position keeps its own fix time, however old (a phone with location denied). The
// console's sos.alarm event and findSos carry it, on every engine.
func TestFixTime(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		e := &env{safetytest.NewEnv(t, testkit.StartOn(t, engine), 2)}
		con := e.Console()
		lastFix := time.Now().Add(-24 * time.Minute).UnixMilli()
		err := directory.NewStore(e.S.DB).SyncLast(context.Background(), []directory.LastReport{{ID: directory.TerminalID(e.F.Terminals[1]),
			Customer: directory.CustomerID(e.F.CustomerID), Fix: &directory.Fix{Lat: 41.5, Lng: 29.5, Time: lastFix}}})
		if err != nil {
			t.Fatal(err)
		}
		fresh := raise(t, e.Terminal(0), map[string]any{"lat": 41.2, "lng": 29.2})
		stale := raise(t, e.Terminal(1), map[string]any{})

		check := func(where string, a sos.Alarm) {
			t.Helper()
			switch a.ID {
			case fresh:
				if a.FixTime != a.Time || *a.Lat != 41.2 {
					t.Errorf("%s: SOS with a position: fixTime %d, want its raise %d (%+v)", where, a.FixTime, a.Time, a)
				}
			case stale:
				if a.FixTime != lastFix || *a.Lat != 41.5 || a.Time <= lastFix {
					t.Errorf("%s: SOS without a position: fixTime %d, want the last fix %d before the raise %d", where, a.FixTime, lastFix, a.Time)
				}
			default:
				t.Errorf("%s: unexpected alarm %s", where, a.ID)
			}
		}
		for range 2 {
			ev := con.WaitEvent(sos.EventAlarm, wait, nil)
			check(sos.EventAlarm, alarmOf(t, ev))
		}
		list, _ := safetytest.PageIDs(t, e.Do(http.MethodGet, "/ds/sos/findSos", e.Tok, map[string]any{"open": 1}),
			func(a sos.Alarm) sos.AlarmID { return a.ID })
		if len(list) != 2 {
			t.Fatalf("findSos open: %d alarms", len(list))
		}
		for _, a := range list {
			check("findSos", a)
		}
	})
}

// Bad raises are refused with a code and store nothing.
func TestRaiseRefused(t *testing.T) {
	e := newEnv(t)
	term := e.Terminal(0)
	con := e.Console()
	cases := []struct {
		name string
		c    *testkit.Socket
		data any
		code string
	}{
		{"console cannot raise", con, map[string]any{}, "107"},
		{"lat without lng", term, map[string]any{"lat": 1}, "400"},
		{"lat out of range", term, map[string]any{"lat": 95, "lng": 1}, "400"},
		{"lat not a number", term, map[string]any{"lat": "north", "lng": 1}, "400"},
		{"bad type", term, map[string]any{"type": "not a type!"}, "400"},
	}
	for _, c := range cases {
		if r := c.c.Call(sos.ReqRaise, c.data); r.Code != c.code {
			t.Errorf("%s: code %s, want %s", c.name, r.Code, c.code)
		}
	}
	if list, _, _ := e.S.SOS.Store().Find(context.Background(), e.F.CustomerID, sos.Query{}); len(list) != 0 {
		t.Fatalf("%d alarms stored by refused raises", len(list))
	}
	if r := con.Call(sos.ReqCancel, map[string]any{}); r.Code != "107" {
		t.Fatalf("console cancel: %s", r.Code)
	}
	if r := term.Call(sos.ReqCancel, map[string]any{}); r.Code != "91" {
		t.Fatalf("cancel with nothing open: %s", r.Code)
	}
}

// updateSos: every transition and every refusal, and refusals change nothing.
func TestUpdateSos(t *testing.T) {
	e := newEnv(t)
	con := e.Console()
	term := e.Terminal(0)
	id := raise(t, term, map[string]any{})
	oid := raise(t, testkit.Terminal(t, e.S.URL, e.Other.Terminals[0], safetytest.Password), map[string]any{})
	con.WaitEvent(sos.EventAlarm, wait, nil)

	long := strings.Repeat("x", sos.MaxRemark+1)
	cases := []struct {
		name   string
		tok    string
		params map[string]any
		status int
		code   string
		state  sos.State // the alarm's state afterwards
	}{
		{"no token", "", map[string]any{"id": id, "state": 1}, 401, "105", sos.Sending},
		{"missing id", e.Tok, map[string]any{"state": 1}, 400, "400", sos.Sending},
		{"bad id", e.Tok, map[string]any{"id": "abc", "state": 1}, 400, "400", sos.Sending},
		{"unknown id", e.Tok, map[string]any{"id": 99999, "state": 1}, 404, "404", sos.Sending},
		{"other customer's token", e.OTok, map[string]any{"id": id, "state": 1}, 404, "404", sos.Sending},
		{"missing state", e.Tok, map[string]any{"id": id}, 400, "400", sos.Sending},
		{"back to 0", e.Tok, map[string]any{"id": id, "state": 0}, 409, "90", sos.Sending},
		{"state 3", e.Tok, map[string]any{"id": id, "state": 3}, 400, "400", sos.Sending},
		{"remote with state 1", e.Tok, map[string]any{"id": id, "state": 1, "remote": 1}, 400, "400", sos.Sending},
		{"bad remote", e.Tok, map[string]any{"id": id, "state": 2, "remote": "maybe"}, 400, "400", sos.Sending},
		{"acknowledge", e.Tok, map[string]any{"id": id, "state": 1}, 200, "0", sos.Acknowledged},
		{"acknowledge twice", e.Tok, map[string]any{"id": id, "state": 1}, 409, "90", sos.Acknowledged},
		{"remark too long", e.Tok, map[string]any{"id": id, "state": 2, "remark": long}, 400, "400", sos.Acknowledged},
		{"close", e.Tok, map[string]any{"id": id, "state": "2", "remark": "worker safe"}, 200, "0", sos.Closed},
		{"close twice", e.Tok, map[string]any{"id": id, "state": 2}, 409, "90", sos.Closed},
		{"acknowledge closed", e.Tok, map[string]any{"id": id, "state": 1}, 409, "90", sos.Closed},
	}
	for _, c := range cases {
		r := e.Do(http.MethodPut, "/ds/sos/updateSos", c.tok, c.params)
		if r.Status != c.status || r.Code != c.code {
			t.Errorf("%s: %d %s (%s), want %d %s", c.name, r.Status, r.Code, r.Msg, c.status, c.code)
		}
		if got := e.alarm(id).State; got != c.state {
			t.Fatalf("%s: state %d afterwards, want %d", c.name, got, c.state)
		}
	}
	a := e.alarm(id)
	if a.Responder != e.F.Dispatcher || a.ResponseTime == 0 || a.Closer != e.F.Dispatcher || a.CloseTime == 0 ||
		a.Remark != "worker safe" || a.CloseKind != sos.ClosedByConsole || a.ResponderName == "" {
		t.Fatalf("closed alarm %+v", a)
	}
	// The other customer's alarm was never touched.
	if o, _ := e.S.SOS.Store().Get(context.Background(), e.Other.CustomerID, oid); o.State != sos.Sending {
		t.Fatalf("other customer's alarm changed: %+v", o)
	}
	// Consoles hear both changes as durable events; the terminal hears acknowledged and closed.
	for _, want := range []sos.State{sos.Acknowledged, sos.Closed} {
		ev := con.WaitEvent(sos.EventUpdated, wait, nil)
		if got := alarmOf(t, ev); ev.Seq == 0 || got.ID != id || got.State != want {
			t.Fatalf("sos.updated %s (seq %d), want state %d", ev.Data, ev.Seq, want)
		}
	}
	term.WaitEvent(sos.TermAcked, wait, nil)
	term.WaitEvent(sos.TermClosed, wait, nil)
}

// Remote close asks the terminal to stop alarming and closes the record only when it confirms (log 119).
func TestRemoteClose(t *testing.T) {
	e := newEnv(t)
	term := e.Terminal(0)
	id := raise(t, term, map[string]any{})

	// The terminal refuses: nothing changes.
	done := make(chan testkit.Reply, 1)
	go func() {
		done <- testkit.Do(t, e.S.URL, http.MethodPut, "/ds/sos/updateSos", e.Tok, map[string]any{"id": id, "state": 2, "remote": 1})
	}()
	req := term.Wait(wait, func(f testkit.Frame) bool { return f.Type == sos.TermStop && f.ID != 0 })
	term.Reply(req, "500", nil)
	if r := <-done; r.Code != "500" {
		t.Fatalf("refused stop: %s", r.Code)
	}
	if a := e.alarm(id); a.State != sos.Sending {
		t.Fatalf("refused remote close changed the alarm: %+v", a)
	}

	// The terminal confirms: closed remotely, logged.
	go func() {
		done <- testkit.Do(t, e.S.URL, http.MethodPut, "/ds/sos/updateSos", e.Tok, map[string]any{"id": id, "state": 2, "remote": "1", "remark": "stopped"})
	}()
	req = term.Wait(wait, func(f testkit.Frame) bool { return f.Type == sos.TermStop && f.ID != 0 })
	var stop struct {
		ID string `json:"id"`
		By string `json:"by"`
	}
	req.Into(t, &stop)
	if stop.ID != id.String() || stop.By != e.F.Dispatcher {
		t.Fatalf("sos.stop data %s", req.Data)
	}
	term.Reply(req, "0", nil)
	if r := <-done; r.Code != "0" {
		t.Fatalf("remote close: %s %s", r.Code, r.Msg)
	}
	if a := e.alarm(id); a.State != sos.Closed || a.CloseKind != sos.ClosedByRemote || a.Remark != "stopped" {
		t.Fatalf("remote-closed alarm %+v", a)
	}
	if n := e.Logs(e.F.CustomerID, 119); n != 1 {
		t.Fatalf("log 119 written %d times", n)
	}

	// An offline terminal cannot be told: code 4 (not online), nothing changes.
	t1 := e.Terminal(1)
	id2 := raise(t, t1, map[string]any{})
	t1.Close()
	testkit.Eventually(t, wait, "terminal offline", func() bool { return !e.S.Hub.Online(e.F.Terminals[1]) })
	r := e.Do(http.MethodPut, "/ds/sos/updateSos", e.Tok, map[string]any{"id": id2, "state": 2, "remote": 1})
	if r.Code != "4" {
		t.Fatalf("remote close of an offline terminal: %s", r.Code)
	}
	if a := e.alarm(id2); a.State != sos.Sending {
		t.Fatalf("alarm changed: %+v", a)
	}
}

// A terminal cancels its own alarm: closed by the terminal, log 118, consoles told.
func TestCancel(t *testing.T) {
	e := newEnv(t)
	con := e.Console()
	term := e.Terminal(0)
	id := raise(t, term, map[string]any{})
	if r := term.Call(sos.ReqCancel, map[string]any{"id": "12345"}); r.Code != "91" {
		t.Fatalf("cancel of somebody else's id: %s", r.Code)
	}
	if r := term.Call(sos.ReqCancel, map[string]any{"id": id}); r.Code != "0" {
		t.Fatalf("cancel: %s %s", r.Code, r.Msg)
	}
	a := e.alarm(id)
	if a.State != sos.Closed || a.CloseKind != sos.ClosedByTerminal || a.Closer != e.F.Terminals[0] || a.ResponseTime != 0 {
		t.Fatalf("canceled alarm %+v", a)
	}
	if n := e.Logs(e.F.CustomerID, 118); n != 1 {
		t.Fatalf("log 118 written %d times", n)
	}
	ev := con.WaitEvent(sos.EventUpdated, wait, nil)
	if got := alarmOf(t, ev); got.ID != id || got.State != sos.Closed {
		t.Fatalf("sos.updated %s", ev.Data)
	}
	if r := term.Call(sos.ReqCancel, map[string]any{}); r.Code != "91" {
		t.Fatalf("second cancel: %s", r.Code)
	}
}

// findSos: time-range rules, filters, open alarms, tenant scope, log 116.
func TestFindSos(t *testing.T) {
	e := newEnv(t)
	ids := make([]sos.AlarmID, 3)
	for i := range ids {
		ids[i] = raise(t, e.Terminal(i), map[string]any{})
	}
	raise(t, testkit.Terminal(t, e.S.URL, e.Other.Terminals[0], safetytest.Password), map[string]any{})
	if r := e.Do(http.MethodPut, "/ds/sos/updateSos", e.Tok, map[string]any{"id": ids[0], "state": 2}); r.Code != "0" {
		t.Fatal(r.Code)
	}
	now := time.Now().UTC()
	monthStart := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	nextMonth := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	cases := []struct {
		name   string
		tok    string
		params map[string]any
		code   string
		want   []sos.AlarmID
	}{
		{"this month", e.Tok, map[string]any{"sTime": monthStart, "eTime": nextMonth}, "0", []sos.AlarmID{ids[2], ids[1], ids[0]}},
		{"lower-case names", e.Tok, map[string]any{"stime": monthStart, "etime": nextMonth}, "0", []sos.AlarmID{ids[2], ids[1], ids[0]}},
		{"one terminal", e.Tok, map[string]any{"sTime": monthStart, "eTime": nextMonth, "msId": e.F.Terminals[1]}, "0", []sos.AlarmID{ids[1]}},
		{"terminal list", e.Tok, map[string]any{"sTime": monthStart, "eTime": nextMonth, "msIds": e.F.Terminals[0] + "," + e.F.Terminals[2]}, "0", []sos.AlarmID{ids[2], ids[0]}},
		{"closed ones", e.Tok, map[string]any{"sTime": monthStart, "eTime": nextMonth, "state": 2}, "0", []sos.AlarmID{ids[0]}},
		{"states 0,1", e.Tok, map[string]any{"sTime": monthStart, "eTime": nextMonth, "state": "0,1"}, "0", []sos.AlarmID{ids[2], ids[1]}},
		{"open, no range", e.Tok, map[string]any{"open": 1}, "0", []sos.AlarmID{ids[2], ids[1]}},
		{"paging", e.Tok, map[string]any{"sTime": monthStart, "eTime": nextMonth, "pageNo": 2, "pageSize": 2}, "0", []sos.AlarmID{ids[0]}},
		{"another customer sees its own only", e.OTok, map[string]any{"sTime": monthStart, "eTime": nextMonth, "msId": e.F.Terminals[0]}, "0", nil},
		{"earlier month", e.Tok, map[string]any{"sTime": monthStart - 86400000, "eTime": monthStart - 1}, "0", nil},
		{"no range", e.Tok, map[string]any{}, "400", nil},
		{"no end", e.Tok, map[string]any{"sTime": monthStart}, "400", nil},
		{"start after end", e.Tok, map[string]any{"sTime": nextMonth - 1, "eTime": monthStart}, "93", nil},
		{"cross month", e.Tok, map[string]any{"sTime": monthStart - 1, "eTime": nextMonth}, "95", nil},
		{"open with range", e.Tok, map[string]any{"open": 1, "sTime": monthStart, "eTime": nextMonth}, "400", nil},
		{"bad state", e.Tok, map[string]any{"sTime": monthStart, "eTime": nextMonth, "state": 7}, "400", nil},
		{"bad page size", e.Tok, map[string]any{"sTime": monthStart, "eTime": nextMonth, "pageSize": 5000}, "400", nil},
		{"no token", "", map[string]any{"sTime": monthStart, "eTime": nextMonth}, "105", nil},
	}
	logged := 0
	for _, c := range cases {
		r := e.Do(http.MethodGet, "/ds/sos/findSos", c.tok, c.params)
		if r.Code != c.code {
			t.Errorf("%s: code %s (%s), want %s", c.name, r.Code, r.Msg, c.code)
			continue
		}
		if c.code != "0" {
			continue
		}
		if c.tok == e.Tok && c.params["open"] == nil {
			logged++
		}
		if _, got := safetytest.PageIDs(t, r, func(a sos.Alarm) sos.AlarmID { return a.ID }); !slices.Equal(got, c.want) {
			t.Errorf("%s: alarms %v, want %v", c.name, got, c.want)
		}
	}
	if n := e.Logs(e.F.CustomerID, 116); n != logged {
		t.Fatalf("log 116 written %d times, want %d (each search, not the open-alarm load)", n, logged)
	}
}

// The SOS report counts alarms per terminal and day.
func TestSosReport(t *testing.T) {
	e := newEnv(t)
	t0 := raise(t, e.Terminal(0), map[string]any{})
	e.Do(http.MethodPut, "/ds/sos/updateSos", e.Tok, map[string]any{"id": t0, "state": 1})
	e.Do(http.MethodPut, "/ds/sos/updateSos", e.Tok, map[string]any{"id": t0, "state": 2})
	term1 := e.Terminal(1)
	raise(t, term1, map[string]any{})
	term1.Call(sos.ReqCancel, map[string]any{})
	raise(t, term1, map[string]any{})
	now := time.Now().UTC()
	from := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	to := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()

	r := e.Do(http.MethodPost, "/ds/report/findSosReport", e.Tok, map[string]any{"sTime": from, "eTime": to})
	if r.Code != "0" {
		t.Fatalf("report: %s %s", r.Code, r.Msg)
	}
	var page struct {
		Total int             `json:"total"`
		List  []sos.ReportRow `json:"list"`
	}
	r.Into(t, &page)
	if page.Total != 2 || len(page.List) != 2 {
		t.Fatalf("report rows: %+v", page)
	}
	day := now.Format(time.DateOnly)
	byMs := map[string]sos.ReportRow{}
	for _, row := range page.List {
		if row.Day != day {
			t.Fatalf("day %s, want %s", row.Day, day)
		}
		byMs[row.MsID] = row
	}
	if r0 := byMs[e.F.Terminals[0]]; r0.Total != 1 || r0.Closed != 1 || r0.AvgResponse < 0 || r0.MsName != "Unit 1" {
		t.Fatalf("terminal 0 row %+v", r0)
	}
	if r1 := byMs[e.F.Terminals[1]]; r1.Total != 2 || r1.Canceled != 1 || r1.Closed != 1 || r1.Sending != 1 {
		t.Fatalf("terminal 1 row %+v", r1)
	}
	// Filter by terminal; range rules; another customer sees nothing.
	r = e.Do(http.MethodPost, "/ds/report/findSosReport", e.Tok, map[string]any{"sTime": from, "eTime": to, "msIds": []string{e.F.Terminals[1]}})
	r.Into(t, &page)
	if page.Total != 1 || page.List[0].MsID != e.F.Terminals[1] {
		t.Fatalf("filtered report %+v", page)
	}
	if r := e.Do(http.MethodPost, "/ds/report/findSosReport", e.Tok, map[string]any{"sTime": from - 1, "eTime": to}); r.Code != "95" {
		t.Fatalf("cross-month report: %s", r.Code)
	}
	if r := e.Do(http.MethodPost, "/ds/report/findSosReport", e.Tok, map[string]any{"eTime": to}); r.Code != "400" {
		t.Fatalf("report without start: %s", r.Code)
	}
	r = e.Do(http.MethodPost, "/ds/report/findSosReport", e.OTok, map[string]any{"sTime": from, "eTime": to})
	r.Into(t, &page)
	if page.Total != 0 {
		t.Fatalf("other customer's report: %+v", page)
	}
}

// An alarm nobody acknowledges is announced again every interval until someone does (controllable clock).
func TestRealertUntilAcknowledged(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	now := time.Now()
	e.S.SOS.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	ctx := context.Background()
	con := e.Console()
	id := raise(t, e.Terminal(0), map[string]any{})
	con.WaitEvent(sos.EventAlarm, wait, nil)

	every := e.S.SOS.RealertEvery()
	advance(every - time.Millisecond)
	if err := e.S.SOS.Realert(ctx); err != nil {
		t.Fatal(err)
	}
	noEvent(t, con, sos.EventRealert)
	for n := 1; n <= 3; n++ {
		advance(every)
		if err := e.S.SOS.Realert(ctx); err != nil {
			t.Fatal(err)
		}
		ev := con.WaitEvent(sos.EventRealert, wait, nil)
		var re struct {
			ID    string `json:"id"`
			Count int    `json:"count"`
			State int    `json:"state"`
		}
		ev.Into(t, &re)
		if re.ID != id.String() || re.Count != n || re.State != 0 {
			t.Fatalf("realert %d: %s", n, ev.Data)
		}
	}
	if r := e.Do(http.MethodPut, "/ds/sos/updateSos", e.Tok, map[string]any{"id": id, "state": 1}); r.Code != "0" {
		t.Fatal(r.Code)
	}
	advance(10 * every)
	if err := e.S.SOS.Realert(ctx); err != nil {
		t.Fatal(err)
	}
	noEvent(t, con, sos.EventRealert)
}

// The node that takes the re-alerts over (in a cluster, when the lease holder dies) goes on counting from the
// alarm's raise time, even when it raised the alarm itself and has not re-alerted since (its own note says 0).
func TestRealertCountGoesOnWhereAnotherNodeLeftIt(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	now := time.Now()
	e.S.SOS.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	con := e.Console()
	raise(t, e.Terminal(0), map[string]any{})
	con.WaitEvent(sos.EventAlarm, wait, nil)
	// Five and a half intervals pass with the re-alerts on another node (counts 1–5 were sent from there).
	mu.Lock()
	now = now.Add(5*e.S.SOS.RealertEvery() + e.S.SOS.RealertEvery()/2)
	mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.S.SOS.Run(ctx) // this node takes the lease
	ev := con.WaitEvent(sos.EventRealert, 5*time.Second, nil)
	var re struct {
		Count int `json:"count"`
	}
	ev.Into(t, &re)
	if re.Count != 5 {
		t.Fatalf("the first re-alert after the take-over counts %d, want 5 (from the raise time)", re.Count)
	}
}

type floorRec struct {
	mu    sync.Mutex
	state map[string]bool
	calls int
}

func (f *floorRec) SetEmergency(ms string, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.state[ms] = on
	f.calls++
}

func (f *floorRec) on(ms string) bool { f.mu.Lock(); defer f.mu.Unlock(); return f.state[ms] }

// The SOS terminal has emergency floor priority while its alarm is open, and again after a restart.
func TestEmergencyFloor(t *testing.T) {
	e := newEnv(t)
	fl := &floorRec{state: map[string]bool{}}
	e.S.SOS.SetFloor(fl)
	ms := e.F.Terminals[0]
	id := raise(t, e.Terminal(0), map[string]any{})
	if !fl.on(ms) {
		t.Fatal("no emergency priority after the raise")
	}
	e.Do(http.MethodPut, "/ds/sos/updateSos", e.Tok, map[string]any{"id": id, "state": 1})
	if !fl.on(ms) {
		t.Fatal("acknowledging must keep emergency priority")
	}
	e.Do(http.MethodPut, "/ds/sos/updateSos", e.Tok, map[string]any{"id": id, "state": 2})
	if fl.on(ms) {
		t.Fatal("emergency priority kept after close")
	}
	raise(t, e.Terminal(1), map[string]any{})
	fresh := &floorRec{state: map[string]bool{}}
	e.S.SOS.SetFloor(fresh)
	if err := e.S.SOS.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !fresh.on(e.F.Terminals[1]) || fresh.on(ms) || fresh.calls != 1 {
		t.Fatalf("restore: %+v", fresh.state)
	}
}

// TestMain: the SOS fixture's dispatcher and terminals make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
