package cluster_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"tenfour/internal/bench"
	"tenfour/internal/config"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// behindProxy starts node id with its link to NATS through a delay proxy (clean until the test stalls it: a
// partition where nobody is told).
func (c *cluster) behindProxy(id string) (*bench.DelayProxy, *testkit.Server) {
	c.t.Helper()
	link, err := bench.NewDelayProxy(strings.TrimPrefix(c.nats.URL(), "nats://"), 0)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { link.Close() })
	return link, c.node(id, func(cfg *config.Config) { cfg.Cluster.NATS = "nats://" + link.Addr() })
}

// terminalBehindProxy is node n1 with its link to NATS through a delay proxy (behindProxy), and a terminal of a
// one-group fleet logged in there with its media; gid is the group.
func terminalBehindProxy(t *testing.T) (link *bench.DelayProxy, n1 *testkit.Server, gid string, term *termclient.Client) {
	t.Helper()
	link, n1 = newCluster(t).behindProxy("n1")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	return link, n1, strconv.FormatInt(f.Groups[0], 10), dialTerminal(t, n1.URL, f.Terminals[0])
}

// A node cut from NATS without a reset (its link silent, its client not aware yet) must not silence the others'
// heartbeats: docs/reliability.md, finding 4. Every durable event is stored and published under its customer's
// lock until NATS confirms it, so the cut node, whose terminals go on working, holds that lock a whole flush
// timeout (1 s) per event; the survivor sweeping it writes a presence event per account it takes offline, and
// those queue behind. The sweep ran inside the heartbeat's loop: in the chaos lab's "partition n1 from NATS" the
// survivors' beats fell silent for 15–25 s and they swept each other as dead.
func TestNodeCutFromNATSSilencesNoOtherNode(t *testing.T) {
	c := newCluster(t)
	link, n1 := c.behindProxy("n1")
	c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 4, 1)
	for _, ms := range f.Terminals { // held by n1: n2 takes them offline when it sweeps n1
		testkit.Terminal(t, n1.URL, ms, testkit.Password)
	}

	// The survivor's key in the node bucket, as any node reads it: gone when its beats stop for a node timeout.
	beat := bucketKeys(t, c, "tenfour_nodes")
	alive := func() bool {
		_, err := beat("n2")
		return !errors.Is(err, jetstream.ErrKeyNotFound) // a slow read is not an expiry
	}
	testkit.Eventually(t, 5*time.Second, "n2 beating", func() bool { _, err := beat("n2"); return err == nil })

	link.Stall(true)
	defer link.Stall(false)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 { // n1's terminals go on working: durable events, each held by the flush that never comes
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = n1.Hub.PublishDurable(context.Background(), f.Customer, "sos.updated", map[string]any{"id": "x"}, realtime.Consoles)
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	// n1's key expires after the node timeout; n2 sweeps it and takes its terminals offline meanwhile.
	for end := time.Now().Add(3*nodeTimeout + 2*time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if !alive() {
			t.Fatalf("n2's key expired while only n1 was cut from NATS: its heartbeat was held up")
		}
	}
	// and the sweep did run: n2 took n1's accounts (the test exercised what it claims).
	testkit.Eventually(t, 10*time.Second, "n1's presence rows released by n2", func() bool {
		return testkit.Count(t, n1.DB, `SELECT COUNT(*) FROM cluster_presence WHERE node_id = 'n1'`) == 0
	})
}

// A node cut from NATS without a reset, talking in two groups, must revoke both bursts before their keys can expire
// and another node grant the floors: a renewal that never answers gives no error until its timeout, and the
// renewals ran one after another, so the second group's burst went on ~0.9 s after its key had expired (two
// talkers in one group: docs/reliability.md, finding 6). Each lease now runs out on its holder before the bucket's
// TTL, whatever its renewal does.
func TestCutNodeRevokesEveryBurstBeforeItsKeyExpires(t *testing.T) {
	c := newCluster(t)
	link, n1 := c.behindProxy("n1")
	n2 := c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 4, 2) // terminal i in group i mod 2: 0 and 1 on n1, 2 and 3 on n2
	gids := []string{strconv.FormatInt(f.Groups[0], 10), strconv.FormatInt(f.Groups[1], 10)}
	on1 := []*termclient.Client{dialTerminal(t, n1.URL, f.Terminals[0]), dialTerminal(t, n1.URL, f.Terminals[1])}
	on2 := []*termclient.Client{dialTerminal(t, n2.URL, f.Terminals[2]), dialTerminal(t, n2.URL, f.Terminals[3])}
	ctx := context.Background()
	for i, tc := range on1 {
		if _, err := tc.RequestFloor(ctx, "", gids[i], false); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Second) // the leases renewed a few times: n1's own writes, not the first ones

	link.Stall(true)
	defer link.Stall(false)
	stalled := time.Now()
	revoked, granted := make([]time.Time, 2), make([]time.Time, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			wctx, cancel := context.WithTimeout(ctx, 8*time.Second)
			defer cancel()
			if _, err := on1[i].WaitEvent(wctx, "floor.revoked", nil); err != nil {
				t.Errorf("group %d: n1's talker never revoked: %v", i+1, err)
				return
			}
			revoked[i] = time.Now()
		})
		wg.Go(func() {
			for time.Since(stalled) < 8*time.Second {
				if _, err := on2[i].RequestFloor(ctx, "", gids[i], false); err == nil {
					granted[i] = time.Now()
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
			t.Errorf("group %d: n2 never got the floor", i+1)
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for i := range 2 {
		t.Logf("group %d: n1 revoked %v after the cut, n2 granted %v after it", i+1, revoked[i].Sub(stalled), granted[i].Sub(stalled))
		if !revoked[i].Before(granted[i]) {
			t.Errorf("group %d: two talkers — n2 granted the floor %v after the cut, n1 revoked its burst only %v after it",
				i+1, granted[i].Sub(stalled), revoked[i].Sub(stalled))
		}
	}
}

// A node whose NATS answers later than a renewal's interval before the lease would run out grants no press on
// that lease: a chaos run's lossy node was confirmed its key 3.9 s after the press and granted it, after the lease
// had run out, while another node granted the group's floor too.
func TestSlowLeaseConfirmationGrantsNoPress(t *testing.T) {
	link, _, gid, term := terminalBehindProxy(t)
	link.Impair(450*time.Millisecond, 0, 1) // a round trip of 0.9 s: the key's confirmation leaves 0.3 s of lease
	if _, err := term.RequestFloor(context.Background(), "", gid, false); err == nil {
		t.Fatal("granted on a lease confirmed 0.9 s after it was asked for (0.3 s before it runs out)")
	}
	link.Impair(0, 0, 1)
	testkit.Eventually(t, 5*time.Second, "granted once the link is quick again", func() bool {
		_, err := term.RequestFloor(context.Background(), "", gid, false)
		return err == nil
	})
}

// A press and its release cross when the press waits for the group's lease (a slow link to NATS, or a node
// resumed after a pause reading both at once): the release, handled first, found nothing to release, and the
// press was granted after — the terminal, which had let go, held the group's floor untold (docs/reliability.md,
// finding 8). The press is now refused and the floor stays free.
func TestReleaseCrossingItsPressLeavesTheFloorFree(t *testing.T) {
	link, n1, gid, term := terminalBehindProxy(t)
	link.Impair(150*time.Millisecond, 0, 1) // the lease is confirmed 0.3 s after the press: granted, but late
	ctx := context.Background()
	// the press is written first (read first), its lease not confirmed yet when the release follows
	pressed, err := term.Begin("floor.request", map[string]any{"gid": gid})
	if err != nil {
		t.Fatal(err)
	}
	if err := term.ReleaseFloor(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if r := <-pressed; r.Code != "486" {
		t.Fatalf("a press released before it was decided: code %q %s, want refused (486)", r.Code, r.Msg)
	}
	if g, _ := strconv.ParseInt(gid, 10, 64); n1.Voice.GroupTalking(g) {
		t.Fatal("the terminal holds the floor it released")
	}
	link.Impair(0, 0, 1)
	if _, err := term.RequestFloor(ctx, "", gid, false); err != nil {
		t.Fatalf("the next press: %v", err)
	}
}
