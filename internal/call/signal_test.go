package call_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/testkit"

	"tenfour/internal/config"
	"tenfour/internal/termclient"
)

type inviteReply struct {
	CallID  string `json:"callId"`
	Status  int    `json:"status"`
	Parties []struct {
		MsID  string `json:"msId"`
		State string `json:"state"`
	} `json:"parties"`
}

func invite(ctx context.Context, c *termclient.Client, data map[string]any) (inviteReply, error) {
	var r inviteReply
	err := c.Call(ctx, "call.invite", data, &r)
	return r, err
}

func callState(t *testing.T, ctx context.Context, c *termclient.Client, callID, state string) map[string]any {
	t.Helper()
	return event(t, ctx, c, "call.state", func(m map[string]any) bool { return m["callId"] == callID && m["state"] == state })
}

func TestIndividualCallStates(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	// Cannot call oneself; unknown terminal; then a full call: trying, ringing, answered, connected, bye.
	if _, err := invite(ctx, g.d, map[string]any{"kind": "single", "msId": "10009001"}); termclient.Code(err) != "5" {
		t.Fatalf("self call: %v, want 5", err)
	}
	if _, err := invite(ctx, g.d, map[string]any{"msId": "99999999"}); termclient.Code(err) != "404" {
		t.Fatalf("unknown: %v, want 404", err)
	}
	r, err := invite(ctx, g.d, map[string]any{"kind": "single", "msId": "10001001"})
	if err != nil || r.Status != 102 { // 102 self_trying: the caller's side (status.go); the callee's invite says 100
		t.Fatalf("invite: %+v %v", r, err)
	}
	inv := event(t, ctx, g.t1, "call.invite", nil)
	if inv["callId"] != r.CallID || inv["from"].(map[string]any)["msId"] != "10009001" {
		t.Fatalf("incoming %v", inv)
	}
	// Before it is connected nobody may talk in it.
	if _, err := g.d.RequestFloor(ctx, r.CallID, "", false); termclient.Code(err) != "606" {
		t.Fatalf("talk before connected: %v", err)
	}
	if err := g.t1.Call(ctx, "call.status", map[string]any{"callId": r.CallID, "status": 180}, nil); err != nil {
		t.Fatal(err)
	}
	if st := callState(t, ctx, g.d, r.CallID, "ringing"); st["status"].(float64) != 180 {
		t.Fatalf("ringing %v", st)
	}
	// A third party calling either side is busy (486).
	if _, err := invite(ctx, g.t2, map[string]any{"msId": "10001001"}); termclient.Code(err) != "486" {
		t.Fatalf("busy callee: %v", err)
	}
	if err := g.t1.Call(ctx, "call.status", map[string]any{"callId": r.CallID, "status": 200}, nil); err != nil {
		t.Fatal(err)
	}
	callState(t, ctx, g.d, r.CallID, "answered")
	if err := g.d.Call(ctx, "call.ack", map[string]any{"callId": r.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	if st := callState(t, ctx, g.t1, r.CallID, "connected"); st["status"].(float64) != 202 {
		t.Fatalf("connected %v", st)
	}
	// Half duplex: the terminal's bare PTT talks in its individual call, which the group does not hear.
	fr, err := g.t1.Talk(ctx, "", "", termclient.Silence(20), 2*time.Millisecond)
	if err != nil || fr.CallID != r.CallID {
		t.Fatalf("talk in the call: %+v %v", fr, err)
	}
	if _, err := g.d.WaitPackets(ctx, 20); err != nil {
		t.Fatal(err)
	}
	if _, err := g.d.Talk(ctx, r.CallID, "", termclient.Silence(10), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := g.t1.WaitPackets(ctx, 10); err != nil {
		t.Fatal(err)
	}
	if err := g.t1.Call(ctx, "call.bye", map[string]any{"callId": r.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	if st := callState(t, ctx, g.d, r.CallID, "ended"); st["status"].(float64) != 200 || st["by"] != "10001001" {
		t.Fatalf("ended %v", st)
	}
	if n := count(g.t2) + count(g.t3); n != 0 {
		t.Fatalf("the group heard the individual call: %d packets", n)
	}
	g.waitLog(105, 2, 3)
}

func TestIndividualCallDeclineCancelTimeoutOffline(t *testing.T) {
	g := newGroupWorld(t, func(c *config.Config) { c.Voice.RingTimeout = 400 * time.Millisecond })
	ctx := g.Ctx()
	g.account("10001004", "10", g.gid) // never online

	// Decline (603).
	r, err := invite(ctx, g.t2, map[string]any{"msId": "10001001"})
	if err != nil {
		t.Fatal(err)
	}
	event(t, ctx, g.t1, "call.invite", nil)
	if err := g.t1.Call(ctx, "call.status", map[string]any{"callId": r.CallID, "status": 603}, nil); err != nil {
		t.Fatal(err)
	}
	if st := callState(t, ctx, g.t2, r.CallID, "ended"); st["status"].(float64) != 603 {
		t.Fatalf("declined %v", st)
	}
	// Cancel while ringing (487): the dispatcher misses it.
	r, err = invite(ctx, g.t2, map[string]any{"msId": "10009001"})
	if err != nil {
		t.Fatal(err)
	}
	event(t, ctx, g.d, "call.invite", nil)
	if err := g.d.Call(ctx, "call.status", map[string]any{"callId": r.CallID, "status": 180}, nil); err != nil {
		t.Fatal(err)
	}
	if err := g.t2.Call(ctx, "call.cancel", map[string]any{"callId": r.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	if st := callState(t, ctx, g.d, r.CallID, "ended"); st["status"].(float64) != 487 {
		t.Fatalf("canceled %v", st)
	}
	if m := event(t, ctx, g.d, "call.missed", nil); m["msId"] != "10001002" || m["status"].(float64) != 487 {
		t.Fatalf("missed %v", m)
	}
	// No answer (408): missed too.
	r, err = invite(ctx, g.t3, map[string]any{"msId": "10009001"})
	if err != nil {
		t.Fatal(err)
	}
	if st := callState(t, ctx, g.t3, r.CallID, "ended"); st["status"].(float64) != 408 {
		t.Fatalf("timeout %v", st)
	}
	// Offline (101).
	if _, err := invite(ctx, g.d, map[string]any{"msId": "10001004"}); termclient.Code(err) != "101" {
		t.Fatalf("offline: %v", err)
	}
	// The dispatcher's missed calls, newest first.
	tok := g.token("10009001")
	var missed struct {
		List []struct {
			MsID   string `json:"msId"`
			Status int    `json:"status"`
		} `json:"list"`
	}
	testkit.Eventually(t, 10*time.Second, "two missed calls", func() bool {
		g.Do(http.MethodGet, "/ds/call/missed", tok, nil).Into(t, &missed)
		return len(missed.List) == 2
	})
	if missed.List[0].Status != 408 || missed.List[0].MsID != "10001003" || missed.List[1].Status != 487 {
		t.Fatalf("missed list %+v", missed.List)
	}
	if r := g.Do(http.MethodDelete, "/ds/call/missed", tok, nil); r.Code != "0" {
		t.Fatalf("clear: %+v", r)
	}
	g.Do(http.MethodGet, "/ds/call/missed", tok, nil).Into(t, &missed)
	if len(missed.List) != 0 {
		t.Fatalf("cleared list %+v", missed.List)
	}
	g.waitLog(105, 106, 107)
}

func TestBroadcastListenersCannotTalk(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	r, err := invite(ctx, g.d, map[string]any{"kind": "broadcast"})
	if err != nil || r.Status != 202 || len(r.Parties) != 4 {
		t.Fatalf("broadcast: %+v %v", r, err)
	}
	for _, c := range []*termclient.Client{g.t1, g.t2, g.t3} {
		if inv := event(t, ctx, c, "call.invite", nil); inv["kind"] != "broadcast" || inv["callId"] != r.CallID {
			t.Fatalf("invite %v", inv)
		}
	}
	if _, err := g.t1.RequestFloor(ctx, r.CallID, "", true); termclient.Code(err) != "606" {
		t.Fatalf("listener took the broadcast floor: %v", err)
	}
	// Its bare PTT means the broadcast too while it lasts.
	if _, err := g.t2.RequestFloor(ctx, "", "", false); termclient.Code(err) != "606" {
		t.Fatalf("listener bare PTT: %v", err)
	}
	if _, err := g.d.Talk(ctx, r.CallID, "", termclient.Silence(20), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	hear(t, ctx, 20, g.t1, g.t2, g.t3)
	if err := g.d.Call(ctx, "call.bye", map[string]any{"callId": r.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	callState(t, ctx, g.t1, r.CallID, "ended")
	// Broadcast needs account type "1".
	g.Exec(`UPDATE accounts SET acct_type = '-2' WHERE id = '10009001'`)
	if _, err := invite(ctx, g.d, map[string]any{"kind": "broadcast"}); termclient.Code(err) != "107" {
		t.Fatalf("broadcast without permission: %v", err)
	}
	// Terminals cannot start all, temporary-group or broadcast calls.
	if _, err := invite(ctx, g.t1, map[string]any{"kind": "all"}); termclient.Code(err) != "107" {
		t.Fatalf("terminal all call: %v", err)
	}
}

func TestAllCallAndTempGroupCall(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	other := g.group("Other")
	g.account("10002001", "10", other)
	t4 := g.term("10002001")

	// All call: every terminal of the customer, and they may answer.
	all, err := invite(ctx, g.d, map[string]any{"kind": "all"})
	if err != nil || len(all.Parties) != 5 {
		t.Fatalf("all call: %+v %v", all, err)
	}
	event(t, ctx, t4, "call.invite", nil)
	if _, err := g.d.Talk(ctx, all.CallID, "", termclient.Silence(10), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := t4.Talk(ctx, all.CallID, "", termclient.Silence(10), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	hear(t, ctx, 20, g.t1, g.t2, g.t3)
	if err := g.d.Call(ctx, "call.bye", map[string]any{"callId": all.CallID}, nil); err != nil {
		t.Fatal(err)
	}

	// Temporary group of T1 and T4 (two different fixed groups): T2 and T3 hear nothing of it.
	tmp, err := invite(ctx, g.d, map[string]any{"kind": "temp", "msIds": []string{"10001001", "10002001"}})
	if err != nil || len(tmp.Parties) != 3 {
		t.Fatalf("temp call: %+v %v", tmp, err)
	}
	event(t, ctx, g.t1, "call.invite", func(m map[string]any) bool { return m["callId"] == tmp.CallID })
	if _, err := g.t1.Talk(ctx, "", "", termclient.Silence(10), 2*time.Millisecond); err != nil { // bare PTT: the temp call
		t.Fatal(err)
	}
	if _, err := t4.WaitPackets(ctx, 20); err != nil { // 10 from D earlier + 10 from T1
		t.Fatal(err)
	}
	if _, err := g.d.WaitPackets(ctx, 20); err != nil { // 10 from T4 + 10 from T1
		t.Fatal(err)
	}
	// T4 leaves; two parties remain (D and T1), the call goes on; T1 leaves too: it ends.
	if err := t4.Call(ctx, "call.byeMyself", map[string]any{"callId": tmp.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	st := event(t, ctx, g.d, "call.state", func(m map[string]any) bool {
		for _, p := range m["parties"].([]any) {
			if pm := p.(map[string]any); pm["msId"] == "10002001" && pm["state"] == "left" {
				return true
			}
		}
		return false
	})
	if st["state"] != "connected" {
		t.Fatalf("after one left: %v", st)
	}
	if err := g.t1.Call(ctx, "call.byeMyself", map[string]any{"callId": tmp.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	callState(t, ctx, g.d, tmp.CallID, "ended")
	if n := count(g.t2) + count(g.t3); n != 40 { // the all call's 20 each
		t.Fatalf("T2 and T3 received %d packets, want 40 from the all call only", n)
	}
	var list struct {
		Calls []map[string]any `json:"calls"`
	}
	if err := g.d.Call(ctx, "call.list", nil, &list); err != nil {
		t.Fatal(err)
	}
	for _, c := range list.Calls {
		if c["kind"] != "group" {
			t.Fatalf("call still open: %v", c)
		}
	}
}

func TestCallTypeSwitchLogged(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	if _, err := g.d.Talk(ctx, "", g.gid, termclient.Silence(3), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	all, err := invite(ctx, g.d, map[string]any{"kind": "all"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.d.Talk(ctx, all.CallID, "", termclient.Silence(3), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	g.waitLog(112)
}
