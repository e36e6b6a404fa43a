package call

// The call lifecycle common to every kind: a call opens, loses parties, hangs up and ends; its events and
// the snapshot of open calls.

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strconv"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/realtime"
)

// Call is one call: a group's open call, an individual call, a temporary-group, all or broadcast call.
type Call struct {
	ID        string
	Customer  int64
	Kind      Kind
	Group     int64
	GroupName string
	Initiator Account
	State     string
	Status    int
	Started   time.Time
	By        string
	Number    string // an individual call to a phone number: the number its callee, the trunk's account, dialled

	parties  []*party           // everyone but group calls
	audGen   uint64             // Service.acctGen when a group call's audience was read
	audience map[string]Account // group calls: members and accounts whose ptt group it is (read at each grant)
	joined   map[string]bool    // group calls: who talked in it (a dispatcher hears the replies to its call)
	floor    Floor
	burst    *burst
	line     []*burst    // a duplex call's open line: a burst per party while it is connected (duplex.go)
	timer    *time.Timer // ring/acknowledge timeout, or a group call's hang time
	resuming bool        // a Service.resumeFloor is due (the last talker waits on a free floor)
	ended    bool
	btime    int64 // the last burst's btime: (call id, btime) names a record, so it only grows

	wasConnected bool // an individual call that was answered and acknowledged
}

type party struct {
	Account
	state string
	node  string  // in a cluster: the node the party is connected to ("" = this one; leg.go)
	stand *client // its stand-in here when node is set (leg.go)
	// An individual call's party: client is the connection that placed or answered the call (whose microphone an
	// open line carries), duplex that it said it talks on an open line (duplex.go).
	client *client
	duplex bool
}

func newCallID() string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	return strconv.FormatInt(time.Now().UnixMilli(), 36) + hex.EncodeToString(b[:])
}

// newCallLocked opens a call (log 2).
func (s *Service) newCallLocked(later *afterUnlock, kind Kind, initiator Account, g GroupInfo) *Call {
	c := &Call{ID: newCallID(), Customer: initiator.Customer, Kind: kind, Group: g.ID, GroupName: g.Name,
		Initiator: initiator, Started: time.Now(), State: StateConnected, Status: StConnected, joined: map[string]bool{}}
	c.floor = s.newFloor()
	s.calls[c.ID] = c
	if kind == Group {
		s.groupCall[g.ID] = c
	}
	if kind != Single {
		later.log(c.Customer, initiator, oplog.VoiceCallStarted, string(kind)+" call "+c.describe(), c.detail(true, kind))
	}
	return c
}

// detail is the log detail of a call starting or ending: its kind and group, or its id when it has no group.
func (c *Call) detail(started bool, kind Kind) oplog.Detail {
	group := c.Kind == Group || c.GroupName != ""
	gid := strconv.FormatInt(c.Group, 10)
	switch {
	case started && group:
		return oplog.D("callStarted", "callKind", string(kind), "group", gid)
	case started:
		return oplog.D("callStartedId", "callKind", string(kind), "call", c.ID)
	case group:
		return oplog.D("callEnded", "callKind", string(kind), "group", gid)
	}
	return oplog.D("callEndedId", "callKind", string(kind), "call", c.ID)
}

func (c *Call) describe() string {
	if c.Kind == Group || c.GroupName != "" {
		return c.GroupName
	}
	return c.ID
}

func (s *Service) customerCalls(customer int64) []*Call {
	var out []*Call
	for _, c := range s.calls {
		if c.Customer == customer && !c.ended {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *Call) int { return a.Started.Compare(b.Started) })
	return out
}

func (c *Call) party(id string) *party {
	for _, p := range c.parties {
		if p.ID == id {
			return p
		}
	}
	return nil
}

func (c *Call) connectedParties() int {
	n := 0
	for _, p := range c.parties {
		if p.state == PartyConnected {
			n++
		}
	}
	return n
}

// callAudienceFilter lets an event of a call reach the customer's consoles and the call's parties.
func (s *Service) callAudienceFilter(c *Call) realtime.Audience {
	ids := make(map[string]bool, len(c.audience)+len(c.joined)+len(c.parties))
	if c.Kind == Group {
		for id := range c.audience {
			ids[id] = true
		}
		for id := range c.joined {
			ids[id] = true
		}
	}
	for _, p := range c.parties {
		ids[p.ID] = true
	}
	return realtime.ConsolesAnd(ids)
}

// hangUp ends a group call that stayed silent for the hang time.
func (s *Service) hangUp(c *Call) {
	_ = s.locked(func(later *afterUnlock) error {
		if !c.ended && c.burst == nil && c.floor.Holder == nil && len(c.floor.Queue) == 0 {
			s.endCallLocked(later, c, StOK, "")
		}
		return nil
	})
}

// partyGoneLocked handles an account whose last connection closed while it was in a call.
func (s *Service) partyGoneLocked(later *afterUnlock, c *Call, a Account) {
	switch {
	case c.Kind == Group:
	case c.Kind == Single && c.party(a.ID) != nil:
		if c.State != StateConnected && a.ID != c.Initiator.ID {
			s.missedLocked(later, c, StOffline)
		}
		s.endCallLocked(later, c, StOffline, a.ID)
	case a.ID == c.Initiator.ID:
		s.endCallLocked(later, c, StOffline, a.ID)
	default:
		if p := c.party(a.ID); p != nil && p.state == PartyConnected {
			p.state = PartyOffline
			s.recomputeLocked(c.Customer)
			s.publishCallLocked(c)
		}
	}
}

// endCallLocked ends a call for everyone (log 3).
func (s *Service) endCallLocked(later *afterUnlock, c *Call, status int, by string) {
	if c.ended {
		return
	}
	if c.floor.Holder != nil && c.burst != nil {
		s.endBurstLocked(later, c, "ended", false)
	}
	s.closeLineLocked(later, c)
	c.floor = s.newFloor()
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
		later.log(c.Customer, c.Initiator, oplog.CallEnded, string(c.Kind)+" call "+c.describe()+" ended", c.detail(false, c.Kind))
	}
}

func (s *Service) callViewLocked(c *Call) CallView {
	v := CallView{CallID: c.ID, Kind: c.Kind, State: c.State, Status: c.Status, GName: c.GroupName,
		Initiator: c.Initiator.person(), Started: c.Started.UnixMilli(), By: c.By, Duplex: c.line != nil, Number: c.Number}
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
	s.tellLegsLocked(c) // parties on other nodes (leg.go)
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
