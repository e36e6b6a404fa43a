package cluster

// Events across nodes: every event of a customer goes through the customer's subject, and every node — the
// publisher too — delivers it from there, so all nodes see a customer's events in the same order. Durable
// events are stored and published under a per-customer advisory lock, so that order is also the order of
// their seq (the events table, which `sync` replays on any node).

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/realtime"
)

const (
	hdrType = "Tenfour-Type"
	hdrAud  = "Tenfour-Audience"
	hdrSeq  = "Tenfour-Seq"
	// lockSpace is the high half of the advisory-lock keys of durable events (one key per customer).
	lockSpace = int64(0x74656e66) << 32
	// seenWindow bounds the durable seqs a node remembers per customer to drop the second copy of an event.
	seenWindow = 4096
	// flushTimeout bounds how long a durable publish waits for NATS to confirm it has the event.
	flushTimeout = time.Second
)

// Publish sends an encoded event to every node (realtime.Bus); false when NATS cannot take it now.
func (n *Node) Publish(customerID int64, typ string, msg []byte, to realtime.WireAudience) bool {
	return n.send(customerID, typ, 0, msg, to) == nil
}

func (n *Node) send(customerID int64, typ string, seq int64, msg []byte, to realtime.WireAudience) error {
	m := nats.NewMsg(subjEvents + strconv.FormatInt(customerID, 10))
	m.Header.Set(hdrType, typ)
	m.Header.Set(hdrAud, to.String())
	if seq > 0 {
		m.Header.Set(hdrSeq, strconv.FormatInt(seq, 10))
	}
	m.Data = msg
	return n.nc.PublishMsg(m)
}

// Durable stores a durable event and publishes it (realtime.Bus). The advisory lock is held from the insert
// until NATS confirmed the publish, so the next durable event of the customer — from any node — reaches NATS
// after this one and every node delivers them in seq order. When NATS is unreachable the event is stored all
// the same (PostgreSQL is the truth), delivered here, and published again once NATS is back.
//
// The events a node has for a customer while a transaction holds that lock go together in the next one (group
// commit): one lock, one commit and one NATS confirmation for up to durableBatch events, in the order they came.
// One at a time, the lock's round trips, the commit's WAL flush and NATS's confirmation capped a customer at
// ≈ 60 durable events a second for the whole cluster on the bench's 2-core machine (each terminal's sign-in logs
// one), and an alarm waited behind every sign-in queued before it (docs/adr/0049).
func (n *Node) Durable(ctx context.Context, customerID int64, typ string, data json.RawMessage, to realtime.WireAudience) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	ev := &durableEvent{ctx: ctx, typ: typ, data: data, to: to, done: make(chan struct{})}
	n.queuedMu.Lock()
	q := n.queued[customerID]
	if q == nil {
		q = &durableQueue{}
		n.queued[customerID] = q
	}
	q.events = append(q.events, ev)
	start := !q.storing
	q.storing = true
	n.queuedMu.Unlock()
	if start {
		go n.storeQueued(customerID, q)
	}
	<-ev.done
	return ev.seq, ev.err
}

const (
	// durableBatch bounds the durable events one transaction stores.
	durableBatch = 128
	// durableTimeout bounds one such transaction (a store that stopped answering): its events are then
	// published live without a seq (realtime.Hub.PublishDurable) and the next ones try again.
	durableTimeout = 10 * time.Second
)

// durableQueue is a customer's durable events waiting to be stored; storing: a goroutine is storing them.
type durableQueue struct {
	events  []*durableEvent
	storing bool
}

// durableEvent is one Durable call: what to store, and once done is closed, its seq or error.
type durableEvent struct {
	ctx  context.Context
	typ  string
	data json.RawMessage
	to   realtime.WireAudience
	seq  int64
	err  error
	done chan struct{}
}

// storeQueued stores a customer's queued durable events a batch at a time until none is left.
func (n *Node) storeQueued(customerID int64, q *durableQueue) {
	for {
		n.queuedMu.Lock()
		k := min(len(q.events), durableBatch)
		if k == 0 {
			q.events = nil
			q.storing = false
			n.queuedMu.Unlock()
			return
		}
		batch := q.events[:k:k]
		q.events = q.events[k:]
		n.queuedMu.Unlock()
		n.storeBatch(customerID, batch)
		for _, ev := range batch {
			close(ev.done)
		}
	}
}

// storeBatch stores and publishes a batch of a customer's durable events in one transaction under the
// customer's lock (Durable), and sets each event's seq or error.
func (n *Node) storeBatch(customerID int64, batch []*durableEvent) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(batch[0].ctx), durableTimeout)
	defer cancel()
	msgs := make([][]byte, len(batch))
	sent := false
	err := n.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(?)`, lockSpace|customerID); err != nil {
			return err
		}
		at := time.Now().UnixMilli()
		for i, ev := range batch {
			if err := tx.QueryRow(ctx, `INSERT INTO events (customer_id, type, data, at) VALUES (?, ?, ?, ?) RETURNING seq`,
				customerID, ev.typ, string(ev.data), at).Scan(&ev.seq); err != nil {
				return err
			}
			msgs[i] = mustJSON(realtime.Frame{Type: ev.typ, Seq: ev.seq, Data: ev.data})
		}
		sent = true
		for i, ev := range batch {
			if n.send(customerID, ev.typ, ev.seq, msgs[i], ev.to) != nil {
				sent = false
				break
			}
		}
		sent = sent && n.nc.FlushTimeout(flushTimeout) == nil
		return nil
	})
	if err != nil {
		if sent { // out on NATS with their seqs, but the transaction did not commit
			err = fmt.Errorf("%w: %w", realtime.ErrPublishedNotStored, err)
		}
		for _, ev := range batch {
			ev.seq, ev.err = 0, err
		}
		return
	}
	if sent {
		return
	}
	n.mu.Lock()
	for i, ev := range batch {
		n.unsent = append(n.unsent, unsent{customerID: customerID, typ: ev.typ, seq: ev.seq, msg: msgs[i], to: ev.to})
	}
	n.mu.Unlock()
	for i, ev := range batch {
		if n.markSeen(customerID, ev.seq) {
			n.hub.Deliver(customerID, ev.typ, msgs[i], ev.to)
		}
	}
}

// onEvent delivers an event of the cluster on this node; a durable event already delivered is dropped.
func (n *Node) onEvent(m *nats.Msg) {
	cid, ok := customerOf(m.Subject)
	if !ok {
		return
	}
	if s := m.Header.Get(hdrSeq); s != "" {
		seq, err := strconv.ParseInt(s, 10, 64)
		if err != nil || !n.markLive(cid, seq) {
			return
		}
	}
	n.hub.Deliver(cid, m.Header.Get(hdrType), m.Data, realtime.ParseWireAudience(m.Header.Get(hdrAud)))
}

// markSeen records that a durable event is being delivered here; false if it already was.
func (n *Node) markSeen(customerID, seq int64) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.seen[customerID]
	if w == nil {
		w = &seqWindow{set: map[int64]bool{}}
		n.seen[customerID] = w
	}
	return w.add(seq)
}

// markLive is markSeen for an event that came through NATS: the customer's durable events arrive from there
// in seq order (the advisory lock), so the newest of them is where a catch-up starts.
func (n *Node) markLive(customerID, seq int64) bool {
	fresh := n.markSeen(customerID, seq)
	n.mu.Lock()
	w := n.seen[customerID]
	w.live = max(w.live, seq)
	n.mu.Unlock()
	return fresh
}

// mark is the newest durable seq this node received through NATS for a customer (or the newest when it joined):
// every earlier one reached it, later ones may have been missed while NATS was away.
func (n *Node) mark(customerID int64) int64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if w := n.seen[customerID]; w != nil && w.live > n.startSeq {
		return w.live
	}
	return n.startSeq
}

// noteGap remembers, when the NATS connection is lost, where each customer's catch-up will start (rejoin): the
// mark now. After the reconnect new events arrive through NATS before the catch-up has read what was missed, and
// would move the mark past it (a chaos run lost 96 events on a node's consoles that way: docs/reliability.md,
// finding 6). A second loss before the catch-up keeps the first's.
func (n *Node) noteGap() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.gapFrom == nil {
		n.gapFrom = map[int64]int64{}
	}
	for cid, w := range n.seen {
		if _, ok := n.gapFrom[cid]; !ok {
			n.gapFrom[cid] = max(w.live, n.startSeq)
		}
	}
}

// catchUpFrom is where customer customerID's catch-up starts: the mark when NATS was lost, if that is earlier.
func (n *Node) catchUpFrom(customerID int64) int64 {
	after := n.mark(customerID)
	n.mu.Lock()
	defer n.mu.Unlock()
	if g, ok := n.gapFrom[customerID]; ok {
		after = min(after, g)
	}
	return after
}

// caughtUp ends customer customerID's gap: its catch-up read everything after it.
func (n *Node) caughtUp(customerID int64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.gapFrom, customerID)
}

// seqWindow is a bounded set of delivered seqs.
type seqWindow struct {
	set   map[int64]bool
	order []int64
	max   int64
	live  int64 // the newest received through NATS
}

func (w *seqWindow) add(seq int64) bool {
	if w.set[seq] || (len(w.order) >= seenWindow && seq < w.order[0]) {
		return false
	}
	w.set[seq] = true
	i, _ := slices.BinarySearch(w.order, seq)
	w.order = slices.Insert(w.order, i, seq)
	if len(w.order) > seenWindow {
		delete(w.set, w.order[0])
		w.order = w.order[1:]
	}
	w.max = max(w.max, seq)
	return true
}

// rejoin runs when the NATS connection is back: the durable events this node stored meanwhile go out, the
// ones other nodes stored meanwhile are read from PostgreSQL and delivered here (durable events are console
// events), and the accounts this node still holds are claimed again in case the others gave them up.
//
// One runs at a time: a rejoin asked for while one runs makes it run once more when it ends (what it had read
// may be older than the cause). Overlapping, they each wrote every account's row again and told every node,
// and on a loaded node each took longer than the sweep that asked for the next.
func (n *Node) rejoin() {
	n.mu.Lock()
	if n.rejoining {
		n.rejoinAgain = true
		n.mu.Unlock()
		return
	}
	n.rejoining = true
	n.mu.Unlock()
	for {
		n.rejoinOnce()
		n.mu.Lock()
		again := n.rejoinAgain
		n.rejoinAgain = false
		n.rejoining = again
		n.mu.Unlock()
		if !again {
			return
		}
	}
}

// isRejoining reports whether a rejoin is at work.
func (n *Node) isRejoining() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.rejoining
}

func (n *Node) rejoinOnce() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n.mu.Lock()
	pending := n.unsent
	n.unsent = nil
	n.mu.Unlock()
	for i, u := range pending {
		if err := n.send(u.customerID, u.typ, u.seq, u.msg, u.to); err != nil {
			n.mu.Lock()
			n.unsent = append(pending[i:], n.unsent...)
			n.mu.Unlock()
			break
		}
	}
	for _, cid := range n.hub.Customers() {
		if err := n.catchUp(ctx, cid); err != nil {
			slog.Error("cluster: catch up durable events", "customer", cid, "err", err) // the next reconnect tries again
		}
	}
	n.reclaim(ctx)
}

// catchUp delivers here the durable events of a customer stored since its catch-up mark (catchUpFrom), in
// pages; the store may be restarting as NATS comes back, so a failed read is tried again until ctx ends.
func (n *Node) catchUp(ctx context.Context, cid int64) error {
	after := n.catchUpFrom(cid)
	for {
		frames, err := n.hub.Replay(ctx, cid, after, 500)
		if err != nil {
			select {
			case <-ctx.Done():
				return err
			case <-time.After(500 * time.Millisecond):
				continue
			}
		}
		for _, f := range frames {
			after = f.Seq
			if n.markSeen(cid, f.Seq) {
				n.hub.Deliver(cid, f.Type, mustJSON(f), realtime.WireAudience{Kinds: consolesOnly()})
			}
		}
		if len(frames) < 500 {
			n.caughtUp(cid)
			return nil
		}
	}
}

// consolesOnly is the wire form of realtime.Consoles.
func consolesOnly() uint8 {
	w, _ := realtime.Consoles.Wire()
	return w.Kinds
}
