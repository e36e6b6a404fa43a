package cluster

// Group floors across nodes (docs/adr/0024): the node whose talker holds a group's floor holds the key of the
// group in the bucket tenfour_floor. It takes it with Create (compare-and-set on "absent"), renews it with
// Update(revision) every floorRenew while its burst lasts, and deletes it (at its revision) when the burst ends.
// The bucket's TTL (floorTTL) frees the floor of a node that died. A higher-priority press on another node takes
// the key over with Update(revision) and tells the holder, which revokes its burst; a holder whose renewal fails
// (the revision moved, or NATS is away) revokes its burst at once, so two nodes never both believe they hold it.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"tenfour/internal/platform/ticker"
)

const (
	bucketFloor  = "tenfour_floor"
	subjRevoke   = "tenfour.floor.revoke"
	floorTTL     = 1500 * time.Millisecond // a dead node's group floors are free again within this
	floorRenew   = 400 * time.Millisecond
	floorTimeout = time.Second // bounds one lease operation
)

// FloorHolder is the voice service's side of the group floors (internal/call.Service).
type FloorHolder interface {
	GroupTalking(gid int64) bool // a burst of this node runs in the group
	RevokeGroup(gid int64)       // end this node's burst in the group
}

type floorVal struct {
	Node string `json:"node"`
	Prio int    `json:"prio"`
}

type lease struct {
	rev  uint64
	prio int
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
	f := &GroupFloors{n: n, kv: kv, holder: h, held: map[int64]lease{}, deciding: map[int64]int{}}
	if _, err := n.nc.Subscribe(subjRevoke, f.onRevoke); err != nil {
		return nil, err
	}
	return f, nil
}

func key(gid int64) string { return "g" + strconv.FormatInt(gid, 10) }

// Take claims a group's floor for this node (call.FloorLeases); a yes must be followed by Decided.
func (f *GroupFloors) Take(ctx context.Context, gid int64, prio int) bool {
	ctx, cancel := context.WithTimeout(ctx, floorTimeout)
	defer cancel()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.take(ctx, gid, prio) {
		f.deciding[gid]++
		return true
	}
	return false
}

// Decided ends a press Take said yes to: this node's floor granted it or not (call.FloorLeases).
func (f *GroupFloors) Decided(gid int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.deciding[gid]--; f.deciding[gid] <= 0 {
		delete(f.deciding, gid)
	}
}

func (f *GroupFloors) take(ctx context.Context, gid int64, prio int) bool {
	val, _ := json.Marshal(floorVal{Node: f.n.opt.NodeID, Prio: prio})
	if l, ok := f.held[gid]; ok {
		if prio <= l.prio {
			return true
		}
		rev, err := f.kv.Update(ctx, key(gid), val, l.rev) // a higher priority here: say so to the others
		if err != nil {
			delete(f.held, gid)
			return false
		}
		f.held[gid] = lease{rev: rev, prio: prio}
		return true
	}
	rev, err := f.kv.Create(ctx, key(gid), val)
	if err == nil {
		f.held[gid] = lease{rev: rev, prio: prio}
		return true
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
	if json.Unmarshal(e.Value(), &cur) != nil || cur.Prio >= prio {
		return false
	}
	rev, err = f.kv.Update(ctx, key(gid), val, e.Revision()) // pre-empt: compare-and-set on what was read
	if err != nil {
		return false
	}
	f.held[gid] = lease{rev: rev, prio: prio}
	_ = f.n.nc.Publish(subjRevoke, mustJSON(revokeMsg{GID: gid, Node: cur.Node}))
	return true
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
	delete(f.held, gid)
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), floorTimeout)
	defer cancel()
	if err := f.kv.Delete(ctx, key(gid), jetstream.LastRevision(l.rev)); err != nil {
		slog.Debug("cluster: floor release", "gid", gid, "err", err) // taken over or expired: not ours any more
	}
}

// onRevoke: another node's talker took a group's floor from this node's.
func (f *GroupFloors) onRevoke(msg *nats.Msg) {
	var m revokeMsg
	if json.Unmarshal(msg.Data, &m) != nil || m.Node != f.n.opt.NodeID {
		return
	}
	f.mu.Lock()
	delete(f.held, m.GID)
	f.mu.Unlock()
	go f.holder.RevokeGroup(m.GID)
}

// Run renews the leases of groups this node talks in, and gives up the others, until ctx ends.
func (f *GroupFloors) Run(ctx context.Context) {
	ticker.Every(ctx, floorRenew, func() {
		f.mu.Lock()
		gids := make([]int64, 0, len(f.held))
		for gid := range f.held {
			gids = append(gids, gid)
		}
		f.mu.Unlock()
		for _, gid := range gids {
			if !f.holder.GroupTalking(gid) {
				f.Release(gid) // unless a press here is being decided (it checks again)
				continue
			}
			f.renew(ctx, gid)
		}
	})
}

func (f *GroupFloors) renew(ctx context.Context, gid int64) {
	ctx, cancel := context.WithTimeout(ctx, floorTimeout)
	defer cancel()
	f.mu.Lock()
	l, ok := f.held[gid]
	if !ok {
		f.mu.Unlock()
		return
	}
	val, _ := json.Marshal(floorVal{Node: f.n.opt.NodeID, Prio: l.prio})
	rev, err := f.kv.Update(ctx, key(gid), val, l.rev)
	if err == nil {
		f.held[gid] = lease{rev: rev, prio: l.prio}
		f.mu.Unlock()
		return
	}
	delete(f.held, gid)
	f.mu.Unlock()
	slog.Warn("cluster: group floor lost, revoking the burst", "gid", gid, "err", err)
	f.holder.RevokeGroup(gid)
}
