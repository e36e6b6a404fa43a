package presence_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/presence"
	"tenfour/internal/testkit"
)

// env is a server on one engine with a controllable presence clock, two customers and their accounts.
type env struct {
	s         *testkit.Server
	cust      int64
	other     int64
	tok       string // dispatcher of cust
	otherTerm string
	clock     *testkit.Clock
}

var seq int

func newEnv(t *testing.T, engine string) *env {
	s := testkit.StartOn(t, engine)
	seq++
	e := &env{s: s, clock: testkit.NewClock(time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC))} // one month whatever the day the suite runs
	s.Presence.SetClock(e.clock.Now)
	e.cust = testkit.Customer(t, s.DB, "Presence")
	e.other = testkit.Customer(t, s.DB, "Other")
	for _, a := range []auth.NewAccount{
		{CustomerID: e.cust, ID: fmt.Sprintf("3%03d9001", seq), Type: auth.DispatcherType, Name: "Desk", Group: "All"},
		{CustomerID: e.cust, ID: fmt.Sprintf("3%03d0001", seq), Type: "10", Name: "Unit 1", Group: "All"},
		{CustomerID: e.cust, ID: fmt.Sprintf("3%03d0002", seq), Type: "10", Name: "Unit 2", Group: "All"},
		{CustomerID: e.other, ID: fmt.Sprintf("4%03d0001", seq), Type: "10", Name: "Elsewhere", Group: "All"},
	} {
		testkit.Account(t, s.DB, a)
	}
	e.tok = s.Token(fmt.Sprintf("3%03d9001", seq), e.cust)
	e.otherTerm = fmt.Sprintf("4%03d0001", seq)
	return e
}

func (e *env) term(i int) string { return fmt.Sprintf("3%03d%04d", seq, i) }

// online logs terminal id in at `on` and out at `off` (not out when off is zero), through the real socket.
func (e *env) online(t *testing.T, id string, on, off time.Time) {
	t.Helper()
	e.clock.Set(on)
	sock := testkit.Terminal(t, e.s.URL, id, testkit.Password)
	e.waitOpen(t, id, true)
	if off.IsZero() {
		return
	}
	e.clock.Set(off)
	sock.Close()
	e.waitOpen(t, id, false)
}

func (e *env) waitOpen(t *testing.T, id string, open bool) {
	t.Helper()
	testkit.Eventually(t, 5*time.Second, fmt.Sprintf("%s interval open=%v", id, open), func() bool {
		var n int
		if err := e.s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM presence_intervals
			WHERE account_id = ? AND offline_at IS NULL`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return (n == 1) == open
	})
}

func TestOnlineReports(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		e := newEnv(t, engine)
		t0 := e.clock.Now()
		min := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Minute) }
		e.online(t, e.term(1), min(0), min(30))
		e.online(t, e.term(1), min(60), min(75))
		e.online(t, e.term(2), min(10), time.Time{}) // still online
		e.online(t, e.otherTerm, min(0), min(50))    // another customer's
		e.clock.Set(min(90))
		ms := func(m int) int64 { return int64(m) * 60_000 }
		from, to := min(-5).UnixMilli(), min(120).UnixMilli()

		var rep presence.OnlineReport
		r := e.s.Do(http.MethodPost, "/ds/report/findOnlineDurationPost", e.tok, map[string]any{"sTime": from, "eTime": to})
		if r.Code != "0" {
			t.Fatalf("report: %s %s", r.Code, r.Msg)
		}
		r.Into(t, &rep)
		// Unit 2: online 10 → now (90) = 80 min; Unit 1: 30 + 15 = 45 min; the other customer's terminal absent.
		if rep.Total != 2 || rep.List[0].MsID != e.term(2) || rep.List[0].OnlineMs != ms(80) || rep.List[0].Sessions != 1 ||
			rep.List[1].MsID != e.term(1) || rep.List[1].OnlineMs != ms(45) || rep.List[1].Sessions != 2 ||
			rep.List[1].MsName != "Unit 1" {
			t.Fatalf("report %+v", rep)
		}
		var days int64
		for _, d := range rep.List[1].Days {
			days += d.OnlineMs
		}
		if days != ms(45) {
			t.Fatalf("days %+v", rep.List[1].Days)
		}
		// A range cutting the first interval.
		r = e.s.Do(http.MethodPost, "/ds/report/findOnlineDurationPost", e.tok, map[string]any{"sTime": min(20).UnixMilli(),
			"eTime": min(70).UnixMilli(), "msIds": []string{e.term(1), e.otherTerm}})
		r.Into(t, &rep)
		if rep.Total != 1 || rep.List[0].OnlineMs != ms(10+10) {
			t.Fatalf("cut report %+v", rep)
		}

		var detail struct {
			MsID     string               `json:"msId"`
			OnlineMs int64                `json:"onlineMs"`
			List     []presence.DetailRow `json:"list"`
			Cols     []string             `json:"cols"`
			Rows     [][3]int64           `json:"rows"`
		}
		r = e.s.Do(http.MethodGet, "/ds/report/findOnlineDetailData", e.tok, map[string]any{"msId": e.term(1),
			"stime": from, "etime": to})
		r.Into(t, &detail)
		if detail.OnlineMs != ms(45) || len(detail.List) != 2 || detail.List[0] != (presence.DetailRow{Online: min(0).UnixMilli(),
			Offline: min(30).UnixMilli(), DurationMs: ms(30)}) || detail.List[1].DurationMs != ms(15) {
			t.Fatalf("detail %+v", detail)
		}
		r = e.s.Do(http.MethodGet, "/ds/report/findOnlineDetailData", e.tok, map[string]any{"msId": e.term(2),
			"stime": from, "etime": to, "isCompress": 1})
		detail.List = nil
		r.Into(t, &detail)
		if len(detail.Cols) != 3 || len(detail.Rows) != 1 || detail.Rows[0] != [3]int64{min(10).UnixMilli(), 0, ms(80)} ||
			detail.List != nil {
			t.Fatalf("compact detail %+v (%s)", detail, r.Body)
		}

		day := int64(24 * time.Hour / time.Millisecond)
		first := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC).UnixMilli()
		termTok := e.s.Token(e.term(1), e.cust)
		testkit.APITest{Server: e.s}.Run(t, []testkit.Scenario{
			{Name: "duration: start required", Method: "POST", Path: "/ds/report/findOnlineDurationPost", Token: e.tok,
				Code: "400", Status: 400, Params: map[string]any{"eTime": to}},
			{Name: "duration: start after end", Method: "POST", Path: "/ds/report/findOnlineDurationPost", Token: e.tok,
				Code: "93", Params: map[string]any{"sTime": to, "eTime": from}},
			{Name: "duration: too long", Method: "POST", Path: "/ds/report/findOnlineDurationPost", Token: e.tok,
				Code: "94", Params: map[string]any{"sTime": first - 40*day, "eTime": first}},
			{Name: "duration: cross month", Method: "POST", Path: "/ds/report/findOnlineDurationPost", Token: e.tok,
				Code: "95", Params: map[string]any{"sTime": first, "eTime": first + 2*day}},
			{Name: "duration: a terminal's token", Method: "POST", Path: "/ds/report/findOnlineDurationPost", Token: termTok,
				Code: "107", Params: map[string]any{"sTime": from, "eTime": to}},
			{Name: "duration: no token", Method: "POST", Path: "/ds/report/findOnlineDurationPost", Code: "105", Status: 401,
				Params: map[string]any{"sTime": from, "eTime": to}},
			{Name: "detail: msId required", Method: "GET", Path: "/ds/report/findOnlineDetailData", Token: e.tok, Code: "400",
				Status: 400, Params: map[string]any{"stime": from, "etime": to}},
			{Name: "detail: another customer's terminal", Method: "GET", Path: "/ds/report/findOnlineDetailData", Token: e.tok,
				Code: "404", Params: map[string]any{"msId": e.otherTerm, "stime": from, "etime": to}},
			{Name: "detail: bad isCompress", Method: "GET", Path: "/ds/report/findOnlineDetailData", Token: e.tok, Code: "400",
				Status: 400, Params: map[string]any{"msId": e.term(1), "stime": from, "etime": to, "isCompress": "yes"}},
			{Name: "detail: start required (stime)", Method: "GET", Path: "/ds/report/findOnlineDetailData", Token: e.tok,
				Code: "400", Status: 400, Params: map[string]any{"msId": e.term(1), "etime": to}, Contains: []string{"stime"}},
			{Name: "detail: cross month", Method: "GET", Path: "/ds/report/findOnlineDetailData", Token: e.tok, Code: "95",
				Params: map[string]any{"msId": e.term(1), "stime": first, "etime": first + 2*day}},
		})
	})
}

// A node that stopped without closing the intervals (a crash) closes them at its next start, at the last time
// it saw them open.
func TestCrashLeftIntervalsCloseAtLastSeen(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		e := newEnv(t, engine)
		ctx := context.Background()
		seen := e.clock.Now().Add(-time.Hour).UnixMilli()
		// Open rows as a crash leaves them: one from before the last time the server was seen, one from after it
		// (logged in between the last refresh and the crash: it ends where it began).
		if _, err := e.s.DB.Exec(ctx, `INSERT INTO presence_intervals (customer_id, account_id, online_at, seen_at)
			VALUES (?, ?, ?, ?), (?, ?, ?, ?)`, e.cust, e.term(1), seen-600_000, seen-600_000,
			e.cust, e.term(2), seen+5_000, seen+5_000); err != nil {
			t.Fatal(err)
		}
		e.clock.Set(time.UnixMilli(seen))
		if err := e.s.Presence.MarkSeen(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.s.Presence.Prepare(ctx); err != nil {
			t.Fatal(err)
		}
		for id, want := range map[string]int64{e.term(1): seen, e.term(2): seen + 5_000} {
			var off int64
			if err := e.s.DB.QueryRow(ctx, `SELECT offline_at FROM presence_intervals WHERE account_id = ?`, id).Scan(&off); err != nil || off != want {
				t.Fatalf("%s closed at %d (%v), want %d", id, off, err, want)
			}
		}
		e.clock.Set(time.UnixMilli(seen + 3_600_000))
		// A login replacing another device keeps one interval.
		e.online(t, e.term(2), e.clock.Now(), time.Time{})
		testkit.Terminal(t, e.s.URL, e.term(2), testkit.Password)
		var n int
		if err := e.s.DB.QueryRow(ctx, `SELECT COUNT(*) FROM presence_intervals WHERE account_id = ? AND offline_at IS NULL`, e.term(2)).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d intervals after a replacing login (%v)", n, err)
		}
	})
}

// TestMain: the presence fixture's accounts make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
