package call

// Calls with parties on other cluster nodes (docs/adr/0026): individual calls, and temporary-group, all and
// broadcast calls. The call lives on its caller's node (the call's node): its state, ring timer, floor, burst
// recordings and call records are there alone. A party connected to another node is a party with that node set;
// the call's node asks that node to ring it (an individual call) or join it (the others) — MediaRelay.CallInvite —
// and that node keeps a leg: the call's id, its node and a stand-in of the call with its parties there. Their
// answers, byes and floor presses, which arrive on their own node, are run on the call's node (MediaRelay.CallOp)
// by a stand-in client whose events go back through the hub. Media: a burst goes to the nodes of the call's other
// parties on lanes (StartedTo), where the leg's stand-in call makes them hear it by the usual playback rules; a
// party's microphone goes to the call's node on a lane while it is connected, where it is a source only while that
// party holds the call's floor (decided there) and is relayed on from there like any burst. The relay link
// between the two nodes closing (a node died) ends an individual call with 101 (offline) and turns the parties of
// the others offline.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// LegInvite asks a node to connect its terminals to a call of the caller's node: to ring the callee of an
// individual call, or to join the parties of a temporary-group, all or broadcast call.
type LegInvite struct {
	CallID   string          `json:"callId"`
	Customer int64           `json:"customer"`
	Kind     Kind            `json:"kind"`
	GName    string          `json:"gName,omitempty"`
	Caller   Account         `json:"caller"`
	Callees  []Account       `json:"callees"`
	Event    json.RawMessage `json:"event"` // the call.invite event as the call's node built it
}

// LegJoined is a node's answer to a LegInvite of a call with several parties: those it connected.
type LegJoined struct {
	Joined []string `json:"joined"`
}

// LegState is a call's state told to a node with parties of it: the call's and theirs.
type LegState struct {
	CallID  string            `json:"callId"`
	State   string            `json:"state"`
	Status  int               `json:"status"`
	Parties map[string]string `json:"parties"` // the parties on that node → their state
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

// leg is a call of another node with parties connected here.
type leg struct {
	node string // the call's node
	// call is a stand-in of the call: its id, kind, initiator and state, and its parties here (never in s.calls).
	call *Call
	mics map[string]uint64 // a connected party here → its microphone's source relayed to the call's node
}

// localParty is a party of the leg connected here (not the initiator), or nil.
func (l *leg) localParty(acct string) *party {
	if p := l.call.party(acct); p != nil && p.node == "" {
		return p
	}
	return nil
}

// legOfAcctLocked is the leg of an individual call an account is a party of, or nil.
func (s *Service) legOfAcctLocked(acct string) *leg {
	for _, l := range s.legs {
		if l.call.Kind == Single && l.localParty(acct) != nil {
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
	_, err := s.relay.CallInvite(ctx, node, LegInvite{CallID: c.ID, Customer: c.Customer, Kind: Single,
		Caller: c.Initiator, Callees: []Account{callee}, Event: ev})
	return s.locked(func(later *afterUnlock) error {
		if c.ended { // canceled, timed out, or its callee's node counted as gone meanwhile
			slog.Info("call: the call ended while its callee's node was ringing it", "call", c.ID, "node", node,
				"status", c.Status, "inviteErr", err)
			return ErrNoSession
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

// inviteManyRemote connects the parties of a temporary-group, all or broadcast call that are on other nodes: one
// request per node, all at once; a party its node did not connect (gone meanwhile, node unreachable) is offline.
func (s *Service) inviteManyRemote(ctx context.Context, c *Call) {
	s.mu.Lock()
	byNode := map[string][]Account{}
	for _, p := range c.parties {
		if p.node != "" {
			byNode[p.node] = append(byNode[p.node], p.Account)
		}
	}
	s.mu.Unlock()
	if len(byNode) == 0 {
		return
	}
	ev, _ := json.Marshal(map[string]any{"callId": c.ID, "kind": c.Kind, "from": c.Initiator.person(),
		"status": StConnected, "gName": c.GroupName})
	type result struct {
		node   string
		joined map[string]bool
	}
	results := make(chan result, len(byNode))
	for node, accts := range byNode {
		go func() {
			joined := map[string]bool{}
			raw, err := s.relay.CallInvite(ctx, node, LegInvite{CallID: c.ID, Customer: c.Customer, Kind: c.Kind,
				GName: c.GroupName, Caller: c.Initiator, Callees: accts, Event: ev})
			var j LegJoined
			if err == nil && json.Unmarshal(raw, &j) == nil {
				for _, id := range j.Joined {
					joined[id] = true
				}
			}
			results <- result{node: node, joined: joined}
		}()
	}
	all := make([]result, 0, len(byNode))
	for range byNode {
		all = append(all, <-results)
	}
	_ = s.locked(func(later *afterUnlock) error {
		changed := false
		for _, r := range all {
			for _, p := range c.parties {
				if p.node == r.node && !r.joined[p.ID] {
					p.state, p.node, changed = PartyOffline, "", true
				}
			}
		}
		if changed && !c.ended {
			s.recomputeLocked(c.Customer)
			s.publishCallLocked(c)
		}
		return nil
	})
}

// tellLegsLocked tells the nodes of a call's parties on other nodes its state (publishCallLocked).
func (s *Service) tellLegsLocked(c *Call) {
	if s.relay == nil || c.Kind == Group {
		return
	}
	var byNode map[string]map[string]string
	for _, p := range c.parties {
		if p.node == "" {
			continue
		}
		if byNode == nil {
			byNode = map[string]map[string]string{}
		}
		if byNode[p.node] == nil {
			byNode[p.node] = map[string]string{}
		}
		byNode[p.node][p.ID] = p.state
	}
	for node, parties := range byNode {
		s.relay.CallState(node, LegState{CallID: c.ID, State: c.State, Status: c.Status, Parties: parties})
	}
}

// legStartedLocked relays a burst of a call of this node to the nodes of its other connected parties there (its
// talker may be one of them: a party's burst reaches the call's others through this node).
func (s *Service) legStartedLocked(c *Call, b *burst) {
	if c.Kind == Group {
		return
	}
	var nodes []string
	seen := map[string]bool{}
	for _, p := range c.parties {
		if p.node != "" && p.state == PartyConnected && p.ID != b.claim.Account && !seen[p.node] {
			seen[p.node] = true
			nodes = append(nodes, p.node)
		}
	}
	if len(nodes) > 0 {
		s.relay.StartedTo(nodes, RelayBurst{Src: b.mb.ID, Customer: c.Customer, CallID: c.ID, Kind: c.Kind,
			GroupName: c.GroupName, Talker: b.claim.Account, TalkerName: b.talker.acct.Name, Console: b.talker.console,
			Emergency: b.emergency, Granted: b.mb.Granted.UnixMilli()})
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
		return struct{}{}, s.ReleaseFloor(cl, op.CallID, 0)
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
	acct := s.acctOf(cl)
	if acct.Blocked() || s.isBlocked(acct.ID) {
		return FloorReply{}, ErrBlocked
	}
	if err := s.mayTalk(acct); err != nil {
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
		claim := &Claim{Account: cl.acct.ID, Client: cl, Prio: s.priorityLocked(cl.acct), At: at, Queue: op.Queue}
		var err error
		reply, err = s.pressLocked(later, c, cl.acct, claim, false)
		return err
	})
	return reply, err
}

// --- the parties' node ---

// LegInvite connects terminals of this node to a call of node from: it rings the callee of an individual call
// (the refusals are those of one node) or joins the online ones of a call with several parties.
func (s *Service) LegInvite(ctx context.Context, from string, inv LegInvite) (any, error) {
	if inv.Kind == Single && len(inv.Callees) == 1 {
		s.dialOut(ctx, inv.Callees[0].ID) // a SIP phone registered here: its session logs in first (dialout.go)
	}
	var joined LegJoined
	err := s.locked(func(later *afterUnlock) error {
		if inv.Kind == Single {
			if len(inv.Callees) != 1 {
				return ErrState
			}
			id := inv.Callees[0].ID
			switch {
			case !s.hub.LocalOnline(id):
				return ErrOffline
			case s.inSingleLocked(id) != nil || s.legOfAcctLocked(id) != nil || s.talkingLocked(id):
				return ErrBusy
			}
		}
		if s.legs[inv.CallID] != nil {
			return ErrState
		}
		c := &Call{ID: inv.CallID, Customer: inv.Customer, Kind: inv.Kind, GroupName: inv.GName, Initiator: inv.Caller, Started: time.Now(),
			State: StateTrying, Status: StTrying, parties: []*party{{Account: inv.Caller, state: PartyConnected, node: from}}}
		state := PartyInvited
		if inv.Kind != Single {
			c.State, c.Status, state = StateConnected, StConnected, PartyConnected
		}
		for _, a := range inv.Callees {
			if s.hub.LocalOnline(a.ID) {
				c.parties = append(c.parties, &party{Account: a, state: state})
				joined.Joined = append(joined.Joined, a.ID)
			}
		}
		if len(joined.Joined) == 0 {
			return nil
		}
		l := &leg{node: from, call: c, mics: map[string]uint64{}}
		s.legs[inv.CallID] = l
		for _, id := range joined.Joined {
			s.hub.SendTo(id, "call.invite", inv.Event)
		}
		s.syncLegLocked(l)
		return nil
	})
	return joined, err
}

// LegState follows a call of node from with parties here.
func (s *Service) LegState(from string, st LegState) {
	_ = s.locked(func(later *afterUnlock) error {
		l := s.legs[st.CallID]
		if l == nil || l.node != from {
			return nil
		}
		l.call.State, l.call.Status = st.State, st.Status
		for id, state := range st.Parties {
			if p := l.localParty(id); p != nil {
				p.state = state
			}
		}
		if st.State == StateEnded {
			s.dropLegLocked(l)
		} else {
			s.syncLegLocked(l)
		}
		s.recomputeLocked(l.call.Customer)
		return nil
	})
}

// syncLegLocked relays the microphone of every connected party of a connected call to the call's node, and no
// other's.
func (s *Service) syncLegLocked(l *leg) {
	for _, p := range l.call.parties {
		if p.node != "" {
			continue
		}
		on := l.call.State == StateConnected && p.state == PartyConnected
		switch src := l.mics[p.ID]; {
		case on && src == 0:
			src = media.NewSourceID()
			l.mics[p.ID] = src
			s.relay.StartedFor(l.node, RelayBurst{Src: src, Customer: l.call.Customer, CallID: l.call.ID,
				Kind: l.call.Kind, Party: true, Talker: p.ID, Granted: time.Now().UnixMilli()})
		case !on && src != 0:
			s.relay.Ended(src)
			delete(l.mics, p.ID)
		}
	}
}

// dropLegLocked forgets a leg: its microphones' lanes and the bursts of its call heard here.
func (s *Service) dropLegLocked(l *leg) {
	delete(s.legs, l.call.ID)
	l.call.ended = true
	for _, src := range l.mics {
		s.relay.Ended(src)
	}
	l.mics = map[string]uint64{}
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
		if l.call.Customer != customer {
			continue
		}
		for acct, src := range l.mics {
			targets := s.relay.Targets(src)
			for cl := range s.byAcct[acct] {
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
}

// legFor is the leg a request of a client names: by call id, or — a bare floor press — its connected call of
// another node (an individual call first, as defaultCallLocked orders them).
func (s *Service) legFor(cl *client, callID string, bare bool) *leg {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.legs) == 0 {
		return nil
	}
	if callID != "" {
		if l := s.legs[callID]; l != nil && l.localParty(cl.acct.ID) != nil {
			return l
		}
		return nil
	}
	if !bare {
		return nil
	}
	var best *leg
	order := map[Kind]int{Single: 0, Temp: 1, All: 2, Broadcast: 3}
	for _, l := range s.legs {
		if p := l.localParty(cl.acct.ID); p == nil || p.state != PartyConnected || l.call.State != StateConnected {
			continue
		}
		if best == nil || order[l.call.Kind] < order[best.call.Kind] {
			best = l
		}
	}
	return best
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

// legClientGoneLocked: a connection closed here; if it was the last of a party of other nodes' calls, their
// nodes are told (the call ends or goes on without it there, as on one node).
func (s *Service) legClientGoneLocked(later *afterUnlock, cl *client, last bool) {
	if !last {
		return
	}
	for _, l := range s.legs {
		p := l.localParty(cl.acct.ID)
		if p == nil {
			continue
		}
		p.state = PartyOffline
		s.syncLegLocked(l)
		alone := true
		for _, q := range l.call.parties {
			if q.node == "" && q.state != PartyOffline && q.state != PartyLeft {
				alone = false
			}
		}
		if alone {
			s.dropLegLocked(l)
		}
		op := LegOp{CallID: l.call.ID, Acct: cl.acct.ID, Op: opGone}
		node := l.node
		later.Then(func() {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), realtime.AckTimeout)
				defer cancel()
				_, _ = s.relay.CallOp(ctx, node, op)
			}()
		})
	}
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

// legNodeGoneLocked: the relay to node closed (it died or was cut off). The parties there of this node's calls
// are gone as when their connection closes (an individual call ends with 101, offline); the calls of that node
// with parties here end for them.
func (s *Service) legNodeGoneLocked(later *afterUnlock, node string) {
	for _, c := range s.calls {
		if c.Kind == Group || c.ended {
			continue
		}
		for _, p := range c.parties {
			if p.node == node && !c.ended {
				s.partyGoneLocked(later, c, p.Account)
			}
		}
	}
	for _, l := range s.legs {
		if l.node != node {
			continue
		}
		s.dropLegLocked(l)
		l.call.State, l.call.Status = StateEnded, StOffline
		view := CallView{CallID: l.call.ID, Kind: l.call.Kind, State: StateEnded, Status: StOffline,
			GName: l.call.GroupName, Initiator: l.call.Initiator.person(), Started: l.call.Started.UnixMilli()}
		for _, p := range l.call.parties {
			view.Parties = append(view.Parties, PartyView{Person: p.person(), State: p.state})
		}
		for _, p := range l.call.parties {
			if p.node == "" {
				s.hub.SendTo(p.ID, "call.state", view)
			}
		}
		s.recomputeLocked(l.call.Customer)
	}
}
