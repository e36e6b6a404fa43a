package call

// The service: its state under one lock, the work that runs after unlocking, start and shutdown.

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/oplog"
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
	taps      map[string]media.Tap // console → where its microphone also goes (live paging, SetTap)
	recording map[string]bool      // files of bursts being recorded or indexed (the orphan sweep leaves them)
	rights    rightsCache          // voice and recording permissions, recording time (rights.go; its own lock)
	closed    bool                 // shutting down: no new work, no log writes
	wg        sync.WaitGroup       // recordings being finished
	leases    FloorLeases          // the cluster's group floors (cluster.go); nil on a node alone

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
		emergency: map[string]bool{}, focus: map[string]string{}, modes: map[string]string{}, blocked: map[string]bool{}, taps: map[string]media.Tap{},
		recording: map[string]bool{}, remote: map[*media.Lane]*remoteBurst{}, remoteAud: map[int64]remoteAudience{},
		legs: map[string]*leg{},
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
		s.closed = true
		return nil
	})
	s.wg.Wait()
}

// afterUnlock collects the work a locked section leaves for after the lock is released: log writes, store
// writes of missed calls, closing PeerConnections and other slow work.
type afterUnlock struct {
	s    *Service
	work []func()
}

// then queues fn to run once the lock is released.
func (later *afterUnlock) then(fn func()) { later.work = append(later.work, fn) }

// log queues an operation-log write (none once the service is closed).
func (later *afterUnlock) log(customer int64, a Account, t oplog.Type, remark string, detail oplog.Detail) {
	if later.s.closed {
		return
	}
	later.then(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		later.s.log.Write(ctx, customer, a.ID, a.Name, t, remark, detail)
	})
}

// locked runs fn under the lock, then the work it left for after unlocking. After Close it does nothing.
func (s *Service) locked(fn func(later *afterUnlock) error) error {
	later := &afterUnlock{s: s}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return realtime.ErrNotOnline
	}
	err := fn(later)
	s.mu.Unlock()
	for _, w := range later.work {
		w()
	}
	return err
}

// SetTap sends a console's microphone packets to tap as well, whether or not it holds a floor, until it is set
// to nil: live paging to public-address speakers (internal/broadcast, docs/adr/0018). It reports whether the
// account has a connected media peer (without one no packet can come).
func (s *Service) SetTap(customer int64, account string, tap media.Tap) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tap == nil {
		delete(s.taps, account)
	} else {
		s.taps[account] = tap
	}
	s.recomputeLocked(customer)
	for cl := range s.byCust[customer] {
		if cl.acct.ID == account && cl.peer != nil && cl.peer.Ready() {
			return true
		}
	}
	return false
}
