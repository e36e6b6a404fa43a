package call

// The floor in a cluster (internal/cluster, docs/adr/0024): a group's floor is held by one node at a time, through
// a lease the cluster keeps; this node's floor decides among its own clients only while it holds the lease.

import (
	"context"
	"errors"
	"time"
)

// FloorLeases keeps one talking node per group across a cluster (internal/cluster implements it; nil on a node
// alone, where none of this runs).
type FloorLeases interface {
	// Take claims group gid's floor for this node for a press at a priority that arrived at; false when another
	// node's talker holds it at that priority or above, when a waiter of another node comes first (Outranked),
	// or when the cluster cannot be asked (then nobody is granted).
	Take(ctx context.Context, gid int64, prio int, at time.Time) bool
	// Decided follows every Take that said yes, once this node's floor decided that press.
	Decided(gid int64)
	// Live tells whether this node holds group gid's floor now: a lease Take gave may run out (unrenewed) while
	// its press is decided. It reads memory only, so it may be called under the service's lock.
	Live(gid int64) bool
	// Release gives the group's floor up unless a burst of this node runs in it (it asks GroupTalking, so it must
	// not be called with the service's lock held) or a press here is still being decided.
	Release(gid int64)
	// Outranked tells whether a waiter of another node comes before a claim (higher priority, or the same and
	// earlier); it reads memory only, so it may be called under the service's lock.
	Outranked(gid int64, prio int, at int64) bool
	// Advertise says that this node's queue of group gid, its head at prio having arrived at, waits for the
	// floor another node holds (renewed by calling it again); Withdraw ends that.
	Advertise(gid int64, prio int, at time.Time)
	Withdraw(gid int64)
	// Asked tells the node talking in group gid that a press was refused (its talker's retry gap).
	Asked(gid int64, prio int)
}

// SetFloorLeases joins the floor to a cluster; call before serving. Written under the lock that every press
// takes before it reads the leases (currentAccount), so a test may set them on a running node before a press.
func (s *Service) SetFloorLeases(l FloorLeases) {
	s.mu.Lock()
	s.leases = l
	s.mu.Unlock()
}

// GroupTalking tells whether a burst of this node runs in group gid's call (the cluster renews its lease while so).
func (s *Service) GroupTalking(gid int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.groupCall[gid]
	return c != nil && !c.ended && c.burst != nil
}

// RevokeGroup ends this node's burst in group gid: a talker on another node took the group's floor with a higher
// priority, or this node lost its lease. The talker gets floor.revoked (preempted); this node's queue keeps its
// places but is not served until the floor is taken again here.
func (s *Service) RevokeGroup(gid int64) {
	_ = s.locked(func(later *afterUnlock) error {
		c := s.groupCall[gid]
		if c == nil || c.ended || c.burst == nil {
			return nil
		}
		b := c.burst
		c.floor.Holder = nil
		_ = b.talker.conn.Send("floor.revoked", map[string]any{"callId": c.ID, "code": "preempted"})
		s.endBurstLocked(later, c, "preempted", false)
		s.afterReleaseLocked(later, c, nil)
		return nil
	})
}

// HandedOver grants the head of this node's queue of group gid: the node that held the group's floor handed it
// here when its burst ended (internal/cluster). False when nobody here took it (the cluster passes it on).
func (s *Service) HandedOver(gid int64) bool {
	granted := false
	_ = s.locked(func(later *afterUnlock) error {
		c := s.groupCall[gid]
		if c == nil || c.ended {
			return nil
		}
		if c.floor.Holder == nil {
			if next := c.floor.Next(); next != nil {
				s.afterReleaseLocked(later, c, next)
			}
		}
		granted = c.burst != nil
		return nil
	})
	return granted
}

// FloorAsked notes a press of another node refused while this node's talker holds group gid's floor: as a press
// refused here, it makes the talker wait its retry gap before taking the free floor again (Floor.Request).
func (s *Service) FloorAsked(gid int64, prio int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.groupCall[gid]; c != nil && !c.ended && c.floor.Holder != nil {
		c.floor.asked = max(c.floor.asked, Priority(prio))
	}
}

// floorGroup is the group whose cluster lease a floor request needs (0: none — not a group call).
func (s *Service) floorGroup(req FloorRequest, gid int64) int64 {
	if gid != 0 || req.CallID == "" {
		return gid
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.calls[string(req.CallID)]; c != nil && c.Kind == Group {
		return c.Group
	}
	return 0
}

// errRemoteBusy: another node holds the group's floor (or a waiter of another node comes first); a press with
// queue:true is queued here, waiting for the floor (resumeFloor), otherwise refused busy.
var errRemoteBusy = errors.New("group floor held by another node")

// takeLease claims the group's cluster floor before the local decision; it returns what to run once the local
// floor decided (nil when nothing was taken or there is no cluster): the lease is given up again when the press
// was not granted and nobody else of this node talks.
func (s *Service) takeLease(ctx context.Context, acct Account, req FloorRequest, gid int64, at time.Time) (decided func(granted bool), err error) {
	if s.leases == nil {
		return nil, nil
	}
	g := s.floorGroup(req, gid)
	if g == 0 {
		return nil, nil
	}
	s.mu.Lock()
	prio := s.priorityLocked(acct)
	s.mu.Unlock()
	if !s.leases.Take(ctx, g, int(prio), at) {
		if !req.Queue {
			s.leases.Asked(g, int(prio))
		}
		return nil, errRemoteBusy
	}
	return func(granted bool) {
		s.leases.Decided(g)
		if !granted {
			s.leases.Release(g)
		}
	}, nil
}
