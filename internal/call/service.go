package call

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	focus     map[string]string // account → the call it chose to hear
	modes     map[string]string // account → playback priority mode
	blocked   map[string]bool   // killed or stunned accounts (latest read or hook)
	closed    bool              // shutting down: no new work, no log writes
	wg        sync.WaitGroup    // recordings being finished
}

// client is one socket connection that uses voice: its account and its PeerConnection.
type client struct {
	conn    *realtime.Conn
	acct    Account
	console bool
	peer    *media.Peer
	peerMu  sync.Mutex // creating the peer
	playing string     // what it hears now (call id, or "monitor:<msId>"), for voice.playing
	tailing bool       // its released burst's last packets are still being forwarded
	lastKW  Kind       // kind of its last floor request (log 112 on a change)
	gone    bool
	acctGen uint64    // Service.acctGen when acct was read
	acctAt  time.Time // when acct was read from the store
}

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

	parties  []*party           // everyone but group calls
	audGen   uint64             // Service.acctGen when a group call's audience was read
	audience map[string]Account // group calls: members and accounts whose ptt group it is (read at each grant)
	joined   map[string]bool    // group calls: who talked in it (a dispatcher hears the replies to its call)
	floor    Floor
	burst    *burst
	timer    *time.Timer // ring/acknowledge timeout, or a group call's hang time
	ended    bool
	btime    int64 // the last burst's btime: (call id, btime) names a record, so it only grows

	wasConnected bool // an individual call that was answered and acknowledged
}

type party struct {
	Account
	state string
}

// burst is the floor holder's talk: its media burst, recording and timers.
type burst struct {
	mb        *media.Burst
	talker    *client
	claim     *Claim
	btime     int64  // UTC ms of the grant, unique within the call
	path      string // relative to the data directory; "" if not recorded
	accessUs  int64
	maxTimer  *time.Timer
	emergency bool
}

// ambient is a dispatcher listening to a terminal's microphone (terminal monitoring).
type ambient struct {
	id       uint64
	by       string // dispatcher account
	byName   string
	customer int64
	target   *client
	targetID string
	pending  bool // asked the terminal, no answer yet
}

// New builds the service; media may be shared by several services in tests.
func New(d *db.DB, hub *realtime.Hub, log *oplog.Log, m *media.Engine, opts Options) *Service {
	return &Service{
		db: d, store: NewStore(d), hub: hub, log: log, media: m, opts: opts.withDefaults(),
		clients: map[*realtime.Conn]*client{}, byAcct: map[string]map[*client]struct{}{},
		byCust: map[int64]map[*client]struct{}{}, calls: map[string]*Call{}, groupCall: map[int64]*Call{},
		monitors: map[string]map[int64]bool{}, ambient: map[string]*ambient{}, mutes: map[string]map[string]bool{},
		emergency: map[string]bool{}, focus: map[string]string{}, modes: map[string]string{}, blocked: map[string]bool{},
	}
}

// Store is the voice store (reports and tests read it).
func (s *Service) Store() *Store { return s.store }

// Restore indexes recordings whose row could not be written (the store was closing) and loads the mute list;
// run before serving.
func (s *Service) Restore(ctx context.Context) error {
	if err := s.indexPending(ctx); err != nil {
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
	_ = s.locked(func(f *fx) error {
		for _, c := range s.calls {
			if c.timer != nil {
				c.timer.Stop()
			}
			s.endBurstLocked(f, c, "ended", false)
		}
		s.closed = true
		return nil
	})
	s.wg.Wait()
}

// fx collects what to do after the lock is released: log writes and other slow work.
type fx struct {
	s     *Service
	after []func()
}

func (f *fx) then(fn func()) { f.after = append(f.after, fn) }

func (f *fx) log(customer int64, a Account, t oplog.Type, remark string) {
	if f.s.closed {
		return
	}
	f.then(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		f.s.log.Write(ctx, customer, a.ID, a.Name, t, remark)
	})
}

// locked runs fn under the lock, then its effects. After Close it does nothing.
func (s *Service) locked(fn func(f *fx) error) error {
	f := &fx{s: s}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return realtime.ErrNotOnline
	}
	err := fn(f)
	s.mu.Unlock()
	for _, a := range f.after {
		a()
	}
	return err
}

func newCallID() string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	return strconv.FormatInt(time.Now().UnixMilli(), 36) + hex.EncodeToString(b[:])
}

// ensureClient returns the voice state of a connection, creating it (and its watcher) on first use.
func (s *Service) ensureClient(ctx context.Context, conn *realtime.Conn) (*client, error) {
	s.mu.Lock()
	cl := s.clients[conn]
	s.mu.Unlock()
	if cl != nil {
		return cl, nil
	}
	p := conn.Principal()
	acct, err := s.store.Account(ctx, p.CustomerID, p.AccountID)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cl = s.clients[conn]; cl != nil {
		return cl, nil
	}
	select {
	case <-conn.Done():
		return nil, realtime.ErrNotOnline
	default:
	}
	cl = &client{conn: conn, acct: acct, console: conn.Kind() == realtime.Console}
	s.clients[conn] = cl
	addTo(s.byAcct, acct.ID, cl)
	addTo(s.byCust, acct.Customer, cl)
	s.setBlockedLocked(acct)
	go func() {
		<-conn.Done()
		s.dropClient(cl)
	}()
	return cl, nil
}

func addTo[K comparable](m map[K]map[*client]struct{}, k K, cl *client) {
	set := m[k]
	if set == nil {
		set = map[*client]struct{}{}
		m[k] = set
	}
	set[cl] = struct{}{}
}

func removeFrom[K comparable](m map[K]map[*client]struct{}, k K, cl *client) {
	if set := m[k]; set != nil {
		delete(set, cl)
		if len(set) == 0 {
			delete(m, k)
		}
	}
}

func (s *Service) setBlockedLocked(a Account) {
	if a.Blocked() {
		s.blocked[a.ID] = true
	} else {
		delete(s.blocked, a.ID)
	}
}

// isBlocked tells whether an account is killed or stunned as last heard (store read or call-set hook).
func (s *Service) isBlocked(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.blocked[id]
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
	cl.acct, cl.acctGen, cl.acctAt = a, gen, time.Now()
	s.setBlockedLocked(a)
	s.mu.Unlock()
	return a, nil
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

// dropClient forgets a closed connection: its claims, its monitoring, and the calls it alone kept up.
func (s *Service) dropClient(cl *client) {
	_ = s.locked(func(f *fx) error {
		if cl.gone {
			return nil
		}
		cl.gone = true
		delete(s.clients, cl.conn)
		removeFrom(s.byAcct, cl.acct.ID, cl)
		removeFrom(s.byCust, cl.acct.Customer, cl)
		last := len(s.byAcct[cl.acct.ID]) == 0
		for _, c := range s.customerCalls(cl.acct.Customer) {
			if was, next := c.floor.Drop(cl); was {
				s.endBurstLocked(f, c, "gone", false)
				s.afterReleaseLocked(f, c, next)
			}
			if last {
				s.partyGoneLocked(f, c, cl.acct)
			}
		}
		for by, a := range s.ambient {
			if a.target == cl || (last && by == cl.acct.ID) {
				s.stopAmbientLocked(f, a)
			}
		}
		if last {
			for gid := range s.monitors[cl.acct.ID] {
				f.log(cl.acct.Customer, cl.acct, oplog.GroupMonitorStop, "group "+strconv.FormatInt(gid, 10))
			}
			delete(s.monitors, cl.acct.ID)
			delete(s.focus, cl.acct.ID)
			delete(s.modes, cl.acct.ID)
		}
		s.recomputeLocked(cl.acct.Customer)
		if p := cl.peer; p != nil {
			cl.peer = nil
			f.then(p.Close)
		}
		return nil
	})
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

// --- routing: who hears which talker -------------------------------------------------------------------------

// source is something a listener can hear: a floor holder's burst or a monitored terminal's microphone.
type source struct {
	id      uint64
	talker  *client
	call    *Call
	amb     *ambient
	started time.Time
}

// recomputeLocked gives every listener of a customer exactly one source (or none) and every talker its route.
// It runs on control events only (grant, release, join, mute, focus…), never per packet.
func (s *Service) recomputeLocked(customer int64) {
	var srcs []source
	for _, c := range s.customerCalls(customer) {
		if b := c.burst; b != nil && b.talker.peer != nil {
			srcs = append(srcs, source{id: b.mb.ID, talker: b.talker, call: c, started: b.mb.Granted})
		}
	}
	for _, a := range s.ambient {
		if a.customer == customer && !a.pending && a.target.peer != nil {
			srcs = append(srcs, source{id: a.id, talker: a.target, amb: a})
		}
	}
	routes := map[*client]*media.Route{}
	for _, src := range srcs {
		r := routes[src.talker]
		if r == nil {
			r = &media.Route{}
			routes[src.talker] = r
		}
		if src.call != nil {
			r.Burst = src.call.burst.mb
		}
	}
	listeners := make([]*client, 0, len(s.byCust[customer]))
	for cl := range s.byCust[customer] {
		listeners = append(listeners, cl)
	}
	for _, l := range listeners {
		if l.peer == nil || !l.peer.Ready() {
			continue
		}
		best := -1
		bestRank := 0
		if !s.blocked[l.acct.ID] {
			for i := range srcs {
				src := &srcs[i]
				if src.talker.acct.ID == l.acct.ID || !s.hearsLocked(l, src) || s.mutes[l.acct.ID][src.talker.acct.ID] {
					continue
				}
				if r := s.rankLocked(l, src); best < 0 || r < bestRank ||
					(r == bestRank && s.laterWinsLocked(l, src, &srcs[best])) {
					best, bestRank = i, r
				}
			}
		}
		playing := ""
		if best < 0 {
			l.peer.Downstream().Assign(0)
		} else {
			src := &srcs[best]
			l.peer.Downstream().Assign(src.id)
			r := routes[src.talker]
			r.Targets = append(r.Targets, media.Target{D: l.peer.Downstream(), Src: src.id})
			playing = src.key()
		}
		if playing != l.playing {
			l.playing = playing
			_ = l.conn.Send("voice.playing", s.playingView(srcs, best))
		}
	}
	for cl := range s.byCust[customer] {
		if cl.peer == nil {
			continue
		}
		if r := routes[cl]; r != nil {
			cl.peer.SetRoute(r)
		} else if !cl.tailing && cl.peer.Route() != nil {
			cl.peer.SetRoute(nil)
		}
	}
}

func (src *source) key() string {
	if src.amb != nil {
		return "monitor:" + src.amb.targetID
	}
	return src.call.ID
}

func (s *Service) playingView(srcs []source, best int) map[string]any {
	if best < 0 {
		return map[string]any{"callId": "", "msId": ""}
	}
	src := srcs[best]
	if src.amb != nil {
		return map[string]any{"callId": "", "msId": src.amb.targetID, "monitor": true}
	}
	return map[string]any{"callId": src.call.ID, "msId": src.talker.acct.ID, "kind": src.call.Kind}
}

// hearsLocked tells whether a listener is in a source's audience.
func (s *Service) hearsLocked(l *client, src *source) bool {
	if src.amb != nil {
		return src.amb.by == l.acct.ID
	}
	c := src.call
	if c.Kind == Group {
		_, member := c.audience[l.acct.ID]
		return member || c.joined[l.acct.ID] || s.monitors[l.acct.ID][c.Group]
	}
	if c.State != StateConnected {
		return false
	}
	p := c.party(l.acct.ID)
	return p != nil && p.state == PartyConnected
}

// rankLocked orders a listener's sources (lower plays): the call it chose, an emergency, its own calls and
// monitoring, its ptt group (or, for a console in mode dispatcher, a dispatcher's burst), the rest.
func (s *Service) rankLocked(l *client, src *source) int {
	switch {
	case src.call != nil && s.focus[l.acct.ID] == src.call.ID:
		return 0
	case s.emergency[src.talker.acct.ID]:
		return 1
	case src.amb != nil || src.call.Kind != Group:
		return 2
	case (!l.console || s.modes[l.acct.ID] == ModePTT) && src.call.audience[l.acct.ID].PttGroup == src.call.Group:
		return 3
	case l.console && s.modes[l.acct.ID] == ModeDispatcher && src.talker.console:
		return 3
	}
	return 4
}

// laterWinsLocked breaks a tie between sources of one rank: first-come keeps playing unless the listener
// chose "latest".
func (s *Service) laterWinsLocked(l *client, a, b *source) bool {
	if s.modes[l.acct.ID] == ModeLatest {
		return a.started.After(b.started)
	}
	return a.started.Before(b.started)
}

// --- bursts ----------------------------------------------------------------------------------------------------

// startBurstLocked gives the call's floor holder a burst: a recording, its media burst and the talk timer.
func (s *Service) startBurstLocked(f *fx, c *Call, claim *Claim) {
	if c.timer != nil && c.Kind == Group {
		c.timer.Stop()
		c.timer = nil
	}
	now := time.Now()
	c.btime = max(now.UnixMilli(), c.btime+1) // two bursts of one call may start within a millisecond
	b := &burst{talker: claim.Client, claim: claim, emergency: s.emergency[claim.Account],
		accessUs: now.Sub(claim.At).Microseconds(), btime: c.btime}
	rel := filepath.Join("recordings", strconv.FormatInt(c.Customer, 10), now.UTC().Format("2006/01/02"),
		fmt.Sprintf("%s-%d.ogg", c.ID, b.btime))
	var rec *media.Recorder
	if s.opts.DataDir != "" {
		rec, b.path = media.StartRecorder(filepath.Join(s.opts.DataDir, rel)), rel // a failure shows at Finish
	}
	if c.Kind == Group {
		c.joined[claim.Account] = true
	}
	b.mb = media.NewBurst(rec)
	b.mb.Granted = now
	c.burst = b
	media.MPressToGrant.Observe(now.Sub(claim.At).Seconds())
	b.maxTimer = time.AfterFunc(s.opts.MaxTalkTime, func() { s.talkTimeUp(c, b) })
	if claim.Client.console && claim.Client.lastKW != "" && claim.Client.lastKW != c.Kind {
		f.log(c.Customer, claim.Client.acct, oplog.CallTypeSwitch, string(claim.Client.lastKW)+" → "+string(c.Kind))
	}
	claim.Client.lastKW = c.Kind
}

// endBurstLocked ends the holder's burst. With tail, packets already on their way still reach the listeners
// for ReleaseTail; the recording is finished and indexed after that, outside the lock.
func (s *Service) endBurstLocked(f *fx, c *Call, reason string, tail bool) {
	b := c.burst
	if b == nil {
		return
	}
	c.burst = nil
	b.maxTimer.Stop()
	talker := b.talker
	// What finishing needs of the call is read now, under the lock.
	snap := burstEnd{allow: s.callAudienceFilter(c), peers: c.peerIDs(b.claim.Account), talkerName: talker.acct.Name}
	finish := func() { s.finishBurst(c, b, reason, snap) }
	if tail && talker.peer != nil {
		talker.tailing = true
		s.wg.Add(1)
		time.AfterFunc(s.opts.ReleaseTail, func() {
			defer s.wg.Done()
			_ = s.locked(func(f *fx) error {
				talker.tailing = false
				s.recomputeLocked(c.Customer)
				return nil
			})
			finish()
		})
		return
	}
	s.wg.Add(1)
	f.then(func() { go func() { defer s.wg.Done(); finish() }() })
}

// burstEnd is what finishing a burst needs of its call, read under the lock.
type burstEnd struct {
	allow      realtime.Audience
	peers      string
	talkerName string // the talker's account is replaced under the lock when it is refreshed
}

// finishBurst closes the recording, stores its row (durable before it is reported) and reports the burst. It
// runs outside the lock and reads only the call's fixed fields.
func (s *Service) finishBurst(c *Call, b *burst, reason string, snap burstEnd) {
	stats := b.mb.Stats()
	view := BurstStatsView{CallID: c.ID, MsID: b.claim.Account, BTime: b.btime,
		DurationMs: time.Since(b.mb.Granted).Milliseconds(), PressToGrantUs: b.accessUs,
		GrantToFirstUs: stats.FirstPacket.Microseconds(), DelayP50Us: stats.DelayP50.Microseconds(),
		DelayP99Us: stats.DelayP99.Microseconds(), Packets: stats.Packets, Reason: reason}
	if rec := b.mb.Recorder(); rec != nil {
		res, err := rec.Finish()
		switch {
		case err != nil:
			slog.Error("voice: finish recording", "call", c.ID, "err", err)
		case res.Packets > 0:
			view.DurationMs = int64(res.Samples) / 48
			r := Record{Customer: c.Customer, CallID: c.ID, Kind: c.Kind, GroupID: c.Group, GroupName: c.GroupName,
				PeerIDs: snap.peers, TalkerID: b.claim.Account, TalkerName: snap.talkerName,
				Started: view.BTime, DurationMs: view.DurationMs, Quality: string(res.Quality), Size: res.Size,
				Path: b.path, AccessUs: view.PressToGrantUs, FirstPacketUs: view.GrantToFirstUs, DelayP99Us: view.DelayP99Us}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			id, err := s.store.AddRecord(ctx, r)
			if err == nil {
				r.ID = id
				_, err = s.hub.PublishDurable(ctx, c.Customer, "voice.recorded", recordView(r), realtime.Consoles)
			}
			cancel()
			if err != nil {
				s.keepPending(r, err)
			}
		}
	}
	s.hub.Publish(c.Customer, "floor.stats", view, snap.allow)
}

// peerIDs is what a record stores as the other parties of a burst.
func (c *Call) peerIDs(talker string) string {
	if c.Kind == Group {
		return ""
	}
	var ids []string
	for _, p := range c.parties {
		if p.ID != talker {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) > 20 {
		ids = ids[:20]
	}
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += ","
		}
		out += id
	}
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

// pendingDir holds the index rows of recordings that could not be stored yet, one JSON file each.
func (s *Service) pendingDir() string { return filepath.Join(s.opts.DataDir, "recordings", "pending") }

// keepPending writes a recording's row next to the recordings when the store refused it (e.g. during
// shutdown), so the next start indexes it: a recording on disk is never left without its row.
func (s *Service) keepPending(r Record, cause error) {
	b, _ := json.Marshal(r)
	name := fmt.Sprintf("%d-%s-%d.json", r.Customer, r.CallID, r.Started)
	err := os.MkdirAll(s.pendingDir(), 0o750)
	if err == nil {
		err = os.WriteFile(filepath.Join(s.pendingDir(), name), b, 0o640)
	}
	if err != nil {
		slog.Error("voice: index recording", "call", r.CallID, "err", cause, "pending", err)
		return
	}
	slog.Warn("voice: recording kept for indexing at the next start", "call", r.CallID, "err", cause)
}

// indexPending stores the rows kept by keepPending.
func (s *Service) indexPending(ctx context.Context) error {
	entries, err := os.ReadDir(s.pendingDir())
	if os.IsNotExist(err) || s.opts.DataDir == "" {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		path := filepath.Join(s.pendingDir(), e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			slog.Error("voice: unreadable pending recording row", "file", path, "err", err)
			continue
		}
		if _, err := s.store.AddRecord(ctx, r); err != nil && !db.IsUniqueViolation(err) {
			return err
		}
		if err := os.Remove(path); err != nil {
			return err
		}
	}
	return nil
}

// removeRecording deletes a recording file (missing is fine).
func (s *Service) removeRecording(rel string) error {
	err := os.Remove(filepath.Join(s.opts.DataDir, rel))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
