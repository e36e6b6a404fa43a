package cluster_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

type callState struct {
	CallID string `json:"callId"`
	State  string `json:"state"`
	Status int    `json:"status"`
}

// waitCallState waits for a call.state event of a call in a state (and with a status, unless 0).
func waitCallState(ctx context.Context, t *testing.T, who string, c *termclient.Client, callID, state string, status int) {
	t.Helper()
	if _, err := c.WaitEvent(ctx, "call.state", func(e termclient.Event) bool {
		var st callState
		return json.Unmarshal(e.Data, &st) == nil && st.CallID == callID && st.State == state &&
			(status == 0 || st.Status == status)
	}); err != nil {
		t.Fatalf("%s: call %s never %s (%d): %v", who, callID, state, status, err)
	}
}

// invite makes an individual call from caller to msID and returns its id.
func invite(ctx context.Context, t *testing.T, caller *termclient.Client, msID string) string {
	t.Helper()
	var r struct {
		CallID string `json:"callId"`
		Status int    `json:"status"`
	}
	if err := caller.Call(ctx, "call.invite", map[string]any{"kind": "single", "msId": msID}, &r); err != nil {
		t.Fatalf("invite %s: %v", msID, err)
	}
	if r.CallID == "" {
		t.Fatalf("invite %s: no call id in %+v", msID, r)
	}
	return r.CallID
}

// answer rings and answers an invite the callee got.
func answer(ctx context.Context, t *testing.T, callee *termclient.Client, callID string) {
	t.Helper()
	if _, err := callee.WaitEvent(ctx, "call.invite", func(e termclient.Event) bool {
		var st callState
		return json.Unmarshal(e.Data, &st) == nil && st.CallID == callID
	}); err != nil {
		t.Fatal(err)
	}
	for _, st := range []int{180, 200} {
		if err := callee.Call(ctx, "call.status", map[string]any{"callId": callID, "status": st}, nil); err != nil {
			t.Fatalf("callee's status %d: %v", st, err)
		}
	}
}

// connectCall has caller call msID, callee (msID's client) ring and answer, and the caller acknowledge; it returns
// the call's id once the caller saw the answer and the callee the connection.
func connectCall(ctx context.Context, t *testing.T, caller, callee *termclient.Client, msID string) string {
	t.Helper()
	callID := invite(ctx, t, caller, msID)
	answer(ctx, t, callee, callID)
	waitCallState(ctx, t, "the caller", caller, callID, "answered", 200)
	if err := caller.Call(ctx, "call.ack", map[string]any{"callId": callID}, nil); err != nil {
		t.Fatal(err)
	}
	waitCallState(ctx, t, "the callee", callee, callID, "connected", 202)
	return callID
}

// talkTo has talker send sent numbered packets in call callID ("": a bare press) and checks that listener, who
// heard nothing before, hears them in order; it returns the talker's floor reply.
func talkTo(ctx context.Context, t *testing.T, who string, talker, listener *termclient.Client, callID string, sent int) termclient.FloorReply {
	t.Helper()
	r, err := talker.Talk(ctx, callID, "", numbered(sent), 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	got, err := listener.WaitPackets(ctx, sent-2)
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, who, got, 0, sent)
	return r
}

// A dispatcher on node 1 calls a terminal on node 2: the invite reaches it, its ringing and answer come back, the
// acknowledged call connects on both; the dispatcher's talk is heard on node 2 and the terminal's on node 1, packet
// for packet, both ways through the relay; the terminal's press while the dispatcher talks is refused by the call's
// node; every burst is recorded once, by the call's node; the terminal's bye ends the call on node 1.
func TestIndividualCallAcrossNodes(t *testing.T) {
	c := newCluster(t)
	n1, n2, n3 := c.node("n1"), c.node("n2"), c.node("n3")
	f := testkit.NewFleet(t, n1.DB, "1", 2, 1)
	con := dialConsole(t, n1, f.Dispatcher, f.Customer)
	callee := dialTerminal(t, n2.URL, f.Terminals[0])
	bystander := dialTerminal(t, n3.URL, f.Terminals[1]) // of the same group: hears nothing of the call
	linked(t, n1, n2, n3)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	callID := connectCall(ctx, t, con, callee, f.Terminals[0])

	// the caller's talk reaches the callee on node 2, the callee's the caller on node 1 (a bare press means its
	// call, as on one node)
	const sent = 50
	talkTo(ctx, t, "the callee on node 2", con, callee, callID, sent)
	if r := talkTo(ctx, t, "the caller on node 1", callee, con, "", sent); r.CallID != callID {
		t.Fatalf("the callee's press was granted in %q, not its call %q", r.CallID, callID)
	}
	t.Logf("node 2's callee heard %d of %d packets, node 1's caller %d of %d", callee.ReceivedCount(), sent,
		con.ReceivedCount(), sent)
	if n := bystander.ReceivedCount(); n != 0 {
		t.Fatalf("a terminal on node 3 outside the call heard %d packets", n)
	}

	// the floor is the call's node's: while the dispatcher talks, the terminal's press is refused there
	if _, err := con.RequestFloor(ctx, callID, "", false); err != nil {
		t.Fatal(err)
	}
	if _, err := callee.RequestFloor(ctx, callID, "", false); termclient.Code(err) == "" {
		t.Fatal("the callee was granted the floor the caller holds")
	}
	if err := con.ReleaseFloor(ctx, callID); err != nil {
		t.Fatal(err)
	}

	// one record per burst, both stored by the call's node
	testkit.Eventually(t, 5*time.Second, "both bursts recorded once", func() bool {
		var n int
		_ = n1.DB.QueryRow(ctx, `SELECT COUNT(*) FROM voice_records WHERE call_id = ?`, callID).Scan(&n)
		return n == 2
	})
	var talkers int
	_ = n1.DB.QueryRow(ctx, `SELECT COUNT(DISTINCT talker_id) FROM voice_records WHERE call_id = ?`, callID).Scan(&talkers)
	if talkers != 2 {
		t.Fatalf("the records name %d talkers, want the caller and the callee", talkers)
	}

	// the callee hangs up on node 2: the call ends on node 1
	if err := callee.Call(ctx, "call.bye", map[string]any{"callId": callID}, nil); err != nil {
		t.Fatal(err)
	}
	waitCallState(ctx, t, "the caller", con, callID, "ended", 200)
	var calls struct {
		Calls []callState `json:"calls"`
	}
	if err := con.Call(ctx, "call.list", nil, &calls); err != nil || len(calls.Calls) != 0 {
		t.Fatalf("calls left on node 1: %+v (%v)", calls.Calls, err)
	}

	// the callee is free again: a second call rings, and the caller's cancel reaches it (487)
	callID = invite(ctx, t, con, f.Terminals[0])
	if _, err := callee.WaitEvent(ctx, "call.invite", nil); err != nil {
		t.Fatal(err)
	}
	if err := con.Call(ctx, "call.cancel", map[string]any{"callId": callID}, nil); err != nil {
		t.Fatal(err)
	}
	waitCallState(ctx, t, "the callee", callee, callID, "ended", 487)
	if _, err := callee.WaitEvent(ctx, "call.missed", nil); err != nil {
		t.Fatal(err)
	}
}

// The spec's refusals cross nodes: a terminal on node 2 busy in a call of its own node answers another node's
// invite 486 (busy); one that declines answers 603; a terminal on no node is 101 (offline).
func TestIndividualCallRefusalsAcrossNodes(t *testing.T) {
	c := newCluster(t)
	n1, n2 := c.node("n1"), c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 3, 1)
	con := dialConsole(t, n1, f.Dispatcher, f.Customer)
	a := dialTerminal(t, n2.URL, f.Terminals[0])
	b := dialTerminal(t, n2.URL, f.Terminals[1])
	linked(t, n1, n2)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// a declines
	callID := invite(ctx, t, con, f.Terminals[0])
	if _, err := a.WaitEvent(ctx, "call.invite", nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Call(ctx, "call.status", map[string]any{"callId": callID, "status": 603}, nil); err != nil {
		t.Fatal(err)
	}
	waitCallState(ctx, t, "the caller", con, callID, "ended", 603)

	// a calls b on node 2 (a call of node 2); node 1's call to b is busy
	var r struct {
		CallID string `json:"callId"`
	}
	if err := a.Call(ctx, "call.invite", map[string]any{"kind": "single", "msId": f.Terminals[1]}, &r); err != nil {
		t.Fatal(err)
	}
	if err := con.Call(ctx, "call.invite", map[string]any{"kind": "single", "msId": f.Terminals[1]}, nil); termclient.Code(err) != "486" {
		t.Fatalf("calling a terminal busy on node 2: %v, want 486", err)
	}
	if _, err := b.WaitEvent(ctx, "call.missed", nil); err != nil { // a missed call, as on one node
		t.Fatal(err)
	}
	// and a terminal on no node is offline
	if err := con.Call(ctx, "call.invite", map[string]any{"kind": "single", "msId": f.Terminals[2]}, nil); termclient.Code(err) != "101" {
		t.Fatalf("calling a terminal on no node: %v, want 101", err)
	}
}

// A connected call from node 1 to a terminal on node 2: node 2 is killed; the call ends on node 1 with 101
// (offline) once node 2 is counted dead, and node 1's dispatcher may call again.
func TestIndividualCallEndsWhenTheCalleesNodeDies(t *testing.T) {
	ctx, con, _ := callWithADyingNode(t, "n1", "n2", true)
	var calls struct {
		Calls []callState `json:"calls"`
	}
	if err := con.Call(ctx, "call.list", nil, &calls); err != nil || len(calls.Calls) != 0 {
		t.Fatalf("calls left on node 1: %+v (%v)", calls.Calls, err)
	}
}

// The other way round: a terminal on node 2 calls the dispatcher on node 1. The call lives on node 2; the
// console's answer, acknowledgement-free connection and talk cross to it, and each hears the other.
func TestTerminalCallsAConsoleOnAnotherNode(t *testing.T) {
	c := newCluster(t)
	n1, n2 := c.node("n1"), c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	con := dialConsole(t, n1, f.Dispatcher, f.Customer)
	caller := dialTerminal(t, n2.URL, f.Terminals[0])
	linked(t, n1, n2)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()

	callID := connectCall(ctx, t, caller, con, f.Dispatcher)

	const sent = 40
	talkTo(ctx, t, "the terminal on node 2", con, caller, callID, sent)
	talkTo(ctx, t, "the console on node 1", caller, con, callID, sent)
	// the console hangs up on its node: the call ends on node 2
	if err := con.Call(ctx, "call.bye", map[string]any{"callId": callID}, nil); err != nil {
		t.Fatal(err)
	}
	waitCallState(ctx, t, "the caller", caller, callID, "ended", 200)
}

// A temporary group with parties on three nodes: the dispatcher on node 1 calls terminals on nodes 1, 2 (two) and 3;
// all are connected, the dispatcher's talk reaches each of them, and a party on node 2 talking (a bare press means
// its call) reaches the dispatcher and every other party — the one beside it on node 2 too — through the call's node;
// a party on node 3 leaving does not end the call; the dispatcher's bye ends it on every node.
func TestTemporaryGroupAcrossNodes(t *testing.T) {
	c := newCluster(t)
	n1, n2, n3 := c.node("n1"), c.node("n2"), c.node("n3")
	f := testkit.NewFleet(t, n1.DB, "1", 4, 1)
	con := dialConsole(t, n1, f.Dispatcher, f.Customer)
	on1 := dialTerminal(t, n1.URL, f.Terminals[0])
	on2a := dialTerminal(t, n2.URL, f.Terminals[1])
	on2b := dialTerminal(t, n2.URL, f.Terminals[2])
	on3 := dialTerminal(t, n3.URL, f.Terminals[3])
	linked(t, n1, n2, n3)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	var r struct {
		CallID  string `json:"callId"`
		Parties []struct {
			MsID  string `json:"msId"`
			State string `json:"state"`
		} `json:"parties"`
	}
	if err := con.Call(ctx, "call.invite", map[string]any{"kind": "temp", "msIds": f.Terminals}, &r); err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Parties {
		if p.State != "connected" {
			t.Fatalf("party %s is %s, want connected: %+v", p.MsID, p.State, r.Parties)
		}
	}
	if len(r.Parties) != 5 {
		t.Fatalf("parties %+v", r.Parties)
	}
	for _, p := range []*termclient.Client{on1, on2a, on2b, on3} {
		if _, err := p.WaitEvent(ctx, "call.invite", nil); err != nil {
			t.Fatal(err)
		}
	}

	const sent = 40
	if _, err := con.Talk(ctx, r.CallID, "", numbered(sent), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for i, p := range []*termclient.Client{on1, on2a, on2b, on3} {
		got, err := p.WaitPackets(ctx, sent-2)
		if err != nil {
			t.Fatalf("party %d: %v", i, err)
		}
		checkStream(t, "a party of the dispatcher's talk", got, 0, sent)
	}

	// the dispatcher's burst is over where it was relayed (its last packets arrived) before a party on node 2
	// talks, packets numbered from sent on: the others tell them from the dispatcher's by index
	testkit.Eventually(t, 5*time.Second, "the dispatcher's burst over on nodes 2 and 3", func() bool {
		return n2.Voice.RemoteListening() == 0 && n3.Voice.RemoteListening() == 0
	})
	before := map[*termclient.Client]int{}
	for _, p := range []*termclient.Client{on1, on2b, on3} {
		before[p] = p.ReceivedCount()
	}
	fr, err := on2a.Talk(ctx, "", "", numberedFrom(sent, sent), 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if fr.CallID != r.CallID {
		t.Fatalf("the bare press of a party on node 2 was granted in %q, not the temporary group %q", fr.CallID, r.CallID)
	}
	back, err := con.WaitPackets(ctx, sent-2)
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, "the dispatcher", back, sent, 2*sent)
	for p, n := range before {
		got, err := p.WaitPackets(ctx, n+sent-2)
		if err != nil {
			t.Fatal(err)
		}
		var talk []termclient.Packet
		for _, pk := range got[n:] {
			if indexOf(pk) >= sent { // not one of the dispatcher's last packets, arrived after the count
				talk = append(talk, pk)
			}
		}
		checkStream(t, "a party of node 2's talk", talk, sent, 2*sent)
	}

	if err := on3.Call(ctx, "call.byeMyself", map[string]any{"callId": r.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := con.WaitEvent(ctx, "call.state", func(e termclient.Event) bool {
		return strings.Contains(string(e.Data), `"state":"left"`)
	}); err != nil {
		t.Fatal(err)
	}
	if err := con.Call(ctx, "call.bye", map[string]any{"callId": r.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	waitCallState(ctx, t, "a party on node 2", on2b, r.CallID, "ended", 0)
}

// The call's node dies: a terminal on node 1 (a child process) is in a call with the dispatcher on node 2; node 1 is
// killed and node 2 ends the call for its dispatcher with 101 (offline) once the relay link is gone — the call's
// node cannot say so any more.
func TestCallEndsForThePartyWhenTheCallsNodeDies(t *testing.T) {
	ctx, con, f := callWithADyingNode(t, "n2", "n1", false)
	// its node holds no leg of the dead call: the dispatcher is free for a new call
	if err := con.Call(ctx, "call.invite", map[string]any{"kind": "single", "msId": f.Terminals[0]}, nil); termclient.Code(err) != "101" {
		t.Fatalf("calling the terminal of the dead node: %v, want 101 (offline)", err)
	}
}

// callWithADyingNode connects an individual call between the dispatcher, on node conNode in this process, and a
// terminal on node termNode, a child process (the dispatcher calls when dispatcherCalls, else the terminal; the
// call lives on the caller's node). Then it SIGKILLs the child and waits for the console's side of the call to
// end with 101 (offline). It returns a context for the test's further checks, the console and the fleet.
func callWithADyingNode(t *testing.T, conNode, termNode string, dispatcherCalls bool) (context.Context, *termclient.Client, testkit.Fleet) {
	c := newCluster(t)
	n := c.node(conNode)
	p := c.child(termNode, "--media-interfaces", "lo")
	f := testkit.NewFleet(t, n.DB, "1", 1, 1)
	con := dialConsole(t, n, f.Dispatcher, f.Customer)
	term := dialTerminal(t, p.URL, f.Terminals[0])
	linkedWith(t, []string{termNode}, n)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	t.Cleanup(cancel)

	var callID string
	if dispatcherCalls {
		callID = connectCall(ctx, t, con, term, f.Terminals[0])
	} else {
		callID = connectCall(ctx, t, term, con, f.Dispatcher)
	}
	p.Kill(t)
	killed := time.Now()
	waitCallState(ctx, t, "the console", con, callID, "ended", 101)
	t.Logf("the console's call ended %v after the node of the terminal was killed (node timeout %v)", time.Since(killed), nodeTimeout)
	return ctx, con, f
}
