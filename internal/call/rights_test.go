package call_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/call"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// rightsWorld is a group with two terminals and an administrator dispatcher, on one engine.
type rightsWorld struct {
	*world
	gid      string
	t1, t2   *termclient.Client
	d        *termclient.Client
	tok      string // the administrator's session
	plainTok string // a dispatcher of account type "-2"
}

func newRightsWorld(t *testing.T, engine string) *rightsWorld {
	w := newWorldOn(t, engine)
	r := &rightsWorld{world: w, gid: w.group("Patrol")}
	w.account("10001001", "10", r.gid)
	w.account("10001002", "10", r.gid)
	w.account("10009001", "20", r.gid)
	w.account("10009002", "20", r.gid)
	w.Exec(`UPDATE accounts SET admin = TRUE WHERE id = '10009001'`)
	w.Exec(`UPDATE accounts SET acct_type = '-2' WHERE id = '10009002'`)
	r.t1, r.t2 = w.term("10001001"), w.term("10001002")
	r.d = w.console("10009001")
	r.tok, r.plainTok = w.token("10009001"), w.token("10009002")
	return r
}

// talk makes t talk one short burst and returns the burst's floor.stats event.
func (r *rightsWorld) talk(t *testing.T, c *termclient.Client, msID string) map[string]any {
	t.Helper()
	ctx := r.Ctx()
	fr, err := c.Talk(ctx, "", "", termclient.Silence(25), 2*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	return event(t, ctx, r.d, "floor.stats", func(m map[string]any) bool {
		return m["msId"] == msID && m["callId"] == fr.CallID && m["btime"] != nil
	})
}

func (r *rightsWorld) recordCount(t *testing.T) int {
	var n int
	if err := r.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM voice_records WHERE customer_id = ?`,
		r.Customer).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRightsAPI(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		r := newRightsWorld(t, engine)
		termTok := func() string {
			tok, err := r.Sessions.Create(context.Background(), "10001001", r.Customer)
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}()
		sock := r.Console("10009001", r.Customer)
		rights := func(want string) func(t *testing.T, rep testkit.Reply) {
			return func(t *testing.T, rep testkit.Reply) {
				var res struct {
					List []call.Rights `json:"list"`
				}
				rep.Into(t, &res)
				b, _ := json.Marshal(res.List)
				if string(b) != want {
					t.Fatalf("rights %s, want %s", b, want)
				}
			}
		}
		both := `[{"msId":"10001001","msName":"Name 10001001","voice":true,"record":true},` +
			`{"msId":"10001002","msName":"Name 10001002","voice":true,"record":true}]`
		testkit.APITest{Server: r.Server, Socket: sock, State: []string{"voice_rights", "recording_time"}}.Run(t, []testkit.Scenario{
			{Name: "list: every terminal has both by default", Method: "GET", Path: "/ds/voice/rights", Token: r.tok, Code: "0",
				Check: rights(both)},
			{Name: "set record off", Method: "PUT", Path: "/ds/voice/rights", Token: r.tok, Code: "0",
				Params: map[string]any{"msId": "10001001", "record": 0}, Events: []string{call.EventRights},
				Check: func(t *testing.T, rep testkit.Reply) {
					rights(`[{"msId":"10001001","msName":"Name 10001001","voice":true,"record":false}]`)(t, rep)
					var n int
					if err := r.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM oplog WHERE type = 9 AND remark = ?`,
						"recording permission of 10001001: false").Scan(&n); err != nil || n != 1 {
						t.Fatalf("log 9 entries %d (%v)", n, err)
					}
				}},
			{Name: "list after", Method: "GET", Path: "/ds/voice/rights", Token: r.tok, Code: "0", Params: map[string]any{"msIds": "10001001"},
				Check: rights(`[{"msId":"10001001","msName":"Name 10001001","voice":true,"record":false}]`)},
			{Name: "set: nothing to set", Method: "PUT", Path: "/ds/voice/rights", Token: r.tok, Code: "400", Status: 400,
				Params: map[string]any{"msId": "10001002"}},
			{Name: "set: bad value", Method: "PUT", Path: "/ds/voice/rights", Token: r.tok, Code: "400", Status: 400,
				Params: map[string]any{"msId": "10001002", "voice": "yes"}},
			{Name: "set: no terminal", Method: "PUT", Path: "/ds/voice/rights", Token: r.tok, Code: "400", Status: 400,
				Params: map[string]any{"voice": 0}},
			{Name: "set: unknown terminal, nothing changes", Method: "PUT", Path: "/ds/voice/rights", Token: r.tok, Code: "404",
				Params: map[string]any{"msId": "10001002,10007777", "voice": 0}},
			{Name: "set: a dispatcher has no rights to set", Method: "PUT", Path: "/ds/voice/rights", Token: r.tok, Code: "404",
				Params: map[string]any{"msId": "10009002", "voice": 0}},
			{Name: "set: account type -2", Method: "PUT", Path: "/ds/voice/rights", Token: r.plainTok, Code: "107",
				Params: map[string]any{"msId": "10001002", "voice": 0}},
			{Name: "set: a terminal's token", Method: "PUT", Path: "/ds/voice/rights", Token: termTok, Code: "107",
				Params: map[string]any{"msId": "10001002", "voice": 0}},
			{Name: "recording time: unlimited by default", Method: "GET", Path: "/ds/voice/recordingTime", Token: r.tok, Code: "0",
				Contains: []string{`"limited":false`}},
			{Name: "recording time: only an administrator", Method: "PUT", Path: "/ds/voice/recordingTime", Token: r.plainTok,
				Code: "107", Params: map[string]any{"minutes": 10}},
			{Name: "recording time: bad minutes", Method: "PUT", Path: "/ds/voice/recordingTime", Token: r.tok, Code: "400",
				Status: 400, Params: map[string]any{"minutes": "ten"}},
			{Name: "recording time: negative", Method: "PUT", Path: "/ds/voice/recordingTime", Token: r.tok, Code: "400",
				Status: 400, Params: map[string]any{"minutes": -5}},
			{Name: "recording time: set", Method: "PUT", Path: "/ds/voice/recordingTime", Token: r.tok, Code: "0",
				Params: map[string]any{"minutes": 10}, Contains: []string{`"limited":true`, `"quotaMs":600000`, `"remainingMs":600000`}},
			{Name: "recording time: read back", Method: "GET", Path: "/ds/voice/recordingTime", Token: r.plainTok, Code: "0",
				Contains: []string{`"quotaMs":600000`}},
			{Name: "recording time: no limit again", Method: "PUT", Path: "/ds/voice/recordingTime", Token: r.tok, Code: "0",
				Params: map[string]any{"minutes": -1}, Contains: []string{`"limited":false`}},
		})
	})
}

// A burst without recording permission, or of a customer out of recording time, is carried but not recorded,
// and the floor state and stats say why; with both it is recorded and counted against the recording time.
func TestRecordingNeedsPermissionAndTime(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		r := newRightsWorld(t, engine)
		ctx := r.Ctx()
		set := func(path string, params map[string]any) {
			t.Helper()
			if rep := r.Do(http.MethodPut, path, r.tok, params); rep.Code != "0" {
				t.Fatalf("%s %v: %s %s", path, params, rep.Code, rep.Msg)
			}
		}

		// No recording permission: heard by the others, not recorded.
		set("/ds/voice/rights", map[string]any{"msId": "10001001", "record": 0})
		st := r.talk(t, r.t1, "10001001")
		if st["notRecorded"] != call.NoRecordPermission {
			t.Fatalf("floor.stats %v", st)
		}
		event(t, ctx, r.d, "floor.state", func(m map[string]any) bool { return m["notRecorded"] == call.NoRecordPermission })
		if n := r.recordCount(t); n != 0 {
			t.Fatalf("%d records without permission", n)
		}

		// Permission back, but no recording time left.
		set("/ds/voice/rights", map[string]any{"msId": "10001001", "record": 1})
		set("/ds/voice/recordingTime", map[string]any{"minutes": 0})
		if st := r.talk(t, r.t1, "10001001"); st["notRecorded"] != call.NoRecordTime {
			t.Fatalf("floor.stats %v", st)
		}
		if n := r.recordCount(t); n != 0 {
			t.Fatalf("%d records without recording time", n)
		}

		// Both: recorded, and the time is counted.
		set("/ds/voice/recordingTime", map[string]any{"minutes": 5})
		if st := r.talk(t, r.t1, "10001001"); st["notRecorded"] != nil {
			t.Fatalf("floor.stats %v", st)
		}
		event(t, ctx, r.d, "voice.recorded", nil)
		if n := r.recordCount(t); n != 1 {
			t.Fatalf("%d records, want 1", n)
		}
		var rt call.RecordingTime
		r.Do(http.MethodGet, "/ds/voice/recordingTime", r.tok, nil).Into(t, &rt)
		if !rt.Limited || rt.UsedMs <= 0 || rt.RemainingMs != rt.QuotaMs-rt.UsedMs {
			t.Fatalf("recording time %+v", rt)
		}
		// The used time survives a restart of the rights cache (it is the store's).
		if err := r.voice().Restore(ctx); err != nil {
			t.Fatal(err)
		}
		if got := r.voice().RecordingTimeOf(r.Customer); got.UsedMs != rt.UsedMs {
			t.Fatalf("after restore %+v, before %+v", got, rt)
		}

		// Every burst is in the talk-time table, recorded or not.
		var n int
		if err := r.DB.QueryRow(ctx, `SELECT COUNT(*) FROM voice_bursts WHERE customer_id = ? AND talker_id = '10001001'`,
			r.Customer).Scan(&n); err != nil || n != 3 {
			t.Fatalf("%d bursts (%v), want 3", n, err)
		}

		// Without voice permission a terminal does not get the floor.
		set("/ds/voice/rights", map[string]any{"msId": "10001002", "voice": 0})
		if _, err := r.t2.RequestFloor(ctx, "", "", false); wsclient.Code(err) != "606" {
			t.Fatalf("floor without voice permission: %v", err)
		}
		set("/ds/voice/rights", map[string]any{"msId": "10001002", "voice": 1})
		r.talk(t, r.t2, "10001002")
	})
}

// The call-duration report sums talk time per terminal, group and day, counting only terminals with voice
// permission (spec §6), with the spec §5 time rules.
func TestCallDurationReport(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		r := newRightsWorld(t, engine)
		from := time.Now().Add(-time.Minute).UnixMilli()
		r.talk(t, r.t1, "10001001")
		r.talk(t, r.t1, "10001001")
		r.talk(t, r.t2, "10001002")
		to := time.Now().Add(time.Minute).UnixMilli()
		report := func(params map[string]any) call.DurationReport {
			t.Helper()
			var rep call.DurationReport
			res := r.Do(http.MethodPost, "/ds/report/findCallDurationPost", r.tok, params)
			if res.Code != "0" {
				t.Fatalf("report: %s %s", res.Code, res.Msg)
			}
			res.Into(t, &rep)
			return rep
		}
		rep := report(map[string]any{"sTime": from, "eTime": to})
		if rep.Bursts != 3 || len(rep.Terminals) != 2 || rep.Terminals[0].MsID != "10001001" || rep.Terminals[0].Bursts != 2 ||
			len(rep.Groups) != 1 || rep.Groups[0].GID != r.gid || rep.Groups[0].GName != "Patrol" || len(rep.Days) == 0 {
			t.Fatalf("report %+v", rep)
		}
		var sum int64
		for _, x := range rep.Terminals {
			sum += x.TalkMs
			if x.TalkMs <= 0 || x.GroupMs != x.TalkMs {
				t.Fatalf("terminal %+v", x)
			}
		}
		if sum != rep.TalkMs || rep.Groups[0].TalkMs != rep.TalkMs {
			t.Fatalf("sums: terminals %d, total %d, group %d", sum, rep.TalkMs, rep.Groups[0].TalkMs)
		}
		if one := report(map[string]any{"sTime": from, "eTime": to, "msIds": "10001002"}); one.Bursts != 1 ||
			len(one.Terminals) != 1 || one.Terminals[0].MsID != "10001002" {
			t.Fatalf("one terminal %+v", one)
		}
		if none := report(map[string]any{"sTime": from, "eTime": to, "gids": "999999"}); none.Bursts != 0 {
			t.Fatalf("another group %+v", none)
		}
		// Without voice permission a terminal's talk no longer counts.
		if res := r.Do(http.MethodPut, "/ds/voice/rights", r.tok, map[string]any{"msId": "10001001", "voice": 0}); res.Code != "0" {
			t.Fatal(res.Msg)
		}
		if after := report(map[string]any{"sTime": from, "eTime": to}); after.Bursts != 1 || len(after.Terminals) != 1 ||
			after.Terminals[0].MsID != "10001002" {
			t.Fatalf("after revoking voice %+v", after)
		}

		day := int64(24 * time.Hour / time.Millisecond)
		first := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC).UnixMilli()
		testkit.APITest{Server: r.Server}.Run(t, []testkit.Scenario{
			{Name: "start required", Method: "POST", Path: "/ds/report/findCallDurationPost", Token: r.tok, Code: "400",
				Status: 400, Params: map[string]any{"eTime": to}},
			{Name: "start after end", Method: "POST", Path: "/ds/report/findCallDurationPost", Token: r.tok, Code: "93",
				Params: map[string]any{"sTime": to, "eTime": from}},
			{Name: "too long", Method: "POST", Path: "/ds/report/findCallDurationPost", Token: r.tok, Code: "94",
				Params: map[string]any{"sTime": first - 40*day, "eTime": first}},
			{Name: "cross month", Method: "POST", Path: "/ds/report/findCallDurationPost", Token: r.tok, Code: "95",
				Params: map[string]any{"sTime": first, "eTime": first + 2*day}},
			{Name: "bad group id", Method: "POST", Path: "/ds/report/findCallDurationPost", Token: r.tok, Code: "400",
				Status: 400, Params: map[string]any{"sTime": from, "eTime": to, "gids": "x"}},
			{Name: "no session", Method: "POST", Path: "/ds/report/findCallDurationPost", Code: "105", Status: 401,
				Params: map[string]any{"sTime": from, "eTime": to}},
		})
	})
}

func TestSumTalk(t *testing.T) {
	day := time.Date(2026, 11, 2, 23, 30, 0, 0, time.UTC).UnixMilli()
	bursts := []call.Burst{
		{CallID: "a", Kind: call.Group, GroupID: 7, GroupName: "Old", TalkerID: "t1", Started: day, DurationMs: 1000},
		{CallID: "a", Kind: call.Group, GroupID: 7, GroupName: "Patrol", TalkerID: "t2", Started: day + 1, DurationMs: 2000},
		{CallID: "b", Kind: call.Single, TalkerID: "t1", Started: day + 3_600_000, DurationMs: 500}, // next day in UTC
		{CallID: "c", Kind: call.All, TalkerID: "t1", Started: day + 3_600_001, DurationMs: 250},
		{CallID: "d", Kind: call.Group, GroupID: 7, TalkerID: "d1", Started: day + 2, DurationMs: 9000},  // a dispatcher
		{CallID: "e", Kind: call.Temp, GroupID: 9, TalkerID: "t3", Started: day + 3, DurationMs: 4000},   // no voice
		{CallID: "f", Kind: call.Temp, GroupID: 9, TalkerID: "gone", Started: day + 4, DurationMs: 4000}, // deleted
	}
	talkers := map[string]call.Talker{"t1": {Name: "One", Counts: true}, "t2": {Name: "Two", Counts: true},
		"d1": {Name: "Desk"}, "t3": {Name: "Three"}}
	rep := call.SumTalk(bursts, talkers, nil, nil, time.UTC)
	if rep.TalkMs != 3750 || rep.Bursts != 4 {
		t.Fatalf("total %d ms in %d bursts", rep.TalkMs, rep.Bursts)
	}
	want := []call.TerminalTalk{
		{MsID: "t2", MsName: "Two", TalkMs: 2000, Bursts: 1, GroupMs: 2000},
		{MsID: "t1", MsName: "One", TalkMs: 1750, Bursts: 3, GroupMs: 1000, SingleMs: 500, OtherMs: 250},
	}
	if len(rep.Terminals) != 2 || rep.Terminals[0] != want[0] || rep.Terminals[1] != want[1] {
		t.Fatalf("terminals %+v", rep.Terminals)
	}
	if len(rep.Groups) != 1 || rep.Groups[0] != (call.GroupTalk{GID: "7", GName: "Patrol", Kind: call.Group, TalkMs: 3000, Bursts: 2}) {
		t.Fatalf("groups %+v", rep.Groups)
	}
	if len(rep.Days) != 2 || rep.Days[0] != (call.DayTalk{Day: "2026-11-02", TalkMs: 3000, Bursts: 2}) ||
		rep.Days[1] != (call.DayTalk{Day: "2026-11-03", TalkMs: 750, Bursts: 2}) {
		t.Fatalf("days %+v", rep.Days)
	}
	// In UTC+8 every burst is on the 3rd.
	if r8 := call.SumTalk(bursts, talkers, nil, nil, time.FixedZone("UTC+8", 8*3600)); len(r8.Days) != 1 || r8.Days[0].Day != "2026-11-03" {
		t.Fatalf("days in UTC+8 %+v", r8.Days)
	}
	if only := call.SumTalk(bursts, talkers, []string{"t1"}, []int64{7}, time.UTC); only.TalkMs != 1000 || only.Bursts != 1 {
		t.Fatalf("t1 in group 7: %+v", only)
	}
}
