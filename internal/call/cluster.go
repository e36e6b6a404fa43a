package call

// The floor in a cluster (internal/cluster, docs/adr/0024): a group's floor is held by one node at a time, through
// a lease the cluster keeps; this node's floor decides among its own clients only while it holds the lease.

import "context"

// FloorLeases keeps one talking node per group across a cluster (internal/cluster implements it; nil on a node
// alone, where none of this runs).
type FloorLeases interface {
	// Take claims group gid's floor for this node at a priority; false when another node's talker holds it at
	// that priority or above (or the cluster cannot be asked: then nobody is granted).
	Take(ctx context.Context, gid int64, prio int) bool
	// Release gives the group's floor up (no burst of this node in it any more).
	Release(gid int64)
}

// SetFloorLeases joins the floor to a cluster; call before serving.
func (s *Service) SetFloorLeases(l FloorLeases) { s.leases = l }

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

// takeLease claims the group's cluster floor before the local decision; it returns the release to run when
// the local floor did not grant (nil when nothing was taken or there is no cluster).
func (s *Service) takeLease(ctx context.Context, acct Account, req FloorRequest, gid int64) (release func(), err error) {
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
	if !s.leases.Take(ctx, g, int(prio)) {
		return nil, ErrFloorBusy
	}
	return func() {
		if !s.GroupTalking(g) {
			s.leases.Release(g)
		}
	}, nil
}
