// Package cluster joins tenfour nodes that share one PostgreSQL into a cluster over NATS (docs/adr/0024): the
// hub's events reach every node (realtime.Bus), presence is cluster-wide, and the survivors of a node that died
// take its accounts offline. PostgreSQL stays the source of truth (durable events, presence rows); NATS carries
// what happens now (events, logins) and knows which nodes are alive (a key-value bucket whose keys expire).
package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Defaults of Options.
const (
	DefaultHeartbeat = time.Second
	DefaultTimeout   = 5 * time.Second
)

// Subjects and the bucket every node uses.
const (
	subjEvents   = "tenfour.ev."      // + customer id: one subject per customer keeps its events in order
	subjPresence = "tenfour.presence" // logins and logouts of every node
	bucketNodes  = "tenfour_nodes"    // key = node id, written every Heartbeat, gone after Timeout
)

// Options configure a node's membership.
type Options struct {
	URL       string        // nats://host:4222 (comma-separated for several NATS servers)
	NodeID    string        // this node's unique name
	Heartbeat time.Duration // how often the node says it is alive (default DefaultHeartbeat)
	Timeout   time.Duration // a node silent this long is dead: its accounts go offline (default DefaultTimeout)
	// PublicURL is how clients reach this node (--public-url): the other nodes list it to their clients as a
	// node to fail over to (Node.Nodes); empty: not listed.
	PublicURL string
	// NATSOptions are extra client options (TLS: nats.Secure, nats.RootCAs, nats.ClientCert; credentials).
	NATSOptions []nats.Option
}

var nodeIDRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Presence is what the cluster tells the owner of presence (internal/directory) and the reports
// (internal/presence) about accounts whose node can no longer say it itself.
type Presence interface {
	// AccountOffline: the account was held by a node that died (or by this node before it restarted) and is
	// held by no node now.
	AccountOffline(ctx context.Context, p identity.Principal, kind realtime.Kind)
	// AccountOnline: this node still holds the account after the cluster had counted it offline (this node's
	// link to NATS was down longer than Timeout).
	AccountOnline(ctx context.Context, p identity.Principal, kind realtime.Kind)
}

// Node is this process's membership of the cluster; it implements realtime.Bus.
type Node struct {
	opt Options
	db  *db.DB
	hub *realtime.Hub
	nc  *nats.Conn
	kv  jetstream.KeyValue
	// leases: work that runs on one node at a time (singleton.go)
	leases jetstream.KeyValue

	presence []Presence
	floors   *GroupFloors // the voice service's group floors (Floors), read by Waiters

	mu       sync.Mutex
	remote   map[string]map[string]bool // account → the other nodes holding it
	who      map[string]whoMsg          // account → its principal on the node that last logged it in (request.go)
	held     map[string]whoMsg          // accounts held here without a socket: SIP registrations (Node.Held)
	alive    map[string]bool            // nodes seen alive at the last sweep; nil before the first
	urls     map[string]string          // node → its PublicURL, for the nodes seen alive (failover lists)
	seen     map[int64]*seqWindow       // durable seqs delivered here, per customer
	startSeq int64                      // the newest durable seq when this node joined
	unsent   []unsent                   // durable events stored while NATS was unreachable
	// queued: per customer, the durable events waiting for the next transaction that stores them (Durable);
	// a queue of its own lock, so the wait never holds mu.
	queuedMu sync.Mutex
	queued   map[int64]*durableQueue
	// gapFrom is, per customer, where the catch-up after a NATS outage starts: the newest durable seq received
	// through NATS when the connection was lost (rejoin; events arriving before the catch-up runs must not move it).
	gapFrom map[int64]int64
	closed  bool
	// rejoining: a rejoin is at work; rejoinAgain: another was asked for meanwhile (rejoin)
	rejoining, rejoinAgain bool
}

type unsent struct {
	customerID int64
	typ        string
	seq        int64
	msg        []byte
	to         realtime.WireAudience
}

// Join connects this node to NATS, creates the liveness bucket, starts receiving the cluster's events and
// presence, and installs itself as the hub's bus. It refuses a store that is not PostgreSQL: every node must
// see the same state. Call Run for the heartbeat and the sweep, Close at shutdown.
func Join(ctx context.Context, d *db.DB, hub *realtime.Hub, opt Options) (*Node, error) {
	if d.Dialect != db.Postgres {
		return nil, errors.New("cluster: --nats needs a shared PostgreSQL store (--db postgres://…); SQLite cannot be shared by nodes")
	}
	if !nodeIDRe.MatchString(opt.NodeID) {
		return nil, fmt.Errorf("cluster: --node-id %q must be 1-64 letters, digits, '-' or '_'", opt.NodeID)
	}
	if opt.Heartbeat <= 0 {
		opt.Heartbeat = DefaultHeartbeat
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.Timeout < 2*opt.Heartbeat {
		return nil, errors.New("cluster: the node timeout must be at least two heartbeats")
	}
	n := &Node{opt: opt, db: d, hub: hub, remote: map[string]map[string]bool{}, who: map[string]whoMsg{}, held: map[string]whoMsg{},
		urls: map[string]string{},
		seen: map[int64]*seqWindow{}, queued: map[int64]*durableQueue{}}
	if err := d.QueryRow(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events`).Scan(&n.startSeq); err != nil {
		return nil, err
	}
	nopts := append([]nats.Option{
		nats.Name("tenfour " + opt.NodeID),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.ReconnectJitter(100*time.Millisecond, time.Second),
		// No buffering while reconnecting: a publish fails at once and the event is delivered here alone (and
		// a durable one is sent again once NATS is back), instead of waiting in a buffer of unknown fate.
		nats.ReconnectBufSize(-1),
		// A link that goes silent (a partition that resets nothing) is given up within a node timeout: a ping
		// every half of it, two unanswered. Without them the client stayed on its dead connection until TCP's
		// retransmissions gave up, tens of seconds after the heal (docs/reliability.md, finding 6).
		nats.PingInterval(opt.Timeout / 2),
		nats.MaxPingsOutstanding(2),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			slog.Warn("cluster: NATS connection lost", "node", opt.NodeID, "err", err)
			n.noteGap()
		}),
		nats.ReconnectHandler(func(*nats.Conn) {
			slog.Info("cluster: NATS connection back", "node", opt.NodeID)
			go n.rejoin()
		}),
	}, opt.NATSOptions...)
	nc, err := nats.Connect(opt.URL, nopts...)
	if err != nil {
		return nil, fmt.Errorf("cluster: connect to NATS %s: %w", opt.URL, err)
	}
	n.nc = nc
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	kctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	n.kv, err = js.CreateOrUpdateKeyValue(kctx, jetstream.KeyValueConfig{Bucket: bucketNodes, TTL: opt.Timeout,
		History: 1, Description: "tenfour nodes alive (docs/adr/0024)"})
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("cluster: the node bucket (is JetStream enabled on the NATS server? nats-server -js): %w", err)
	}
	n.leases, err = js.CreateOrUpdateKeyValue(kctx, jetstream.KeyValueConfig{Bucket: bucketLeases, TTL: opt.Timeout,
		History: 1, Description: "tenfour work that runs on one node at a time (docs/adr/0024)"})
	if err != nil {
		nc.Close()
		return nil, err
	}
	for _, sub := range []struct {
		subj string
		fn   nats.MsgHandler
	}{{subjEvents + "*", n.onEvent}, {subjPresence, n.onPresence}, {subjRequest + opt.NodeID, n.onRequest}} {
		s, err := nc.Subscribe(sub.subj, sub.fn)
		if err != nil {
			nc.Close()
			return nil, err
		}
		_ = s.SetPendingLimits(1<<20, 256<<20)
	}
	if err := nc.FlushTimeout(5 * time.Second); err != nil {
		nc.Close()
		return nil, err
	}
	if err := n.beat(kctx); err != nil {
		nc.Close()
		return nil, err
	}
	if err := n.loadRemote(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	hub.SetBus(n)
	return n, nil
}

// ID is this node's --node-id.
func (n *Node) ID() string { return n.opt.NodeID }

// OnPresence adds a receiver of presence changes the cluster decides (call before Run).
func (n *Node) OnPresence(p Presence) { n.presence = append(n.presence, p) }

// loadRemote reads which accounts the other nodes hold now (the presence messages keep it up to date after).
func (n *Node) loadRemote(ctx context.Context) error {
	rows, err := n.db.Query(ctx, `SELECT node_id, account_id FROM cluster_presence WHERE node_id <> ?`, n.opt.NodeID)
	if err != nil {
		return err
	}
	defer rows.Close()
	n.mu.Lock()
	defer n.mu.Unlock()
	for rows.Next() {
		var node, acct string
		if err := rows.Scan(&node, &acct); err != nil {
			return err
		}
		n.addRemote(acct, node)
	}
	return rows.Err()
}

func (n *Node) addRemote(acct, node string) {
	set := n.remote[acct]
	if set == nil {
		set = map[string]bool{}
		n.remote[acct] = set
	}
	set[node] = true
}

func (n *Node) dropRemote(acct, node string) {
	if set := n.remote[acct]; set != nil {
		delete(set, node)
		if len(set) == 0 {
			delete(n.remote, acct)
			delete(n.who, acct)
		}
	}
}

// Online tells whether another node holds a connection of the account (realtime.Bus).
func (n *Node) Online(accountID string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.remote[accountID]) > 0
}

// Close leaves the cluster gracefully: the node's key goes at once (the others need not wait for Timeout) and
// the connection drains. The hub's connections must have been closed first (their logouts went out).
func (n *Node) Close() {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	n.closed = true
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = n.kv.Delete(ctx, n.opt.NodeID)
	_ = n.nc.Drain()
}

// Kill drops the NATS connection without a goodbye, as a crash would (tests).
func (n *Node) Kill() {
	n.mu.Lock()
	n.closed = true
	n.mu.Unlock()
	n.nc.Close()
}

// tokenHash identifies a console's sign-in on the wire without sending its token.
func tokenHash(tok string) string {
	if tok == "" {
		return ""
	}
	s := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(s[:8])
}

func customerOf(subject string) (int64, bool) {
	id, err := strconv.ParseInt(strings.TrimPrefix(subject, subjEvents), 10, 64)
	return id, err == nil
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
