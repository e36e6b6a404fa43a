package cluster_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// numbered are n valid 20 ms Opus packets (the TOC of SilentPacket), each carrying its index.
func numbered(n int) [][]byte { return numberedFrom(0, n) }

// numberedFrom are n numbered packets whose indexes start at from: a second talk a listener tells apart from
// the first by index, however late the first one's last packets arrive.
func numberedFrom(from, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte{0xf8, byte((from + i) >> 8), byte(from + i), 0xfe}
	}
	return out
}

func indexOf(p termclient.Packet) int {
	if len(p.Payload) != 4 || p.Payload[0] != 0xf8 {
		return -1
	}
	return int(p.Payload[1])<<8 | int(p.Payload[2])
}

// linked waits until every node has a media relay carrying media to every other.
func linked(t *testing.T, nodes ...*testkit.Server) {
	t.Helper()
	linkedWith(t, nil, nodes...)
}

// linkedWith is linked, each node also linked to the nodes of child processes (by node id: a child has no
// Server to ask).
func linkedWith(t *testing.T, children []string, nodes ...*testkit.Server) {
	t.Helper()
	testkit.Eventually(t, 10*time.Second, "media relays between every pair of nodes", func() bool {
		for _, n := range nodes {
			links := n.MediaRelay.Links()
			if len(links) < len(nodes)-1+len(children) {
				return false
			}
			for _, c := range children {
				if !slices.Contains(links, c) {
					return false
				}
			}
		}
		return true
	})
}

// checkStream checks that what a listener got is the talker's packets from index from on, in order, none twice,
// with sequence numbers that continue by one.
func checkStream(t *testing.T, who string, got []termclient.Packet, from, sent int) {
	t.Helper()
	want := from
	for i, p := range got {
		idx := indexOf(p)
		if idx < from || idx >= sent {
			t.Fatalf("%s: packet %d carries %v, not one the talker sent", who, i, p.Payload)
		}
		if idx < want {
			t.Fatalf("%s: packet %d is index %d again or out of order (expected ≥ %d)", who, i, idx, want)
		}
		want = idx + 1
		if i > 0 && p.Seq != got[i-1].Seq+uint16(idx-indexOf(got[i-1])) {
			t.Fatalf("%s: sequence numbers do not follow the talker's: %d after %d", who, p.Seq, got[i-1].Seq)
		}
	}
}

// A terminal on node 3 talks in its group: a terminal of the group on node 2 hears its packets through node 3's
// relay, byte for byte and in order; node 3 records the burst once. A terminal that logs in on node 1 in the
// middle of a burst hears the rest of it.
func TestTalkerOnNode3IsHeardOnNode2AndByALateEntrantOnNode1(t *testing.T) {
	c := newCluster(t)
	n1, n2, n3 := c.node("n1"), c.node("n2"), c.node("n3")
	f := testkit.NewFleet(t, n1.DB, "1", 3, 1)
	gid := strconv.FormatInt(f.Groups[0], 10)
	talker := dialTerminal(t, n3.URL, f.Terminals[0])
	listener := dialTerminal(t, n2.URL, f.Terminals[1])
	linked(t, n1, n2, n3)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	const sent = 50
	r, err := talker.Talk(ctx, "", gid, numbered(sent), 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	got, err := listener.WaitPackets(ctx, sent-2)
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, "node 2's listener", got, 0, sent)
	t.Logf("node 2 heard %d of %d packets of node 3's talker (call %s)", len(got), sent, r.CallID)
	if n := n2.Voice.UpstreamPackets(f.Terminals[0]); n != 0 {
		t.Fatalf("node 2 got %d packets from the talker's own connection", n)
	}
	// one call record, on the talker's node: node 2 records nothing of it
	testkit.Eventually(t, 5*time.Second, "node 3 indexed the recording", func() bool {
		var n int
		_ = n3.DB.QueryRow(ctx, `SELECT COUNT(*) FROM voice_records WHERE call_id = ?`, r.CallID).Scan(&n)
		return n == 1
	})

	// A late entrant: a burst of 3 s starts; 1 s in, a terminal of the group logs in on node 1 and hears the rest.
	const long = 150
	before := listener.ReceivedCount()
	done := make(chan error, 1)
	go func() {
		_, err := talker.Talk(ctx, "", gid, numbered(long), 20*time.Millisecond)
		done <- err
	}()
	if _, err := listener.WaitPackets(ctx, before+30); err != nil {
		t.Fatal(err)
	}
	late := dialTerminal(t, n1.URL, f.Terminals[2])
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 2*time.Second, "the late entrant heard the end of the burst", func() bool {
		rec := late.Received()
		return len(rec) > 0 && indexOf(rec[len(rec)-1]) >= long-3
	})
	rec := late.Received()
	first := indexOf(rec[0])
	checkStream(t, "node 1's late entrant", rec, first, long)
	if first < 30 || len(rec) < long-first-5 {
		t.Fatalf("the late entrant heard %d packets from index %d on: not the burst in progress", len(rec), first)
	}
	t.Logf("the late entrant on node 1 joined at packet %d of %d and heard %d", first, long, len(rec))
	testkit.Eventually(t, 2*time.Second, "node 1 and 2 stop hearing once the burst is over", func() bool {
		return n1.Voice.RemoteListening() == 0 && n2.Voice.RemoteListening() == 0
	})
}

// threeNodes is a group with a terminal on each of three nodes: nodes 1 and 3 in this process, node 2 a child
// process (SIGKILL-able), the media relays linked.
type threeNodes struct {
	ctx           context.Context // the test's bound
	n1, n3        *testkit.Server
	p2            *testkit.Process
	gid           string
	on1, on2, on3 *termclient.Client // the group's terminals on nodes 1, 2 and 3
}

// groupOnThreeNodes starts threeNodes, node 2 with the flags child, for a test of at most within.
func groupOnThreeNodes(t *testing.T, within time.Duration, child ...string) threeNodes {
	c := newCluster(t)
	g := threeNodes{n1: c.node("n1"), n3: c.node("n3"), p2: c.child("n2", child...)}
	f := testkit.NewFleet(t, g.n1.DB, "1", 3, 1)
	g.gid = strconv.FormatInt(f.Groups[0], 10)
	g.on1 = dialTerminal(t, g.n1.URL, f.Terminals[0])
	g.on2 = dialTerminal(t, g.p2.URL, f.Terminals[1])
	g.on3 = dialTerminal(t, g.n3.URL, f.Terminals[2])
	linkedWith(t, []string{"n2"}, g.n1, g.n3)
	ctx, cancel := context.WithTimeout(context.Background(), within)
	t.Cleanup(cancel)
	g.ctx = ctx
	return g
}

// Node 2, with a listener, is killed (SIGKILL) in the middle of a burst of node 3's talker: node 1's listener
// keeps hearing it without a gap, and a new burst after node 2 is gone is heard on node 1 again.
func TestNodeWithListenersDyingDoesNotDisturbTheOthers(t *testing.T) {
	g := groupOnThreeNodes(t, 30*time.Second, "--media-interfaces", "lo")
	ctx, n3, p2, gid, talker, on1, on2 := g.ctx, g.n3, g.p2, g.gid, g.on3, g.on1, g.on2

	const sent = 150
	done := make(chan error, 1)
	go func() {
		_, err := talker.Talk(ctx, "", gid, numbered(sent), 20*time.Millisecond)
		done <- err
	}()
	if _, err := on2.WaitPackets(ctx, 20); err != nil {
		t.Fatal(err)
	}
	p2.Kill(t)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got, err := on1.WaitPackets(ctx, sent-2)
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, "node 1's listener", got, 0, sent)
	var gap time.Duration
	for i := 1; i < len(got); i++ {
		gap = max(gap, got[i].At.Sub(got[i-1].At))
	}
	if gap > 250*time.Millisecond {
		t.Fatalf("node 1's listener had a gap of %v while node 2 died", gap)
	}
	t.Logf("node 1 heard %d of %d packets, largest gap %v, while node 2 was killed", len(got), sent, gap)

	// node 2's link is dropped once it is counted dead; the next burst still reaches node 1
	testkit.Eventually(t, nodeTimeout+5*time.Second, "node 3 drops its link to the dead node", func() bool {
		return !slices.Contains(n3.MediaRelay.Links(), "n2")
	})
	before := on1.ReceivedCount()
	if _, err := talker.Talk(ctx, "", gid, numbered(25), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := on1.WaitPackets(ctx, before+23); err != nil {
		t.Fatal(err)
	}
}

// The talker's node (node 2) is killed in the middle of a burst: node 1's listener hears silence, the group's floor
// is free again once the lease expired, and the burst a talker on node 3 then starts reaches node 1's listener —
// the dead node's burst does not keep it (a new burst in a group replaces another node's older one at once).
func TestTalkerNodeDyingMidBurst(t *testing.T) {
	// node 2's key outlives the test's 5 s bound
	g := groupOnThreeNodes(t, 40*time.Second, "--node-timeout", "10s", "--media-interfaces", "lo")
	ctx, n1, p2, gid, doomed, listener, next := g.ctx, g.n1, g.p2, g.gid, g.on2, g.on1, g.on3
	if _, err := doomed.RequestFloor(ctx, "", gid, false); err != nil {
		t.Fatal(err)
	}
	go func() { _ = doomed.Send(ctx, numbered(500), 20*time.Millisecond) }()
	if _, err := listener.WaitPackets(ctx, 20); err != nil {
		t.Fatal(err)
	}
	p2.Kill(t)
	killed := time.Now()
	var r termclient.FloorReply
	testkit.Eventually(t, 5*time.Second, "node 3's talker gets the floor of the dead node's group", func() bool {
		var err error
		r, err = next.RequestFloor(ctx, "", gid, false)
		return err == nil
	})
	granted := time.Now()
	before := listener.ReceivedCount()
	go func() { _ = next.Send(ctx, numbered(100), 20*time.Millisecond) }()
	got, err := listener.WaitPackets(ctx, before+20)
	if err != nil {
		t.Fatal(err)
	}
	heard := got[before].At
	stillLinked := slices.Contains(n1.MediaRelay.Links(), "n2")
	t.Logf("floor granted on node 3 %v after node 2's kill; node 1 heard the new talker %v after the grant (its link to the dead node still up: %v)",
		granted.Sub(killed), heard.Sub(granted), stillLinked)
	// it hears the new talker before node 2's link could have been given up (ICE: 5 s without a packet)
	if heard.Sub(killed) > 4*time.Second {
		t.Fatalf("node 1's listener heard the new talker only %v after node 2 died", heard.Sub(killed))
	}
	_ = next.ReleaseFloor(ctx, r.CallID)
}

// A dispatcher's console on node 1 hears a group it monitors whose talker is on node 3 — and does not hear it
// before it monitors it: the receiving node applies its own playback rules (audience, monitoring) to relayed bursts.
func TestConsoleOnAnotherNodeHearsAMonitoredGroup(t *testing.T) {
	c := newCluster(t)
	n1, n3 := c.node("n1"), c.node("n3")
	f := testkit.NewFleet(t, n1.DB, "1", 0, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	g2 := testkit.Group(t, n1.DB, f.Customer, "Yard")
	gid := strconv.FormatInt(g2, 10)
	testkit.Provision(t, n1.DB, f.Customer, "10000201", "10", g2)
	talker := dialTerminal(t, n3.URL, "10000201")
	con := dialConsole(t, n1, f.Dispatcher, f.Customer)
	linked(t, n1, n3)

	if _, err := talker.Talk(ctx, "", gid, numbered(25), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 5*time.Second, "node 1's lanes received the burst", func() bool {
		return n1.MediaRelay.InPackets()["n3"] >= 25-2
	})
	if n := con.ReceivedCount(); n != 0 {
		t.Fatalf("the console heard %d packets of a group it neither belongs to nor monitors", n)
	}
	if err := con.Call(ctx, "monitor.start", map[string]any{"gid": gid}, nil); err != nil {
		t.Fatal(err)
	}
	const sent = 40
	if _, err := talker.Talk(ctx, "", gid, numbered(sent), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	got, err := con.WaitPackets(ctx, sent-2)
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, "the monitoring console on node 1", got, 0, sent)
}

// A dispatcher on node 1 monitors a terminal on node 3: node 3 asks the terminal to open its microphone and relays
// it to node 1, where only the dispatcher hears it; the dispatcher stopping closes the terminal's microphone; the
// terminal leaving ends the monitoring on the dispatcher's console (monitor.ended), as on one node.
func TestTerminalMonitoringAcrossNodes(t *testing.T) {
	c := newCluster(t)
	n1, n3 := c.node("n1"), c.node("n3")
	f := testkit.NewFleet(t, n1.DB, "1", 2, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	target := dialTerminal(t, n3.URL, f.Terminals[0])
	bystander := dialTerminal(t, n1.URL, f.Terminals[1]) // of the same group, on the dispatcher's node
	con := dialConsole(t, n1, f.Dispatcher, f.Customer)
	linked(t, n1, n3)

	var st struct{ Terminal string }
	if err := con.Call(ctx, "monitor.start", map[string]any{"msId": f.Terminals[0]}, &st); err != nil {
		t.Fatal(err)
	}
	if st.Terminal != f.Terminals[0] {
		t.Fatalf("monitor state %+v", st)
	}
	if _, err := target.WaitEvent(ctx, "request:monitor.start", nil); err != nil { // asked by its own node
		t.Fatal(err)
	}
	const sent = 30
	if err := target.Send(ctx, numbered(sent), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	got, err := con.WaitPackets(ctx, sent-2)
	if err != nil { // where the packets stopped: on node 3's lanes to node 1, or on node 1
		t.Fatalf("%v; node 1 links %v, its lanes received %v; node 3 links %v", err, n1.MediaRelay.Links(),
			n1.MediaRelay.InPackets(), n3.MediaRelay.Links())
	}
	checkStream(t, "the dispatcher on node 1", got, 0, sent)
	if n := bystander.ReceivedCount(); n != 0 {
		t.Fatalf("a terminal of the group heard %d packets of the monitored microphone", n)
	}
	// a second monitoring of the same terminal is refused as on one node
	if err := con.Call(ctx, "monitor.start", map[string]any{"msId": f.Terminals[0]}, nil); termclient.Code(err) == "" {
		t.Fatal("monitored twice")
	}

	if err := con.Call(ctx, "monitor.stop", map[string]any{"msId": f.Terminals[0]}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := target.WaitEvent(ctx, "monitor.stop", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := con.WaitEvent(ctx, "monitor.ended", nil); err != nil { // as on one node, a stop is told too
		t.Fatal(err)
	}
	before := con.ReceivedCount()
	if err := target.Send(ctx, numbered(10), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if n := con.ReceivedCount(); n != before {
		t.Fatalf("the dispatcher still heard %d packets after it stopped", n-before)
	}

	// again, and the terminal leaves: the dispatcher's console is told
	if err := con.Call(ctx, "monitor.start", map[string]any{"msId": f.Terminals[0]}, nil); err != nil {
		t.Fatal(err)
	}
	target.Close()
	if _, err := con.WaitEvent(ctx, "monitor.ended", func(e termclient.Event) bool {
		return strings.Contains(string(e.Data), f.Terminals[0])
	}); err != nil {
		t.Fatal(err)
	}
	if err := con.Call(ctx, "monitor.start", map[string]any{"msId": f.Terminals[0]}, nil); termclient.Code(err) != "101" {
		t.Fatalf("monitoring a terminal that left: %v, want code 101 (offline)", err)
	}
}
