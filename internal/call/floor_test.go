package call_test

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// groupWorld: group G with terminals T1..T3 and dispatcher D (whose ptt group is G), all connected.
type groupWorld struct {
	*world
	gid        string
	t1, t2, t3 *termclient.Client
	d          *termclient.Client
}

func newGroupWorld(t *testing.T, opts ...func(*config.Config)) *groupWorld {
	w := newWorld(t, opts...)
	g := &groupWorld{world: w, gid: w.group("Patrol")}
	for _, id := range []string{"10001001", "10001002", "10001003"} {
		w.account(id, "10", g.gid)
	}
	w.account("10009001", "20", g.gid)
	g.t1, g.t2, g.t3 = w.term("10001001"), w.term("10001002"), w.term("10001003")
	g.d = w.console("10009001")
	return g
}

func TestGroupTalkReachesEveryMember(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	r, err := g.t1.Talk(ctx, "", "", termclient.Silence(50), 2*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "granted" || r.CallID == "" || r.MaxTalkMs != 60000 {
		t.Fatalf("grant %+v", r)
	}
	for name, c := range map[string]*termclient.Client{"T2": g.t2, "T3": g.t3, "D": g.d} {
		pkts, err := c.WaitPackets(ctx, 50)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		testkit.WantContinuous(t, pkts)
	}
	if n := count(g.t1); n != 0 {
		t.Fatalf("the talker heard itself: %d packets", n)
	}
	// Everyone in the group and every console saw who talked.
	for _, c := range []*termclient.Client{g.t2, g.d} {
		event(t, ctx, c, "floor.state", func(m map[string]any) bool {
			tk, _ := m["talker"].(map[string]any)
			return tk != nil && tk["msId"] == "10001001" && m["gid"] == g.gid
		})
	}
	st := event(t, ctx, g.d, "floor.stats", nil)
	if st["msId"] != "10001001" || st["packets"].(float64) != 50 || st["grantToFirstUs"].(float64) <= 0 {
		t.Fatalf("burst stats %v", st)
	}
	g.waitLog(2)
	// The latency histograms are exported.
	res, body := g.get("/metrics", "", map[string]string{"Authorization": "Bearer " + testkit.MetricsToken})
	for _, m := range []string{"tenfour_voice_press_to_grant_seconds_count", "tenfour_voice_grant_to_first_packet_seconds_count",
		"tenfour_voice_forward_delay_seconds_count"} {
		if res.StatusCode != 200 || !regexp.MustCompile(`(?m)^`+m+` [1-9]`).Match(body) {
			t.Fatalf("metric %s missing or zero", m)
		}
	}
}

func TestSecondTalkerDeniedOrQueued(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	r1, err := g.t1.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.t2.RequestFloor(ctx, "", "", false); termclient.Code(err) != "486" {
		t.Fatalf("second talker: %v, want 486", err)
	}
	r2, err := g.t2.RequestFloor(ctx, "", "", true)
	if err != nil || r2.Status != "queued" || r2.Position != 1 || r2.CallID != r1.CallID {
		t.Fatalf("queued request: %+v %v", r2, err)
	}
	r3, err := g.t3.RequestFloor(ctx, r1.CallID, "", true)
	if err != nil || r3.Position != 2 {
		t.Fatalf("third in line: %+v %v", r3, err)
	}
	if err := g.t1.ReleaseFloor(ctx, r1.CallID); err != nil {
		t.Fatal(err)
	}
	event(t, ctx, g.t2, "floor.granted", func(m map[string]any) bool { return m["callId"] == r1.CallID })
	if err := g.t2.Send(ctx, termclient.Silence(20), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := g.t1.WaitPackets(ctx, 20); err != nil {
		t.Fatal(err)
	}
	// T3 leaves the queue; T2's release leaves the floor free.
	if err := g.t3.ReleaseFloor(ctx, r1.CallID); err != nil {
		t.Fatal(err)
	}
	if err := g.t2.ReleaseFloor(ctx, r1.CallID); err != nil {
		t.Fatal(err)
	}
	event(t, ctx, g.d, "floor.state", func(m map[string]any) bool {
		q, _ := m["queue"].([]any)
		return m["talker"] == nil && len(q) == 0
	})
}

func TestDispatcherPreemptsTerminal(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	r, err := g.t1.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.t1.Send(ctx, termclient.Silence(10), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := g.t2.WaitPackets(ctx, 10); err != nil {
		t.Fatal(err)
	}
	// The dispatcher talks to the group by gid; the terminal loses the floor.
	dr, err := g.d.RequestFloor(ctx, "", g.gid, false)
	if err != nil || dr.Status != "granted" || dr.CallID != r.CallID {
		t.Fatalf("dispatcher: %+v %v", dr, err)
	}
	rev := event(t, ctx, g.t1, "floor.revoked", nil)
	if rev["code"] != "preempted" || rev["by"] != "10009001" {
		t.Fatalf("revoked %v", rev)
	}
	// The pre-empted terminal's packets go nowhere; the dispatcher's reach the group.
	if err := g.t1.Send(ctx, termclient.Silence(10), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := g.d.Send(ctx, termclient.Silence(15), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	pkts, err := g.t2.WaitPackets(ctx, 25)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WantContinuous(t, pkts)
	if _, err := g.t1.WaitPackets(ctx, 15); err != nil {
		t.Fatal(err)
	}
	// A terminal cannot pre-empt the dispatcher.
	if _, err := g.t3.RequestFloor(ctx, "", "", false); termclient.Code(err) != "486" {
		t.Fatalf("terminal over dispatcher: %v", err)
	}
	if got := count(g.t2); got != 25 {
		t.Fatalf("T2 received %d packets, want 10 from T1 and 15 from D", got)
	}
}

func TestTalkerSwitchKeepsEveryPacketInSequence(t *testing.T) {
	// The release tail is lengthened: on a loaded machine (-race, CI) a released talker's last packet can reach
	// the server more than the default 250 ms after its release, and this test is about order across switches,
	// not about how long the tail lasts.
	g := newGroupWorld(t, func(c *config.Config) { c.Voice.ReleaseTail = 5 * time.Second })
	ctx := g.Ctx()
	// T1 releases right after its last packet; T2 starts at once. Nothing may be lost on the way.
	for round := range 3 {
		for _, c := range []*termclient.Client{g.t1, g.t2} {
			if _, err := c.Talk(ctx, "", "", termclient.Silence(30), time.Millisecond); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
	for _, c := range []*termclient.Client{g.t3, g.d} {
		pkts, err := c.WaitPackets(ctx, 180)
		if err != nil {
			t.Fatal(err)
		}
		testkit.WantContinuous(t, pkts)
		marks := 0
		for _, p := range pkts {
			if p.Marker {
				marks++
			}
		}
		if marks != 6 {
			t.Fatalf("%d talkspurt marks, want 6", marks)
		}
	}
}

func TestMutedTalkerNotDelivered(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	tok := g.token("10009001")
	// T3 does not hear T1; the dispatcher does not hear T2.
	for _, m := range [][2]string{{"10001003", "10001001"}, {"10009001", "10001002"}} {
		if r := g.Do(http.MethodPost, "/ds/mute/add", tok, map[string]any{"msId": m[0], "muteId": m[1]}); r.Code != "0" {
			t.Fatalf("mute add: %+v", r)
		}
	}
	var list struct {
		List []map[string]string `json:"list"`
	}
	g.Do(http.MethodGet, "/ds/mute/list", tok, nil).Into(t, &list)
	if len(list.List) != 2 || list.List[0]["muteId"] != "10001001" || list.List[0]["muteName"] != "Name 10001001" {
		t.Fatalf("mute list %+v", list)
	}
	if _, err := g.t1.Talk(ctx, "", "", tagged(20, '1'), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	hear(t, ctx, 20, g.t2, g.d)
	if _, err := g.t2.Talk(ctx, "", "", tagged(20, '2'), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := g.t1.WaitPackets(ctx, 20); err != nil {
		t.Fatal(err)
	}
	// T3 got T2 but none of T1; the dispatcher got T1 but none of T2 (T2's came after T1's, so T1's would be
	// first in line had they been delivered).
	pkts, err := g.t3.WaitPackets(ctx, 20)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(tags(pkts)); got != strings.Repeat("2", 20) {
		t.Fatalf("T3 heard %q; the muted talker's packets must not arrive", got)
	}
	if got := string(tags(g.d.Received())); got != strings.Repeat("1", 20) {
		t.Fatalf("D heard %q; the muted talker's packets must not arrive", got)
	}
	// Unmuting applies at once.
	if r := g.Do(http.MethodDelete, "/ds/mute/delete", tok, map[string]any{"msId": "10001003", "muteId": "10001001"}); r.Code != "0" {
		t.Fatalf("mute delete: %+v", r)
	}
	if _, err := g.t1.Talk(ctx, "", "", termclient.Silence(5), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := g.t3.WaitPackets(ctx, 25); err != nil {
		t.Fatal(err)
	}
	// Tenancy and validation.
	if r := g.Do(http.MethodPost, "/ds/mute/add", tok, map[string]any{"msId": "10001003", "muteId": "10001003"}); r.Code != "400" {
		t.Fatalf("self mute: %+v", r)
	}
	if r := g.Do(http.MethodPost, "/ds/mute/add", tok, map[string]any{"msId": "10001003", "muteId": "nobody"}); r.Code != "404" {
		t.Fatalf("unknown account: %+v", r)
	}
}

func TestKilledTerminalCannotTalkNorHear(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	// What terminal management (internal/terminalctl) does on call.set: store the status, then tell the floor.
	callSet := func(status int, ids ...string) {
		for _, id := range ids {
			g.SetCallSet(id, status)
			g.voice().CallSetStatusChanged(g.Customer, id, status)
		}
	}
	callSet(0, "10001001")
	if _, err := g.t1.RequestFloor(ctx, "", "", false); termclient.Code(err) != "606" {
		t.Fatalf("killed talker: %v, want 606", err)
	}
	callSet(1, "10001003") // stunned
	if _, err := g.t3.RequestFloor(ctx, "", "", false); termclient.Code(err) != "606" {
		t.Fatalf("stunned talker: %v, want 606", err)
	}
	// The killed and the stunned terminal hear nothing of T2; the dispatcher does.
	if _, err := g.t2.Talk(ctx, "", "", termclient.Silence(20), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := g.d.WaitPackets(ctx, 20); err != nil {
		t.Fatal(err)
	}
	// Revived: it talks and hears again.
	callSet(8, "10001001", "10001003")
	if _, err := g.t1.Talk(ctx, "", "", termclient.Silence(10), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := g.t3.WaitPackets(ctx, 10); err != nil {
		t.Fatal(err)
	}
	if n := count(g.t3); n != 10 {
		t.Fatalf("the stunned terminal received %d packets while stunned", n-10)
	}
	if n := count(g.t1); n != 0 {
		t.Fatalf("the killed terminal received %d packets", n)
	}
}

func TestKillWhileTalkingRevokes(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	if _, err := g.t1.RequestFloor(ctx, "", "", false); err != nil {
		t.Fatal(err)
	}
	g.SetCallSet("10001001", 0)
	g.voice().CallSetStatusChanged(g.Customer, "10001001", 0)
	if ev := event(t, ctx, g.t1, "floor.revoked", nil); ev["code"] != "606" {
		t.Fatalf("revoked %v", ev)
	}
	if _, err := g.t2.RequestFloor(ctx, "", "", false); err != nil {
		t.Fatalf("the floor is free again: %v", err)
	}
}

func TestMaxTalkTimeRevokes(t *testing.T) {
	g := newGroupWorld(t, func(c *config.Config) { c.Voice.MaxTalkTime = 300 * time.Millisecond })
	ctx := g.Ctx()
	r, err := g.t1.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if r.MaxTalkMs != 300 {
		t.Fatalf("maxTalkMs %d", r.MaxTalkMs)
	}
	if ev := event(t, ctx, g.t1, "floor.revoked", nil); ev["code"] != "418" || ev["callId"] != r.CallID {
		t.Fatalf("revoked %v", ev)
	}
	if _, err := g.t2.RequestFloor(ctx, "", "", false); err != nil {
		t.Fatalf("the floor is free again: %v", err)
	}
}

func TestEmergencyPreemptsDispatcher(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	if _, err := g.d.RequestFloor(ctx, "", g.gid, false); err != nil {
		t.Fatal(err)
	}
	if _, err := g.t1.RequestFloor(ctx, "", "", false); termclient.Code(err) != "486" {
		t.Fatalf("terminal over dispatcher: %v", err)
	}
	g.voice().SetEmergency("10001001", true)
	if _, err := g.t1.RequestFloor(ctx, "", "", false); err != nil {
		t.Fatalf("emergency talker: %v", err)
	}
	event(t, ctx, g.d, "floor.revoked", nil)
	st := event(t, ctx, g.t2, "floor.state", func(m map[string]any) bool { return m["emergency"] == true })
	if st["talker"].(map[string]any)["msId"] != "10001001" {
		t.Fatalf("floor %v", st)
	}
}

func TestFloorNeedsMembershipAndMedia(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	g1, g2 := w.group("One"), w.group("Two")
	w.account("10001001", "10", g1)
	w.account("10001002", "10", g2)
	t1 := w.term("10001001")
	if _, err := t1.RequestFloor(ctx, "", g2, false); termclient.Code(err) != "107" {
		t.Fatalf("foreign group: %v, want 107", err)
	}
	if _, err := t1.RequestFloor(ctx, "", "999999", false); termclient.Code(err) != "404" {
		t.Fatalf("unknown group: %v, want 404", err)
	}
	// Without a PeerConnection there is no microphone to give the floor to.
	bare, err := termclient.Dial(ctx, termclient.Options{URL: w.URL, UID: "10001002", Password: testkit.Password})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	if _, err := bare.RequestFloor(ctx, "", "", false); termclient.Code(err) != "502" {
		t.Fatalf("no media: %v, want 502", err)
	}
	// The refused press left no call behind (issue 14 L4: a "connected" group call that never hung up).
	if calls := w.voice().Calls(w.Customer, "", true); len(calls) != 0 {
		t.Fatalf("a refused press left calls %+v", calls)
	}
	if n := w.logTypes()[2]; n != 0 {
		t.Fatalf("a refused press logged %d call starts", n)
	}
	// Another customer's group is unknown.
	other := w.NewCustomer("other")
	og := strconv.FormatInt(w.GroupIn(other, "Theirs"), 10)
	if _, err := t1.RequestFloor(ctx, "", og, false); termclient.Code(err) != "404" {
		t.Fatalf("other customer's group: %v, want 404", err)
	}
}

func TestDispatcherHearsRepliesToItsGroupCall(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	gid := w.group("Patrol")
	w.account("10001001", "10", gid)
	w.account("10009001", "20", "") // not a member, not monitoring
	t1, d := w.term("10001001"), w.console("10009001")
	if _, err := t1.Talk(ctx, "", "", termclient.Silence(5), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	// Not part of the group's call yet: the dispatcher hears nothing; it talks into the group, then hears the reply.
	if _, err := d.Talk(ctx, "", gid, termclient.Silence(5), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := t1.WaitPackets(ctx, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := t1.Talk(ctx, "", "", tagged(5, 'r'), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	pkts, err := d.WaitPackets(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(tags(pkts)); got != "rrrrr" {
		t.Fatalf("dispatcher heard %q, want only the reply", got)
	}
}

// A dispatcher's remote kill (call.set over the socket, acknowledged by the terminal) takes the floor from a
// talking terminal at once, not at its next request.
func TestRemoteKillThroughCallSetRevokes(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	if _, err := g.t1.RequestFloor(ctx, "", "", false); err != nil {
		t.Fatal(err)
	}
	if err := g.d.Call(ctx, "call.set", map[string]any{"msId": "10001001", "status": 0}, nil); err != nil {
		t.Fatalf("call.set: %v", err)
	}
	if ev := event(t, ctx, g.t1, "floor.revoked", nil); ev["code"] != "606" {
		t.Fatalf("revoked %v", ev)
	}
	if _, err := g.t1.RequestFloor(ctx, "", "", false); err == nil {
		t.Fatal("a killed terminal got the floor")
	}
}

// A press right after a group switch talks in the new group: the account the floor keeps between presses is
// re-read after the directory's event, and a press without one costs no store read.
func TestPressAfterGroupSwitchTalksInTheNewGroup(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	ga, gb := w.group("Alpha"), w.group("Bravo")
	w.account("10001001", "10", ga, gb)
	w.account("10001002", "10", gb)
	tk := w.term("10001001")
	w.term("10001002")
	ra, err := tk.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tk.ReleaseFloor(ctx, ra.CallID); err != nil {
		t.Fatal(err)
	}
	if err := tk.Call(ctx, "group.switch", map[string]any{"gid": gb}, nil); err != nil {
		t.Fatal(err)
	}
	rb, err := tk.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if rb.CallID == ra.CallID {
		t.Fatalf("the press after switching to Bravo went to Alpha's call %s", ra.CallID)
	}
	var gid string
	for _, c := range w.voice().Calls(w.Customer, "10001001", false) {
		if c.CallID == rb.CallID {
			gid = c.GID
		}
	}
	if gid != gb {
		t.Fatalf("call %s is in group %q, want Bravo %s", rb.CallID, gid, gb)
	}
}

// A group's open call keeps its audience between presses only until the directory changes: a terminal added to
// the group while the call is open may take the floor at once, and one removed from it may not.
func TestGroupCallAudienceFollowsMembership(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	ga, _, t1, t2 := w.alphaBravo()
	tok := w.token("10009001")
	r1, err := t1.RequestFloor(ctx, "", ga, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := t1.ReleaseFloor(ctx, r1.CallID); err != nil {
		t.Fatal(err)
	}
	if _, err := t2.RequestFloor(ctx, "", ga, false); termclient.Code(err) == "0" || err == nil {
		t.Fatal("a terminal outside Alpha took Alpha's floor")
	}
	if r := w.Do(http.MethodPost, "/ds/nms/saveGroupMs", tok, map[string]any{"msId": "10002001", "groupId": ga, "keepOldGrp": "1"}); r.Code != "0" {
		t.Fatalf("add to Alpha: %+v", r)
	}
	r2, err := t2.RequestFloor(ctx, "", ga, false)
	if err != nil || r2.CallID != r1.CallID {
		t.Fatalf("the new member's press: %+v %v (Alpha's open call %s)", r2, err, r1.CallID)
	}
	if err := t2.ReleaseFloor(ctx, r2.CallID); err != nil {
		t.Fatal(err)
	}
	if r := w.Do(http.MethodPost, "/ds/nms/removeGroupMs", tok, map[string]any{"msId": "10001001", "groupId": ga}); r.Code != "0" {
		t.Fatalf("remove from Alpha: %+v", r)
	}
	if _, err := t1.RequestFloor(ctx, "", ga, false); err == nil {
		t.Fatal("a terminal removed from Alpha still took its floor")
	}
}

// A client that offers from a new RTCPeerConnection without closing its old one first (issue 32: a console
// reconnecting its voice sends its offer straight away) gets a new peer at once — the old one cannot renegotiate
// DTLS with a new certificate — and its media flows on the new connection.
func TestOfferFromANewConnectionReplacesThePeer(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	w.account("10009001", "20", "")
	con := w.console("10009001")
	old := con.Media
	if err := con.Connect(ctx); err != nil {
		t.Fatalf("a second offer without rtc.close: %v", err)
	}
	defer old.Close()
	before := w.voice().UpstreamPackets("10009001")
	if err := con.Send(ctx, tagged(25, 'p'), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 5*time.Second, "the new connection's packets reach the server", func() bool {
		return w.voice().UpstreamPackets("10009001") >= before+25
	})
}

// stalledDecide is a cluster's floor leases (every Take yes, every lease live) whose first Decided waits for the
// test: the press it follows is granted and not yet answered, as a press on a node slow to NATS waits for the
// lease lock after its grant.
type stalledDecide struct {
	once     sync.Once
	deciding chan struct{} // closed when the first Decided is reached
	goOn     chan struct{} // closed by the test to let it return
}

func (l *stalledDecide) Take(context.Context, int64, int, time.Time) bool { return true }
func (l *stalledDecide) Decided(int64)                                    { l.once.Do(func() { close(l.deciding); <-l.goOn }) }
func (l *stalledDecide) Live(int64) bool                                  { return true }
func (l *stalledDecide) Release(int64)                                    {}
func (l *stalledDecide) Outranked(int64, int, int64) bool                 { return false }
func (l *stalledDecide) Advertise(int64, int, time.Time)                  {}
func (l *stalledDecide) Withdraw(int64)                                   {}
func (l *stalledDecide) Asked(int64, int)                                 {}

// A press granted and revoked before it was answered is answered busy, not "granted": the terminal saw the
// revocation first, for a floor it did not know it had, and a "granted" after it would have it talk on a floor
// that is gone (docs/reliability.md finding 9: on the chaos lab's lossy node the lease ran out while the press
// waited for its Decided, and its terminal held the floor, by what it was told, while another talked). Fails on a
// RequestFloor that answers what the floor decided whatever came after.
func TestGrantRevokedBeforeItsAnswerIsAnsweredBusy(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	leases := &stalledDecide{deciding: make(chan struct{}), goOn: make(chan struct{})}
	g.voice().SetFloorLeases(leases)
	replies, err := g.t1.Begin("floor.request", map[string]any{"gid": g.gid})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-leases.deciding:
	case <-time.After(5 * time.Second):
		t.Fatal("the press never reached its Decided")
	}
	gid, _ := strconv.ParseInt(g.gid, 10, 64)
	g.voice().RevokeGroup(gid) // the lease ran out meanwhile (internal/cluster runOut)
	if _, err := g.t1.WaitEvent(ctx, "floor.revoked", nil); err != nil {
		t.Fatal(err)
	}
	close(leases.goOn)
	select {
	case f := <-replies:
		if f.Code != "486" {
			t.Fatalf("the revoked press was answered %s %s, want 486 (busy)", f.Code, f.Data)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no answer to the press")
	}
	// the floor is free for the next talker
	if r, err := g.t2.RequestFloor(ctx, "", g.gid, false); err != nil || r.Status != "granted" {
		t.Fatalf("the next press: %+v %v", r, err)
	}
}
