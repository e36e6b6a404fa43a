package cluster_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"tenfour/internal/app"
	clusterpkg "tenfour/internal/cluster" // beside the tests' own type cluster
	"tenfour/internal/config"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// nodeTimeout is the tests' --node-timeout: a killed node's terminals go offline within it plus a sweep.
const nodeTimeout = 2 * time.Second

// natsServer is a real NATS server with JetStream, in this process (docs/adr/0024: the tests stop and restart
// it to cut every node off at once).
type natsServer struct {
	t    testing.TB
	port int
	dir  string
	srv  *server.Server
}

func startNATS(t testing.TB) *natsServer {
	t.Helper()
	n := &natsServer{t: t, port: testkit.FreePort(t), dir: t.TempDir()}
	n.start()
	t.Cleanup(n.stop)
	return n
}

func (n *natsServer) start() {
	n.t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: n.port, JetStream: true, StoreDir: n.dir,
		NoSigs: true, NoLog: true})
	if err != nil {
		n.t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		n.t.Fatal("NATS did not start")
	}
	n.srv = s
}

func (n *natsServer) stop() {
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
		n.srv = nil
	}
}

func (n *natsServer) URL() string { return "nats://127.0.0.1:" + strconv.Itoa(n.port) }

// cluster is one PostgreSQL schema and one NATS shared by the nodes of a test.
type cluster struct {
	t     *testing.T
	dsn   string
	nats  *natsServer
	nodes []*testkit.Server // the in-process nodes, in the order started
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	return &cluster{t: t, dsn: testkit.PostgresDSN(t), nats: startNATS(t)}
}

// child starts node id as a real `tenfour serve` process on the shared store and NATS (a node a test can
// SIGKILL: none of its shutdown code runs); more are further flags (a later one overrides an earlier one).
func (c *cluster) child(id string, more ...string) *testkit.Process {
	c.t.Helper()
	return testkit.Serve(c.t, testkit.Binary(c.t), c.t.TempDir(), append([]string{"--db", c.dsn, "--nats", c.nats.URL(),
		"--node-id", id, "--node-timeout", nodeTimeout.String()}, more...)...)
}

// node starts an in-process node on the shared store (more: further configuration).
func (c *cluster) node(id string, more ...func(*config.Config)) *testkit.Server {
	c.t.Helper()
	store, err := app.Open(context.Background(), config.Config{DB: c.dsn})
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { store.Close() })
	s := testkit.StartStore(c.t, store, func(cfg *config.Config) {
		cfg.DB = c.dsn
		testkit.LoopbackMedia(cfg)
		cfg.Cluster = config.Cluster{NATS: c.nats.URL(), NodeID: id, Timeout: nodeTimeout}
		for _, fn := range more {
			fn(cfg)
		}
	})
	c.nodes = append(c.nodes, s)
	return s
}

// dial logs a terminal (o.UID) or a console (o.Token) in at url and connects its media, keeping the payloads it
// receives; it is closed when the test ends.
func dial(t *testing.T, url string, o termclient.Options) *termclient.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	o.URL, o.Media.KeepPayloads = url, true
	c, err := termclient.Dial(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

// dialTerminal logs a terminal in at url (a node's, or a child process's) with its media.
func dialTerminal(t *testing.T, url, msID string) *termclient.Client {
	t.Helper()
	return dial(t, url, termclient.Options{UID: msID, Password: testkit.Password})
}

// dialConsole signs a dispatcher in on a node and logs its console in with its media.
func dialConsole(t *testing.T, s *testkit.Server, msID string, customer int64) *termclient.Client {
	t.Helper()
	return dial(t, s.URL, termclient.Options{Token: s.Token(msID, customer)})
}

// presenceOf waits for a console's presence event of an account.
func presenceOf(t testing.TB, con *testkit.Socket, msID, online string, within time.Duration) {
	t.Helper()
	con.WaitEvent("presence", within, func(f testkit.Frame) bool {
		var p struct{ MsID, Online string }
		return json.Unmarshal(f.Data, &p) == nil && p.MsID == msID && p.Online == online
	})
}

func TestEventsAndPresenceReachEveryNode(t *testing.T) {
	c := newCluster(t)
	n1, n2, n3 := c.node("n1"), c.node("n2"), c.node("n3")
	f := testkit.NewFleet(t, n1.DB, "1", 3, 1)
	tok := n1.Token(f.Dispatcher, f.Customer)
	con1 := testkit.Console(t, n1.URL, tok)
	con3 := testkit.Console(t, n3.URL, tok) // another window of the same sign-in, on another node: both stay

	// A terminal online on node 2 is online for a console on node 1, by event and in the hub of every node.
	term2 := testkit.Terminal(t, n2.URL, f.Terminals[0], testkit.Password)
	presenceOf(t, con1, f.Terminals[0], "1", 2*time.Second)
	for _, n := range []*testkit.Server{n1, n3} {
		testkit.Eventually(t, 2*time.Second, "node sees the terminal online", func() bool { return n.Hub.Online(f.Terminals[0]) })
		if n.Hub.LocalOnline(f.Terminals[0]) {
			t.Fatal("the terminal's connection is on node 2, not here")
		}
	}

	// An SOS raised on node 3 reaches the consoles on nodes 1 and 3 within 1 s, with the same seq.
	term3 := testkit.Terminal(t, n3.URL, f.Terminals[1], testkit.Password)
	con1.Drain()
	con3.Drain()
	start := time.Now()
	if r := term3.Call("sos.raise", map[string]any{}); r.Code != "" && r.Code != "0" {
		t.Fatalf("sos.raise: %+v", r)
	}
	a1 := con1.WaitEvent("sos.alarm", time.Second, nil)
	took := time.Since(start)
	a3 := con3.WaitEvent("sos.alarm", time.Second, nil)
	if a1.Seq == 0 || a1.Seq != a3.Seq {
		t.Fatalf("durable seq on node 1 %d, on node 3 %d", a1.Seq, a3.Seq)
	}
	t.Logf("SOS on node 3 → console on node 1 in %v", took)

	// A console that reconnects to another node syncs from the same seq.
	replay, err := n2.Hub.Replay(context.Background(), f.Customer, a1.Seq-1, 1)
	if err != nil || len(replay) != 1 || replay[0].Seq != a1.Seq || replay[0].Type != "sos.alarm" {
		t.Fatalf("node 2 replays after seq %d: %+v (%v)", a1.Seq-1, replay, err)
	}

	// The terminal leaving node 2 goes offline everywhere.
	term2.Close()
	presenceOf(t, con1, f.Terminals[0], "0", 2*time.Second)
	testkit.Eventually(t, 2*time.Second, "offline on node 3", func() bool { return !n3.Hub.Online(f.Terminals[0]) })
}

func TestLoginOnAnotherNodeReplacesTheConnection(t *testing.T) {
	c := newCluster(t)
	n1, n2 := c.node("n1"), c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	con := n1.Console(f.Dispatcher, f.Customer)
	old := testkit.Terminal(t, n2.URL, f.Terminals[0], testkit.Password)
	presenceOf(t, con, f.Terminals[0], "1", 2*time.Second)
	before := time.Now().UnixMilli()
	testkit.Terminal(t, n1.URL, f.Terminals[0], testkit.Password)
	// It is told by which login, from where and when, as on one node.
	var by realtime.Replaced
	if err := json.Unmarshal(old.WaitEvent(realtime.EventReplaced, 3*time.Second, nil).Data, &by); err != nil {
		t.Fatal(err)
	}
	if by.MsID != f.Terminals[0] || by.IP != "127.0.0.1" || by.Time < before || by.Time > time.Now().UnixMilli() {
		t.Fatalf("session.replaced from another node: %+v", by)
	}
	if code := old.CloseStatus(3 * time.Second); code != realtime.CloseReplaced {
		t.Fatalf("the connection on node 2 closed with %d, want %d", code, realtime.CloseReplaced)
	}
	// It stays online: no presence "0" follows, and node 2 knows it is on node 1.
	if f, ok := con.TryWait(time.Second, func(f testkit.Frame) bool {
		var p struct{ MsID, Online string }
		return f.Type == "presence" && json.Unmarshal(f.Data, &p) == nil && p.Online == "0"
	}); ok {
		t.Fatalf("went offline: %s", f.Data)
	}
	testkit.Eventually(t, 2*time.Second, "node 2 sees it online on node 1", func() bool { return n2.Hub.Online(f.Terminals[0]) })
}

func TestNATSDropLosesNoDurableEvent(t *testing.T) {
	c := newCluster(t)
	n1, n2 := c.node("n1"), c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 2, 1)
	con1 := n1.Console(f.Dispatcher, f.Customer)
	term2 := testkit.Terminal(t, n2.URL, f.Terminals[0], testkit.Password)
	presenceOf(t, con1, f.Terminals[0], "1", 2*time.Second)

	c.nats.stop() // every node loses NATS
	time.Sleep(100 * time.Millisecond)
	if r := term2.Call("sos.raise", map[string]any{}); r.Code != "" && r.Code != "0" {
		t.Fatalf("sos.raise without NATS: %+v", r) // PostgreSQL has it: the alarm is stored all the same
	}
	// and one stored by node 1 itself while NATS is away
	seq1, err := n1.Hub.PublishDurable(context.Background(), f.Customer, "sos.updated", map[string]any{"id": "x"}, realtime.Consoles)
	if err != nil {
		t.Fatal(err)
	}
	c.nats.start()

	got := map[int64]int{}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && (len(got) < 2) {
		if fr, err := con1.TryRead(time.Until(deadline)); err == nil && fr.Seq > 0 {
			got[fr.Seq]++
		}
	}
	if got[seq1] != 1 || len(got) != 2 {
		t.Fatalf("durable events on the console of node 1 after NATS came back: %v (node 1's own: %d)", got, seq1)
	}
	// no second copy
	for {
		fr, err := con1.TryRead(time.Second)
		if err != nil {
			break
		}
		if got[fr.Seq] > 0 {
			t.Fatalf("seq %d delivered twice", fr.Seq)
		}
	}
}

// The durable events a node has for a customer while another transaction holds the customer's lock are stored
// together in the next one (group commit, docs/adr/0049), not one transaction each; every console still gets each
// once, in seq order.
func TestDurableEventsWaitingForTheLockGoInOneTransaction(t *testing.T) {
	c := newCluster(t)
	n1, n2 := c.node("n1"), c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	con2 := n2.Console(f.Dispatcher, f.Customer)
	ctx := context.Background()
	first, err := n1.Hub.LastSeq(ctx, f.Customer)
	if err != nil {
		t.Fatal(err)
	}
	// the customer's lock held as another node's transaction would hold it
	holder, err := n1.DB.W.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	key := clusterpkg.LockSpace | f.Customer
	if _, err := holder.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		t.Fatal(err)
	}
	const events = 50
	seqs := make(chan int64, events)
	errs := make(chan error, events)
	for i := range events {
		go func() {
			seq, err := n1.Hub.PublishDurable(ctx, f.Customer, "sos.updated", map[string]int{"id": i}, realtime.Consoles)
			seqs <- seq
			errs <- err
		}()
	}
	testkit.Eventually(t, 5*time.Second, "a transaction waits for the customer's lock", func() bool {
		return testkit.Count(t, n1.DB, `SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`) > 0
	})
	if _, err := holder.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, key); err != nil {
		t.Fatal(err)
	}
	stored := map[int64]bool{}
	for range events {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		stored[<-seqs] = true
	}
	if len(stored) != events {
		t.Fatalf("%d distinct seqs for %d events", len(stored), events)
	}
	// one transaction for the event that was first, one (or, on a slow machine, a few) for those queued behind it;
	// one transaction each before
	txs := testkit.Count(t, n1.DB, `SELECT COUNT(DISTINCT xmin::text) FROM events WHERE customer_id = ? AND seq > ?`, f.Customer, first)
	if txs > 5 {
		t.Fatalf("%d durable events stored in %d transactions", events, txs)
	}
	t.Logf("%d durable events queued behind the lock, stored in %d transactions", events, txs)
	last := first
	for got := 0; got < events; {
		fr := con2.WaitEvent("sos.updated", 5*time.Second, nil)
		if fr.Seq <= last || !stored[fr.Seq] {
			t.Fatalf("event seq %d after %d on node 2's console (stored: %v)", fr.Seq, last, stored[fr.Seq])
		}
		last = fr.Seq
		got++
	}
}

func TestKilledNodesTerminalsGoOfflineElsewhere(t *testing.T) {
	c := newCluster(t)
	n1 := c.node("n1")
	f := testkit.NewFleet(t, n1.DB, "1", 2, 1)
	// node 2 is a real `tenfour serve` process, killed with SIGKILL: none of its shutdown code runs
	p2 := c.child("n2")
	con := n1.Console(f.Dispatcher, f.Customer)
	testkit.Terminal(t, p2.URL, f.Terminals[0], testkit.Password)
	testkit.Terminal(t, n1.URL, f.Terminals[1], testkit.Password)
	presenceOf(t, con, f.Terminals[0], "1", 3*time.Second)
	testkit.Eventually(t, 2*time.Second, "node 1 sees the terminal on node 2", func() bool { return n1.Hub.Online(f.Terminals[0]) })

	p2.Kill(t)
	start := time.Now()
	presenceOf(t, con, f.Terminals[0], "0", nodeTimeout+3*time.Second)
	t.Logf("the killed node's terminal went offline %v after the kill (node timeout %v)", time.Since(start), nodeTimeout)
	if n1.Hub.Online(f.Terminals[0]) || !n1.Hub.Online(f.Terminals[1]) {
		t.Fatal("only the killed node's terminal goes offline")
	}
	// It reconnects to the surviving node and is online again.
	testkit.Terminal(t, n1.URL, f.Terminals[0], testkit.Password)
	presenceOf(t, con, f.Terminals[0], "1", 2*time.Second)
}

// A simulated fleet given both nodes' URLs: when the node its terminals are on is killed, they log in on the
// other within 10 s, with the resume token node 2 issued (sessions are in PostgreSQL).
func TestFleetMovesToTheSurvivingNode(t *testing.T) {
	c := newCluster(t)
	n1 := c.node("n1")
	f := testkit.NewFleet(t, n1.DB, "1", 4, 1)
	p2 := c.child("n2")
	var accts []sim.Account
	for _, id := range f.Terminals {
		accts = append(accts, sim.Account{ID: id, Password: testkit.Password, Type: "10"})
	}
	// the servers are node 2, node 2, node 1: by their index, three of the four terminals start on node 2
	testkit.RunFleet(t, sim.Options{URL: p2.URL, URLs: []string{p2.URL, n1.URL}, Accounts: accts, Seed: 1,
		Passive: true, Loopback: true})
	for _, id := range f.Terminals {
		testkit.Eventually(t, 10*time.Second, "terminal online", func() bool { return n1.Hub.Online(id) })
	}
	onNode1 := 0
	for _, id := range f.Terminals {
		if n1.Hub.LocalOnline(id) {
			onNode1++
		}
	}
	p2.Kill(t)
	start := time.Now()
	for _, id := range f.Terminals {
		testkit.Eventually(t, 10*time.Second, "terminal moved to node 1", func() bool { return n1.Hub.LocalOnline(id) })
	}
	took := time.Since(start)
	t.Logf("%d of %d terminals were on node 2; all on node 1 %v after its SIGKILL", len(f.Terminals)-onNode1,
		len(f.Terminals), took)
	fmt.Printf("BENCH cluster.failover_s %.3f\n", took.Seconds())
	if onNode1 == len(f.Terminals) {
		t.Fatal("no terminal was on the killed node")
	}
}

// A server→terminal request made on node 1 (an SOS stop, a lone-work check, monitor.start) reaches the terminal
// on node 2 and its reply or refusal comes back.
func TestRequestReachesTheTerminalOnAnotherNode(t *testing.T) {
	c := newCluster(t)
	n1, n2 := c.node("n1"), c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	term := testkit.Terminal(t, n2.URL, f.Terminals[0], testkit.Password)
	testkit.Eventually(t, 2*time.Second, "node 1 sees the terminal", func() bool { return n1.Hub.Online(f.Terminals[0]) })
	for _, answer := range []string{"0", "486"} {
		type result struct {
			data json.RawMessage
			err  error
		}
		done := make(chan result, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			d, err := n1.Hub.Request(ctx, f.Terminals[0], "sos.stop", map[string]any{"id": "a1", "by": f.Dispatcher})
			done <- result{d, err}
		}()
		req := term.Wait(3*time.Second, func(fr testkit.Frame) bool { return fr.Type == "sos.stop" && fr.ID != 0 })
		term.Reply(req, answer, map[string]any{"stopped": true})
		r := <-done
		if answer == "0" && (r.err != nil || !strings.Contains(string(r.data), "stopped")) {
			t.Fatalf("reply across nodes: %s %v", r.data, r.err)
		}
		if answer != "0" {
			var he *httpx.Error
			if !errors.As(r.err, &he) || he.Code != answer {
				t.Fatalf("refusal across nodes: %v, want code %s", r.err, answer)
			}
		}
	}
	// Nobody answers: the asker gets the hub's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := n1.Hub.Request(ctx, f.Terminals[0], "sos.stop", map[string]any{"id": "a2"}); !errors.Is(err, realtime.ErrTimeout) {
		t.Fatalf("unanswered request across nodes: %v, want %v", err, realtime.ErrTimeout)
	}
}

// A node whose connected terminal's presence row was swept while the node was alive writes the row again, also
// when the node still has as many rows as connections — one of an account held here without a socket: a count of
// rows hid the missing one, and the terminal stayed offline everywhere while connected (a chaos run beside vitest).
func TestSweptRowComesBackBesideARowWithoutASocket(t *testing.T) {
	n1 := newCluster(t).node("n1")
	f := testkit.NewFleet(t, n1.DB, "1", 2, 1)
	on, off := f.Terminals[0], f.Terminals[1]
	testkit.Terminal(t, n1.URL, on, testkit.Password)
	rowOf := func(id string) int {
		return testkit.Count(t, n1.DB, `SELECT COUNT(*) FROM cluster_presence WHERE node_id = 'n1' AND account_id = ?`, id)
	}
	testkit.Eventually(t, 5*time.Second, "the terminal's presence row", func() bool { return rowOf(on) == 1 })

	ctx := context.Background()
	if _, err := n1.DB.Exec(ctx, `INSERT INTO cluster_presence (node_id, account_id, customer_id, kind, since) VALUES ('n1', ?, ?, 'terminal', 0)`,
		off, f.Customer); err != nil {
		t.Fatal(err)
	}
	if _, err := n1.DB.Exec(ctx, `DELETE FROM cluster_presence WHERE node_id = 'n1' AND account_id = ?`, on); err != nil {
		t.Fatal(err)
	}
	// two sweeps in a row without it (a node timeout apart at most), then the rejoin writes it
	testkit.Eventually(t, 4*nodeTimeout, "the swept row written again", func() bool { return rowOf(on) == 1 })
}
