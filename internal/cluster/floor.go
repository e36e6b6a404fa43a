package cluster

// Group floors across nodes (docs/adr/0024): the node whose talker holds a group's floor holds the key of the
// group in the bucket tenfour_floor. It takes it with Create (compare-and-set on "absent"), renews it with
// Update(revision) every floorRenew while its burst lasts, and deletes it (at its revision) when the burst ends.
// The bucket's TTL (floorTTL) frees the floor of a node that died. A higher-priority press on another node takes
// the key over with Update(revision) and tells the holder, which revokes its burst; a holder whose renewal fails
// (the revision moved, or NATS is away) revokes its burst at once, so two nodes never both believe they hold it.
// Nor does a renewal that never answers: each lease runs out on this node floorMargin before the bucket could
// expire it (floorTTL after the write this node sent last and saw confirmed), and its burst is revoked then,
// without waiting for the lease operation in progress. The renewals of all groups are sent at once, so one slow
// renewal never makes another group's late.
//
// The queue across nodes: a node whose group call has a queue waiting for a key another node holds advertises
// its head (priority, arrival) as w<gid>.<node> in the same bucket, renewed while it waits (a dead node's
// advertisement expires with the TTL). Every node watches the bucket. A press or a poll takes a free key only
// when no live advertisement of another node outranks it, and a release hands the key to the best
// advertisement (Update at the holder's revision, value naming the head's node) instead of deleting it, so no
// third node slips in; the named node grants its head on seeing the key name it, or passes it on.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"tenfour/internal/platform/ticker"
)

const (
	bucketFloor  = "tenfour_floor"
	subjRevoke   = "tenfour.floor.revoke"
	subjAsked    = "tenfour.floor.asked"
	floorTTL     = 1500 * time.Millisecond // a dead node's group floors are free again within this
	floorRenew   = 400 * time.Millisecond
	floorTimeout = time.Second // bounds one lease operation
	// floorMargin: a lease runs out here this long before the bucket may expire its key (floorTTL after the
	// confirmed write was sent), time enough for the burst's revocation to stop its media.
	floorMargin = 300 * time.Millisecond
)

// FloorHolder is the voice service's side of the group floors (internal/call.Service).
type FloorHolder interface {
	GroupTalking(gid int64) bool // a burst of this node runs in the group
	RevokeGroup(gid int64)       // end this node's burst in the group
	// HandedOver: another node handed the group's floor to this node's queue; grant its head (false: nobody
	// here to grant, the floor is passed on).
	HandedOver(gid int64) bool
	// FloorAsked: a press of another node at prio was refused while this node talks in the group (its retry gap).
	FloorAsked(gid int64, prio int)
}

// waitAd is a node's advertisement of the head of its queue for a group's floor (key w<gid>.<node>).
type waitAd struct {
	Node string `json:"node"`
	Prio int    `json:"prio"`
	At   int64  `json:"at"` // arrival, Unix nanoseconds
	seen time.Time
}

// outranks: a waiter of higher priority, or of the same priority and earlier, is served first.
func (a waitAd) outranks(prio int, at int64) bool {
	return a.Prio > prio || a.Prio == prio && a.At < at
}

type floorVal struct {
	Node string `json:"node"`
	Prio int    `json:"prio"`
}

type lease struct {
	rev   uint64
	prio  int
	until time.Time   // the run-out
	out   *time.Timer // runs the lease out (runOut) at until unless a renewal confirmed first
}

// GroupFloors is the node's part of the group floors (call.FloorLeases).
type GroupFloors struct {
	n      *Node
	kv     jetstream.KeyValue
	holder FloorHolder

	mu   sync.Mutex // one lease operation at a time on this node
	held map[int64]lease
	// deciding counts, per group, the presses this node's floor is still deciding after Take said yes: the
	// lease is not released under them (a press granted here between a "nobody talks" check and the release
	// would talk while another node takes the freed key — CI run 14 saw two talkers 5 ms apart that way).
	deciding map[int64]int
	// gone is, per group, the revision of the key this node last gave up: a key naming this node at that
	// revision is its own, stale (its deletion or hand-over may still be under way), never a hand-over to adopt.
	gone map[int64]uint64

	// omu guards live, the revision of each lease whose run-out has not come (runOut needs no lease operation
	// to end: mu may be held by one waiting on NATS).
	omu  sync.Mutex
	live map[int64]uint64

	amu sync.Mutex                  // the other nodes' advertisements (never held while calling the holder)
	ads map[int64]map[string]waitAd // other nodes' waiters, per group, by node (from the bucket's watch)
	// wmu orders this node's advertisement writes (a withdrawal racing a renewal must not leave the renewal
	// last) and guards mine, what this node advertises.
	wmu  sync.Mutex
	mine map[int64]waitAd
}

// Floors joins the voice service to the cluster's group floors and returns what call.Service.SetFloorLeases
// takes; run its Run loop (renewals) with the node's.
func (n *Node) Floors(ctx context.Context, h FloorHolder) (*GroupFloors, error) {
	js, err := jetstream.New(n.nc)
	if err != nil {
		return nil, err
	}
	kctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	kv, err := js.CreateOrUpdateKeyValue(kctx, jetstream.KeyValueConfig{Bucket: bucketFloor, TTL: floorTTL, History: 1,
		Description: "tenfour group floors: the node whose talker holds each (docs/adr/0024)"})
	if err != nil {
		return nil, err
	}
	f := &GroupFloors{n: n, kv: kv, holder: h, held: map[int64]lease{}, deciding: map[int64]int{}, gone: map[int64]uint64{},
		live: map[int64]uint64{}, ads: map[int64]map[string]waitAd{}, mine: map[int64]waitAd{}}
	n.floors = f
	if _, err := n.nc.Subscribe(subjRevoke, f.onRevoke); err != nil {
		return nil, err
	}
	if _, err := n.nc.Subscribe(subjAsked, f.onAsked); err != nil {
		return nil, err
	}
	return f, nil
}

func key(gid int64) string { return "g" + strconv.FormatInt(gid, 10) }

func adKey(gid int64, node string) string { return "w" + strconv.FormatInt(gid, 10) + "." + node }

// Take claims a group's floor for this node for a press at prio that arrived at (call.FloorLeases); a yes must
// be followed by Decided.
func (f *GroupFloors) Take(ctx context.Context, gid int64, prio int, at time.Time) bool {
	ctx, cancel := context.WithTimeout(ctx, floorTimeout)
	defer cancel()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.take(ctx, gid, prio, at.UnixNano()) {
		f.deciding[gid]++
		return true
	}
	return false
}

// Decided ends a press Take said yes to: this node's floor granted it or not (call.FloorLeases).
// A lease that ran out while the press was decided revokes what the press started: the run-out's own revocation
// may have come before the burst.
func (f *GroupFloors) Decided(gid int64) {
	f.mu.Lock()
	if f.deciding[gid]--; f.deciding[gid] <= 0 {
		delete(f.deciding, gid)
	}
	f.mu.Unlock()
	f.omu.Lock()
	_, live := f.live[gid]
	f.omu.Unlock()
	if !live {
		go f.holder.RevokeGroup(gid)
	}
}

func (f *GroupFloors) take(ctx context.Context, gid int64, prio int, at int64) bool {
	val, _ := json.Marshal(floorVal{Node: f.n.opt.NodeID, Prio: prio})
	if l, ok := f.held[gid]; ok {
		return f.raise(ctx, gid, l, prio, val)
	}
	if f.Outranked(gid, prio, at) {
		return false // another node's waiter comes first: the floor is handed to it
	}
	sent := time.Now()
	rev, err := f.kv.Create(ctx, key(gid), val)
	if err == nil {
		return f.hold(gid, rev, prio, sent)
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		slog.Warn("cluster: floor lease", "gid", gid, "err", err)
		return false
	}
	e, err := f.kv.Get(ctx, key(gid))
	if err != nil {
		return false // gone meanwhile (expired, released): the next press takes it
	}
	var cur floorVal
	if json.Unmarshal(e.Value(), &cur) != nil {
		return false
	}
	if cur.Node == f.n.opt.NodeID && e.Revision() != f.gone[gid] { // another node handed the floor to this node
		return f.adoptKey(ctx, gid, e.Revision(), max(cur.Prio, prio))
	}
	if cur.Prio >= prio {
		return false
	}
	sent = time.Now()
	rev, err = f.kv.Update(ctx, key(gid), val, e.Revision()) // pre-empt: compare-and-set on what was read
	if err != nil {
		return false
	}
	_ = f.n.nc.Publish(subjRevoke, mustJSON(revokeMsg{GID: gid, Node: cur.Node}))
	return f.hold(gid, rev, prio, sent)
}

// raise: a press on a floor this node holds; a higher priority than the lease's is written so other nodes see it.
func (f *GroupFloors) raise(ctx context.Context, gid int64, l lease, prio int, val []byte) bool {
	if prio <= l.prio {
		return time.Until(l.until) > floorRenew
	}
	sent := time.Now()
	rev, err := f.kv.Update(ctx, key(gid), val, l.rev)
	if err != nil {
		f.drop(gid)
		return false
	}
	return f.hold(gid, rev, prio, sent)
}

// adoptKey takes the key another node handed to this node at revision at: written again at once (compare-and-set
// on rev), so that the lease's time is this node's own write and not the other node's, whose age is unknown. The
// caller holds mu.
func (f *GroupFloors) adoptKey(ctx context.Context, gid int64, at uint64, prio int) bool {
	val, _ := json.Marshal(floorVal{Node: f.n.opt.NodeID, Prio: prio})
	sent := time.Now()
	rev, err := f.kv.Update(ctx, key(gid), val, at)
	if err != nil {
		f.gone[gid] = at // expired, or taken meanwhile: never adopted again
		return false
	}
	return f.hold(gid, rev, prio, sent)
}

// hold records this node's lease of group gid's key at revision rev, written by a request sent at sent, and arms
// its run-out: the bucket expires the key floorTTL after it stored the write, which is after sent. It tells whether
// a press may be granted on it: a confirmation that came late (a slow link) leaves less than a renewal's interval
// before the run-out, and a burst granted then could outlive the key before its first renewal (a chaos run's lossy
// node granted a press 3.9 s after it, after the lease it was given had run out). The caller holds mu.
func (f *GroupFloors) hold(gid int64, rev uint64, prio int, sent time.Time) bool {
	if old, ok := f.held[gid]; ok && old.out != nil {
		old.out.Stop()
	}
	f.omu.Lock()
	f.live[gid] = rev
	f.omu.Unlock()
	until := sent.Add(floorTTL - floorMargin)
	out := time.AfterFunc(time.Until(until), func() { f.runOut(gid, rev) })
	f.held[gid] = lease{rev: rev, prio: prio, until: until, out: out}
	return time.Until(until) > floorRenew
}

// forget removes this node's lease of group gid and its run-out; the caller holds mu.
func (f *GroupFloors) forget(gid int64) (lease, bool) {
	l, ok := f.held[gid]
	if !ok {
		return l, false
	}
	if l.out != nil {
		l.out.Stop()
	}
	delete(f.held, gid)
	f.omu.Lock()
	if f.live[gid] == l.rev {
		delete(f.live, gid)
	}
	f.omu.Unlock()
	return l, true
}

// drop forgets this node's lease of group gid (given up, lost or run out); the caller holds mu.
func (f *GroupFloors) drop(gid int64) {
	if l, ok := f.forget(gid); ok {
		f.gone[gid] = l.rev
	}
}

// runOut ends a lease no renewal confirmed in time (NATS silent or slow): its burst is revoked before the key can
// expire and another node take the floor.
func (f *GroupFloors) runOut(gid int64, rev uint64) {
	f.omu.Lock()
	if f.live[gid] != rev {
		f.omu.Unlock()
		return // renewed, given up or lost meanwhile
	}
	delete(f.live, gid)
	f.omu.Unlock()
	slog.Warn("cluster: group floor lease ran out unrenewed, revoking the burst", "gid", gid)
	f.holder.RevokeGroup(gid)
	f.mu.Lock() // after the revocation: a renewal waiting on NATS may hold it
	if l, ok := f.held[gid]; ok && l.rev == rev {
		f.drop(gid)
	}
	f.mu.Unlock()
}

type revokeMsg struct {
	GID  int64  `json:"gid"`
	Node string `json:"node"`
}

// Release gives a group's floor up unless a burst of this node runs in it or a press here is still being decided
// (call.FloorLeases). Both are checked under the lease lock Take holds, so no press granted here can talk on a
// released key.
func (f *GroupFloors) Release(gid int64) {
	f.mu.Lock()
	l, ok := f.held[gid]
	if !ok || f.deciding[gid] > 0 || f.holder.GroupTalking(gid) {
		f.mu.Unlock()
		return
	}
	f.drop(gid)
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), floorTimeout)
	defer cancel()
	if head, ok := f.best(gid); ok { // hand the floor to the head of the queue across nodes
		val, _ := json.Marshal(floorVal{Node: head.Node, Prio: head.Prio})
		if _, err := f.kv.Update(ctx, key(gid), val, l.rev); err != nil {
			slog.Debug("cluster: floor hand-over", "gid", gid, "to", head.Node, "err", err)
		}
		return
	}
	if err := f.kv.Delete(ctx, key(gid), jetstream.LastRevision(l.rev)); err != nil {
		slog.Debug("cluster: floor release", "gid", gid, "err", err) // taken over or expired: not ours any more
	}
}

// Live tells whether this node holds group gid's floor lease now: taken and neither run out, given up nor lost
// (call.FloorLeases; it reads only this node's memory).
func (f *GroupFloors) Live(gid int64) bool {
	f.omu.Lock()
	defer f.omu.Unlock()
	_, ok := f.live[gid]
	return ok
}

// Outranked tells whether a live waiter of another node comes before a claim at prio that arrived at
// (call.FloorLeases; it reads only this node's memory).
func (f *GroupFloors) Outranked(gid int64, prio int, at int64) bool {
	f.amu.Lock()
	defer f.amu.Unlock()
	for _, a := range f.ads[gid] {
		if time.Since(a.seen) < floorTTL && a.outranks(prio, at) {
			return true
		}
	}
	return false
}

// Waiter is the head of another node's queue for a group's floor, as it advertises it.
type Waiter struct {
	Prio int
	At   int64 // arrival, Unix nanoseconds
}

// Waiters are the other nodes' queue advertisements for group gid that this node's watch of the bucket has
// delivered, by node (tests, diagnostics: the presses this node decides are weighed against them); nil before
// Floors.
func (n *Node) Waiters(gid int64) map[string]Waiter {
	f := n.floors
	if f == nil {
		return nil
	}
	f.amu.Lock()
	defer f.amu.Unlock()
	out := map[string]Waiter{}
	for node, a := range f.ads[gid] {
		out[node] = Waiter{Prio: a.Prio, At: a.At}
	}
	return out
}

// best is the live waiter of another node that comes first for group gid.
func (f *GroupFloors) best(gid int64) (waitAd, bool) {
	f.amu.Lock()
	defer f.amu.Unlock()
	var head waitAd
	found := false
	for _, a := range f.ads[gid] {
		if time.Since(a.seen) < floorTTL && (!found || a.outranks(head.Prio, head.At)) {
			head, found = a, true
		}
	}
	return head, found
}

// Advertise says that this node's queue for group gid waits for the floor another node holds, its head at prio
// having arrived at (call.FloorLeases); it writes only a change, or a renewal once per floorRenew.
func (f *GroupFloors) Advertise(gid int64, prio int, at time.Time) {
	ad := waitAd{Node: f.n.opt.NodeID, Prio: prio, At: at.UnixNano(), seen: time.Now()}
	f.wmu.Lock()
	defer f.wmu.Unlock()
	old, ok := f.mine[gid]
	if ok && old.Prio == ad.Prio && old.At == ad.At && time.Since(old.seen) < floorRenew {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), floorTimeout)
	defer cancel()
	if _, err := f.kv.Put(ctx, adKey(gid, ad.Node), mustJSON(ad)); err != nil {
		slog.Debug("cluster: floor queue advertisement", "gid", gid, "err", err)
		f.mine[gid] = waitAd{} // written again on the next call, deleted by Withdraw (it may have been written)
		return
	}
	f.mine[gid] = ad
}

// Withdraw ends this node's advertisement for group gid (its queue emptied or took the floor).
func (f *GroupFloors) Withdraw(gid int64) {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	_, ok := f.mine[gid]
	delete(f.mine, gid)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), floorTimeout)
	defer cancel()
	if err := f.kv.Delete(ctx, adKey(gid, f.n.opt.NodeID)); err != nil {
		slog.Debug("cluster: floor queue withdrawal", "gid", gid, "err", err)
	}
}

// Asked tells the node talking in group gid that a press at prio was refused (its talker's retry gap,
// call.FloorLeases).
func (f *GroupFloors) Asked(gid int64, prio int) {
	_ = f.n.nc.Publish(subjAsked, mustJSON(askedMsg{GID: gid, Prio: prio}))
}

type askedMsg struct {
	GID  int64 `json:"gid"`
	Prio int   `json:"prio"`
}

func (f *GroupFloors) onAsked(msg *nats.Msg) {
	var m askedMsg
	if json.Unmarshal(msg.Data, &m) == nil {
		f.holder.FloorAsked(m.GID, m.Prio) // a node not talking in the group ignores it
	}
}

// watch keeps the other nodes' advertisements, and grants this node's queue when a key is handed to it.
func (f *GroupFloors) watch(ctx context.Context) {
	for ctx.Err() == nil {
		w, err := f.kv.WatchAll(ctx)
		if err != nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(floorRenew):
				continue
			}
		}
	updates:
		for {
			select {
			case <-ctx.Done():
				_ = w.Stop()
				return
			case e, ok := <-w.Updates():
				if !ok {
					break updates // the subscription closed (NATS lost): watch again
				}
				if e != nil {
					f.seen(e)
				}
			}
		}
		_ = w.Stop()
	}
}

func (f *GroupFloors) seen(e jetstream.KeyValueEntry) {
	k, put := e.Key(), e.Operation() == jetstream.KeyValuePut
	if strings.HasPrefix(k, "w") {
		g, node, ok := strings.Cut(k[1:], ".")
		gid, err := strconv.ParseInt(g, 10, 64)
		if !ok || err != nil || node == f.n.opt.NodeID {
			return
		}
		var a waitAd
		if put && json.Unmarshal(e.Value(), &a) != nil {
			return
		}
		a.Node, a.seen = node, time.Now()
		f.amu.Lock()
		if put {
			if f.ads[gid] == nil {
				f.ads[gid] = map[string]waitAd{}
			}
			f.ads[gid][node] = a
		} else if delete(f.ads[gid], node); len(f.ads[gid]) == 0 {
			delete(f.ads, gid)
		}
		f.amu.Unlock()
		return
	}
	gid, err := strconv.ParseInt(strings.TrimPrefix(k, "g"), 10, 64)
	var v floorVal
	if !put || err != nil || json.Unmarshal(e.Value(), &v) != nil || v.Node != f.n.opt.NodeID {
		return
	}
	f.mu.Lock()
	_, held := f.held[gid]
	f.mu.Unlock()
	if !held {
		go f.adopt(gid)
	}
}

// adopt takes a group's floor another node handed to this node and grants the head of the queue here; with
// nobody to grant, the floor is passed on (Release).
func (f *GroupFloors) adopt(gid int64) {
	ctx, cancel := context.WithTimeout(context.Background(), floorTimeout)
	defer cancel()
	f.mu.Lock()
	if _, held := f.held[gid]; held {
		f.mu.Unlock()
		return
	}
	e, err := f.kv.Get(ctx, key(gid)) // the current value, not the watched one: it may be stale
	var v floorVal
	if err != nil || json.Unmarshal(e.Value(), &v) != nil || v.Node != f.n.opt.NodeID || e.Revision() == f.gone[gid] {
		f.mu.Unlock()
		return
	}
	if !f.adoptKey(ctx, gid, e.Revision(), v.Prio) {
		f.mu.Unlock()
		return
	}
	f.deciding[gid]++
	f.mu.Unlock()
	granted := f.holder.HandedOver(gid)
	f.Decided(gid)
	if !granted {
		f.Release(gid) // passed on
		return
	}
	f.Withdraw(gid) // at once: a stale advertisement would draw the floor back here after this burst
}

// onRevoke: another node's talker took a group's floor from this node's.
func (f *GroupFloors) onRevoke(msg *nats.Msg) {
	var m revokeMsg
	if json.Unmarshal(msg.Data, &m) != nil || m.Node != f.n.opt.NodeID {
		return
	}
	f.mu.Lock()
	f.forget(m.GID)
	f.mu.Unlock()
	go f.holder.RevokeGroup(m.GID)
}

// Run renews the leases of groups this node talks in, and gives up the others, until ctx ends.
func (f *GroupFloors) Run(ctx context.Context) {
	watched := make(chan struct{})
	go func() { f.watch(ctx); close(watched) }()
	defer func() { <-watched }()
	ticker.Every(ctx, floorRenew, func() {
		f.mu.Lock()
		gids := make([]int64, 0, len(f.held))
		for gid := range f.held {
			gids = append(gids, gid)
		}
		f.mu.Unlock()
		talking := gids[:0]
		for _, gid := range gids {
			if !f.holder.GroupTalking(gid) {
				f.Release(gid) // unless a press here is being decided (it checks again)
				continue
			}
			talking = append(talking, gid)
		}
		f.renew(ctx, talking)
	})
}

// renew writes the leases of groups gids again, all at once (compare-and-set on each one's revision); a lease
// whose renewal fails is lost and its burst revoked.
func (f *GroupFloors) renew(ctx context.Context, gids []int64) {
	if len(gids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, floorTimeout)
	defer cancel()
	type result struct {
		gid  int64
		l    lease
		rev  uint64
		sent time.Time
		err  error
	}
	f.mu.Lock()
	results := make([]result, 0, len(gids))
	for _, gid := range gids {
		if l, ok := f.held[gid]; ok {
			results = append(results, result{gid: gid, l: l})
		}
	}
	var wg sync.WaitGroup
	for i := range results {
		r := &results[i]
		wg.Go(func() {
			val, _ := json.Marshal(floorVal{Node: f.n.opt.NodeID, Prio: r.l.prio})
			r.sent = time.Now()
			r.rev, r.err = f.kv.Update(ctx, key(r.gid), val, r.l.rev)
		})
	}
	wg.Wait()
	var lost []int64
	for _, r := range results {
		if cur, ok := f.held[r.gid]; !ok || cur.rev != r.l.rev {
			continue // ran out, revoked or given up while the renewals were out
		}
		if r.err == nil {
			f.hold(r.gid, r.rev, r.l.prio, r.sent)
			continue
		}
		f.drop(r.gid)
		slog.Warn("cluster: group floor lost, revoking the burst", "gid", r.gid, "err", r.err)
		lost = append(lost, r.gid)
	}
	f.mu.Unlock()
	for _, gid := range lost {
		f.holder.RevokeGroup(gid)
	}
}
