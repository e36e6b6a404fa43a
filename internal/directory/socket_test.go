package directory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/testkit"
)

const wait = 5 * time.Second

func consoleSocket(t *testing.T, s *testkit.Server, tok string) *testkit.Socket {
	t.Helper()
	c := s.Dial()
	if r := c.Call("session.login", map[string]any{"token": tok, "client": "console"}); r.Code != "0" {
		t.Fatalf("console login: %+v", r)
	}
	return c
}

func terminalSocket(t *testing.T, s *testkit.Server, id string) *testkit.Socket {
	t.Helper()
	c := s.Dial()
	if r := c.Call("session.login", map[string]any{"client": "terminal", "uid": id, "auth": "123456"}); r.Code != "0" {
		t.Fatalf("terminal login %s: %+v", id, r)
	}
	return c
}

func data[T any](t *testing.T, f testkit.Frame) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(f.Data, &v); err != nil {
		t.Fatalf("decode %s: %v", f.Data, err)
	}
	return v
}

func msIs(id string) func(testkit.Frame) bool {
	return func(f testkit.Frame) bool {
		var m struct {
			MsID string `json:"msId"`
		}
		_ = json.Unmarshal(f.Data, &m)
		return m.MsID == id
	}
}

// logs returns the customer's operation-log entries of a type, newest first.
func logs(t *testing.T, s *testkit.Server, cust int64, typ oplog.Type) []oplog.Entry {
	t.Helper()
	list, _, err := s.Log.List(context.Background(), cust, oplog.Query{Types: []oplog.Type{typ}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// call sends a request and returns its reply, keeping events meanwhile; ids from 1000 up never collide with
// the test client's own counter.

func terminalOf(t *testing.T, s *testkit.Server, cust int64, id string) directory.Terminal {
	t.Helper()
	term, err := directory.NewStore(s.DB).Terminal(context.Background(), cust, id)
	if err != nil {
		t.Fatal(err)
	}
	return term
}

func TestPresence(t *testing.T) {
	s, w, tokA, _ := apiWorld(t)
	cons := consoleSocket(t, s, tokA)

	term := terminalSocket(t, s, aRadio)
	ev := data[directory.PresenceEvent](t, cons.WaitEvent("presence", wait, msIs(aRadio)))
	if ev.Online != "1" || ev.Time == 0 {
		t.Fatalf("online event %+v", ev)
	}
	if tm := terminalOf(t, s, w.alpha, aRadio); tm.Online != "1" || tm.LastOnline != ev.Time {
		t.Fatalf("stored online %+v", tm)
	}
	if l := logs(t, s, w.alpha, oplog.Online); len(l) == 0 || l[0].Account != aRadio {
		t.Fatalf("log 5 %+v", l)
	}

	term.Close()
	ev = data[directory.PresenceEvent](t, cons.WaitEvent("presence", wait, msIs(aRadio)))
	if ev.Online != "0" {
		t.Fatalf("offline event %+v", ev)
	}
	if tm := terminalOf(t, s, w.alpha, aRadio); tm.Online != "0" || tm.LastOffline != ev.Time || tm.LastOnline == 0 {
		t.Fatalf("stored offline %+v", tm)
	}
	if l := logs(t, s, w.alpha, oplog.Offline); len(l) != 1 || l[0].Account != aRadio {
		t.Fatalf("log 6 %+v", l)
	}
	// The terminal endpoint answers presence over HTTP too.
	r := s.Do("GET", "/ds/data/findMsInfo", tokA, map[string]any{"msId": aRadio})
	if !strings.Contains(string(r.Result), `"online":"0"`) {
		t.Fatalf("findMsInfo %s", r.Result)
	}
}

func TestRepeatLogin(t *testing.T) {
	s, w, tokA, _ := apiWorld(t)
	// A logout hook after the directory's: when it runs for the replaced connection, the directory's hook has
	// run too. Added before any connection exists; Online's read lock orders it before every later login.
	logouts := make(chan bool, 8)
	s.Hub.OnLogout(func(ctx context.Context, c *realtime.Conn, replaced bool) {
		if c.Principal().AccountID == aRadio {
			logouts <- replaced
		}
	})
	s.Hub.Online("")

	cons := consoleSocket(t, s, tokA)
	first := terminalSocket(t, s, aRadio)
	cons.WaitEvent("presence", wait, msIs(aRadio))

	second := terminalSocket(t, s, aRadio)
	first.WaitEvent("session.replaced", wait, nil)
	for { // read on so the client answers the close handshake
		if _, err := first.TryRead(wait); err != nil {
			break
		}
	}
	select {
	case replaced := <-logouts:
		if !replaced {
			t.Fatal("the replaced connection's logout was not marked replaced")
		}
	case <-time.After(wait):
		t.Fatal("the replaced connection never closed")
	}
	if tm := terminalOf(t, s, w.alpha, aRadio); tm.Online != "1" {
		t.Fatal("a repeat login marked the account offline")
	}
	if l := logs(t, s, w.alpha, oplog.RepeatLogin); len(l) != 1 || l[0].Account != aRadio {
		t.Fatalf("log 7 %+v", l)
	}
	if l := logs(t, s, w.alpha, oplog.Offline); len(l) != 0 {
		t.Fatalf("log 6 on a repeat login %+v", l)
	}
	cons.Call("ping", nil) // everything published so far has reached the console
	for _, f := range cons.Events {
		if f.Type == "presence" && msIs(aRadio)(f) && data[directory.PresenceEvent](t, f).Online == "0" {
			t.Fatal("offline presence published on a repeat login")
		}
	}

	second.Close()
	if ev := data[directory.PresenceEvent](t, cons.WaitEvent("presence", wait, func(f testkit.Frame) bool {
		return msIs(aRadio)(f) && data[directory.PresenceEvent](t, f).Online == "0"
	})); ev.Time == 0 {
		t.Fatal("offline time")
	}
	if l := logs(t, s, w.alpha, oplog.Offline); len(l) != 1 {
		t.Fatalf("log 6 after the last connection closed %+v", l)
	}
}

func TestSwitchGroup(t *testing.T) {
	s, w, tokA, _ := apiWorld(t)
	s.Hub.SetAckTimeout(300 * time.Millisecond)
	cons := consoleSocket(t, s, tokA)
	gid := func(g directory.GroupID) string { return g.String() }

	// Own switch: a dispatcher may talk in any group of its customer.
	r := cons.Call("group.switch", map[string]any{"gid": gid(w.aEmpty)})
	if r.Code != "0" {
		t.Fatalf("own switch %+v", r)
	}
	if ev := data[directory.SwitchEvent](t, cons.WaitEvent("member.switched", wait, msIs(aDisp))); ev.GID != w.aEmpty || ev.From != w.aOps {
		t.Fatalf("member.switched %+v", ev)
	}
	if tm := terminalOf(t, s, w.alpha, aDisp); tm.Grp != gid(w.aEmpty) {
		t.Fatalf("stored %q", tm.Grp)
	}
	if l := logs(t, s, w.alpha, oplog.SwitchGroup); len(l) != 1 || l[0].Account != aDisp {
		t.Fatalf("log 8 %+v", l)
	}

	// A terminal switches itself only among its groups.
	app := terminalSocket(t, s, aApp)
	if r := app.Call("group.switch", map[string]any{"gid": w.aSub}); r.Code != "0" { // numeric gid accepted
		t.Fatalf("terminal own switch %+v", r)
	}
	radio := terminalSocket(t, s, aRadio)
	if r := radio.Call("group.switch", map[string]any{"gid": gid(w.aSub)}); r.Code != "24" {
		t.Fatalf("terminal to a group it is not in %+v", r)
	}
	if r := radio.Call("group.switch", map[string]any{"gid": gid(w.aSub), "msId": aApp}); r.Code != "107" {
		t.Fatalf("terminal switching another %+v", r)
	}
	if r := radio.Call("group.list", nil); r.Code != "0" || !strings.Contains(string(r.Data), `"pttGroup":"`+gid(w.aOps)+`"`) {
		t.Fatalf("group.list %+v %s", r, r.Data)
	}

	// Remote switch: relayed to the terminal, applied on its acknowledgement.
	id := cons.Request("group.switch", map[string]any{"gid": gid(w.aOps), "msId": aApp})
	req := app.WaitEvent("group.switch", wait, nil)
	if req.ID == 0 || !strings.Contains(string(req.Data), `"gid":"`+gid(w.aOps)+`"`) || !strings.Contains(string(req.Data), `"name":"Alpha Ops"`) {
		t.Fatalf("request to terminal %+v %s", req, req.Data)
	}
	if tm := terminalOf(t, s, w.alpha, aApp); tm.Grp != gid(w.aSub) {
		t.Fatal("switched before the terminal acknowledged")
	}
	app.Reply(req, "0", nil)
	if r := cons.ReplyTo(id); r.Code != "0" {
		t.Fatalf("remote switch %+v", r)
	}
	if ev := data[directory.SwitchEvent](t, cons.WaitEvent("member.switched", wait, func(f testkit.Frame) bool {
		return msIs(aApp)(f) && data[directory.SwitchEvent](t, f).GID == w.aOps
	})); ev.From != w.aSub {
		t.Fatalf("remote member.switched %+v", ev)
	}
	if tm := terminalOf(t, s, w.alpha, aApp); tm.Grp != gid(w.aOps) {
		t.Fatalf("stored after remote %q", tm.Grp)
	}

	before := snapshot(t, s.DB)
	// The terminal refuses: its code passes through, nothing changes.
	id = cons.Request("group.switch", map[string]any{"gid": gid(w.aSub), "msId": aApp})
	app.Reply(app.WaitEvent("group.switch", wait, nil), "9", nil)
	if r := cons.ReplyTo(id); r.Code != "9" {
		t.Fatalf("refused remote switch %+v", r)
	}
	// The terminal does not answer in time.
	id = cons.Request("group.switch", map[string]any{"gid": gid(w.aSub), "msId": aApp})
	app.WaitEvent("group.switch", wait, nil)
	if r := cons.ReplyTo(id); r.Code != "408" {
		t.Fatalf("unanswered remote switch %+v", r)
	}
	for name, c := range map[string]struct {
		payload map[string]any
		code    string
	}{
		"offline terminal":     {map[string]any{"gid": gid(w.aSub), "msId": aCam}, "4"},
		"not a member":         {map[string]any{"gid": gid(w.aSub), "msId": aRadio}, "24"},
		"unknown terminal":     {map[string]any{"gid": gid(w.aOps), "msId": unknown}, "404"},
		"unknown group":        {map[string]any{"gid": "999999"}, "404"},
		"missing gid":          {map[string]any{"msId": aApp}, "400"},
		"bad gid":              {map[string]any{"gid": "abc"}, "400"},
		"root gid":             {map[string]any{"gid": "0"}, "400"},
		"gid object":           {map[string]any{"gid": map[string]any{}}, "400"},
		"oversized msId":       {map[string]any{"gid": gid(w.aOps), "msId": long(33)}, "400"},
		"other tenant's group": {map[string]any{"gid": gid(w.bOps)}, "404"},
		"other tenant's term":  {map[string]any{"gid": gid(w.aOps), "msId": bRadio}, "404"},
	} {
		if r := cons.Call("group.switch", c.payload); r.Code != c.code {
			t.Errorf("%s: got %q (%s), want %q", name, r.Code, r.Msg, c.code)
		}
	}
	if after := snapshot(t, s.DB); after != before {
		t.Fatal("refused switches changed the store")
	}
}

func tempEvent(t *testing.T, c *testkit.Socket, action string) directory.TempEvent {
	t.Helper()
	return data[directory.TempEvent](t, c.WaitEvent("tempGroup.changed", wait, func(f testkit.Frame) bool {
		return data[directory.TempEvent](t, f).Action == action
	}))
}

func TestTempGroups(t *testing.T) {
	s, w, tokA, _ := apiWorld(t)
	cons := consoleSocket(t, s, tokA)
	radio := terminalSocket(t, s, aRadio)

	r := cons.Call("tempGroup.create", map[string]any{"name": "Team", "msIds": []any{aRadio, 11000102}})
	if r.Code != "0" {
		t.Fatalf("create %+v", r)
	}
	created := data[struct {
		GID   directory.GroupID `json:"gid"`
		Group directory.Group   `json:"group"`
	}](t, r)
	if created.GID == 0 || created.Group.MemberCount != 3 || created.Group.Creator != aDisp || created.Group.Kind != "temp" ||
		created.Group.CreatorName != "Alpha Dispatcher" {
		t.Fatalf("created %s", r.Data)
	}
	g := created.GID
	if ev := tempEvent(t, cons, "create"); ev.GID != g || ev.Group == nil || ev.Group.Name != "Team" {
		t.Fatalf("create event %+v", ev)
	}
	if m := data[directory.Membership](t, radio.WaitEvent("group.changed", wait, nil)); len(m.Groups) != 3 {
		t.Fatalf("terminal membership after create %+v", m)
	}
	if l := logs(t, s, w.alpha, oplog.TempGroupCreated); len(l) != 1 || !strings.Contains(l[0].Remark, "Team") {
		t.Fatalf("log 0 %+v", l)
	}

	newAccount(t, s.DB, w.alpha, "11000002", "20", "Limited Dispatcher", w.aOps)
	mustExec(t, s.DB, `UPDATE accounts SET acct_type = '-2' WHERE id = '11000002'`)
	limited := consoleSocket(t, s, token(t, s, "11000002", w.alpha))

	before := snapshot(t, s.DB)
	many := make([]string, directory.MaxTempMembers+1)
	for i := range many {
		many[i] = fmt.Sprintf("1%07d", i)
	}
	for name, c := range map[string]struct {
		typ     string
		payload map[string]any
		code    string
	}{
		"create existing name":     {"tempGroup.create", map[string]any{"name": "Team", "msIds": []string{aCam}}, "3"},
		"create existing, spaces":  {"tempGroup.create", map[string]any{"name": " Team ", "msIds": []string{aCam}}, "3"},
		"create empty name":        {"tempGroup.create", map[string]any{"name": "", "msIds": []string{aCam}}, "20"},
		"create missing name":      {"tempGroup.create", map[string]any{"msIds": []string{aCam}}, "20"},
		"create 21 characters":     {"tempGroup.create", map[string]any{"name": strings.Repeat("ş", 21), "msIds": []string{aCam}}, "22"},
		"create control character": {"tempGroup.create", map[string]any{"name": "a\nb", "msIds": []string{aCam}}, "10"},
		"create without members":   {"tempGroup.create", map[string]any{"name": "Solo", "msIds": []string{}}, "1"},
		"create only self":         {"tempGroup.create", map[string]any{"name": "Solo", "msIds": []string{aDisp}}, "1"},
		"create other tenant's":    {"tempGroup.create", map[string]any{"name": "Mixed", "msIds": []string{aCam, bRadio}}, "404"},
		"create unknown member":    {"tempGroup.create", map[string]any{"name": "Mixed", "msIds": []string{unknown}}, "404"},
		"create too many":          {"tempGroup.create", map[string]any{"name": "Crowd", "msIds": many}, "400"},
		"create name wrong type":   {"tempGroup.create", map[string]any{"name": []string{"a"}, "msIds": []string{aCam}}, "400"},
		"edit nothing":             {"tempGroup.edit", map[string]any{"gid": g}, "400"},
		"edit empty name":          {"tempGroup.edit", map[string]any{"gid": g, "name": ""}, "20"},
		"edit name taken":          {"tempGroup.edit", map[string]any{"gid": g, "name": "Alpha Temp"}, "3"},
		"edit add other tenant's":  {"tempGroup.edit", map[string]any{"gid": g, "add": []string{bRadio}}, "404"},
		"edit remove non-member":   {"tempGroup.edit", map[string]any{"gid": g, "remove": []string{aCam}}, "24"},
		"edit fixed group":         {"tempGroup.edit", map[string]any{"gid": w.aOps, "name": "x"}, "404"},
		"edit other tenant's":      {"tempGroup.edit", map[string]any{"gid": w.bTmp, "name": "x"}, "404"},
		"delMember non-member":     {"tempGroup.delMember", map[string]any{"gid": g, "msId": aCam}, "24"},
		"delMember missing msId":   {"tempGroup.delMember", map[string]any{"gid": g}, "400"},
		"delMember other tenant's": {"tempGroup.delMember", map[string]any{"gid": w.bTmp, "msId": bRadio}, "404"},
		"remove missing gid":       {"tempGroup.remove", map[string]any{}, "400"},
		"remove fixed group":       {"tempGroup.remove", map[string]any{"gid": w.aOps}, "404"},
		"remove other tenant's":    {"tempGroup.remove", map[string]any{"gid": w.bTmp}, "404"},
		"remove unknown":           {"tempGroup.remove", map[string]any{"gid": "987654"}, "404"},
	} {
		if r := cons.Call(c.typ, c.payload); r.Code != c.code {
			t.Errorf("%s: got %q (%s), want %q", name, r.Code, r.Msg, c.code)
		}
	}
	// Terminals and "-2" dispatchers do not manage temp groups (spec §6).
	if r := radio.Call("tempGroup.create", map[string]any{"name": "Mine", "msIds": []string{aApp}}); r.Code != "107" {
		t.Errorf("terminal create: %+v", r)
	}
	if r := limited.Call("tempGroup.remove", map[string]any{"gid": g}); r.Code != "107" {
		t.Errorf("-2 dispatcher remove: %+v", r)
	}
	if r := limited.Call("tempGroup.query", nil); r.Code != "0" {
		t.Errorf("-2 dispatcher query: %+v", r)
	}
	if after := snapshot(t, s.DB); after != before {
		t.Fatalf("refused temp-group requests changed the store:\n%s---\n%s", before, after)
	}

	// Query: members, creator and counts (the console and the radio are online).
	r = cons.Call("tempGroup.query", nil)
	q := data[struct {
		Groups []directory.Group `json:"groups"`
	}](t, r)
	if len(q.Groups) != 2 || q.Groups[1].GID != g || q.Groups[1].MemberCount != 3 || q.Groups[1].OnlineCount != 2 || len(q.Groups[1].MsList) != 3 ||
		q.Groups[1].CreatorName != "Alpha Dispatcher" {
		t.Fatalf("query %s", r.Data)
	}

	// Edit: rename and add.
	r = cons.Call("tempGroup.edit", map[string]any{"gid": g.String(), "name": "Team B", "add": aCam})
	if r.Code != "0" || !strings.Contains(string(r.Data), `"removed":false`) {
		t.Fatalf("edit %+v %s", r, r.Data)
	}
	if ev := tempEvent(t, cons, "edit"); ev.Group == nil || ev.Group.Name != "Team B" || ev.Group.MemberCount != 4 {
		t.Fatalf("edit event %+v", ev)
	}
	// delMember: the radio leaves (log 4) and is told.
	if r := cons.Call("tempGroup.delMember", map[string]any{"gid": g, "msId": aRadio}); r.Code != "0" {
		t.Fatalf("delMember %+v", r)
	}
	testkit.Eventually(t, 5*time.Second, "radio told it left", func() bool {
		f := radio.WaitEvent("group.changed", wait, nil)
		return len(data[directory.Membership](t, f).Groups) == 2
	})
	if l := logs(t, s, w.alpha, oplog.QuitTempGroup); len(l) != 1 || !strings.Contains(l[0].Remark, aRadio) {
		t.Fatalf("log 4 %+v", l)
	}
	if l := logs(t, s, w.alpha, oplog.TempGroupEdited); len(l) != 2 {
		t.Fatalf("log 104 %+v", l)
	}
	// Left with one member (the creator): removed (log 15).
	r = cons.Call("tempGroup.edit", map[string]any{"gid": g, "remove": []string{aApp, aCam}})
	if r.Code != "0" || !strings.Contains(string(r.Data), `"removed":true`) {
		t.Fatalf("edit to one member %+v %s", r, r.Data)
	}
	if ev := tempEvent(t, cons, "remove"); ev.GID != g {
		t.Fatalf("auto-remove event %+v", ev)
	}
	if l := logs(t, s, w.alpha, oplog.TempGroupRemoved); len(l) != 1 {
		t.Fatalf("log 15 %+v", l)
	}
	if l := logs(t, s, w.alpha, oplog.QuitTempGroup); len(l) != 3 {
		t.Fatalf("log 4 after removing two %+v", l)
	}
	if r := cons.Call("tempGroup.remove", map[string]any{"gid": g}); r.Code != "404" {
		t.Fatalf("remove auto-removed %+v", r)
	}

	// Remove (cancel): log 1.
	if r := cons.Call("tempGroup.remove", map[string]any{"gid": w.aTmp}); r.Code != "0" {
		t.Fatalf("remove %+v", r)
	}
	if ev := tempEvent(t, cons, "remove"); ev.GID != w.aTmp {
		t.Fatalf("remove event %+v", ev)
	}
	if l := logs(t, s, w.alpha, oplog.TempGroupCanceled); len(l) != 1 {
		t.Fatalf("log 1 %+v", l)
	}
	r = cons.Call("tempGroup.query", nil)
	if q := data[struct {
		Groups []directory.Group `json:"groups"`
	}](t, r); len(q.Groups) != 0 {
		t.Fatalf("query after removals %s", r.Data)
	}
}
