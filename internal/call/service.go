package call

// The service: its state under one lock, the work that runs after unlocking, start and shutdown.

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/afterlock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/realtime"
)

// Service runs voice dispatch for every customer of this node. All call, floor and monitoring state lives in
// memory under one lock (decisions take microseconds); database reads happen before taking it and log writes
// after releasing it.
type Service struct {
	db    *db.DB
	store *Store
	hub   *realtime.Hub
	log   *oplog.Log
	media *media.Engine
	opts  Options

	mu sync.Mutex
	// acctGen counts directory events (group switches, membership, terminal updates) on this node: a client's
	// cached account is re-read from the store when the count moved since it was read (or it is older than
	// accountTTL, for changes made elsewhere). Atomic: the hub's watcher may run while mu is held.
	acctGen   atomic.Uint64
	clients   map[*realtime.Conn]*client
	byAcct    map[string]map[*client]struct{}
	byCust    map[int64]map[*client]struct{}
	calls     map[string]*Call
	groupCall map[int64]*Call           // the open call of each group
	monitors  map[string]map[int64]bool // dispatcher → groups it monitors
	ambient   map[string]*ambient       // dispatcher → the terminal it listens to
	mutes     map[string]map[string]bool
	emergency map[string]bool
	focus     map[string]string    // account → the call it chose to hear
	modes     map[string]string    // account → playback priority mode
	blocked   map[string]bool      // killed or stunned accounts (latest read or hook)
	taps      map[tapKey]*tapEntry // console → where its microphone also goes (live paging, SetTap)
	recording map[string]bool      // files of bursts being recorded or indexed (the orphan sweep leaves them)
	retrying  bool                 // rows in recordings/pending are being offered to the store again (burst.go)
	kept      int                  // rows kept in recordings/pending so far (retryPending)
	rights    rightsCache          // voice and recording permissions, recording time (rights.go; its own lock)
	closed    bool                 // shutting down: no new work, no log writes
	stop      chan struct{}        // closed by Close: background loops (retryPending) end
	wg        sync.WaitGroup       // recordings being finished, background loops
	leases    FloorLeases          // the cluster's group floors (cluster.go); nil on a node alone
	dialer    Dialer               // accounts reached without a socket: SIP phones (dialout.go); nil: none
	locals    localTickets         // in-process parties' media not yet bound (local.go; its own lock)

	// in a cluster (relay.go, docs/adr/0026); nil and empty on a node alone
	relay     MediaRelay                   // the media relay to the other nodes
	remote    map[*media.Lane]*remoteBurst // other nodes' bursts heard here, by the lane they arrive on
	remoteAud map[int64]remoteAudience     // their groups' audiences
	legs      map[string]*leg              // calls of other nodes with a party here, by call id (leg.go)
}

// New builds the service; media may be shared by several services in tests. Its socket requests are Verbs
// and its endpoints Routes.
func New(d *db.DB, dir Directory, hub *realtime.Hub, log *oplog.Log, m *media.Engine, opts Options) *Service {
	s := &Service{
		db: d, store: NewStore(d, dir), hub: hub, log: log, media: m, opts: opts.withDefaults(),
		clients: map[*realtime.Conn]*client{}, byAcct: map[string]map[*client]struct{}{},
		byCust: map[int64]map[*client]struct{}{}, calls: map[string]*Call{}, groupCall: map[int64]*Call{},
		monitors: map[string]map[int64]bool{}, ambient: map[string]*ambient{}, mutes: map[string]map[string]bool{},
		emergency: map[string]bool{}, focus: map[string]string{}, modes: map[string]string{}, blocked: map[string]bool{}, taps: map[tapKey]*tapEntry{},
		recording: map[string]bool{}, remote: map[*media.Lane]*remoteBurst{}, remoteAud: map[int64]remoteAudience{},
		legs: map[string]*leg{}, stop: make(chan struct{}),
	}
	hub.Watch(s.watchDirectory) // cached accounts age with every directory event (floor.go)
	return s
}

// Store is the voice store (reports and tests read it).
func (s *Service) Store() *Store { return s.store }

// Restore indexes recordings whose row could not be written (the store was closing) and loads the mute list;
// run before serving.
func (s *Service) Restore(ctx context.Context) error {
	if err := s.indexPending(ctx); err != nil {
		return err
	}
	if err := s.loadRights(ctx); err != nil {
		return err
	}
	m, err := s.store.AllMutes(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.mutes = m
	s.mu.Unlock()
	return nil
}

// Wait blocks until recordings being finished are indexed (shutdown, tests).
func (s *Service) Wait() { s.wg.Wait() }

// Close ends every talk burst (their recordings are finished and indexed), stops the timers and waits; call it
// before the store closes.
func (s *Service) Close() {
	_ = s.locked(func(later *afterUnlock) error {
		for _, c := range s.calls {
			if c.timer != nil {
				c.timer.Stop()
			}
			s.endBurstLocked(later, c, "ended", false)
		}
		if !s.closed {
			close(s.stop)
		}
		s.closed = true
		return nil
	})
	s.wg.Wait()
}

// afterUnlock collects the work a locked section leaves for after the lock is released: log writes, store
// writes of missed calls, closing PeerConnections and other slow work.
type afterUnlock struct {
	*afterlock.Later
	s *Service
}

// log queues an operation-log write (none once the service is closed).
func (later *afterUnlock) log(customer int64, a Account, t oplog.Type, remark string, detail oplog.Detail) {
	if later.s.closed {
		return
	}
	later.Then(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		later.s.log.Write(ctx, customer, a.ID, a.Name, t, remark, detail)
	})
}

// locked runs fn under the lock, then the work it left for after unlocking. After Close it does nothing.
func (s *Service) locked(fn func(later *afterUnlock) error) error {
	return afterlock.Run(&s.mu, &s.closed, realtime.ErrNotOnline, func(l *afterlock.Later) error {
		return fn(&afterUnlock{Later: l, s: s})
	})
}

// tapKey is whose microphone a tap takes: an account of a customer. Account ids are the customer's; the
// customer is part of the key so that no caller can name another customer's console (issue 30 H2).
type tapKey struct {
	customer int64
	account  string
}

// tapEntry is a set tap and what to call when it stops carrying audio.
type tapEntry struct {
	tap   media.Tap
	ended func(reason string)
}

// Why a tap stopped carrying audio (SetTap's ended).
const (
	TapReplaced = "replaced" // another tap took the console's microphone
	TapNoMedia  = "media"    // the console's media peer went away (closed, failed, the console gone)
)

// SetTap sends a console's microphone packets to tap as well, whether or not it holds a floor, until remove is
// called: live paging to public-address speakers (internal/broadcast, docs/adr/0018). It is checked before
// anything changes: the account must be a console of the customer with a connected media peer on this node,
// else ok is false and nothing is set (another customer's console is never touched). A tap set for the same
// console replaces the one before, whose ended runs; ended also runs (on a goroutine of its own, once) when the
// console's media goes away, so a page that stops carrying audio is known (reason TapReplaced or TapNoMedia).
// remove takes away this tap only.
func (s *Service) SetTap(customer int64, account string, tap media.Tap, ended func(reason string)) (remove func(), ok bool) {
	if tap == nil {
		return func() {}, false
	}
	k := tapKey{customer, account}
	e := &tapEntry{tap: tap, ended: ended}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.tapReadyLocked(k) {
		return func() {}, false
	}
	if old := s.taps[k]; old != nil {
		s.tapEndedLocked(old, TapReplaced)
	}
	s.taps[k] = e
	s.recomputeLocked(customer)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.taps[k] == e {
			delete(s.taps, k)
			s.recomputeLocked(customer)
		}
	}, true
}

// tapReadyLocked tells whether the console of k has a connected media peer here. The caller holds mu.
func (s *Service) tapReadyLocked(k tapKey) bool {
	for cl := range s.byCust[k.customer] {
		if cl.acct.ID == k.account && cl.console && cl.peer != nil && cl.peer.Ready() {
			return true
		}
	}
	return false
}

// tapEndedLocked tells a tap's owner that it carries no more audio. The caller holds mu.
func (s *Service) tapEndedLocked(e *tapEntry, reason string) {
	if e.ended != nil {
		go e.ended(reason)
	}
}

// tapRoutesLocked adds the customer's taps to the routes of their consoles' microphones, and ends the taps whose
// console has no connected media peer any more (gone, closed or failed): their audio stopped. The caller holds
// mu (recomputeLocked).
func (s *Service) tapRoutesLocked(customer int64, routes map[*client]*media.Route) {
	for k, e := range s.taps {
		if k.customer == customer && !s.tapReadyLocked(k) {
			delete(s.taps, k)
			s.tapEndedLocked(e, TapNoMedia)
		}
	}
	for cl := range s.byCust[customer] {
		if e := s.taps[tapKey{customer, cl.acct.ID}]; e != nil && cl.console && cl.peer != nil {
			r := routes[cl]
			if r == nil {
				r = &media.Route{}
				routes[cl] = r
			}
			r.Taps = append(r.Taps, e.tap)
		}
	}
}
