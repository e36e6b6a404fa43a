package call

import (
	"context"
	"errors"
	"strconv"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/httpx"
)

// FloorRequest is `floor.request`: the call by id, or a group by gid, or (neither) the caller's current call
// or ptt group. Queue asks to wait for the floor instead of being denied.
type FloorRequest struct {
	CallID string `json:"callId"`
	GID    string `json:"gid"`
	Queue  bool   `json:"queue"`
}

// FloorReply answers a floor request.
type FloorReply struct {
	CallID         string `json:"callId"`
	Status         string `json:"status"` // granted | queued
	Position       int    `json:"position,omitempty"`
	MaxTalkMs      int64  `json:"maxTalkMs"`
	PressToGrantUs int64  `json:"pressToGrantUs,omitempty"`
}

// RequestFloor runs a floor request of a client (see docs/voice.md "Floor").
func (s *Service) RequestFloor(ctx context.Context, cl *client, req FloorRequest) (FloorReply, error) {
	at := time.Now()
	acct, err := s.currentAccount(ctx, cl)
	if err != nil {
		return FloorReply{}, err
	}
	if acct.Blocked() || s.isBlocked(acct.ID) {
		return FloorReply{}, ErrBlocked
	}
	// Resolve the target; a group's audience is read before taking the lock.
	var gid int64
	if req.CallID == "" {
		if req.GID != "" {
			if gid, err = strconv.ParseInt(req.GID, 10, 64); err != nil {
				return FloorReply{}, httpx.BadParam("gid", "a group id")
			}
		} else {
			s.mu.Lock()
			c := s.defaultCallLocked(cl)
			s.mu.Unlock()
			if c != nil {
				req.CallID = c.ID
			} else if gid = acct.PttGroup; gid == 0 {
				return FloorReply{}, ErrNotFound
			}
		}
	}
	reply, err := s.decideFloor(ctx, cl, acct, req, gid, at, false)
	if errors.Is(err, errStaleAudience) { // the group's call ended or its members changed meanwhile
		reply, err = s.decideFloor(ctx, cl, acct, req, gid, at, true)
	}
	return reply, err
}

// errStaleAudience asks decideFloor's caller to try again with the group read from the store.
var errStaleAudience = errors.New("group audience changed")

// decideFloor decides a floor request for a resolved target: the call req.CallID, or the group gid.
// A group whose call is open keeps the audience read when the call opened, as long as no directory event came
// since (Service.acctGen), so a press in a busy group costs no store read; otherwise (or with read) the group
// and its audience are read first, outside the lock.
func (s *Service) decideFloor(ctx context.Context, cl *client, acct Account, req FloorRequest, gid int64,
	at time.Time, read bool) (FloorReply, error) {
	var info GroupInfo
	var audience []Account
	var gen uint64
	if req.CallID == "" && (read || !s.groupCallFresh(gid)) {
		gen = s.acctGen.Load() // before the reads: an event during them makes the next press read again
		var err error
		if info, err = s.store.Group(ctx, acct.Customer, gid); err != nil {
			return FloorReply{}, err
		}
		if audience, err = s.store.GroupAudience(ctx, acct.Customer, gid); err != nil {
			return FloorReply{}, err
		}
		read = true
	}
	var reply FloorReply
	err := s.locked(func(f *fx) error {
		var c *Call
		if req.CallID != "" {
			c = s.calls[req.CallID]
			if c == nil || c.ended || c.Customer != acct.Customer {
				return ErrNotFound
			}
			if err := s.mayTalkLocked(c, cl); err != nil {
				return err
			}
		} else if !read {
			if c = s.groupCall[gid]; c == nil || c.ended || c.audGen != s.acctGen.Load() || c.Customer != acct.Customer {
				return errStaleAudience
			}
			if _, member := c.audience[acct.ID]; !acct.Dispatcher() && !member {
				return ErrPermission
			}
		} else {
			aud := make(map[string]Account, len(audience))
			for _, a := range audience {
				aud[a.ID] = a
				s.setBlockedLocked(a)
			}
			if _, member := aud[acct.ID]; !acct.Dispatcher() && !member {
				return ErrPermission
			}
			if c = s.groupCall[gid]; c == nil || c.ended {
				c = s.newCallLocked(f, Group, acct, info)
			}
			c.audience, c.audGen = aud, gen
		}
		if cl.peer == nil {
			return ErrNoPeer
		}
		claim := &Claim{Account: acct.ID, Client: cl, Prio: s.priorityLocked(acct), At: at, Queue: req.Queue}
		if h := c.floor.Holder; h != nil && h.Client == cl && c.burst != nil {
			reply = FloorReply{CallID: c.ID, Status: "granted", MaxTalkMs: s.opts.MaxTalkTime.Milliseconds()}
			return nil // pressed again while talking
		}
		d, pre, pos := c.floor.Request(claim)
		switch d {
		case Denied:
			return ErrFloorBusy
		case Queued:
			reply = FloorReply{CallID: c.ID, Status: "queued", Position: pos, MaxTalkMs: s.opts.MaxTalkTime.Milliseconds()}
			s.publishFloorLocked(c)
			return nil
		}
		if pre != nil || c.burst != nil {
			reason := "preempted"
			if pre == nil {
				reason = "released" // the same account pressed again from another window
			}
			if pre != nil {
				_ = pre.Client.conn.Send("floor.revoked", map[string]any{"callId": c.ID, "code": "preempted",
					"by": acct.ID, "byName": acct.Name})
			}
			s.endBurstLocked(f, c, reason, false)
		}
		s.startBurstLocked(f, c, claim)
		s.recomputeLocked(c.Customer)
		s.publishFloorLocked(c)
		reply = FloorReply{CallID: c.ID, Status: "granted", MaxTalkMs: s.opts.MaxTalkTime.Milliseconds(),
			PressToGrantUs: c.burst.accessUs}
		return nil
	})
	return reply, err
}

// mayTalkLocked checks that a client may take the floor of a non-group call.
func (s *Service) mayTalkLocked(c *Call, cl *client) error {
	if c.Kind == Group {
		if _, member := c.audience[cl.acct.ID]; !member && !cl.acct.Dispatcher() {
			return ErrPermission
		}
		return nil
	}
	p := c.party(cl.acct.ID)
	if p == nil || p.state != PartyConnected || c.State != StateConnected {
		return ErrNotAllowed
	}
	if c.Kind == Broadcast && cl.acct.ID != c.Initiator.ID {
		return ErrNotAllowed // broadcast is one-way: listeners never talk
	}
	return nil
}

// defaultCallLocked is the call a terminal's bare floor request means: its individual call, then its temporary
// group, all or broadcast call (nil: its ptt group).
// groupCallFresh tells whether group gid has an open call whose audience no directory event has aged.
func (s *Service) groupCallFresh(gid int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.groupCall[gid]
	return c != nil && !c.ended && c.audGen == s.acctGen.Load()
}

func (s *Service) defaultCallLocked(cl *client) *Call {
	var best *Call
	order := map[Kind]int{Single: 0, Temp: 1, All: 2, Broadcast: 3}
	for _, c := range s.customerCalls(cl.acct.Customer) {
		if c.Kind == Group || c.State != StateConnected {
			continue
		}
		if p := c.party(cl.acct.ID); p == nil || p.state != PartyConnected {
			continue
		}
		if best == nil || order[c.Kind] < order[best.Kind] {
			best = c
		}
	}
	return best
}

func (s *Service) priorityLocked(a Account) Priority {
	switch {
	case s.emergency[a.ID]:
		return PrioEmergency
	case a.Dispatcher():
		return PrioDispatcher
	}
	return PrioTerminal
}

// ReleaseFloor releases the floor (or a queued request) of a client: in one call, or in every call.
func (s *Service) ReleaseFloor(cl *client, callID string) error {
	return s.locked(func(f *fx) error {
		found := false
		for _, c := range s.customerCalls(cl.acct.Customer) {
			if callID != "" && c.ID != callID {
				continue
			}
			found = true
			holder := c.floor.Holder != nil && c.floor.Holder.Account == cl.acct.ID
			was, next := c.floor.Release(cl.acct.ID)
			if was && holder {
				s.endBurstLocked(f, c, "released", true)
				s.afterReleaseLocked(f, c, next)
			} else {
				s.publishFloorLocked(c)
			}
		}
		if callID != "" && !found {
			return ErrNotFound
		}
		return nil
	})
}

// afterReleaseLocked hands the floor to the next in the queue, or lets a group call hang.
func (s *Service) afterReleaseLocked(f *fx, c *Call, next *Claim) {
	for next != nil && next.Client.gone {
		_, next = c.floor.Release(next.Account)
	}
	if next != nil {
		s.startBurstLocked(f, c, next)
		_ = next.Client.conn.Send("floor.granted", map[string]any{"callId": c.ID,
			"maxTalkMs": s.opts.MaxTalkTime.Milliseconds()})
	} else if c.Kind == Group && !c.ended {
		if c.timer != nil {
			c.timer.Stop()
		}
		c.timer = time.AfterFunc(s.opts.GroupHangTime, func() { s.hangUp(c) })
	}
	s.recomputeLocked(c.Customer)
	s.publishFloorLocked(c)
}

// hangUp ends a group call that stayed silent for the hang time.
func (s *Service) hangUp(c *Call) {
	_ = s.locked(func(f *fx) error {
		if !c.ended && c.burst == nil && c.floor.Holder == nil && len(c.floor.Queue) == 0 {
			s.endCallLocked(f, c, StOK, "")
		}
		return nil
	})
}

// talkTimeUp revokes a burst that reached the maximum talk time (code 418).
func (s *Service) talkTimeUp(c *Call, b *burst) {
	_ = s.locked(func(f *fx) error {
		if c.burst != b {
			return nil
		}
		_, next := c.floor.Release(b.claim.Account)
		_ = b.talker.conn.Send("floor.revoked", map[string]any{"callId": c.ID, "code": strconv.Itoa(StMaxDuration)})
		s.endBurstLocked(f, c, "maxDuration", false)
		s.afterReleaseLocked(f, c, next)
		return nil
	})
}

// SetEmergency marks an account as an emergency (SOS) talker: while on, its floor requests pre-empt
// everyone's, and its bursts play first for every listener. Package sos calls it.
func (s *Service) SetEmergency(msID string, on bool) {
	_ = s.locked(func(f *fx) error {
		if on {
			s.emergency[msID] = true
		} else {
			delete(s.emergency, msID)
		}
		for cl := range s.byAcct[msID] {
			s.recomputeLocked(cl.acct.Customer)
			break
		}
		return nil
	})
}

// CallSetStatusChanged applies a terminal's new call-set status (spec §4: 0 killed, 1 stunned, 8 active): a
// killed or stunned terminal loses the floor and its queue places at once and hears nothing more. The
// terminal-management code calls it after storing the status.
func (s *Service) CallSetStatusChanged(customer int64, msID string, status int) {
	s.acctGen.Add(1) // cached accounts are re-read at their next press
	_ = s.locked(func(f *fx) error {
		if status == 0 || status == 1 {
			s.blocked[msID] = true
		} else {
			delete(s.blocked, msID)
		}
		for cl := range s.byAcct[msID] {
			cl.acct.Status = status
		}
		if status == 0 || status == 1 {
			for _, c := range s.customerCalls(customer) {
				holder := c.floor.Holder != nil && c.floor.Holder.Account == msID
				was, next := c.floor.Release(msID)
				if was && holder {
					if b := c.burst; b != nil {
						_ = b.talker.conn.Send("floor.revoked", map[string]any{"callId": c.ID, "code": strconv.Itoa(StNotAcceptable)})
					}
					s.endBurstLocked(f, c, "blocked", false)
					s.afterReleaseLocked(f, c, next)
				}
			}
			for _, a := range s.ambient {
				if a.targetID == msID {
					s.stopAmbientLocked(f, a)
				}
			}
		}
		s.recomputeLocked(customer)
		return nil
	})
}

// newCallLocked opens a call (log 2).
func (s *Service) newCallLocked(f *fx, kind Kind, initiator Account, g GroupInfo) *Call {
	c := &Call{ID: newCallID(), Customer: initiator.Customer, Kind: kind, Group: g.ID, GroupName: g.Name,
		Initiator: initiator, Started: time.Now(), State: StateConnected, Status: StConnected, joined: map[string]bool{}}
	c.floor.MaxQueue = s.opts.MaxQueue
	s.calls[c.ID] = c
	if kind == Group {
		s.groupCall[g.ID] = c
	}
	if kind != Single {
		f.log(c.Customer, initiator, oplog.VoiceCallStarted, string(kind)+" call "+c.describe())
	}
	return c
}

func (c *Call) describe() string {
	if c.Kind == Group || c.GroupName != "" {
		return c.GroupName
	}
	return c.ID
}

// endCallLocked ends a call for everyone (log 3).
func (s *Service) endCallLocked(f *fx, c *Call, status int, by string) {
	if c.ended {
		return
	}
	if c.floor.Holder != nil && c.burst != nil {
		s.endBurstLocked(f, c, "ended", false)
	}
	c.floor = Floor{MaxQueue: c.floor.MaxQueue}
	if c.timer != nil {
		c.timer.Stop()
	}
	c.ended, c.State, c.Status, c.By = true, StateEnded, status, by
	delete(s.calls, c.ID)
	if s.groupCall[c.Group] == c {
		delete(s.groupCall, c.Group)
	}
	for acct, id := range s.focus {
		if id == c.ID {
			delete(s.focus, acct)
		}
	}
	s.recomputeLocked(c.Customer)
	s.publishCallLocked(c)
	if c.Kind != Single || c.wasConnected {
		f.log(c.Customer, c.Initiator, oplog.CallEnded, string(c.Kind)+" call "+c.describe()+" ended")
	}
}

// partyGoneLocked handles an account whose last connection closed while it was in a call.
func (s *Service) partyGoneLocked(f *fx, c *Call, a Account) {
	switch {
	case c.Kind == Group:
	case c.Kind == Single && c.party(a.ID) != nil:
		if c.State != StateConnected && a.ID != c.Initiator.ID {
			s.missedLocked(f, c, StOffline)
		}
		s.endCallLocked(f, c, StOffline, a.ID)
	case a.ID == c.Initiator.ID:
		s.endCallLocked(f, c, StOffline, a.ID)
	default:
		if p := c.party(a.ID); p != nil && p.state == PartyConnected {
			p.state = PartyOffline
			s.recomputeLocked(c.Customer)
			s.publishCallLocked(c)
		}
	}
}

// --- events ----------------------------------------------------------------------------------------------------

func (s *Service) floorViewLocked(c *Call) *FloorView {
	v := &FloorView{CallID: c.ID, Kind: c.Kind, GName: c.GroupName, Queue: c.floor.QueueIDs(),
		MaxTalkMs: s.opts.MaxTalkTime.Milliseconds()}
	if c.Group != 0 {
		v.GID = strconv.FormatInt(c.Group, 10)
	}
	if b := c.burst; b != nil {
		p := b.talker.acct.person()
		v.Talker, v.Since, v.Emergency = &p, b.mb.Granted.UnixMilli(), b.emergency
	}
	return v
}

func (s *Service) publishFloorLocked(c *Call) {
	s.hub.Publish(c.Customer, "floor.state", s.floorViewLocked(c), s.callAudienceFilter(c))
}

func (s *Service) callViewLocked(c *Call) CallView {
	v := CallView{CallID: c.ID, Kind: c.Kind, State: c.State, Status: c.Status, GName: c.GroupName,
		Initiator: c.Initiator.person(), Started: c.Started.UnixMilli(), By: c.By}
	if c.Group != 0 {
		v.GID = strconv.FormatInt(c.Group, 10)
	}
	for _, p := range c.parties {
		v.Parties = append(v.Parties, PartyView{Person: p.person(), State: p.state})
	}
	if !c.ended {
		v.Floor = s.floorViewLocked(c)
	}
	return v
}

func (s *Service) publishCallLocked(c *Call) {
	s.hub.Publish(c.Customer, "call.state", s.callViewLocked(c), s.callAudienceFilter(c))
}

// Calls is the snapshot of a customer's open calls an account may see (`call.list`).
func (s *Service) Calls(customer int64, acct string, console bool) []CallView {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []CallView{}
	for _, c := range s.customerCalls(customer) {
		if !console {
			if _, member := c.audience[acct]; c.Kind == Group && !member {
				continue
			}
			if c.Kind != Group && c.party(acct) == nil {
				continue
			}
		}
		out = append(out, s.callViewLocked(c))
	}
	return out
}

// UpstreamPackets counts the packets the server received and handled from an account's connections (its
// microphone), forwarded or not; for diagnostics and tests.
func (s *Service) UpstreamPackets(msID string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n uint64
	for cl := range s.byAcct[msID] {
		if cl.peer != nil {
			n += cl.peer.UpstreamPackets()
		}
	}
	return n
}
