package call

// Individual calls across cluster nodes (docs/adr/0026 "Individual calls"). The call lives on its caller's node
// (the call's node): its state, ring timer, floor, burst recordings and call record are there alone. A callee
// connected to another node is a party with that node set; the call's node asks that node to ring it
// (MediaRelay.CallInvite), and that node keeps a leg — the call's id, its node and a stand-in of its state — so
// the callee's answers, byes and floor presses, which arrive on its own node, are run on the call's node
// (MediaRelay.CallOp) by a stand-in client whose events go back through the hub. Media: the caller's bursts go
// to the callee's node on a lane (StartedFor), where the leg's stand-in call makes the callee hear them by the
// usual playback rules; the callee's microphone goes to the call's node on a lane for as long as the call is
// connected, where it is a source only while the callee holds the call's floor (decided there). Either node
// dying (its relay link closes) ends the call with 101 (offline).

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// LegInvite asks the callee's node to ring its terminal for a call of the caller's node.
type LegInvite struct {
	CallID   string          `json:"callId"`
	Customer int64           `json:"customer"`
	Caller   Account         `json:"caller"`
	Callee   Account         `json:"callee"`
	Event    json.RawMessage `json:"event"` // the call.invite event as the call's node built it
}

// LegState is a call's state told to the node of its party on another node.
type LegState struct {
	CallID string `json:"callId"`
	State  string `json:"state"`
	Status int    `json:"status"`
	Party  string `json:"msId"`
}

// LegOp is a request of a party, run on its call's node.
type LegOp struct {
	CallID string `json:"callId"`
	Acct   string `json:"msId"`
	Op     string `json:"op"` // the socket verb (call.status, call.bye, floor.request…) or "gone"
	Status int    `json:"status,omitempty"`
	Queue  bool   `json:"queue,omitempty"`
}

// opGone: the party's last connection closed on its node.
const opGone = "gone"

// leg is a call of another node whose party is connected here.
type leg struct {
	node   string // the call's node
	callee string
	call   *Call  // a stand-in of the call (its id, parties and state; never in s.calls)
	src    uint64 // the callee's microphone relayed to the call's node while connected (0: not yet)
}

// legOfAcctLocked is the leg an account is a party of, or nil.
func (s *Service) legOfAcctLocked(acct string) *leg {
	for _, l := range s.legs {
		if l.callee == acct {
			return l
		}
	}
	return nil
}

// --- the call's node ---

// legSender sends a stand-in's events to its connection on another node (through the hub's bus).
type legSender struct {
	hub  *realtime.Hub
	acct string
}

func (l legSender) Send(typ string, data any) error {
	if !l.hub.SendTo(l.acct, typ, data) {
		return realtime.ErrNotOnline
	}
	return nil
}

// standInLocked is the client that stands for a party connected to another node.
func (s *Service) standInLocked(p *party) *client {
	if p.stand == nil {
		p.stand = &client{conn: legSender{hub: s.hub, acct: p.ID}, acct: p.Account, node: p.node}
	}
	return p.stand
}

// inviteRemote rings a callee on another node for call c, registered here already; a refusal removes the call
// (missed, as on one node) and is the caller's answer.
func (s *Service) inviteRemote(ctx context.Context, c *Call, callee Account, node string) error {
	ev, _ := json.Marshal(map[string]any{"callId": c.ID, "kind": Single, "from": c.Initiator.person(), "status": StTrying})
	err := s.relay.CallInvite(ctx, node, LegInvite{CallID: c.ID, Customer: c.Customer, Caller: c.Initiator,
		Callee: callee, Event: ev})
	return s.locked(func(later *afterUnlock) error {
		if c.ended {
			return ErrNoSession // canceled or timed out meanwhile
		}
		if err != nil {
			st := StOffline // its node cannot be reached, or it left meanwhile
			var he *httpx.Error
			if errors.As(err, &he) && he.Code == ErrBusy.Code { // the refusal of its node, coded as on one node
				st = StBusy
			}
			s.missedLocked(later, c, st)
			c.timer.Stop()
			c.ended = true
			delete(s.calls, c.ID)
			if st == StBusy {
				return ErrBusy
			}
			return ErrOffline
		}
		s.publishCallLocked(c)
		return nil
	})
}

// tellLegsLocked tells the nodes of a call's parties on other nodes its state (publishCallLocked).
func (s *Service) tellLegsLocked(c *Call) {
	if s.relay == nil || c.Kind != Single {
		return
	}
	for _, p := range c.parties {
		if p.node != "" {
			s.relay.CallState(p.node, LegState{CallID: c.ID, State: c.State, Status: c.Status, Party: p.ID})
		}
	}
}

// legStartedLocked relays a burst of this node in an individual call to the node of its party there.
func (s *Service) legStartedLocked(c *Call, b *burst) {
	if c.Kind != Single || b.talker.node != "" { // a party's burst from there arrives on its lane
		return
	}
	for _, p := range c.parties {
		if p.node != "" && p.state == PartyConnected {
			s.relay.StartedFor(p.node, RelayBurst{Src: b.mb.ID, Customer: c.Customer, CallID: c.ID, Kind: c.Kind,
				Talker: b.claim.Account, TalkerName: b.talker.acct.Name, Console: b.talker.console,
				Emergency: b.emergency, Granted: b.mb.Granted.UnixMilli()})
			return
		}
	}
}

// LegOp runs a request of a party of a call of this node, connected to node from.
func (s *Service) LegOp(ctx context.Context, from string, op LegOp) (any, error) {
	s.mu.Lock()
	var cl *client
	c := s.calls[op.CallID]
	if c != nil && !c.ended {
		if p := c.party(op.Acct); p != nil && p.node == from {
			cl = s.standInLocked(p)
		}
	}
	s.mu.Unlock()
	if cl == nil {
		if op.Op == opGone {
			return struct{}{}, nil
		}
		return nil, ErrNoSession
	}
	switch op.Op {
	case "call.status":
		return struct{}{}, s.Respond(cl, StatusReq{CallID: op.CallID, Status: op.Status})
	case "call.ack":
		return struct{}{}, s.Ack(cl, op.CallID)
	case "call.cancel":
		return struct{}{}, s.Cancel(cl, op.CallID)
	case "call.bye":
		return struct{}{}, s.Bye(cl, op.CallID)
	case "call.byeMyself":
		return struct{}{}, s.ByeMyself(cl, op.CallID)
	case "floor.request":
		return s.legFloor(cl, op)
	case "floor.release":
		return struct{}{}, s.ReleaseFloor(cl, op.CallID)
	case opGone:
		return struct{}{}, s.locked(func(later *afterUnlock) error {
			if was, next := c.floor.Drop(cl); was {
				s.endBurstLocked(later, c, "gone", false)
				s.afterReleaseLocked(later, c, next)
			}
			s.partyGoneLocked(later, c, cl.acct)
			return nil
		})
	}
	return nil, ErrNotFound
}

// legFloor decides a floor press of a party on another node in its individual call: the floor of the call is
// this node's (an individual call has no cluster lease). It is RequestFloor's decision for a call by id, for a
// client whose microphone arrives on a lane rather than through a peer of this node.
// Press → grant is measured from the press's arrival here (the other node's clock is not this one's).
func (s *Service) legFloor(cl *client, op LegOp) (FloorReply, error) {
	at := time.Now()
	if cl.acct.Blocked() || s.isBlocked(cl.acct.ID) {
		return FloorReply{}, ErrBlocked
	}
	if err := s.mayTalk(cl.acct); err != nil {
		return FloorReply{}, err
	}
	var reply FloorReply
	err := s.locked(func(later *afterUnlock) error {
		c := s.calls[op.CallID]
		if c == nil || c.ended {
			return ErrNotFound
		}
		if err := s.mayTalkLocked(c, cl); err != nil {
			return err
		}
		maxMs := s.opts.MaxTalkTime.Milliseconds()
		if h := c.floor.Holder; h != nil && h.Client == cl && c.burst != nil {
			reply = FloorReply{CallID: c.ID, Status: "granted", MaxTalkMs: maxMs}
			return nil
		}
		claim := &Claim{Account: cl.acct.ID, Client: cl, Prio: s.priorityLocked(cl.acct), At: at, Queue: op.Queue}
		d, pre, pos := c.floor.Request(claim)
		switch d {
		case Denied:
			return ErrFloorBusy
		case Queued:
			reply = FloorReply{CallID: c.ID, Status: "queued", Position: pos, MaxTalkMs: maxMs}
			s.publishFloorLocked(c)
			return nil
		}
		if pre != nil {
			_ = pre.Client.conn.Send("floor.revoked", map[string]any{"callId": c.ID, "code": "preempted",
				"by": cl.acct.ID, "byName": cl.acct.Name})
			s.endBurstLocked(later, c, "preempted", false)
		} else if c.burst != nil {
			s.endBurstLocked(later, c, "released", false)
		}
		s.startBurstLocked(later, c, claim)
		s.recomputeLocked(c.Customer)
		s.publishFloorLocked(c)
		reply = FloorReply{CallID: c.ID, Status: "granted", MaxTalkMs: maxMs, PressToGrantUs: c.burst.accessUs}
		return nil
	})
	return reply, err
}

// --- the callee's node ---

// LegInvite rings a terminal of this node for a call of node from (the refusals are those of one node).
func (s *Service) LegInvite(ctx context.Context, from string, inv LegInvite) error {
	return s.locked(func(later *afterUnlock) error {
		switch {
		case !s.hub.LocalOnline(inv.Callee.ID):
			return ErrOffline
		case s.inSingleLocked(inv.Callee.ID) != nil || s.legOfAcctLocked(inv.Callee.ID) != nil ||
			s.talkingLocked(inv.Callee.ID):
			return ErrBusy
		case s.legs[inv.CallID] != nil:
			return ErrState
		}
		c := &Call{ID: inv.CallID, Customer: inv.Customer, Kind: Single, Initiator: inv.Caller, Started: time.Now(),
			State: StateTrying, Status: StTrying,
			parties: []*party{{Account: inv.Caller, state: PartyConnected, node: from}, {Account: inv.Callee, state: PartyInvited}}}
		s.legs[inv.CallID] = &leg{node: from, callee: inv.Callee.ID, call: c}
		s.hub.SendTo(inv.Callee.ID, "call.invite", inv.Event)
		return nil
	})
}

// LegState follows a call of node from with a party here: once connected the party's microphone goes there;
// once ended the leg is forgotten.
func (s *Service) LegState(from string, st LegState) {
	_ = s.locked(func(later *afterUnlock) error {
		l := s.legs[st.CallID]
		if l == nil || l.node != from || l.callee != st.Party {
			return nil
		}
		l.call.State, l.call.Status = st.State, st.Status
		switch st.State {
		case StateConnected:
			for _, p := range l.call.parties {
				p.state = PartyConnected
			}
			if l.src == 0 {
				l.src = media.NewSourceID()
				s.relay.StartedFor(l.node, RelayBurst{Src: l.src, Customer: l.call.Customer, CallID: l.call.ID,
					Kind: Single, Party: true, Talker: l.callee, Granted: time.Now().UnixMilli()})
			}
		case StateEnded:
			s.dropLegLocked(l)
		}
		s.recomputeLocked(l.call.Customer)
		return nil
	})
}

// dropLegLocked forgets a leg: its microphone's lane and the bursts of its call heard here.
func (s *Service) dropLegLocked(l *leg) {
	delete(s.legs, l.call.ID)
	l.call.ended = true
	if l.src != 0 {
		s.relay.Ended(l.src)
	}
	for lane, rb := range s.remote {
		if rb.call == l.call {
			delete(s.remote, lane)
			lane.SetRoute(nil)
		}
	}
}

// legRoutesLocked sends the microphone of every connected party here to its call's node (recomputeLocked).
func (s *Service) legRoutesLocked(customer int64, routes map[*client]*media.Route) {
	if s.relay == nil {
		return
	}
	for _, l := range s.legs {
		if l.src == 0 || l.call.Customer != customer {
			continue
		}
		targets := s.relay.Targets(l.src)
		for cl := range s.byAcct[l.callee] {
			if cl.peer == nil {
				continue
			}
			r := routes[cl]
			if r == nil {
				r = &media.Route{}
				routes[cl] = r
			}
			r.Targets = append(r.Targets, targets...)
		}
	}
}

// legFor is the leg a request of a client names (by call id, or — a bare floor press — its connected call).
func (s *Service) legFor(cl *client, callID string, bare bool) *leg {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.legs) == 0 {
		return nil
	}
	if callID != "" {
		if l := s.legs[callID]; l != nil && l.callee == cl.acct.ID {
			return l
		}
		return nil
	}
	if l := s.legOfAcctLocked(cl.acct.ID); bare && l != nil && l.call.State == StateConnected {
		return l
	}
	return nil
}

// forward runs a party's request on its call's node and returns that node's reply.
func (s *Service) forward(ctx context.Context, l *leg, op LegOp) (any, error) {
	op.CallID = l.call.ID
	raw, err := s.relay.CallOp(ctx, l.node, op)
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// legClientGoneLocked: a connection closed here; if it was the last of a party of another node's call, that node
// is told (the call ends there as on one node).
func (s *Service) legClientGoneLocked(later *afterUnlock, cl *client, last bool) {
	if !last {
		return
	}
	l := s.legOfAcctLocked(cl.acct.ID)
	if l == nil {
		return
	}
	s.dropLegLocked(l)
	op := LegOp{CallID: l.call.ID, Acct: cl.acct.ID, Op: opGone}
	node := l.node
	later.then(func() {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), realtime.AckTimeout)
			defer cancel()
			_, _ = s.relay.CallOp(ctx, node, op)
		}()
	})
}

// remoteLegStarted: a lane now carries a burst of an individual call of another node whose party is here (the
// caller's talk, heard by the leg's terminal), or — on the call's node — a party's microphone.
func (s *Service) remoteLegStarted(lane *media.Lane, b RelayBurst) error {
	return s.locked(func(later *afterUnlock) error {
		if old := s.remote[lane]; old != nil {
			delete(s.remote, lane)
			s.recomputeLocked(old.info.Customer)
		}
		var rb *remoteBurst
		if b.Party {
			c := s.calls[b.CallID]
			if c == nil || c.ended {
				return ErrNoSession
			}
			p := c.party(b.Talker)
			if p == nil || p.node != lane.Relay().Node {
				return ErrPermission
			}
			rb = &remoteBurst{lane: lane, id: media.NewSourceID(), talker: s.standInLocked(p), call: c, info: b}
		} else {
			l := s.legs[b.CallID]
			if l == nil || l.node != lane.Relay().Node {
				return ErrNoSession
			}
			talker := &client{acct: Account{ID: b.Talker, Name: b.TalkerName, Customer: b.Customer}, console: b.Console}
			if p := l.call.party(b.Talker); p != nil {
				talker.acct = p.Account
			}
			rb = &remoteBurst{lane: lane, id: media.NewSourceID(), talker: talker, call: l.call, info: b}
			time.AfterFunc(s.opts.MaxTalkTime+remoteGrace, func() { s.remoteExpired(rb) })
		}
		s.remote[lane] = rb
		s.recomputeLocked(b.Customer)
		return nil
	})
}

// legNodeGoneLocked: the relay to node closed (it died or was cut off). Calls of this node with a party there end
// with 101 (offline) as when that party's connection closes; calls of that node with a party here end for it.
func (s *Service) legNodeGoneLocked(later *afterUnlock, node string) {
	for _, c := range s.calls {
		if c.Kind != Single || c.ended {
			continue
		}
		for _, p := range c.parties {
			if p.node == node {
				s.partyGoneLocked(later, c, p.Account)
				break
			}
		}
	}
	for _, l := range s.legs {
		if l.node != node {
			continue
		}
		s.dropLegLocked(l)
		l.call.State, l.call.Status = StateEnded, StOffline
		view := CallView{CallID: l.call.ID, Kind: Single, State: StateEnded, Status: StOffline,
			Initiator: l.call.Initiator.person(), Started: l.call.Started.UnixMilli()}
		for _, p := range l.call.parties {
			view.Parties = append(view.Parties, PartyView{Person: p.person(), State: p.state})
		}
		s.hub.SendTo(l.callee, "call.state", view)
		s.recomputeLocked(l.call.Customer)
	}
}
