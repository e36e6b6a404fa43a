package call

// The floor: who may talk in a call, the queue and pre-emption, release and the maximum talk time, and the
// account and audience caches that keep a press free of store reads.

import (
	"context"
	"errors"
	"strconv"
	"time"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Priority orders floor claims: a higher priority pre-empts a lower one; equal priorities wait their turn.
type Priority int

const (
	PrioTerminal   Priority = 1
	PrioDispatcher Priority = 2
	PrioEmergency  Priority = 3 // an SOS talker pre-empts everyone
)

// Claim is one request for the floor.
type Claim struct {
	Account string
	Client  *client // the connection that pressed (whose microphone talks)
	Prio    Priority
	At      time.Time // when the request arrived (press → grant is measured from here)
	Queue   bool      // wait for the floor rather than be denied
	// Arrival is the request's place among its connection's requests (realtime.Arrival; 0: not a socket request
	// of this node): a release the client sent after it and that was handled first withdraws it.
	Arrival uint64
}

// Decision is the floor's answer to a request.
type Decision int

const (
	Denied Decision = iota
	Granted
	Queued
)

// Floor is one call's floor: exactly one holder, and a queue ordered by priority, then arrival. It is a plain
// value guarded by the service's lock, so its decisions are cheap and easy to test.
//
// Fairness: a talker that loses or releases the floor while others were refused during its turn waits
// RetryGap before it may take the free floor again (a queued request of its own waits in the queue meanwhile),
// so a terminal re-pressing at once — or a client flooding requests — cannot keep its group's floor.
type Floor struct {
	Holder   *Claim
	Queue    []*Claim
	MaxQueue int
	RetryGap time.Duration

	asked      Priority  // the highest rank refused during the current turn (0: nobody asked)
	yielding   string    // the last holder, who waits for those who asked until yieldUntil
	yieldRank  Priority  // the rank it waits for (a higher rank of its own would pre-empt them anyway)
	yieldUntil time.Time // the end of its wait
}

// Request decides a claim. A claim that outranks the holder takes the floor and the holder is returned as
// preempted; a request by the holder itself is granted again.
func (f *Floor) Request(c *Claim) (d Decision, preempted *Claim, position int) {
	switch {
	case f.Holder == nil && f.yieldsTo(c):
		// the last holder waits its turn: as if the floor were busy
	case f.Holder == nil:
		f.removeQueued(c.Account)
		f.take(c)
		return Granted, nil, 0
	case f.Holder.Account == c.Account:
		f.Holder = c
		return Granted, nil, 0
	case c.Prio > f.Holder.Prio:
		preempted = f.Holder
		f.removeQueued(c.Account)
		f.take(c)
		return Granted, preempted, 0
	}
	if i := f.queued(c.Account); i >= 0 && c.Queue {
		return Queued, nil, i + 1
	}
	if !c.Queue || len(f.Queue) >= f.MaxQueue {
		if f.Holder != nil {
			f.asked = max(f.asked, c.Prio)
		}
		return Denied, nil, 0
	}
	return Queued, nil, f.insert(c)
}

// Enqueue queues a claim whatever the floor's state here: in a cluster, another node holds the group's floor
// (docs/adr/0024). Denied when the queue is full.
func (f *Floor) Enqueue(c *Claim) (Decision, int) {
	if i := f.queued(c.Account); i >= 0 {
		return Queued, i + 1
	}
	if len(f.Queue) >= f.MaxQueue {
		return Denied, 0
	}
	return Queued, f.insert(c)
}

// insert places a claim in the queue by priority, then arrival, and returns its 1-based position.
func (f *Floor) insert(c *Claim) int {
	i := len(f.Queue)
	for i > 0 && f.Queue[i-1].Prio < c.Prio {
		i--
	}
	f.Queue = append(f.Queue, nil)
	copy(f.Queue[i+1:], f.Queue[i:])
	f.Queue[i] = c
	return i + 1
}

// yieldsTo tells whether a claim on the free floor is the last holder's, made within RetryGap of losing it
// while someone of at least its rank was refused during its turn.
func (f *Floor) yieldsTo(c *Claim) bool {
	return c.Account == f.yielding && c.At.Before(f.yieldUntil) && c.Prio <= f.yieldRank
}

// take starts a turn.
func (f *Floor) take(c *Claim) {
	f.Holder, f.asked, f.yielding = c, 0, ""
}

// Yielding is when the wait of the last holder ends while it is queued on a free floor (zero otherwise): then
// Resume gives it the floor.
func (f *Floor) Yielding() time.Time {
	if f.Holder != nil || len(f.Queue) == 0 {
		return time.Time{}
	}
	return f.yieldUntil
}

// Resume gives the free floor to the head of the queue once the last holder's wait ended; nil if nothing
// changed.
func (f *Floor) Resume(now time.Time) *Claim {
	if f.Holder != nil || len(f.Queue) == 0 || now.Before(f.yieldUntil) {
		return nil
	}
	next := f.Queue[0]
	f.Queue = f.Queue[1:]
	f.take(next)
	return next
}

// Next gives the free floor to the head of the queue at once (the cluster handed this node the group's floor
// for it); nil if the floor is held or nobody waits.
func (f *Floor) Next() *Claim {
	if f.Holder != nil || len(f.Queue) == 0 {
		return nil
	}
	next := f.Queue[0]
	f.Queue = f.Queue[1:]
	f.take(next)
	return next
}

// putBack returns a claim the floor was just given to (Release, Next) to the head of the queue: in a cluster, a
// waiter of another node comes first.
func (f *Floor) putBack(c *Claim) {
	if f.Holder == c {
		f.Holder = nil
	}
	f.Queue = append([]*Claim{c}, f.Queue...)
}

// Release gives up the floor or a place in the queue. When the holder releases, the head of the queue takes
// the floor and is returned as next.
func (f *Floor) Release(account string) (wasHolder bool, next *Claim) {
	if f.Holder != nil && f.Holder.Account == account {
		f.Holder = nil
		if f.asked > 0 {
			f.yielding, f.yieldRank, f.yieldUntil = account, f.asked, time.Now().Add(f.RetryGap)
		}
		if len(f.Queue) > 0 {
			next = f.Queue[0]
			f.Queue = f.Queue[1:]
			f.take(next)
		}
		return true, next
	}
	f.removeQueued(account)
	return false, nil
}

// newFloor is an empty floor with the service's rules.
func (s *Service) newFloor() Floor {
	return Floor{MaxQueue: s.opts.MaxQueue, RetryGap: s.opts.RetryGap}
}

// Drop removes every claim of a client (its connection closed): as Release, for that connection only.
func (f *Floor) Drop(cl *client) (wasHolder bool, next *Claim) {
	kept := f.Queue[:0]
	for _, c := range f.Queue {
		if c.Client != cl {
			kept = append(kept, c)
		}
	}
	f.Queue = kept
	if f.Holder != nil && f.Holder.Client == cl {
		return f.Release(f.Holder.Account)
	}
	return false, nil
}

func (f *Floor) queued(account string) int {
	for i, c := range f.Queue {
		if c.Account == account {
			return i
		}
	}
	return -1
}

func (f *Floor) removeQueued(account string) {
	if i := f.queued(account); i >= 0 {
		f.Queue = append(f.Queue[:i], f.Queue[i+1:]...)
	}
}

// QueueIDs lists the queued accounts in order.
func (f *Floor) QueueIDs() []string {
	out := make([]string, len(f.Queue))
	for i, c := range f.Queue {
		out[i] = c.Account
	}
	return out
}

// FloorRequest is `floor.request`: the call by id, or a group by gid, or (neither) the caller's current call
// or ptt group. Queue asks to wait for the floor instead of being denied.
type FloorRequest struct {
	CallID flex.String `json:"callId"`
	GID    flex.String `json:"gid"`
	Queue  bool        `json:"queue"`
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
	if err := s.mayTalk(acct); err != nil { // voice permission (rights.go)
		return FloorReply{}, err
	}
	// Resolve the target; a group's audience is read before taking the lock.
	var gid int64
	if req.CallID == "" {
		if req.GID != "" {
			if gid, err = strconv.ParseInt(string(req.GID), 10, 64); err != nil {
				return FloorReply{}, httpx.BadParam("gid", "a group id")
			}
		} else {
			s.mu.Lock()
			c := s.defaultCallLocked(cl)
			s.mu.Unlock()
			if c != nil {
				req.CallID = flex.String(c.ID)
			} else if gid = acct.PttGroup; gid == 0 {
				return FloorReply{}, ErrNotFound
			}
		}
	}
	decided, err := s.takeLease(ctx, acct, req, gid, at) // in a cluster: the group's floor for this node (cluster.go)
	remote := errors.Is(err, errRemoteBusy)              // another node holds the group's floor: a queue:true press waits here
	if remote && !req.Queue {
		return FloorReply{}, ErrFloorBusy
	}
	if err != nil && !remote {
		return FloorReply{}, err
	}
	reply, err := s.decideFloor(ctx, cl, acct, req, gid, at, false, remote)
	if errors.Is(err, errStaleAudience) { // the group's call ended or its members changed meanwhile
		reply, err = s.decideFloor(ctx, cl, acct, req, gid, at, true, remote)
	}
	if decided != nil {
		decided(err == nil && reply.Status == "granted")
	}
	if err != nil || reply.Status != "granted" {
		return reply, err
	}
	return s.answerGrant(ctx, cl, reply)
}

// answerGrant answers a granted press under the lock its revocations are sent under (realtime.Answer), so the
// client hears of its grant before any revocation of it. A grant whose burst ended before it could be answered is
// answered busy: in a cluster the lease can run out while the press waits for its Decided, and the burst is then
// revoked before the reply is written — the client saw the revocation first, for a floor it did not know it had,
// and then "granted" for a floor already gone or another's (docs/reliability.md finding 9).
func (s *Service) answerGrant(ctx context.Context, cl *client, reply FloorReply) (FloorReply, error) {
	err := s.locked(func(*afterUnlock) error {
		c := s.calls[reply.CallID]
		if c == nil || c.ended || !c.talks(cl) {
			return ErrFloorBusy
		}
		if s.leases != nil && c.Kind == Group && !s.leases.Live(c.Group) {
			return ErrFloorBusy // lost meanwhile: its revocation (Decided, the run-out) is on its way
		}
		realtime.Answer(ctx, reply, nil) // outside a socket request (a leg, a SIP phone): the return answers
		return nil
	})
	return reply, err
}

// errStaleAudience asks decideFloor's caller to try again with the group read from the store.
var errStaleAudience = errors.New("group audience changed")

// decideFloor decides a floor request for a resolved target: the call req.CallID, or the group gid.
// A group whose call is open keeps the audience read when the call opened, as long as no directory event came
// since (Service.acctGen), so a press in a busy group costs no store read; otherwise (or with read) the group
// and its audience are read first, outside the lock. remote: in a cluster, another node holds the group's floor
// (or a waiter of another node comes first), and the press (queue:true) is queued here to wait for it.
func (s *Service) decideFloor(ctx context.Context, cl *client, acct Account, req FloorRequest, gid int64,
	at time.Time, read, remote bool) (FloorReply, error) {
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
	err := s.locked(func(later *afterUnlock) error {
		// Every refusal is decided before a group call opens: a call opened here always gets its first talker
		// (a fresh floor grants), so a refused press never leaves a call that nobody talks in and that never
		// hangs up.
		if cl.peer == nil {
			return ErrNoPeer // no microphone to give the floor to
		}
		var c *Call
		if req.CallID != "" {
			c = s.calls[string(req.CallID)]
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
				c = s.newCallLocked(later, Group, acct, info)
			}
			c.audience, c.audGen = aud, gen
		}
		claim := &Claim{Account: acct.ID, Client: cl, Prio: s.priorityLocked(acct), At: at, Queue: req.Queue,
			Arrival: realtime.Arrival(ctx)}
		var err error
		reply, err = s.pressLocked(later, c, acct, claim, remote)
		return err
	})
	return reply, err
}

// pressLocked decides claim on call c's floor: granted (a burst starts; a lower-priority talker is pre-empted),
// queued or refused busy. remote: in a cluster another node holds the group's floor (or a waiter of another node
// comes first), and the claim can only be queued here to wait for it.
func (s *Service) pressLocked(later *afterUnlock, c *Call, acct Account, claim *Claim, remote bool) (FloorReply, error) {
	var reply FloorReply
	if claim.Arrival != 0 && claim.Client.released > claim.Arrival {
		// The client let go of it before it was decided (its release, sent after it, was handled first while this
		// press waited for the cluster's lease or the store): granted now, it would hold a floor it released.
		return reply, ErrFloorBusy
	}
	if c.talks(claim.Client) { // pressed again while talking, or in a duplex call
		reply = FloorReply{CallID: c.ID, Status: "granted", MaxTalkMs: s.opts.MaxTalkTime.Milliseconds()}
		return reply, nil
	}
	if !remote && s.leases != nil && c.Kind == Group && !s.leases.Live(c.Group) {
		// The lease Take gave this press ran out while it was decided (a slow link to NATS or the store): another
		// node may take the floor now, so granting would make a second talker (docs/reliability.md, finding 9).
		return reply, ErrFloorBusy
	}
	var d Decision
	var pre *Claim
	var pos int
	if remote {
		d, pos = c.floor.Enqueue(claim)
	} else {
		d, pre, pos = c.floor.Request(claim)
	}
	switch d {
	case Denied:
		return reply, ErrFloorBusy
	case Queued:
		reply = FloorReply{CallID: c.ID, Status: "queued", Position: pos, MaxTalkMs: s.opts.MaxTalkTime.Milliseconds()}
		if remote {
			s.advertiseLocked(later, c) // written before the reply: a release from now on hands the floor here
		}
		if until := c.floor.Yielding(); (remote || !until.IsZero()) && !c.resuming {
			// the last talker waits on a free floor for those who asked: it gets the floor when the wait ends;
			// in a cluster, a queue on a floor another node holds waits for it to be handed here
			c.resuming = true
			time.AfterFunc(time.Until(until), func() { s.resumeFloor(c) })
		}
		s.publishFloorLocked(c)
		return reply, nil
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
		s.endBurstLocked(later, c, reason, false)
	}
	s.startBurstLocked(later, c, claim)
	s.recomputeLocked(c.Customer)
	s.publishFloorLocked(c)
	reply = FloorReply{CallID: c.ID, Status: "granted", MaxTalkMs: s.opts.MaxTalkTime.Milliseconds(),
		PressToGrantUs: c.burst.accessUs}
	return reply, nil
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

// groupCallFresh tells whether group gid has an open call whose audience no directory event has aged.
func (s *Service) groupCallFresh(gid int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.groupCall[gid]
	return c != nil && !c.ended && c.audGen == s.acctGen.Load()
}

// defaultCallLocked is the call a terminal's bare floor request means: its individual call, then its temporary
// group, all or broadcast call (nil: its ptt group).
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

// priorityLocked is an account's floor priority: emergency, dispatcher or terminal.
func (s *Service) priorityLocked(a Account) Priority {
	switch {
	case s.emergency[a.ID]:
		return PrioEmergency
	case a.Dispatcher():
		return PrioDispatcher
	}
	return PrioTerminal
}

// ReleaseFloor releases the floor (or a queued request) of a client: in one call, or in every call. arrival is
// the release's place among the client's socket requests (realtime.Arrival; 0: none): a press that came before
// it and is not decided yet is withdrawn (pressLocked).
func (s *Service) ReleaseFloor(cl *client, callID string, arrival uint64) error {
	return s.locked(func(later *afterUnlock) error {
		cl.released = max(cl.released, arrival)
		found := false
		for _, c := range s.customerCalls(cl.acct.Customer) {
			if callID != "" && c.ID != callID {
				continue
			}
			found = true
			holder := c.floor.Holder != nil && c.floor.Holder.Account == cl.acct.ID
			was, next := c.floor.Release(cl.acct.ID)
			if was && holder {
				s.endBurstLocked(later, c, "released", true)
				s.afterReleaseLocked(later, c, next)
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
func (s *Service) afterReleaseLocked(later *afterUnlock, c *Call, next *Claim) {
	for next != nil && next.Client.gone {
		_, next = c.floor.Release(next.Account)
	}
	if next != nil && s.leases != nil && c.Kind == Group && s.leases.Outranked(c.Group, int(next.Prio), next.At.UnixNano()) {
		c.floor.putBack(next) // a waiter of another node comes first: the floor is handed to its node (cluster.go)
		next = nil
	}
	if next == nil && s.leases != nil && c.Kind == Group && !c.ended && len(c.floor.Queue) > 0 {
		s.advertiseLocked(later, c) // before the release below hands the floor on: its new holder sees the queue
		if !c.resuming {
			c.resuming = true // the queue here waits for the group's floor to come back (resumeFloor)
			time.AfterFunc(resumeRetry, func() { s.resumeFloor(c) })
		}
	}
	if next != nil {
		s.startBurstLocked(later, c, next)
		_ = next.Client.conn.Send("floor.granted", map[string]any{"callId": c.ID,
			"maxTalkMs": s.opts.MaxTalkTime.Milliseconds()})
	} else if c.Kind == Group && !c.ended {
		if c.timer != nil {
			c.timer.Stop()
		}
		c.timer = time.AfterFunc(s.opts.GroupHangTime, func() { s.hangUp(c) })
		if s.leases != nil { // the group's floor is free here: another node may take it (cluster.go)
			gid := c.Group
			later.Then(func() { s.leases.Release(gid) }) // unless a burst here started meanwhile
		}
	}
	s.recomputeLocked(c.Customer)
	s.publishFloorLocked(c)
}

// advertiseLocked tells the cluster, once the lock is released, that the queue here waits for the group's
// floor another node holds (resumeFloor renews it); not while the last talker's retry gap runs.
func (s *Service) advertiseLocked(later *afterUnlock, c *Call) {
	if s.leases == nil || c.Kind != Group || c.floor.Holder != nil || len(c.floor.Queue) == 0 ||
		time.Now().Before(c.floor.Yielding()) {
		return
	}
	head, gid := *c.floor.Queue[0], c.Group
	later.Then(func() { s.leases.Advertise(gid, int(head.Prio), head.At) })
}

// resumeRetry is how often a queue waiting on a group floor another node of the cluster holds tries again.
const resumeRetry = 100 * time.Millisecond

// resumeFloor gives a free floor to the queue here: to the talker that waited for others (Floor.Resume) when
// nobody took it, or, in a cluster, to a queue waiting for the group's floor another node holds. In a cluster
// this node gave the group's floor key up when the floor here fell free, so it takes the key again first
// (cluster.go): while another node holds it, the queue here advertises its head to the cluster (so the holder
// hands the floor over when its burst ends) and tries again every resumeRetry — granting without the key would
// make a second talker beside that node's.
func (s *Service) resumeFloor(c *Call) {
	var took bool
	if s.leases != nil && c.Kind == Group {
		s.mu.Lock()
		waiting := !c.ended && c.floor.Holder == nil && len(c.floor.Queue) > 0
		var head Claim
		var until time.Time
		if waiting {
			head, until = *c.floor.Queue[0], c.floor.Yielding()
		}
		s.mu.Unlock()
		if !waiting {
			s.leases.Withdraw(c.Group)
		} else {
			if d := time.Until(until); d > 0 { // the last talker's retry gap: it waits for those who asked
				time.AfterFunc(d, func() { s.resumeFloor(c) })
				return
			}
			s.leases.Advertise(c.Group, int(head.Prio), head.At)
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			took = s.leases.Take(ctx, c.Group, int(head.Prio), head.At)
			cancel()
			if !took {
				time.AfterFunc(resumeRetry, func() { s.resumeFloor(c) }) // c.resuming stays set: one timer at a time
				return
			}
			s.leases.Withdraw(c.Group)
		}
	}
	granted := false
	_ = s.locked(func(later *afterUnlock) error {
		c.resuming = false
		if c.ended || c.floor.Holder != nil {
			return nil
		}
		if next := c.floor.Resume(time.Now()); next != nil || len(c.floor.Queue) == 0 {
			s.afterReleaseLocked(later, c, next) // nil: the queue emptied meanwhile, a group call may hang up
		}
		granted = c.burst != nil
		return nil
	})
	if took {
		s.leases.Decided(c.Group)
		if !granted {
			s.leases.Release(c.Group)
		}
	}
}

// talkTimeUp revokes a burst that reached the maximum talk time (code 418).
func (s *Service) talkTimeUp(c *Call, b *burst) {
	_ = s.locked(func(later *afterUnlock) error {
		if c.burst != b {
			return nil
		}
		_, next := c.floor.Release(b.claim.Account)
		_ = b.talker.conn.Send("floor.revoked", map[string]any{"callId": c.ID, "code": strconv.Itoa(StMaxDuration)})
		s.endBurstLocked(later, c, "maxDuration", false)
		s.afterReleaseLocked(later, c, next)
		return nil
	})
}

// SetEmergency marks an account as an emergency (SOS) talker: while on, its floor requests pre-empt
// everyone's, and its bursts play first for every listener. Package sos calls it.
func (s *Service) SetEmergency(msID string, on bool) {
	_ = s.locked(func(later *afterUnlock) error {
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
	_ = s.locked(func(later *afterUnlock) error {
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
					s.endBurstLocked(later, c, "blocked", false)
					s.afterReleaseLocked(later, c, next)
				}
			}
			for _, a := range s.ambient {
				if a.targetID == msID {
					s.stopAmbientLocked(later, a)
				}
			}
		}
		s.recomputeLocked(customer)
		return nil
	})
}

func (s *Service) floorViewLocked(c *Call) *FloorView {
	v := &FloorView{CallID: c.ID, Kind: c.Kind, GName: c.GroupName, Queue: c.floor.QueueIDs(),
		MaxTalkMs: s.opts.MaxTalkTime.Milliseconds()}
	if c.Group != 0 {
		v.GID = strconv.FormatInt(c.Group, 10)
	}
	if b := c.burst; b != nil {
		p := b.talker.acct.person()
		v.Talker, v.Since, v.Emergency = &p, b.mb.Granted.UnixMilli(), b.emergency
		v.NotRecorded = b.notRecorded
	}
	return v
}

func (s *Service) publishFloorLocked(c *Call) {
	s.hub.Publish(c.Customer, "floor.state", s.floorViewLocked(c), s.callAudienceFilter(c))
}

// accountTTL bounds how long a cached account is trusted without a directory event: changes made by another
// process (the admin command) reach the floor within it.
const accountTTL = 30 * time.Second

// directoryEvents are the events after which a cached account may be stale (ptt group, membership, name,
// call-set status).
var directoryEvents = map[string]bool{"member.switched": true, "group.changed": true, "tempGroup.changed": true,
	"terminal.updated": true}

// watchDirectory is the hub watcher that ages every cached account on a directory event.
func (s *Service) watchDirectory(_ int64, typ string) {
	if directoryEvents[typ] {
		s.acctGen.Add(1)
	}
}

// refreshAccount re-reads a client's account (call-set status and ptt group change under it).
func (s *Service) refreshAccount(ctx context.Context, cl *client) (Account, error) {
	gen := s.acctGen.Load() // before the read: an event during it makes the next press read again
	a, err := s.store.Account(ctx, cl.acct.Customer, cl.acct.ID)
	if err != nil {
		return a, err
	}
	s.mu.Lock()
	// Only what can change is written: the account's identity (ID, customer, type) is read without the lock by
	// every handler of the connection.
	cl.acct.Name, cl.acct.Status, cl.acct.PttGroup = a.Name, a.Status, a.PttGroup
	cl.acctGen, cl.acctAt = gen, time.Now()
	s.setBlockedLocked(a)
	s.mu.Unlock()
	return a, nil
}

// acctOf is a copy of the client's account, for reading what can change (name, status, group) without s.mu held.
func (s *Service) acctOf(cl *client) Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cl.acct
}

// currentAccount is the client's account for a floor request: the cached one unless a directory event came
// since it was read or it is older than accountTTL, so a press costs no store read in the common case.
func (s *Service) currentAccount(ctx context.Context, cl *client) (Account, error) {
	s.mu.Lock()
	a, fresh := cl.acct, cl.acctGen == s.acctGen.Load() && time.Since(cl.acctAt) < accountTTL
	s.mu.Unlock()
	if fresh {
		return a, nil
	}
	return s.refreshAccount(ctx, cl)
}
