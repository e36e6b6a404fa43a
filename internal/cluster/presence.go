package cluster

// Presence across nodes: each node writes a row per account it holds (cluster_presence) and tells the others
// on the presence subject; a login on one node replaces the account's connections on the others as a login on
// the same node would. Every Heartbeat each node renews its key in the node bucket and looks for nodes whose
// key has expired: the first survivor to delete a dead node's rows takes those accounts offline.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

type presenceMsg struct {
	Node     string        `json:"node"`
	Op       string        `json:"op"` // join | left
	Account  string        `json:"msId"`
	Customer int64         `json:"customerId"`
	Kind     realtime.Kind `json:"kind"`
	Sign     string        `json:"sign,omitempty"` // a console's sign-in (tokenHash): its windows on other nodes stay
	Who      *whoMsg       `json:"who,omitempty"`  // on a join: the principal without its token (a Peer of it)
	IP       string        `json:"ip,omitempty"`   // on a join: the login's client address (session.replaced says it)
	At       int64         `json:"at,omitempty"`   // on a join: when it logged in, unix ms
}

// Hooks are the hub's login/logout hooks of the cluster; add them before any other (app wiring), so that the
// others nodes know an account is here before presence is written.
func (n *Node) Hooks() realtime.Hooks {
	return realtime.Hooks{OnLogin: n.onLogin, OnLogout: n.onLogout}
}

func (n *Node) onLogin(ctx context.Context, c *realtime.Conn, _ bool) {
	n.join(ctx, c.Principal(), c.Kind())
}

// join holds account p on this node for the cluster: its presence row, and a join to the others saying who it is
// and from where (a login's, or a SIP registration's: Held).
func (n *Node) join(ctx context.Context, p identity.Principal, kind realtime.Kind) {
	if err := n.hold(ctx, p, kind); err != nil {
		slog.ErrorContext(ctx, "cluster: presence row", "msId", p.AccountID, "err", err)
	}
	w := &whoMsg{P: p, Kind: kind}
	w.P.Token = ""
	n.tell(presenceMsg{Op: "join", Account: p.AccountID, Customer: p.CustomerID, Kind: kind, Sign: signOf(p, kind), Who: w,
		IP: httpx.ClientIPFrom(ctx), At: time.Now().UnixMilli()})
}

func (n *Node) onLogout(ctx context.Context, c *realtime.Conn, _ bool) {
	p := c.Principal()
	if n.hub.LocalOnline(p.AccountID) || n.hub.Held(p.AccountID) {
		return // a newer connection here holds the account, or its SIP registration does (Held)
	}
	n.leave(ctx, p, c.Kind())
}

// leave lets account p go from this node: its presence row, and a left to the others.
func (n *Node) leave(ctx context.Context, p identity.Principal, kind realtime.Kind) {
	if _, err := n.db.Exec(context.WithoutCancel(ctx), `DELETE FROM cluster_presence WHERE node_id = ? AND account_id = ?`,
		n.opt.NodeID, p.AccountID); err != nil {
		slog.ErrorContext(ctx, "cluster: presence row", "msId", p.AccountID, "err", err)
	}
	n.tell(presenceMsg{Op: "left", Account: p.AccountID, Customer: p.CustomerID, Kind: kind})
}

func signOf(p identity.Principal, kind realtime.Kind) string {
	if kind != realtime.Console {
		return ""
	}
	return tokenHash(p.Token)
}

// hold writes the row saying this node holds the account.
func (n *Node) hold(ctx context.Context, p identity.Principal, kind realtime.Kind) error {
	return n.holdAll(ctx, []whoMsg{{P: p, Kind: kind}})
}

// holdAll writes the rows saying this node holds the accounts, in one statement.
func (n *Node) holdAll(ctx context.Context, accounts []whoMsg) error {
	ids, customers, kinds := make([]string, 0, len(accounts)), make([]int64, 0, len(accounts)), make([]string, 0, len(accounts))
	seen := make(map[string]bool, len(accounts))
	for _, w := range accounts {
		// a statement may not write a row twice: a held account whose socket logged out while reclaim listed
		// them is in its list twice
		if !seen[w.P.AccountID] {
			seen[w.P.AccountID] = true
			ids, customers, kinds = append(ids, w.P.AccountID), append(customers, w.P.CustomerID), append(kinds, string(w.Kind))
		}
	}
	_, err := n.db.Exec(context.WithoutCancel(ctx), `INSERT INTO cluster_presence (node_id, account_id, customer_id, kind, since)
		SELECT ?, v.id, v.customer, v.kind, ? FROM unnest(?::text[], ?::bigint[], ?::text[]) AS v(id, customer, kind)
		ON CONFLICT (node_id, account_id) DO UPDATE SET customer_id = EXCLUDED.customer_id,
		kind = EXCLUDED.kind, since = EXCLUDED.since`, n.opt.NodeID, time.Now().UnixMilli(), ids, customers, kinds)
	return err
}

func (n *Node) tell(m presenceMsg) {
	m.Node = n.opt.NodeID
	if err := n.nc.Publish(subjPresence, mustJSON(m)); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		slog.Warn("cluster: presence not sent (the others learn it from the store when NATS is back)", "msId", m.Account, "err", err)
	}
}

// onPresence applies another node's login or logout.
func (n *Node) onPresence(msg *nats.Msg) {
	var m presenceMsg
	if err := json.Unmarshal(msg.Data, &m); err != nil || m.Node == n.opt.NodeID {
		return
	}
	n.mu.Lock()
	delete(n.who, m.Account)
	if m.Op == "join" {
		n.addRemote(m.Account, m.Node)
		if m.Who != nil {
			n.who[m.Account] = *m.Who
		}
	} else {
		n.dropRemote(m.Account, m.Node)
	}
	n.mu.Unlock()
	if m.Op != "join" {
		return
	}
	// The account logged in over there: its connections here are replaced (a console window of the same
	// sign-in stays, as on one node).
	by := realtime.Replaced{MsID: m.Account, IP: m.IP, Time: cmp.Or(m.At, time.Now().UnixMilli())}
	n.hub.ReplaceRemote(by, func(c *realtime.Conn) bool {
		return m.Kind == realtime.Console && c.Kind() == realtime.Console && m.Sign != "" &&
			signOf(c.Principal(), c.Kind()) == m.Sign
	})
}

// Run renews this node's key every Heartbeat and sweeps dead nodes until ctx ends. The sweep runs beside the
// beat, never two at once: taking a dead node's accounts offline writes events that may wait on the store, and a
// beat waiting behind it silenced this node too, so the others swept it as dead (docs/reliability.md, finding 4).
func (n *Node) Run(ctx context.Context) {
	lastBeat := time.Now()
	var sweeping sync.WaitGroup
	var busy atomic.Bool
	var rows rowWatch // read and written by one sweep at a time (busy)
	ticker.Every(ctx, n.opt.Heartbeat, func() {
		if err := n.beat(ctx); err != nil {
			slog.Warn("cluster: heartbeat", "node", n.opt.NodeID, "err", err)
			return // without NATS this node cannot tell who is alive: sweep nothing
		}
		if time.Since(lastBeat) >= n.opt.Timeout {
			// Its key expired meanwhile, so the others may have swept this node as dead and taken its accounts
			// offline, yet NATS answers again without its connection having dropped (a partition shorter than the
			// client's ping timeout): no reconnect handler runs. Rejoin as after one (docs/reliability.md: found
			// by the chaos lab, "partition n1 from NATS").
			slog.Warn("cluster: heartbeat back after the node timeout, rejoining", "node", n.opt.NodeID,
				"silent", time.Since(lastBeat).Round(time.Millisecond))
			go n.rejoin()
		}
		lastBeat = time.Now()
		if !busy.CompareAndSwap(false, true) {
			return // the last sweep is still at work
		}
		sweeping.Go(func() {
			defer busy.Store(false)
			if err := n.sweep(ctx); err != nil {
				slog.Error("cluster: sweep", "node", n.opt.NodeID, "err", err)
			}
			// Another node may have swept this one while its own beats went through (NATS too slow for the
			// others to read its key in time): its rows are gone and nothing tells it (docs/reliability.md, found
			// by the chaos lab). Not while a rejoin is writing the rows again.
			if n.isRejoining() {
				rows = rowWatch{}
			} else if rows.sweptWhileAlive(n.missingRows(ctx)) {
				slog.Warn("cluster: this node's presence rows were swept while it was alive, rejoining", "node", n.opt.NodeID)
				go n.rejoin()
			}
		})
	})
	sweeping.Wait()
}

// missingRows lists the accounts connected here that have no presence row of this node. A count would not do:
// the rows of accounts held here without a socket (a reconnection's grace) are this node's too, and one of them
// hid a connected terminal's swept row — the terminal stayed offline everywhere while connected (a chaos run).
func (n *Node) missingRows(ctx context.Context) map[string]bool {
	here := n.connected()
	if len(here) == 0 {
		return nil
	}
	have, err := n.ownRows(ctx)
	if err != nil {
		return nil
	}
	missing := map[string]bool{}
	for _, w := range here {
		if !have[w.P.AccountID] {
			missing[w.P.AccountID] = true
		}
	}
	return missing
}

// connected lists the accounts with a socket on this node.
func (n *Node) connected() []whoMsg {
	var here []whoMsg
	for _, cid := range n.hub.Customers() {
		for _, id := range n.hub.Accounts(cid) {
			if c := n.hub.Conn(id); c != nil {
				here = append(here, whoMsg{P: c.Principal(), Kind: c.Kind()})
			}
		}
	}
	return here
}

// ownRows is the set of accounts this node has a presence row of.
func (n *Node) ownRows(ctx context.Context) (map[string]bool, error) {
	rows, err := n.db.Query(ctx, `SELECT account_id FROM cluster_presence WHERE node_id = ?`, n.opt.NodeID)
	return db.CollectSet(rows, err, db.String)
}

// rowWatch tells a swept row from a login in progress (connected, its row not written yet): an account missing its
// row at two sweeps in a row. Any account at each sweep would not do: during a wave of logins on a busy store some
// login is always between its connection and its row, and the node rejoined every other sweep — each rejoin writes
// every account's row again and tells every node, so 15,000 terminals logging in on three nodes took minutes.
type rowWatch struct {
	missed map[string]bool // the accounts without a row at the last sweep
}

// sweptWhileAlive takes the accounts missing their row at this sweep; true if one was missing at the last too.
func (w *rowWatch) sweptWhileAlive(missing map[string]bool) bool {
	for id := range missing {
		if w.missed[id] {
			w.missed = nil
			return true
		}
	}
	w.missed = missing
	return false
}

func (n *Node) beat(ctx context.Context) error {
	n.mu.Lock()
	closed := n.closed
	n.mu.Unlock()
	if closed {
		return errors.New("left the cluster")
	}
	_, err := n.kv.Put(ctx, n.opt.NodeID, mustJSON(beatMsg{At: time.Now().UnixMilli(), URL: n.opt.PublicURL}))
	return err
}

// beatMsg is the value of a node's key in the node bucket.
type beatMsg struct {
	At  int64  `json:"at"`            // UTC ms
	URL string `json:"url,omitempty"` // its PublicURL
}

// learnURLs keeps the public URL of every live node (read once per node it first sees alive).
func (n *Node) learnURLs(ctx context.Context, alive map[string]bool) {
	n.mu.Lock()
	var unknown []string
	for node := range alive {
		if _, ok := n.urls[node]; !ok {
			unknown = append(unknown, node)
		}
	}
	for node := range n.urls {
		if !alive[node] {
			delete(n.urls, node)
		}
	}
	n.mu.Unlock()
	for _, node := range unknown {
		e, err := n.kv.Get(ctx, node)
		if err != nil {
			continue
		}
		var b beatMsg
		_ = json.Unmarshal(e.Value(), &b) // an older node's value (a timestamp) has no URL
		n.mu.Lock()
		n.urls[node] = b.URL
		n.mu.Unlock()
	}
}

// Nodes lists the public URLs of the live nodes, this node's first, then the others by node id
// (realtime.Bus): what a client's login reply offers it to fail over to.
func (n *Node) Nodes() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	ids := make([]string, 0, len(n.urls))
	for id, u := range n.urls {
		if id != n.opt.NodeID && u != "" {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	out := make([]string, 0, len(ids)+1)
	if n.opt.PublicURL != "" {
		out = append(out, n.opt.PublicURL)
	}
	for _, id := range ids {
		out = append(out, n.urls[id])
	}
	return out
}

// Alive lists the nodes whose key is in the bucket (this one included once it has beaten).
func (n *Node) Alive(ctx context.Context) (map[string]bool, error) {
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	keys, err := n.kv.ListKeys(lctx)
	if err != nil {
		return nil, err
	}
	alive := map[string]bool{n.opt.NodeID: true}
	for k := range keys.Keys() {
		alive[k] = true
	}
	if lctx.Err() != nil {
		return nil, lctx.Err() // the list did not end: it is incomplete
	}
	return alive, nil
}

// LiveNodes is the set of nodes seen alive at the last sweep (this node always in it); an error before the
// first sweep.
func (n *Node) LiveNodes(context.Context) (map[string]bool, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.alive == nil { // nil until the first sweep: an empty set would call every node dead, this one included
		return nil, errNoSweep
	}
	out := make(map[string]bool, len(n.alive)+1)
	for k, v := range n.alive {
		out[k] = v
	}
	out[n.opt.NodeID] = true // this node, even before its first beat reached the bucket
	return out, nil
}

var errNoSweep = errors.New("cluster: no sweep yet")

// sweep takes the accounts of dead nodes offline.
func (n *Node) sweep(ctx context.Context) error {
	alive, err := n.Alive(ctx)
	if err != nil {
		return err
	}
	n.learnURLs(ctx, alive)
	n.mu.Lock()
	n.alive = alive
	for acct, set := range n.remote { // a dead node holds nothing, whoever claims its rows
		for node := range set {
			if !alive[node] {
				n.dropRemote(acct, node)
			}
		}
	}
	n.mu.Unlock()
	nodes, err := n.nodesWithRows(ctx)
	if err != nil {
		return err
	}
	for _, node := range nodes {
		if alive[node] {
			continue
		}
		slog.Warn("cluster: node dead, taking its accounts offline", "dead", node, "by", n.opt.NodeID)
		if err := n.release(ctx, node); err != nil {
			return err
		}
	}
	return nil
}

func (n *Node) nodesWithRows(ctx context.Context) ([]string, error) {
	rows, err := n.db.Query(ctx, `SELECT DISTINCT node_id FROM cluster_presence`)
	return db.Collect(rows, err, db.String)
}

type held struct {
	p    identity.Principal
	kind realtime.Kind
}

// release deletes a node's rows and takes offline each account no live node holds. The delete is the claim:
// of several survivors sweeping at once, each row goes to exactly one.
func (n *Node) release(ctx context.Context, node string) error {
	rows, err := n.db.Query(ctx, `DELETE FROM cluster_presence WHERE node_id = ? RETURNING account_id, customer_id, kind`, node)
	gone, err := db.Collect(rows, err, func(sc db.Scanner) (held, error) {
		var h held
		var kind string
		err := sc.Scan(&h.p.AccountID, &h.p.CustomerID, &kind)
		h.kind = realtime.Kind(kind)
		return h, err
	})
	if err != nil {
		return err
	}
	for _, h := range gone {
		n.offline(ctx, h)
	}
	return nil
}

func (n *Node) offline(ctx context.Context, h held) {
	if n.hub.Online(h.p.AccountID) {
		return // it came back on a live node meanwhile
	}
	var other int
	if err := n.db.QueryRow(ctx, `SELECT COUNT(*) FROM cluster_presence WHERE account_id = ?`, h.p.AccountID).Scan(&other); err == nil && other > 0 {
		return // another node's row: that node says it holds the account
	}
	pctx := identity.With(ctx, h.p)
	for _, p := range n.presence {
		p.AccountOffline(pctx, h.p, h.kind)
	}
}

// Held is how the cluster learns of accounts this node keeps online without a socket — a SIP phone's
// registration (internal/sip's Presence) —: each is held here as a login is, with its presence row and a join to
// the others, so that they see it online on this node and a call to it from there reaches it (call.LegInvite
// dials the phone here). Its sockets' logouts leave that alone (onLogout), and a rejoin announces it again.
func (n *Node) Held() HeldPresence { return HeldPresence{n} }

// HeldPresence is Node.Held.
type HeldPresence struct{ n *Node }

// AccountOnline holds account p on this node for the cluster.
func (h HeldPresence) AccountOnline(ctx context.Context, p identity.Principal, kind realtime.Kind) {
	n := h.n
	n.mu.Lock()
	n.held[p.AccountID] = whoMsg{P: p, Kind: kind}
	n.mu.Unlock()
	n.join(ctx, p, kind)
}

// AccountOffline lets account p go, unless a socket of it is still here.
func (h HeldPresence) AccountOffline(ctx context.Context, p identity.Principal, kind realtime.Kind) {
	n := h.n
	n.mu.Lock()
	delete(n.held, p.AccountID)
	n.mu.Unlock()
	if !n.hub.LocalOnline(p.AccountID) { // else its socket's logout says it
		n.leave(ctx, p, kind)
	}
}

// reclaim writes again the rows of the accounts this node holds (after NATS was back: a survivor may have
// taken them offline meanwhile) and tells the others; an account the cluster had taken offline goes online.
func (n *Node) reclaim(ctx context.Context) {
	here := n.connected() // its sockets' accounts, then those held without one
	n.mu.Lock()
	for id, w := range n.held {
		if !n.hub.LocalOnline(id) {
			here = append(here, w)
		}
	}
	n.mu.Unlock()
	if len(here) == 0 {
		return
	}
	// one read of the rows it has and one write of them all: a statement per account took 10,000 round trips
	// for 5,000 terminals, longer than a rejoin may run on a busy store
	had, err := n.ownRows(ctx)
	if err != nil {
		slog.Error("cluster: presence rows", "node", n.opt.NodeID, "err", err)
		return
	}
	if err := n.holdAll(ctx, here); err != nil {
		slog.Error("cluster: presence rows", "node", n.opt.NodeID, "err", err)
		return
	}
	for _, w := range here {
		p, kind, id := w.P, w.Kind, w.P.AccountID
		n.tell(presenceMsg{Op: "join", Account: id, Customer: p.CustomerID, Kind: kind, Sign: signOf(p, kind)})
		if !had[id] {
			pctx := identity.With(ctx, p)
			for _, pr := range n.presence {
				pr.AccountOnline(pctx, p, kind)
			}
		}
	}
}
