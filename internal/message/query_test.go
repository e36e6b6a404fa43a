package message_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/message"
	"tenfour/internal/testkit"
)

// march is a time in March 2026 (UTC, the fixtures' customer zone).
func march(day, hour int) int64 {
	return time.Date(2026, 3, day, hour, 0, 0, 0, time.UTC).UnixMilli()
}

type seeded struct {
	s               *testkit.Server
	a, b            testkit.Fleet
	tok, tokB       string
	out0, in0, grp  int64 // dispatcher → t0, t0 → dispatch center (unread), t1 → group (unread)
	in1, foreignMsg int64 // t1 → dispatcher (unread), customer b's incoming message
}

// seed stores a small history with the store (fixed times) for the query endpoints.
func seed(t *testing.T, engine string) *seeded {
	t.Helper()
	s := testkit.StartOn(t, engine)
	w := &seeded{s: s, a: testkit.NewFleet(t, s.DB, "1", 2, 1), b: testkit.NewFleet(t, s.DB, "2", 1, 1)}
	ctx := context.Background()
	w.tok, w.tokB = w.a.Token, w.b.Token
	st := message.NewStore(s.DB, directory.NewStore(s.DB))
	t0, t1 := w.a.Terminals[0], w.a.Terminals[1]
	mk := func(m message.Message, recipients ...string) int64 {
		t.Helper()
		m, err := st.Create(ctx, m, recipients)
		if err != nil {
			t.Fatal(err)
		}
		return m.ID
	}
	w.out0 = mk(message.Message{CustomerID: w.a.Customer, SenderID: w.a.Dispatcher, SenderName: "D", MsID: t0, Content: "go to gate 4", Time: march(10, 8)}, t0)
	w.in0 = mk(message.Message{CustomerID: w.a.Customer, SenderID: t0, SenderName: "T0", Incoming: true, Content: "on my way", Time: march(10, 9)})
	w.grp = mk(message.Message{CustomerID: w.a.Customer, SenderID: t1, SenderName: "T1", Incoming: true, GID: w.a.Groups[0], Content: "all: lunch", Time: march(11, 12)}, t0)
	w.in1 = mk(message.Message{CustomerID: w.a.Customer, SenderID: t1, SenderName: "T1", Incoming: true, MsID: w.a.Dispatcher, Content: "done", Time: march(12, 18)})
	w.foreignMsg = mk(message.Message{CustomerID: w.b.Customer, SenderID: w.b.Terminals[0], Incoming: true, Content: "other", Time: march(10, 9)})
	if _, _, err := st.MarkDelivered(ctx, w.out0, t0, march(10, 8)); err != nil {
		t.Fatal(err)
	}
	return w
}

func ids(t *testing.T, r testkit.Reply) (int, []int64) {
	t.Helper()
	var p struct {
		Total int
		List  []struct{ ID string }
	}
	r.Into(t, &p)
	out := []int64{}
	for _, v := range p.List {
		n, _ := strconv.ParseInt(v.ID, 10, 64)
		out = append(out, n)
	}
	return p.Total, out
}

func TestFindSmsScenarios(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := seed(t, engine)
		t0, t1 := w.a.Terminals[0], w.a.Terminals[1]
		month := map[string]any{"stime": march(1, 0), "etime": time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC).UnixMilli()}
		with := func(kv ...any) map[string]any {
			m := map[string]any{}
			for k, v := range month {
				m[k] = v
			}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		for _, tc := range []struct {
			name   string
			token  string
			params map[string]any
			code   string
			total  int
			ids    []int64
		}{
			{"terminal conversation", w.tok, with("type", 1, "dstId", t0), "0", 2, []int64{w.in0, w.out0}},
			{"type from dstId", w.tok, with("dstId", t0), "0", 2, []int64{w.in0, w.out0}},
			{"pmrId alias", w.tok, with("type", 1, "pmrId", t0), "0", 2, []int64{w.in0, w.out0}},
			{"msId when no dstId", w.tok, with("type", 1, "msId", t0), "0", 2, []int64{w.in0, w.out0}},
			{"oldest first", w.tok, with("dstId", t0, "order", "asc"), "0", 2, []int64{w.out0, w.in0}},
			{"group conversation", w.tok, with("type", 2, "grpId", w.a.Groups[0]), "0", 1, []int64{w.grp}},
			{"all", w.tok, with("type", 0), "0", 4, []int64{w.in1, w.grp, w.in0, w.out0}},
			{"all by one account", w.tok, with("msId", t1), "0", 2, []int64{w.in1, w.grp}},
			{"unread only", w.tok, with("unread", 1), "0", 3, []int64{w.in1, w.grp, w.in0}},
			{"paged", w.tok, with("pageSize", 1, "pageNo", 2), "0", 4, []int64{w.grp}},
			{"one day", w.tok, map[string]any{"stime": march(10, 0), "etime": march(10, 23)}, "0", 2, []int64{w.in0, w.out0}},
			{"sTime spelling", w.tok, map[string]any{"sTime": march(12, 0), "eTime": march(12, 23)}, "0", 1, []int64{w.in1}},
			{"other customer sees its own", w.tokB, month, "0", 1, []int64{w.foreignMsg}},
			{"no token", "", month, "105", 0, nil},
			{"no stime", w.tok, map[string]any{"etime": march(2, 0)}, "400", 0, nil},
			{"no etime", w.tok, map[string]any{"stime": march(2, 0)}, "400", 0, nil},
			{"stime not a number", w.tok, map[string]any{"stime": "yesterday", "etime": march(2, 0)}, "400", 0, nil},
			{"start after end", w.tok, map[string]any{"stime": march(3, 0), "etime": march(2, 0)}, "93", 0, nil},
			{"cross month", w.tok, map[string]any{"stime": march(20, 0), "etime": time.Date(2026, 4, 2, 0, 0, 0, 0, time.UTC).UnixMilli()}, "95", 0, nil},
			{"longer than 31 days", w.tok, map[string]any{"stime": march(1, 0), "etime": time.Date(2026, 4, 5, 0, 0, 0, 0, time.UTC).UnixMilli()}, "94", 0, nil},
			{"bad type", w.tok, with("type", 7), "400", 0, nil},
			{"type 1 without terminal", w.tok, with("type", 1), "400", 0, nil},
			{"type 2 without group", w.tok, with("type", 2), "400", 0, nil},
			{"other customer's terminal", w.tok, with("dstId", w.b.Terminals[0]), "404", 0, nil},
			{"a dispatcher as the terminal", w.tok, with("type", 1, "dstId", w.a.Dispatcher), "404", 0, nil},
			{"unknown terminal", w.tok, with("dstId", "19999999"), "404", 0, nil},
			{"other customer's group", w.tok, with("grpId", w.b.Groups[0]), "404", 0, nil},
			{"malformed group", w.tok, with("grpId", "g1"), "400", 0, nil},
			{"other customer's account filter", w.tok, with("msId", w.b.Terminals[0]), "404", 0, nil},
			{"page size too big", w.tok, with("pageSize", 1001), "400", 0, nil},
			{"bad order", w.tok, with("order", "sideways"), "400", 0, nil},
		} {
			r := w.s.Do("GET", "/ds/sms/findSms", tc.token, tc.params)
			if r.Code != tc.code {
				t.Errorf("%s: %+v, want %s", tc.name, r, tc.code)
				continue
			}
			if tc.code != "0" {
				continue
			}
			if total, got := ids(t, r); total != tc.total || !slices.Equal(got, tc.ids) {
				t.Errorf("%s: total %d ids %v, want %d %v", tc.name, total, got, tc.total, tc.ids)
			}
		}
		// The fields a conversation view shows.
		r := w.s.Do("GET", "/ds/sms/findSms", w.tok, with("dstId", t0, "order", "asc"))
		var p struct{ List []view }
		r.Into(t, &p)
		out, in := p.List[0], p.List[1]
		if out.Incoming || out.Status != 1 || out.Sender != w.a.Dispatcher || out.MsID != t0 || out.MsName != "Name "+t0 ||
			out.State != "delivered" || out.Recipients != 1 || out.Time != march(10, 8) || out.UTCTime != "2026-03-10T08:00:00.000Z" || out.Type != "text" {
			t.Errorf("outgoing view %+v", out)
		}
		if !in.Incoming || in.Status != 0 || in.Sender != t0 || in.Content != "on my way" {
			t.Errorf("incoming view %+v", in)
		}
	})
}

func TestUpdateSmsScenarios(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := seed(t, engine)
		unread := func() int {
			var n int
			w.s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM messages WHERE status = 0`).Scan(&n)
			return n
		}
		id := func(n int64) string { return strconv.FormatInt(n, 10) }
		for _, tc := range []struct {
			name    string
			token   string
			params  map[string]any
			code    string
			updated int
		}{
			{"nothing named", w.tok, map[string]any{}, "400", 0},
			{"two selectors", w.tok, map[string]any{"msId": w.a.Terminals[0], "all": 1}, "400", 0},
			{"status 0", w.tok, map[string]any{"ids": id(w.in0), "status": 0}, "400", 0},
			{"malformed id", w.tok, map[string]any{"ids": "12abc"}, "400", 0},
			{"other customer's message", w.tok, map[string]any{"ids": id(w.foreignMsg)}, "404", 0},
			{"one of ours and one of theirs", w.tok, map[string]any{"ids": []string{id(w.in0), id(w.foreignMsg)}}, "404", 0},
			{"unknown id", w.tok, map[string]any{"id": "999999"}, "404", 0},
			{"other customer's terminal", w.tok, map[string]any{"msId": w.b.Terminals[0]}, "404", 0},
			{"other customer's group", w.tok, map[string]any{"gid": w.b.Groups[0]}, "404", 0},
			{"no token", "", map[string]any{"all": 1}, "105", 0},
			{"an outgoing message is never unread", w.tok, map[string]any{"ids": id(w.out0)}, "0", 0},
			{"the group conversation", w.tok, map[string]any{"grpId": w.a.Groups[0]}, "0", 1},
			{"comma-separated ids", w.tok, map[string]any{"ids": id(w.in0) + "," + id(w.in1)}, "0", 2},
			{"again", w.tok, map[string]any{"all": "true"}, "0", 0},
		} {
			before := unread()
			r := w.s.Do("PUT", "/ds/sms/updateSms", tc.token, tc.params)
			if r.Code != tc.code {
				t.Errorf("%s: %+v, want %s", tc.name, r, tc.code)
				continue
			}
			var upd struct{ Updated int }
			if tc.code == "0" {
				r.Into(t, &upd)
			}
			if upd.Updated != tc.updated || unread() != before-tc.updated {
				t.Errorf("%s: updated %d (unread %d → %d), want %d", tc.name, upd.Updated, before, unread(), tc.updated)
			}
		}
		// The other customer's message is still unread.
		var st int
		w.s.DB.QueryRow(context.Background(), `SELECT status FROM messages WHERE id = ?`, w.foreignMsg).Scan(&st)
		if st != 0 {
			t.Fatal("another customer's message was changed")
		}
	})
}

func TestMessageDataReport(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := seed(t, engine)
		t0, t1 := w.a.Terminals[0], w.a.Terminals[1]
		rng := map[string]any{"sTime": march(1, 0), "eTime": march(31, 23)}
		type report struct {
			Total   int
			List    []view
			Summary []struct {
				MsID, MsName              string
				Sent, Received, Delivered int
			}
		}
		get := func(params map[string]any) (testkit.Reply, report) {
			r := w.s.Do("POST", "/ds/report/findMessageData", w.tok, params)
			var rep report
			if r.Code == "0" {
				r.Into(t, &rep)
			}
			return r, rep
		}
		_, rep := get(map[string]any{"msIds": []string{t0}, "sTime": rng["sTime"], "eTime": rng["eTime"]})
		if rep.Total != 3 || len(rep.Summary) != 1 {
			t.Fatalf("report for t0: %+v", rep)
		}
		if s := rep.Summary[0]; s.MsID != t0 || s.MsName != "Name "+t0 || s.Sent != 1 || s.Received != 2 || s.Delivered != 1 {
			t.Fatalf("t0 summary %+v", s)
		}
		_, rep = get(rng)
		if rep.Total != 4 || len(rep.Summary) != 2 || rep.Summary[1].MsID != t1 || rep.Summary[1].Sent != 2 || rep.Summary[1].Received != 0 {
			t.Fatalf("whole customer report %+v", rep)
		}
		_, rep = get(map[string]any{"sTime": rng["sTime"], "eTime": rng["eTime"], "pageSize": 3, "pageNo": 2})
		if rep.Total != 4 || len(rep.List) != 1 || rep.List[0].Content != "go to gate 4" {
			t.Fatalf("second page %+v", rep)
		}
		for _, tc := range []struct {
			name   string
			params map[string]any
			code   string
		}{
			{"other customer's terminal", map[string]any{"msIds": w.b.Terminals[0], "sTime": rng["sTime"], "eTime": rng["eTime"]}, "404"},
			{"no range", map[string]any{"msIds": t0}, "400"},
			{"start after end", map[string]any{"sTime": march(5, 0), "eTime": march(4, 0)}, "93"},
			{"cross month", map[string]any{"sTime": march(5, 0), "eTime": time.Date(2026, 4, 3, 0, 0, 0, 0, time.UTC).UnixMilli()}, "95"},
			{"bad page", map[string]any{"sTime": march(5, 0), "eTime": march(6, 0), "pageNo": 0}, "400"},
		} {
			if r, _ := get(tc.params); r.Code != tc.code {
				t.Errorf("%s: %+v, want %s", tc.name, r, tc.code)
			}
		}
	})
}
