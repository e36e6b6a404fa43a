package call

// Starting and ending calls by request: an individual call (invite, ring, answer, acknowledge, cancel, bye) and
// the temporary-group, all and broadcast calls.

import (
	"context"
	"errors"
	"strconv"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
)

// Invite is `call.invite`: an individual call to msId, or a temporary-group (msIds or a stored temp group
// gid), all or broadcast call.
type Invite struct {
	Kind  Kind        `json:"kind"`
	MsID  flex.String `json:"msId"`
	MsIDs flex.List   `json:"msIds"`
	GID   flex.String `json:"gid"`
	// Number is a phone number an individual call reaches through the customer's trunk (dialout.go), instead
	// of msId.
	Number flex.String `json:"number"`
	// Duplex: the caller talks on an open line (a SIP phone's session): with a console, or another such party,
	// the call is full duplex (duplex.go).
	Duplex bool `json:"duplex"`
}

// InviteReply answers an invite.
type InviteReply struct {
	CallID  string      `json:"callId"`
	Status  int         `json:"status"`
	Parties []PartyView `json:"parties,omitempty"`
}

// Invite starts a call (see docs/voice.md "Calls").
func (s *Service) Invite(ctx context.Context, cl *client, req Invite) (InviteReply, error) {
	if req.Kind == "" {
		req.Kind = Single
	}
	if !req.Kind.valid() || req.Kind == Group {
		return InviteReply{}, httpx.BadParam("kind", "single, temp, all or broadcast")
	}
	caller, err := s.refreshAccount(ctx, cl)
	if err != nil {
		return InviteReply{}, err
	}
	if caller.Blocked() {
		return InviteReply{}, ErrBlocked
	}
	if req.Kind == Single && req.Number != "" {
		return s.inviteNumber(ctx, cl, caller, string(req.Number))
	}
	if req.Kind == Single {
		return s.inviteSingle(ctx, cl, caller, string(req.MsID), "", req.Duplex)
	}
	return s.inviteMany(ctx, cl, caller, req)
}

// inviteSingle calls msID; number is the phone number msID, a trunk's account, dials for the call ("": none);
// duplex, that the caller talks on an open line.
func (s *Service) inviteSingle(ctx context.Context, cl *client, caller Account, msID, number string, duplex bool) (InviteReply, error) {
	if msID == "" {
		return InviteReply{}, httpx.BadParam("msId", "required")
	}
	if msID == caller.ID {
		return InviteReply{}, ErrSelf
	}
	callee, err := s.store.Account(ctx, caller.Customer, msID)
	if errors.Is(err, db.ErrNotFound) {
		return InviteReply{}, ErrNotFound
	}
	if err != nil {
		return InviteReply{}, err
	}
	if callee.Blocked() {
		return InviteReply{}, ErrNotAllowed
	}
	what := "call " + callee.Name + " (" + callee.ID + ")"
	if number != "" {
		what = "call " + number + " through " + callee.Name + " (" + callee.ID + ")" // its session is in (DialNumber)
	} else {
		s.dialOut(ctx, callee.ID) // a SIP phone's session logs in here first (dialout.go)
	}

	node := "" // in a cluster: the callee's node when it is connected to another one (leg.go)
	if s.relay != nil && !s.hub.LocalOnline(callee.ID) {
		node = s.relay.Holder(callee.ID)
	}
	var reply InviteReply
	var c *Call
	err = s.locked(func(later *afterUnlock) error {
		if s.inSingleLocked(caller.ID) != nil || s.legOfAcctLocked(caller.ID) != nil {
			return ErrInCall
		}
		c = &Call{ID: newCallID(), Customer: caller.Customer, Kind: Single, Initiator: caller, Started: time.Now(),
			State: StateTrying, Status: StTrying, Number: number,
			parties: []*party{{Account: caller, state: PartyConnected, client: cl, duplex: duplex},
				{Account: callee, state: PartyInvited, node: node}}}
		c.floor = s.newFloor()
		later.log(c.Customer, caller, oplog.IndividualCallSet, what,
			oplog.D("individualCall", "terminal", callee.ID))
		switch {
		case node == "" && !s.hub.LocalOnline(callee.ID): // on no node
			s.missedLocked(later, c, StOffline)
			return ErrOffline
		case s.inSingleLocked(callee.ID) != nil || s.legOfAcctLocked(callee.ID) != nil || s.talkingLocked(callee.ID):
			s.missedLocked(later, c, StBusy)
			return ErrBusy
		}
		s.calls[c.ID] = c
		c.timer = time.AfterFunc(s.opts.RingTimeout, func() { s.ringTimeout(c) })
		reply = InviteReply{CallID: c.ID, Status: StSelfTrying} // the caller's side: status.go
		if node != "" {
			return nil // its node rings it (inviteRemote)
		}
		s.hub.SendTo(callee.ID, "call.invite", map[string]any{"callId": c.ID, "kind": Single,
			"from": caller.person(), "status": StTrying})
		s.publishCallLocked(c)
		reply = InviteReply{CallID: c.ID, Status: StSelfTrying} // the caller's side: status.go
		return nil
	})
	if err == nil && node != "" {
		err = s.inviteRemote(ctx, c, callee, node)
	}
	return reply, err
}

// inSingleLocked is the individual call an account is in (ringing or connected), or nil.
func (s *Service) inSingleLocked(acct string) *Call {
	for _, c := range s.calls {
		if c.Kind == Single && !c.ended && c.party(acct) != nil {
			return c
		}
	}
	return nil
}

func (s *Service) talkingLocked(acct string) bool {
	for _, c := range s.calls {
		if b := c.burst; b != nil && b.claim.Account == acct {
			return true
		}
	}
	return false
}

func (s *Service) inviteMany(ctx context.Context, cl *client, caller Account, req Invite) (InviteReply, error) {
	if !caller.Dispatcher() {
		return InviteReply{}, ErrPermission
	}
	if req.Kind == Broadcast && caller.AcctType != "1" {
		return InviteReply{}, ErrPermission // spec §6: broadcast only for account type "1"
	}
	var g GroupInfo
	var members []Account
	var err error
	switch {
	case req.GID != "":
		gid, perr := strconv.ParseInt(string(req.GID), 10, 64)
		if perr != nil {
			return InviteReply{}, httpx.BadParam("gid", "a group id")
		}
		if g, err = s.store.Group(ctx, caller.Customer, gid); err == nil {
			members, err = s.store.GroupMembers(ctx, caller.Customer, gid)
		}
	case len(req.MsIDs) > 0:
		if len(req.MsIDs) > 1000 {
			return InviteReply{}, httpx.BadParam("msIds", "at most 1000")
		}
		members, err = s.store.Accounts(ctx, caller.Customer, req.MsIDs)
	case req.Kind == Temp:
		return InviteReply{}, httpx.BadParam("msIds", "the members of the temporary group")
	default:
		members, err = s.store.Terminals(ctx, caller.Customer)
	}
	if err != nil {
		return InviteReply{}, err
	}
	parties := []*party{{Account: caller, state: PartyConnected}}
	for _, m := range members {
		if m.ID == caller.ID || m.Blocked() {
			continue // killed and stunned terminals neither talk nor hear
		}
		parties = append(parties, &party{Account: m, state: PartyOffline})
	}
	if len(parties) < 2 {
		return InviteReply{}, ErrNotFound
	}
	for _, p := range parties[1:] { // in a cluster: the nodes of the parties connected to another one (leg.go)
		if s.relay != nil && !s.hub.LocalOnline(p.ID) {
			p.node = s.relay.Holder(p.ID)
		}
	}
	var c *Call
	err = s.locked(func(later *afterUnlock) error {
		c = s.newCallLocked(later, req.Kind, caller, g)
		c.parties = parties
		for _, p := range parties[1:] {
			switch {
			case p.node != "": // its node connects it (inviteManyRemote)
				p.state = PartyConnected
			case s.hub.LocalOnline(p.ID):
				p.state = PartyConnected
				s.hub.SendTo(p.ID, "call.invite", map[string]any{"callId": c.ID, "kind": c.Kind,
					"from": caller.person(), "status": StConnected, "gName": c.GroupName})
			}
		}
		s.recomputeLocked(c.Customer)
		s.publishCallLocked(c)
		return nil
	})
	if err != nil {
		return InviteReply{}, err
	}
	s.inviteManyRemote(ctx, c)
	s.mu.Lock()
	defer s.mu.Unlock()
	return InviteReply{CallID: c.ID, Status: StConnected, Parties: s.callViewLocked(c).Parties}, nil
}

// StatusReq is `call.status`: the callee's answer to an individual call.
type StatusReq struct {
	CallID string `json:"callId"`
	Status int    `json:"status"`
	// Duplex, with 200: the callee talks on an open line (a SIP phone's session; duplex.go).
	Duplex bool `json:"duplex"`
}

// Respond applies a callee's status: 180 ringing, 200 answer, 486 busy, 603 decline, 404 no such number (a
// trunk's PBX does not know the number dialled).
func (s *Service) Respond(cl *client, req StatusReq) error {
	return s.locked(func(later *afterUnlock) error {
		c, err := s.singleLocked(req.CallID, cl, false)
		if err != nil {
			return err
		}
		switch req.Status {
		case StRinging:
			if c.State != StateTrying {
				return ErrState
			}
			c.State, c.Status = StateRinging, StRinging
		case StOK:
			if c.State != StateTrying && c.State != StateRinging {
				return ErrState
			}
			c.State, c.Status, c.By = StateAnswered, StOK, cl.acct.ID
			p := c.party(cl.acct.ID)
			p.client, p.duplex = cl, req.Duplex
		case StBusy, StDecline, StNotFound:
			if c.State == StateConnected {
				return ErrState
			}
			if req.Status == StBusy {
				s.missedLocked(later, c, StBusy)
			}
			s.endCallLocked(later, c, req.Status, cl.acct.ID)
			return nil
		default:
			return httpx.BadParam("status", "180, 200, 404, 486 or 603")
		}
		s.publishCallLocked(c)
		return nil
	})
}

// Ack is the caller's acknowledgement of the answer: the call is connected (202) and both may talk.
func (s *Service) Ack(cl *client, callID string) error {
	return s.locked(func(later *afterUnlock) error {
		c, err := s.singleLocked(callID, cl, true)
		if err != nil {
			return err
		}
		if c.State == StateConnected {
			return nil
		}
		if c.State != StateAnswered {
			return ErrState
		}
		c.timer.Stop()
		c.State, c.Status, c.By, c.wasConnected = StateConnected, StConnected, cl.acct.ID, true
		for _, p := range c.parties {
			p.state = PartyConnected
		}
		s.lineLocked(c)
		later.log(c.Customer, c.Initiator, oplog.VoiceCallStarted, "single call with "+c.parties[1].Name,
			oplog.D("singleCallStarted", "terminal", c.parties[1].Account.ID))
		s.recomputeLocked(c.Customer)
		s.publishCallLocked(c)
		return nil
	})
}

// Cancel is the caller's cancel before the call connected (487; the callee misses it).
func (s *Service) Cancel(cl *client, callID string) error {
	return s.locked(func(later *afterUnlock) error {
		c, err := s.singleLocked(callID, cl, true)
		if err != nil {
			return err
		}
		if c.State == StateConnected {
			return ErrState
		}
		later.log(c.Customer, c.Initiator, oplog.IndividualCallCanc, "call to "+c.parties[1].Name+" canceled",
			oplog.D("individualCallCanceled", "terminal", c.parties[1].Account.ID))
		if c.State != StateAnswered {
			s.missedLocked(later, c, StCancel)
		}
		s.endCallLocked(later, c, StCancel, cl.acct.ID)
		return nil
	})
}

// Bye ends a call: any party of an individual call, the initiator (or a dispatcher) of the others. A party
// that is not allowed to end the call leaves it (bye_myself).
func (s *Service) Bye(cl *client, callID string) error {
	return s.locked(func(later *afterUnlock) error {
		c := s.calls[callID]
		if c == nil || c.ended || c.Customer != cl.acct.Customer {
			return ErrNoSession
		}
		switch {
		case c.Kind == Single:
			if c.party(cl.acct.ID) == nil {
				return ErrPermission
			}
			if c.State != StateConnected {
				return ErrState // before it connected: cancel (caller) or a status (callee)
			}
		case cl.acct.ID == c.Initiator.ID || cl.acct.Dispatcher():
		default:
			return s.leaveLocked(later, c, cl)
		}
		s.endCallLocked(later, c, StOK, cl.acct.ID)
		return nil
	})
}

// ByeMyself leaves a call (spec verb bye_myself); the call goes on for the others. An individual call, or a
// temporary group left with fewer than two parties, ends.
func (s *Service) ByeMyself(cl *client, callID string) error {
	return s.locked(func(later *afterUnlock) error {
		c := s.calls[callID]
		if c == nil || c.ended || c.Customer != cl.acct.Customer {
			return ErrNoSession
		}
		if c.Kind == Single {
			if c.party(cl.acct.ID) == nil {
				return ErrPermission
			}
			s.endCallLocked(later, c, StOK, cl.acct.ID)
			return nil
		}
		return s.leaveLocked(later, c, cl)
	})
}

func (s *Service) leaveLocked(later *afterUnlock, c *Call, cl *client) error {
	p := c.party(cl.acct.ID)
	if p == nil {
		return ErrPermission
	}
	if cl.acct.ID == c.Initiator.ID {
		s.endCallLocked(later, c, StOK, cl.acct.ID)
		return nil
	}
	p.state = PartyLeft
	holder := c.floor.Holder != nil && c.floor.Holder.Account == cl.acct.ID
	if was, next := c.floor.Release(cl.acct.ID); was && holder {
		s.endBurstLocked(later, c, "released", true)
		s.afterReleaseLocked(later, c, next)
	}
	if c.Kind == Temp && c.connectedParties() < 2 {
		s.endCallLocked(later, c, StOK, cl.acct.ID)
		return nil
	}
	s.recomputeLocked(c.Customer)
	s.publishCallLocked(c)
	return nil
}

// singleLocked is the individual call callID of cl, which must be its caller (asCaller: ack, cancel) or its
// callee (a status).
func (s *Service) singleLocked(callID string, cl *client, asCaller bool) (*Call, error) {
	c := s.calls[callID]
	if c == nil || c.ended || c.Customer != cl.acct.Customer || c.Kind != Single {
		return nil, ErrNoSession
	}
	if c.party(cl.acct.ID) == nil || (cl.acct.ID == c.Initiator.ID) != asCaller {
		return nil, ErrPermission
	}
	return c, nil
}

// ringTimeout ends an individual call not answered and acknowledged in time (408; missed if unanswered).
func (s *Service) ringTimeout(c *Call) {
	_ = s.locked(func(later *afterUnlock) error {
		if c.ended || c.State == StateConnected {
			return nil
		}
		if c.State != StateAnswered {
			s.missedLocked(later, c, StTimeout)
		}
		s.endCallLocked(later, c, StTimeout, "")
		return nil
	})
}
