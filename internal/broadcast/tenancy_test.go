package broadcast_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/auth"
	"tenfour/internal/broadcast"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// pagedSpeaker creates an organisation with one device for the token's customer and a simulated speaker of it
// that runs until ctx ends.
func (w *world) pagedSpeaker(ctx context.Context, tok, code string) (int64, *sim.Speaker) {
	w.t.Helper()
	pass := md5hex("Org-" + code)
	var org broadcast.Org
	w.ok("POST", "/broadcast/api/v1/org", tok, map[string]any{"name": code, "code": code, "call_number": code, "password": pass}, &org)
	var d broadcast.Device
	w.ok("POST", "/broadcast/v1/device", tok, map[string]any{"org_id": org.ID, "name": code, "code": code}, &d)
	sp := &sim.Speaker{URL: w.s.URL, OrgID: org.ID, Code: code, Password: pass, CountOnly: true}
	go func() { _ = sp.Run(ctx) }()
	testkit.Eventually(w.t, 10*time.Second, "speaker "+code+" online", sp.Online)
	return d.ID, sp
}

// mediaConsole is a console of the session token with its WebRTC connected, as for PTT.
func (w *world) mediaConsole(ctx context.Context, console string) *termclient.Client {
	w.t.Helper()
	if _, err := w.s.DB.Exec(ctx, `UPDATE sessions SET socket_login_at = created_at WHERE socket_login_at = 0`); err != nil {
		w.t.Fatal(err)
	}
	con, err := termclient.Dial(ctx, termclient.Options{URL: w.s.URL, Token: console, Media: termclient.MediaOptions{Loopback: true}})
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { _ = con.Close() })
	cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := con.Connect(cctx); err != nil {
		w.t.Fatal(err)
	}
	return con
}

// speaking sends the simulator's speech up the console's microphone until ctx ends.
func speaking(ctx context.Context, t *testing.T, con *termclient.Client) {
	t.Helper()
	clips, err := sim.LoadClips("")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for ctx.Err() == nil {
			_ = con.Media.Send(ctx, clips.Long.Packets, 20*time.Millisecond)
		}
	}()
}

// flowing requires the speaker to receive more live frames over the next second and a half.
func flowing(t *testing.T, sp *sim.Speaker, what string) {
	t.Helper()
	before := sp.Status().Packets
	testkit.Eventually(t, 3*time.Second, what, func() bool {
		st := sp.Status()
		return st.State == "live" && st.Packets >= before+40
	})
}

// H2 (issue 30): customer B cannot bind a caster to customer A's dispatcher, and a caster that names A's
// dispatcher (a row written before this rule) pages nothing of A's: A's live page keeps its microphone, its
// speaker keeps hearing it, and A's console is told nothing ended.
func TestAnotherCustomerCannotTakeALivePage(t *testing.T) {
	w, ctx := newLiveWorld(t)
	devA, spA := w.pagedSpeaker(ctx, w.tokA, "hall-a")
	tokB := w.login2()
	devB, _ := w.pagedSpeaker(ctx, tokB, "hall-b")

	con := w.mediaConsole(ctx, w.consA)
	w.ok("POST", "/broadcast/v1/paging/start", w.tokA, map[string]any{"device_ids": []int64{devA}}, nil)
	speaking(ctx, t, con)
	flowing(t, spA, "A's page reaches A's speaker")

	// the API refuses B a caster of A's dispatcher, with the answer of an unknown account
	pw := md5hex("Intruder-1")
	w.api().Run(t, []testkit.Scenario{
		{Name: "caster of another customer's dispatcher", Method: "POST", Path: "/broadcast/v1/caster", Token: tokB, Code: "400",
			Params: map[string]any{"name": "Intruder", "code": "intruder", "call_number": "666", "user_id": w.dispA, "password": pw}},
		{Name: "caster of an account that does not exist", Method: "POST", Path: "/broadcast/v1/caster", Token: tokB, Code: "400",
			Params: map[string]any{"name": "Intruder", "code": "intruder", "call_number": "666", "user_id": "79999999", "password": pw}},
		{Name: "caster of a dispatcher of the caller's customer", Method: "POST", Path: "/broadcast/v1/caster", Token: tokB, Code: "200",
			Params: map[string]any{"name": "Own", "code": "own", "call_number": "667", "user_id": w.dispB}},
	})

	// a row that names A's dispatcher anyway (stored before the rule): paging with it changes nothing of A's
	if _, err := w.s.DB.Exec(ctx, `INSERT INTO bc_casters (customer_id, user_id, name, code, call_number, priority, created_at)
		VALUES (?, ?, 'Legacy', 'legacy', '668', 9, 1)`, w.custB, w.dispA); err != nil {
		t.Fatal(err)
	}
	if err := w.s.Auth.SetCredential(ctx, auth.RealmBroadcast, "legacy", w.custB, pw); err != nil {
		t.Fatal(err)
	}
	var li struct{ Token string }
	w.ok("POST", "/broadcast/v1/login", "", map[string]any{"username": "legacy", "password": pw}, &li)
	for i := 0; i < 3; i++ {
		r := w.doHdr("POST", "/broadcast/v1/paging/start", li.Token, map[string]any{"device_ids": []int64{devB}})
		if r.Code != "1015" {
			t.Fatalf("B paging with a caster naming A's dispatcher: %s %s, want 1015 (no console of B)", r.Code, r.Msg)
		}
	}
	// A's routes are computed again (its console sets its playback priority): the tap must still be there
	if err := con.Call(ctx, "voice.priority", map[string]string{"mode": "latest"}, nil); err != nil {
		t.Fatal(err)
	}
	flowing(t, spA, "A's page still reaches A's speaker after B's attempts")
	for _, e := range con.Events() {
		if e.Type == broadcast.EventPageEnded {
			t.Fatalf("A's console was told its page ended: %s", e.Data)
		}
	}
	w.ok("GET", "/broadcast/v1/paging/stop", w.tokA, nil, nil)
}

// accountOf adds a dispatcher to an existing customer and returns its id and console session.
func (w *world) accountOf(customer int64, name string) (int64, string, string) {
	w.t.Helper()
	seq++
	id := fmt.Sprintf("7%03d%04d", customer%1000, 5000+seq)
	testkit.Account(w.t, w.s.DB, auth.NewAccount{CustomerID: customer, ID: id, Type: auth.DispatcherType, Name: name, Group: "All"})
	tok, err := auth.NewSessions(w.s.DB, nil).Create(context.Background(), id, customer)
	if err != nil {
		w.t.Fatal(err)
	}
	return customer, id, tok
}

// A page that stops carrying audio tells the console whose microphone it was: taken over by another page of
// the same microphone ("replaced"), or the console's audio connection closed ("media"); the speakers leave it.
func TestPageEndedTellsTheConsole(t *testing.T) {
	w, ctx := newLiveWorld(t)
	dev1, sp1 := w.pagedSpeaker(ctx, w.tokA, "lobby")
	dev2, sp2 := w.pagedSpeaker(ctx, w.tokA, "yard")
	con := w.mediaConsole(ctx, w.consA)
	speaking(ctx, t, con)
	var mine broadcast.Action
	w.ok("POST", "/broadcast/v1/paging/start", w.tokA, map[string]any{"device_ids": []int64{dev1}}, &mine)
	flowing(t, sp1, "the console's page reaches the lobby")

	// a caster of the same customer bound to the same dispatcher pages the yard with that microphone
	pw := md5hex("Deputy-1")
	w.ok("POST", "/broadcast/v1/caster", w.tokA, map[string]any{"name": "Deputy", "code": "deputy", "call_number": "808",
		"user_id": w.dispA, "password": pw}, nil)
	var li struct{ Token string }
	w.ok("POST", "/broadcast/v1/login", "", map[string]any{"username": "deputy", "password": pw}, &li)
	var deputy broadcast.Action
	w.ok("POST", "/broadcast/v1/paging/start", li.Token, map[string]any{"device_ids": []int64{dev2}}, &deputy)
	ended := func(taskID int64, reason string) {
		t.Helper()
		ectx, c := context.WithTimeout(ctx, 5*time.Second)
		defer c()
		e, err := con.WaitEvent(ectx, broadcast.EventPageEnded, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			TaskID int64  `json:"task_id"`
			Reason string `json:"reason"`
		}
		if err := json.Unmarshal(e.Data, &got); err != nil || got.TaskID != taskID || got.Reason != reason {
			t.Fatalf("%s %s, want task %d reason %s", e.Type, e.Data, taskID, reason)
		}
	}
	ended(mine.Task.ID, "replaced")
	testkit.Eventually(t, 5*time.Second, "the lobby left the replaced page", func() bool { return sp1.Status().State == "idle" })
	flowing(t, sp2, "the deputy's page reaches the yard")
	if r := w.doHdr("GET", "/broadcast/v1/paging/stop", w.tokA, nil); r.Code != "1009" {
		t.Fatalf("stopping the page that ended: %s %s, want 1009 (no page)", r.Code, r.Msg)
	}

	// the console closes its audio connection: the deputy's page carries nothing any more
	if err := con.Call(ctx, "rtc.close", nil, nil); err != nil {
		t.Fatal(err)
	}
	ended(deputy.Task.ID, "media")
	testkit.Eventually(t, 5*time.Second, "the yard left the page without audio", func() bool { return sp2.Status().State == "idle" })
}

// M1 (issue 30): caster codes are unique per customer. Another customer's code neither locks a dispatcher out
// (its console caster has the dispatcher's id as code) nor is revealed by 1002; an md5 login name two customers
// share signs in to the caster whose password it is, and one customer's right password locks nobody.
func TestCasterCodesPerCustomer(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		tokB := w.login2()
		_, fresh, freshCons := w.accountOf(w.custA, "A fresh desk") // no caster yet
		pwA, pwB := md5hex("Gate-A-1"), md5hex("Gate-B-1")
		w.api().Run(t, []testkit.Scenario{
			{Name: "B may use the code of A's dispatcher's caster", Method: "POST", Path: "/broadcast/v1/caster", Token: tokB, Code: "200",
				Params: map[string]any{"name": "Shadow", "code": w.dispA, "call_number": "701"}},
			{Name: "B may take the code of A's dispatcher before A's caster exists", Method: "POST", Path: "/broadcast/v1/caster", Token: tokB,
				Code: "200", Params: map[string]any{"name": "Squat", "code": fresh, "call_number": "702"}},
			{Name: "A's caster gate", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "200",
				Params: map[string]any{"name": "Gate A", "code": "gate", "call_number": "801", "password": pwA}},
			{Name: "B's caster gate", Method: "POST", Path: "/broadcast/v1/caster", Token: tokB, Code: "200",
				Params: map[string]any{"name": "Gate B", "code": "gate", "call_number": "801", "password": pwB}},
			{Name: "a code is still unique in its customer", Method: "POST", Path: "/broadcast/v1/caster", Token: tokB, Code: "1002",
				Params: map[string]any{"name": "Gate B2", "code": "gate", "call_number": "802"}},
		})
		// A's fresh dispatcher signs in to broadcast with its own caster, not refused 107 because of B's
		tok := w.login(fresh, freshCons)
		var u struct {
			UserCode string `json:"user_code"`
			UserName string `json:"user_name"`
		}
		w.ok("GET", "/broadcast/v1/sys/user", tok, nil, &u)
		if u.UserCode != fresh || u.UserName == "Squat" {
			t.Fatalf("A's fresh dispatcher is %+v", u)
		}
		w.ok("GET", "/broadcast/v1/sys/user", w.login(w.dispA, w.consA), nil, &u)
		if u.UserName == "Shadow" {
			t.Fatalf("A's dispatcher signed in as B's caster: %+v", u)
		}

		login := func(pw string) testkit.Reply {
			return w.doHdr("POST", "/broadcast/v1/login", "", map[string]any{"username": "gate", "password": pw})
		}
		who := func(pw string) string {
			t.Helper()
			r := login(pw)
			if r.Code != "200" {
				t.Fatalf("login gate: %s %s", r.Code, r.Msg)
			}
			var res struct {
				Token string
				User  struct {
					UserName string `json:"user_name"`
				}
			}
			r.Into(t, &res)
			var list struct{ List []broadcast.Caster }
			w.ok("GET", "/broadcast/v1/caster", res.Token, map[string]any{"code": "gate"}, &list)
			if len(list.List) != 1 || list.List[0].Name != res.User.UserName {
				t.Fatalf("the token of %s sees casters %+v", res.User.UserName, list.List)
			}
			return res.User.UserName
		}
		if n := who(pwA); n != "Gate A" {
			t.Fatalf("A's password signed in as %q", n)
		}
		if n := who(pwB); n != "Gate B" {
			t.Fatalf("B's password signed in as %q", n)
		}
		for i := 0; i < auth.MaxFailedLogins-1; i++ {
			if r := login(md5hex("wrong")); r.Code != "2" {
				t.Fatalf("wrong %d: %s %s", i, r.Code, r.Msg)
			}
		}
		// one customer's right password is no wrong guess at the other's: both still sign in
		who(pwA)
		who(pwB)
		for i := 1; i <= auth.MaxFailedLogins; i++ {
			want := "2"
			if i == auth.MaxFailedLogins {
				want = "107"
			}
			if r := login(md5hex("wrong")); r.Code != want {
				t.Fatalf("wrong %d after the right ones: %s %s, want %s", i, r.Code, r.Msg, want)
			}
		}
		for _, pw := range []string{pwA, pwB} {
			if r := login(pw); r.Code != "107" {
				t.Fatalf("the name locked by wrong guesses: %s %s, want 107", r.Code, r.Msg)
			}
		}
	})
}

// L1 (issue 30): signing out of the console ends the broadcast token issued on that console session; a token
// of another console session lives on.
func TestSignOutEndsTheBroadcastToken(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		second, err := auth.NewSessions(w.s.DB, nil).Create(context.Background(), w.dispA, w.custA)
		if err != nil {
			t.Fatal(err)
		}
		tok2 := w.login(w.dispA, second)
		w.api().Run(t, []testkit.Scenario{
			{Name: "the broadcast token before the sign-out", Method: "GET", Path: "/broadcast/v1/sys/user", Token: "A", Code: "200"},
			{Name: "sign out of the console", Method: "GET", Path: "/ds/user/logout", Token: "consoleA", Code: "0", Changes: true},
			{Name: "the console's broadcast token after its sign-out", Method: "GET", Path: "/broadcast/v1/sys/user", Token: "A", Code: "401", Status: 401},
			{Name: "the broadcast token of another console session", Method: "GET", Path: "/broadcast/v1/sys/user", Token: tok2, Code: "200"},
			{Name: "no new broadcast token from the ended session", Method: "POST", Path: "/broadcast/v1/login", Token: "consoleA",
				Params: map[string]any{"username": w.dispA, "password": "{secret}"}, Code: "102", Changes: true},
		})
		var revoked bool
		if err := w.s.DB.QueryRow(context.Background(), `SELECT revoked FROM sessions WHERE kind = 'broadcast' AND parent_hash = ?`,
			sha(w.consA)).Scan(&revoked); err != nil || !revoked {
			t.Fatalf("the broadcast session of the signed-out console: revoked %v, %v", revoked, err)
		}
	})
}

// Informational (issue 30): a customer holds at most MaxOrgs organisations, MaxCasters casters and MaxTasks
// tasks; the next is refused with its code, and another customer is not affected.
func TestCustomerLimits(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		tokB := w.login2()
		ctx := context.Background()
		dev := w.speakers(w.tokA, 1)
		fill := func(table, cols, values string, n int) {
			t.Helper()
			q := `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
				INSERT INTO ` + table + ` (` + cols + `) SELECT CAST(? AS BIGINT), ` + values + ` FROM n`
			if _, err := w.s.DB.Exec(ctx, q, n, w.custA); err != nil {
				t.Fatal(err)
			}
		}
		count := func(table string) int {
			var n int
			if err := w.s.DB.QueryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE customer_id = ?`, w.custA).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		fill("bc_orgs", "customer_id, parent_id, name, code, call_number, created_at", "0, 'o' || i, 'o' || i, 'o' || i, 1",
			broadcast.MaxOrgs-1-count("bc_orgs"))
		fill("bc_casters", "customer_id, name, code, call_number, priority, created_at", "'c' || i, 'c' || i, 'c' || i, 5, 1",
			broadcast.MaxCasters-1-count("bc_casters"))
		var caster int64
		if err := w.s.DB.QueryRow(ctx, `SELECT id FROM bc_casters WHERE customer_id = ? AND code = ?`, w.custA, w.dispA).Scan(&caster); err != nil {
			t.Fatal(err)
		}
		fill("bc_tasks", "customer_id, caster_id, kind, name, created_at, updated_at", fmt.Sprintf("%d, 0, 't' || i, 1, 1", caster), broadcast.MaxTasks-1)
		task := map[string]any{"name": "One more", "file_ids": []int64{w.file(w.custA, 1000)}, "device_ids": dev}
		w.api().Run(t, []testkit.Scenario{
			{Name: "the last organisation", Method: "POST", Path: "/broadcast/api/v1/org", Token: "A", Code: "200",
				Params: map[string]any{"name": "Last", "code": "last", "call_number": "last"}},
			{Name: "one organisation too many", Method: "POST", Path: "/broadcast/api/v1/org", Token: "A", Code: "1016",
				Params: map[string]any{"name": "More", "code": "more", "call_number": "more"}},
			{Name: "the last caster", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "200",
				Params: map[string]any{"name": "Last", "code": "last", "call_number": "last"}},
			{Name: "one caster too many", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "1017",
				Params: map[string]any{"name": "More", "code": "more", "call_number": "more"}},
			{Name: "the last task", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Code: "200", Params: task},
			{Name: "one task too many", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Code: "1018", Params: task},
			{Name: "another customer's organisation", Method: "POST", Path: "/broadcast/api/v1/org", Token: tokB, Code: "200",
				Params: map[string]any{"name": "B", "code": "b", "call_number": "b"}},
			{Name: "another customer's caster", Method: "POST", Path: "/broadcast/v1/caster", Token: tokB, Code: "200",
				Params: map[string]any{"name": "B", "code": "b", "call_number": "b"}},
		})
	})
}

// Informational (issue 30): a speaker socket that sends frames faster than its limit is closed with
// CloseTooFast; one that reports as speakers do stays.
func TestSpeakerFrameRateLimit(t *testing.T) {
	w := newWorld(t, "sqlite")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	speakers, _ := w.rawSpeakers(ctx, "Fast", "calm", "flood")
	calm, flood := speakers[0], speakers[1]
	for i := 0; i < 10*broadcast.SpeakerFrameBurst; i++ {
		if flood.ws.Write(ctx, websocket.MessageText, status) != nil {
			break
		}
	}
	select {
	case err := <-flood.closed:
		if got := websocket.CloseStatus(err); got != broadcast.CloseTooFast {
			t.Fatalf("the flooding speaker's socket ended with %v (status %d), want %d", err, got, broadcast.CloseTooFast)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the flooding speaker's socket is still open")
	}
	for i := 0; i < 10; i++ { // a speaker's pace: a report every 200 ms
		if err := calm.ws.Write(ctx, websocket.MessageText, status); err != nil {
			t.Fatalf("a calm speaker's report %d: %v", i, err)
		}
		select {
		case err := <-calm.closed:
			t.Fatalf("the calm speaker's socket ended: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// rawSocket is a speaker's WebSocket driven by hand: it registers, and a reader takes the server's commands so its
// close is seen.
type rawSocket struct {
	ws     *websocket.Conn
	closed chan error // the reader's end
}

// status is a speaker's report of playing nothing.
var status, _ = json.Marshal(map[string]any{"type": "status", "state": "idle"})

// rawSpeakers makes an organisation of customer A with a device of each code, and registers each on a raw socket.
func (w *world) rawSpeakers(ctx context.Context, org string, codes ...string) ([]rawSocket, []int64) {
	w.t.Helper()
	seq++
	pass := md5hex("Org-" + org)
	var o broadcast.Org
	w.ok("POST", "/broadcast/api/v1/org", w.tokA, map[string]any{"name": org, "code": strings.ToLower(org), "call_number": fmt.Sprint(seq),
		"password": pass}, &o)
	socks, ids := make([]rawSocket, len(codes)), make([]int64, len(codes))
	for i, code := range codes {
		var d broadcast.Device
		w.ok("POST", "/broadcast/v1/device", w.tokA, map[string]any{"org_id": o.ID, "name": code, "code": code}, &d)
		socks[i], ids[i] = w.rawSpeaker(ctx, o.ID, code, pass), d.ID
	}
	return socks, ids
}

// rawSpeaker registers device code of organisation orgID (password pass: an md5) on a raw speaker socket.
func (w *world) rawSpeaker(ctx context.Context, orgID int64, code, pass string) rawSocket {
	w.t.Helper()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(w.s.URL, "http")+broadcast.SpeakerPath, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { ws.CloseNow() })
	reg, _ := json.Marshal(map[string]any{"type": "register", "org_id": orgID, "code": code, "password": pass})
	if err := ws.Write(ctx, websocket.MessageText, reg); err != nil {
		w.t.Fatal(err)
	}
	s := rawSocket{ws: ws, closed: make(chan error, 1)}
	go func() {
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				s.closed <- err
				return
			}
		}
	}()
	return s
}

// A speaker's last report, once older than ReportStaleAfter (a speaker reports at least every second), is listed
// stale, so the console shows what it said it plays as old; its next report is current again (issue 33).
func TestStaleSpeakerReport(t *testing.T) {
	w := newWorld(t, "sqlite")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sp, id := w.rawSpeakers(ctx, "Quiet", "quiet")
	report := func() {
		if err := sp[0].ws.Write(ctx, websocket.MessageText, status); err != nil {
			t.Fatal(err)
		}
		testkit.Eventually(t, 5*time.Second, "the report arrived", func() bool {
			r := w.devices(w.tokA)[id[0]].Reported
			return r != nil && r.At == w.clock.Now().UnixMilli()
		})
	}
	stale := func() bool { return w.devices(w.tokA)[id[0]].Reported.Stale }
	report()
	w.clock.Add(broadcast.ReportStaleAfter)
	if stale() {
		t.Fatal("a report ReportStaleAfter old is stale already")
	}
	w.clock.Add(time.Second)
	if !stale() {
		t.Fatal("a report older than ReportStaleAfter is not listed stale")
	}
	report()
	if stale() {
		t.Fatal("a new report is still stale")
	}
}
