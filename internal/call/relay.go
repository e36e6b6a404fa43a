package call

// Group bursts across cluster nodes (internal/cluster, docs/adr/0026): a burst granted here in a group call is
// also routed to one outgoing lane per other node (MediaRelay.Targets); a burst of another node arrives on an
// incoming lane and is a source here like a local talker's — the same playback rules choose who hears it, and
// its packets reach this node's listeners through the same Route and Downstream path. Only the talker's node
// records and reports the burst (one call record).

import (
	"context"
	"encoding/json"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/oplog"
)

// MediaRelay sends this node's group bursts to the other nodes (internal/cluster implements it; nil on a node
// alone, where none of this runs). Its methods are called with the service's lock held and must not call back.
type MediaRelay interface {
	// Started: a burst of this node began in a group call; it is told to the other nodes and takes a lane to each.
	Started(b RelayBurst)
	// Ended: the burst is over (after its release tail); its lanes are free again.
	Ended(src uint64)
	// Targets are the outgoing lanes the burst goes to now (one per other node reachable).
	Targets(src uint64) []media.Target
	// StartedFor relays a source of this node to one node only: a terminal monitored from there.
	StartedFor(node string, b RelayBurst)
	// StartedTo relays a source of this node to some nodes only: those of a call's parties (leg.go).
	StartedTo(nodes []string, b RelayBurst)
	// Monitor asks the node holding terminal target to open its microphone for dispatcher by of this node and
	// relay it here; it returns that node. Not called with the lock held.
	Monitor(ctx context.Context, customer int64, by, byName, target string) (node string, err error)
	// MonitorStop tells that node the dispatcher stopped (or left).
	MonitorStop(node, by string)

	// Individual calls across nodes (leg.go). Holder is the node a terminal is connected to ("" = none).
	Holder(acct string) string
	// CallInvite asks that node to connect its terminals to a call of this node (ring an individual call's callee:
	// its refusal is the callee's) and returns its answer.
	// Not called with the lock held.
	CallInvite(ctx context.Context, node string, inv LegInvite) (json.RawMessage, error)
	// CallState tells that node the state of a call of this node one of its terminals is a party of.
	CallState(node string, st LegState)
	// CallOp runs a party's request on its call's node (node) and returns the reply. Not called with the lock held.
	CallOp(ctx context.Context, node string, op LegOp) (json.RawMessage, error)
}

// RelayBurst is what another node needs to know of a burst to play it to its listeners.
type RelayBurst struct {
	Src        uint64 `json:"-"` // this node's source id of the burst
	Customer   int64  `json:"customer"`
	GID        int64  `json:"gid"`
	CallID     string `json:"callId"`
	GroupName  string `json:"gname"`
	Talker     string `json:"msId"`
	TalkerName string `json:"name"`
	Console    bool   `json:"console"`
	Emergency  bool   `json:"emergency"`
	Granted    int64  `json:"granted"` // UTC ms
	// Monitor: not a burst but a monitored terminal's microphone (Talker), for dispatcher By only.
	Monitor bool   `json:"monitor,omitempty"`
	By      string `json:"by,omitempty"`
	// Kind: a burst of an individual call (not a group's), relayed to the node of its other party (leg.go).
	Kind Kind `json:"kind,omitempty"`
	// Party: not a burst but a party's microphone relayed to its call's node for the length of the call (leg.go).
	Party bool `json:"party,omitempty"`
}

// SetMediaRelay joins the voice service to the cluster's media relay; call before serving.
func (s *Service) SetMediaRelay(r MediaRelay) { s.relay = r }

// remoteAudience is a group's audience read for other nodes' bursts, kept until a directory event or accountTTL.
type remoteAudience struct {
	customer int64
	gen      uint64
	at       time.Time
	aud      map[string]Account
}

// remoteBurst is another node's burst heard here through an incoming lane.
type remoteBurst struct {
	lane   *media.Lane
	id     uint64 // this node's source id for it
	talker *client
	call   *Call    // a stand-in for the other node's call: its id, group and audience (never in s.calls)
	amb    *ambient // instead of call: a stand-in of the monitoring (only its dispatcher hears it)
	info   RelayBurst
}

// relayStartedLocked tells the relay of a burst that began here.
func (s *Service) relayStartedLocked(c *Call, b *burst) {
	if s.relay != nil && c.Kind != Group {
		s.legStartedLocked(c, b) // to the node of a party on another node (leg.go)
		return
	}
	if s.relay == nil {
		return
	}
	s.dropGroupRemoteLocked(c.Customer, c.Group, nil)
	s.relay.Started(RelayBurst{Src: b.mb.ID, Customer: c.Customer, GID: c.Group, CallID: c.ID, GroupName: c.GroupName,
		Talker: b.claim.Account, TalkerName: b.talker.acct.Name, Console: b.talker.console, Emergency: b.emergency,
		Granted: b.mb.Granted.UnixMilli()})
}

// relayEnded frees the lanes of a burst that ended here.
func (s *Service) relayEnded(c *Call, b *burst) {
	if s.relay != nil { // a no-op for a burst that was not relayed
		s.relay.Ended(b.mb.ID)
	}
}

// RemoteStarted plays another node's burst, which arrives on lane, to this node's listeners in its audience.
// The group's audience is read outside the lock (or taken from this node's open call of the group).
func (s *Service) RemoteStarted(ctx context.Context, lane *media.Lane, b RelayBurst) error {
	if b.Monitor {
		return s.remoteMonitorStarted(lane, b)
	}
	if b.Party || b.Kind != "" {
		return s.remoteLegStarted(lane, b) // an individual call across nodes (leg.go)
	}
	s.mu.Lock()
	var aud map[string]Account
	gen := s.acctGen.Load()
	if c := s.groupCall[b.GID]; c != nil && !c.ended && c.audGen == gen && c.Customer == b.Customer {
		aud = c.audience
	} else if ra, ok := s.remoteAud[b.GID]; ok && ra.gen == gen && ra.customer == b.Customer && time.Since(ra.at) < accountTTL {
		aud = ra.aud // as a press keeps its group's audience between directory events (floor.go)
	}
	s.mu.Unlock()
	if aud == nil {
		list, err := s.store.GroupAudience(ctx, b.Customer, b.GID)
		if err != nil {
			return err
		}
		aud = make(map[string]Account, len(list))
		for _, a := range list {
			aud[a.ID] = a
		}
		s.mu.Lock()
		s.remoteAud[b.GID] = remoteAudience{customer: b.Customer, gen: gen, at: time.Now(), aud: aud}
		s.mu.Unlock()
	}
	return s.locked(func(later *afterUnlock) error {
		if old := s.remote[lane]; old != nil {
			delete(s.remote, lane)
			s.recomputeLocked(old.info.Customer)
		}
		s.dropGroupRemoteLocked(b.Customer, b.GID, lane)
		talker := &client{acct: Account{ID: b.Talker, Name: b.TalkerName, Customer: b.Customer}, console: b.Console}
		if a, ok := aud[b.Talker]; ok {
			talker.acct = a
		}
		call := &Call{ID: b.CallID, Customer: b.Customer, Kind: Group, Group: b.GID, GroupName: b.GroupName,
			State: StateConnected, Status: StConnected, Started: time.UnixMilli(b.Granted), audience: aud,
			joined: map[string]bool{b.Talker: true}}
		rb := &remoteBurst{lane: lane, id: media.NewSourceID(), talker: talker, call: call, info: b}
		s.remote[lane] = rb
		s.recomputeLocked(b.Customer)
		// No burst outlasts the talk time: one whose end never came (NATS lost the message) stops by itself.
		// (Monitoring has no time limit: its lane ends with the monitoring or the link.)
		time.AfterFunc(s.opts.MaxTalkTime+remoteGrace, func() { s.remoteExpired(rb) })
		return nil
	})
}

// dropGroupRemoteLocked forgets other nodes' bursts in a group that has a new burst (except the one on keep): the
// floor lease lets one node talk in a group at a time, so an older one is over — its node died or its end was
// lost — and must not keep this node's listeners (first-come would keep them on a silent source).
func (s *Service) dropGroupRemoteLocked(customer, gid int64, keep *media.Lane) {
	for lane, rb := range s.remote {
		if lane != keep && !rb.info.Monitor && rb.info.Customer == customer && rb.info.GID == gid {
			delete(s.remote, lane)
			lane.SetRoute(nil)
		}
	}
}

// remoteGrace is how long past the maximum talk time a burst of another node is played without its end.
const remoteGrace = 5 * time.Second

func (s *Service) remoteExpired(rb *remoteBurst) {
	_ = s.locked(func(later *afterUnlock) error {
		if s.remote[rb.lane] == rb {
			delete(s.remote, rb.lane)
			rb.lane.SetRoute(nil)
			s.recomputeLocked(rb.info.Customer)
		}
		return nil
	})
}

// RemoteEnded stops playing the burst on lane.
func (s *Service) RemoteEnded(lane *media.Lane) {
	_ = s.locked(func(later *afterUnlock) error {
		if rb := s.remote[lane]; rb != nil {
			delete(s.remote, lane)
			lane.SetRoute(nil)
			s.remoteAmbientEndedLocked(later, rb)
			s.recomputeLocked(rb.info.Customer)
		}
		return nil
	})
}

// RelayGone stops playing every burst that came through a relay that closed (its node died or was cut off).
func (s *Service) RelayGone(r *media.Relay) {
	_ = s.locked(func(later *afterUnlock) error {
		custs := map[int64]bool{}
		for lane, rb := range s.remote {
			if lane.Relay() == r {
				delete(s.remote, lane)
				lane.SetRoute(nil)
				s.remoteAmbientEndedLocked(later, rb)
				custs[rb.info.Customer] = true
			}
		}
		for _, a := range s.ambient { // terminals of this node monitored from that node
			if a.forNode == r.Node {
				s.stopAmbientLocked(later, a)
			}
		}
		s.legNodeGoneLocked(later, r.Node) // individual calls with a party there, or of a call there (leg.go)
		for cust := range custs {
			s.recomputeLocked(cust)
		}
		return nil
	})
}

// Reroute recomputes the routes of every customer with a burst here (the relay's lanes to a node changed).
func (s *Service) Reroute() {
	_ = s.locked(func(later *afterUnlock) error {
		custs := map[int64]bool{}
		for _, c := range s.calls {
			if c.burst != nil && c.Kind == Group {
				custs[c.Customer] = true
			}
		}
		for cust := range custs {
			s.recomputeLocked(cust)
		}
		return nil
	})
}

// remoteSourcesLocked adds the other nodes' bursts of a customer to its sources.
func (s *Service) remoteSourcesLocked(customer int64, srcs []source) []source {
	for _, rb := range s.remote {
		switch {
		case rb.info.Customer != customer:
		case rb.info.Party: // a party's microphone: a source while that party holds its call's floor (leg.go)
			if b := rb.call.burst; b != nil && b.talker == rb.talker && !rb.call.ended { // its id: relayed on (leg.go)
				srcs = append(srcs, source{id: b.mb.ID, talker: rb.talker, call: rb.call, started: b.mb.Granted, remote: rb})
			}
		case rb.amb != nil:
			srcs = append(srcs, source{id: rb.id, talker: rb.talker, amb: rb.amb, remote: rb})
		default:
			srcs = append(srcs, source{id: rb.id, talker: rb.talker, call: rb.call, started: rb.call.Started, remote: rb})
		}
	}
	return srcs
}

// RemoteListening counts this node's listeners assigned to another node's bursts (tests, diagnostics).
func (s *Service) RemoteListening() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := map[uint64]bool{}
	for _, rb := range s.remote {
		ids[rb.id] = true
	}
	n := 0
	for _, cl := range s.clients {
		if cl.peer != nil && ids[cl.peer.Downstream().Assigned()] {
			n++
		}
	}
	return n
}

// Terminal monitoring across nodes: the dispatcher's node asks the terminal's node (MediaRelay.Monitor), which
// asks the terminal (monitor.start) and relays its microphone on a lane to the dispatcher's node only; there the
// lane is a source only the dispatcher hears. Either side stopping, the terminal leaving or a node dying ends it on
// both; the dispatcher's node logs it and tells the console (monitor.ended), as on one node.

// remoteMonitorStarted plays a monitored terminal's microphone, relayed by its node, to the dispatcher.
func (s *Service) remoteMonitorStarted(lane *media.Lane, b RelayBurst) error {
	return s.locked(func(later *afterUnlock) error {
		if old := s.remote[lane]; old != nil {
			delete(s.remote, lane)
			s.recomputeLocked(old.info.Customer)
		}
		talker := &client{acct: Account{ID: b.Talker, Name: b.TalkerName, Customer: b.Customer}}
		rb := &remoteBurst{lane: lane, id: media.NewSourceID(), talker: talker, info: b}
		rb.amb = &ambient{id: rb.id, by: b.By, customer: b.Customer, target: talker, targetID: b.Talker}
		s.remote[lane] = rb
		s.recomputeLocked(b.Customer)
		return nil
	})
}

// remoteAmbientEndedLocked: the terminal's node ended a monitoring relayed here (the terminal left, it refused,
// that node stopped): the dispatcher's monitoring ends as on one node.
func (s *Service) remoteAmbientEndedLocked(later *afterUnlock, rb *remoteBurst) {
	if !rb.info.Monitor {
		return
	}
	if a := s.ambient[rb.info.By]; a != nil && a.node != "" && !a.pending && a.targetID == rb.info.Talker {
		a.node = "" // the other node ended it: nothing to tell it
		delete(s.ambient, a.by)
		s.hub.SendTo(a.by, "monitor.ended", map[string]any{"msId": a.targetID})
		later.log(a.customer, Account{ID: a.by, Name: a.byName}, oplog.TermMonitorStop, a.targetID,
			oplog.D("terminalMonitorStop", "terminal", a.targetID))
	}
}

// stopRelayedAmbientLocked ends a monitoring that crosses nodes (stopAmbientLocked has removed it already).
func (s *Service) stopRelayedAmbientLocked(later *afterUnlock, a *ambient) {
	if a.forNode != "" { // the terminal's node: close the microphone and the lane; the dispatcher's node logs
		if !a.target.gone {
			_ = a.target.conn.Send("monitor.stop", map[string]any{"by": a.by})
		}
		s.relay.Ended(a.id)
		s.recomputeLocked(a.customer)
		return
	}
	s.relay.MonitorStop(a.node, a.by) // the dispatcher's node
	for lane, rb := range s.remote {
		if rb.info.Monitor && rb.info.By == a.by {
			delete(s.remote, lane)
			lane.SetRoute(nil)
		}
	}
	s.hub.SendTo(a.by, "monitor.ended", map[string]any{"msId": a.targetID})
	s.recomputeLocked(a.customer)
	later.log(a.customer, Account{ID: a.by, Name: a.byName}, oplog.TermMonitorStop, a.targetID,
		oplog.D("terminalMonitorStop", "terminal", a.targetID))
}

// MonitorFor opens the microphone of a terminal of this node for a dispatcher of another node and relays it there.
func (s *Service) MonitorFor(ctx context.Context, node string, customer int64, by, byName, target string) error {
	a := &ambient{by: by, byName: byName, customer: customer, targetID: target, pending: true, forNode: node}
	err := s.locked(func(later *afterUnlock) error {
		if s.ambient[by] != nil {
			return ErrMaxMonitored
		}
		if !s.hub.LocalOnline(target) {
			return ErrOffline
		}
		if s.inSingleLocked(target) != nil || s.talkingLocked(target) {
			return ErrTerminalBusy
		}
		if a.target = s.mediaClientLocked(target); a.target == nil || a.target.acct.Customer != customer {
			return ErrNoPeer
		}
		s.ambient[by] = a
		return nil
	})
	if err != nil {
		return err
	}
	_, err = s.hub.Request(ctx, target, "monitor.start", map[string]any{"by": by, "byName": byName})
	return s.locked(func(later *afterUnlock) error {
		if s.ambient[by] != a || a.target.gone {
			return ErrTerminalBusy
		}
		if err != nil {
			delete(s.ambient, by)
			return err
		}
		a.pending, a.id = false, media.NewSourceID()
		s.relay.StartedFor(node, RelayBurst{Src: a.id, Customer: customer, Talker: target, TalkerName: a.target.acct.Name,
			Monitor: true, By: by, Granted: time.Now().UnixMilli()})
		s.recomputeLocked(customer)
		return nil
	})
}

// MonitorStopFor: the dispatcher of another node stopped monitoring a terminal of this node.
func (s *Service) MonitorStopFor(node, by string) {
	_ = s.locked(func(later *afterUnlock) error {
		if a := s.ambient[by]; a != nil && a.forNode == node {
			s.stopAmbientLocked(later, a)
		}
		return nil
	})
}
