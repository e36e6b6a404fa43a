package video

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/media"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/afterlock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/realtime"
)

// Service runs the video sessions of this node. Session state lives in memory under one lock; store reads
// happen before taking it, log and row writes after releasing it.
type Service struct {
	store *Store
	hub   *realtime.Hub
	log   *oplog.Log
	media *media.Engine
	opts  Options

	mu        sync.Mutex
	sessions  map[string]*session
	monitored map[string]*session // terminal account → its monitoring session
	watched   map[*realtime.Conn]bool
	recLive   map[string]bool // recordings being written (relative paths): not orphans
	closed    bool
	wg        sync.WaitGroup // rows and logs being written
}

// New builds the service.
func New(d *db.DB, dir Directory, hub *realtime.Hub, log *oplog.Log, m *media.Engine, opts Options) *Service {
	return &Service{store: NewStore(d, dir), hub: hub, log: log, media: m, opts: opts.withDefaults(),
		sessions: map[string]*session{}, monitored: map[string]*session{}, watched: map[*realtime.Conn]bool{},
		recLive: map[string]bool{}}
}

// Store is the video store.
func (s *Service) Store() *Store { return s.store }

// party is one side of a session: a call's caller or callee, a monitoring's terminal or one of its viewers.
type party struct {
	Account
	conn   *realtime.Conn // the connection that carries its side (nil until bound: a callee at its answer)
	peer   *media.VideoPeer
	early  []webrtc.ICECandidateInit
	codecs []media.VideoCodec
	since  time.Time // viewer: when it started watching
}

// session is one video call or one monitoring of a terminal.
type session struct {
	id          string
	customer    int64
	kind        string
	state       string
	status      int
	caller      *party            // call: who invited
	callee      *party            // call: who answered (or the one rung); monitor: the terminal
	rung        []Account         // a terminal's call to the dispatch desk: every dispatcher ringing
	wasRung     map[string]bool   // desk: every dispatcher it rang (a late answer gets 409, not 107)
	declined    map[string]int    // desk: who declined, with the status
	viewers     map[string]*party // monitor: dispatcher → its viewer side
	codec       media.VideoCodec
	res         Resolution
	started     time.Time
	connected   time.Time
	limit       time.Duration // connected: the call ends after this long
	limitStatus int           // 418 or 402
	by          string
	timer       *time.Timer
	ended       bool
	fixed       chan struct{} // monitor: closed when the terminal agreed (codec fixed) or the session ended
	record      bool          // the customer records sessions (read with the limits at the start)
	opener      Account       // monitor: the dispatcher who started it
	recording   *recording    // the recording in progress (record.go)
}

// fixLocked marks a monitoring's codec as fixed (or the session as over): offers waiting for it go on.
func (ss *session) fixLocked() {
	if ss.fixed != nil {
		close(ss.fixed)
		ss.fixed = nil
	}
}

// parties are the call's sides that exist (monitor: the terminal and the viewers).
func (ss *session) parties() []*party {
	var out []*party
	for _, p := range []*party{ss.caller, ss.callee} {
		if p != nil {
			out = append(out, p)
		}
	}
	for _, v := range ss.viewers {
		out = append(out, v)
	}
	return out
}

// partyOf is the side of the session that a connection carries (nil: none).
func (ss *session) partyOf(c *realtime.Conn) *party {
	for _, p := range ss.parties() {
		if p.conn == c {
			return p
		}
	}
	return nil
}

// involves tells whether an account is a side of the session (or rung by it).
func (ss *session) involves(acct string) bool {
	for _, p := range ss.parties() {
		if p.ID == acct {
			return true
		}
	}
	for _, a := range ss.rung {
		if a.ID == acct {
			return true
		}
	}
	return false
}

func newID(prefix string) string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	return prefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// afterUnlock collects the work a locked section leaves for after the lock is released.
type afterUnlock = afterlock.Later

// locked runs fn under the lock, then the work it left. After Close it refuses.
func (s *Service) locked(fn func(later *afterUnlock) error) error {
	return afterlock.Run(&s.mu, &s.closed, realtime.ErrNotOnline, fn)
}

// Close ends every session (rows and logs written) and waits; call it before the store closes.
func (s *Service) Close() {
	_ = s.locked(func(later *afterUnlock) error {
		for _, ss := range s.sessions {
			s.endLocked(later, ss, StOK, "")
		}
		return nil
	})
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.wg.Wait()
}

// SetMediaTimeout changes how long media may take to connect (502 after); tests and tuning.
func (s *Service) SetMediaTimeout(d time.Duration) {
	s.mu.Lock()
	s.opts.MediaTimeout = d
	s.mu.Unlock()
}

// Wait blocks until the rows and logs of ended sessions are written (tests).
func (s *Service) Wait() { s.wg.Wait() }

// watchLocked ends what a connection carried when it closes.
func (s *Service) watchLocked(c *realtime.Conn) {
	if c == nil || s.watched[c] {
		return
	}
	s.watched[c] = true
	c.AfterClose(func() { s.connGone(c) })
}

// connGone: a call whose party's connection closed ends (101); a viewer that closed stops watching; a
// monitored terminal that closed ends its monitoring (101).
func (s *Service) connGone(c *realtime.Conn) {
	_ = s.locked(func(later *afterUnlock) error {
		delete(s.watched, c)
		for _, ss := range s.sessions {
			p := ss.partyOf(c)
			if p == nil {
				continue
			}
			if ss.kind == KindMonitor && p != ss.callee {
				s.removeViewerLocked(later, ss, p, StOffline)
				continue
			}
			s.endLocked(later, ss, StOffline, p.ID)
		}
		return nil
	})
}

// view is the session as events show it.
func (s *Service) viewLocked(ss *session) View {
	v := View{CallID: ss.id, Kind: ss.kind, State: ss.state, Status: ss.status, Codec: string(ss.codec),
		Resolution: ss.res.Name, Started: ss.started.UnixMilli(), By: ss.by}
	if ss.caller != nil {
		v.Caller = ss.caller.person()
	}
	if ss.callee != nil {
		p := ss.callee.person()
		v.Callee = &p
	}
	if ss.kind == KindMonitor {
		v.Caller = Person{}
		for id := range ss.viewers {
			v.Viewers = append(v.Viewers, id)
		}
	}
	if !ss.connected.IsZero() {
		v.Connected = ss.connected.UnixMilli()
		v.MaxDurationMs = ss.limit.Milliseconds()
	}
	return v
}

// publishLocked sends video.state: a call to the customer's consoles and its parties (and the dispatchers it
// rings); a monitoring to consoles only (the terminal is never told).
func (s *Service) publishLocked(ss *session) {
	v := s.viewLocked(ss)
	if ss.kind == KindMonitor {
		s.hub.Publish(ss.customer, "video.state", v, realtime.Consoles)
		return
	}
	accts := map[string]bool{}
	for _, p := range ss.parties() {
		accts[p.ID] = true
	}
	s.hub.Publish(ss.customer, "video.state", v, realtime.ConsolesAnd(accts))
}

// endLocked ends a session with a status: timers stop, peers close, the row and the logs are written.
func (s *Service) endLocked(later *afterUnlock, ss *session, status int, by string) {
	if ss.ended {
		return
	}
	ss.ended = true
	ss.fixLocked()
	if ss.timer != nil {
		ss.timer.Stop()
	}
	ss.state, ss.status, ss.by = StateEnded, status, by
	delete(s.sessions, ss.id)
	if ss.kind == KindMonitor {
		if s.monitored[ss.callee.ID] == ss {
			delete(s.monitored, ss.callee.ID)
		}
		for _, v := range ss.viewers {
			s.viewerRowLocked(later, ss, v, status)
		}
		if ss.callee.conn != nil && status != StOffline {
			_ = ss.callee.conn.Send("video.monitorStop", map[string]any{"callId": ss.id, "status": status})
		}
	}
	s.finishRecordingLocked(later, ss) // the recorder lets go of the feeds before the peers close
	for _, p := range ss.parties() {
		if p.peer != nil {
			later.Then(p.peer.Close)
			p.peer = nil
		}
	}
	// published last: whoever hears of the end finds the row queued (Wait awaits it)
	defer s.publishLocked(ss)
	if ss.kind != KindCall {
		return
	}
	now := s.opts.Now()
	r := Record{CallID: ss.id, Kind: KindCall, CallerID: ss.caller.ID, CallerName: ss.caller.Name, Codec: string(ss.codec),
		Started: ss.started.UnixMilli(), Ended: now.UnixMilli(), Status: status, EndedBy: by, customer: ss.customer}
	if ss.callee != nil {
		r.CalleeID, r.CalleeName = ss.callee.ID, ss.callee.Name
	}
	if !ss.connected.IsZero() {
		r.Connected = ss.connected.UnixMilli()
		r.DurationMs = max(now.Sub(ss.connected).Milliseconds(), 0)
		if ss.limit > 0 && r.DurationMs > ss.limit.Milliseconds() {
			r.DurationMs = ss.limit.Milliseconds() // the timer fires a little late; the credit was what it was
		}
	}
	term := ss.caller // the terminal side, for the log's detail
	if term.Dispatcher() && ss.callee != nil {
		term = ss.callee
	}
	remark := "video call " + ss.caller.Name + " → "
	if ss.callee != nil {
		remark += ss.callee.Name
	} else {
		remark += "dispatch desk"
	}
	remark += ": " + strconv.Itoa(status) + ", " + strconv.FormatInt(r.DurationMs/1000, 10) + " s"
	logger := ss.caller.Account
	s.saveLater(later, func(ctx context.Context) {
		if err := s.store.AddRecord(ctx, r); err != nil {
			slog.Error("video: store the call", "call", r.CallID, "err", err)
		}
		s.log.Write(ctx, ss.customer, logger.ID, logger.Name, oplog.VideoCall, remark,
			oplog.D("videoCall", "terminal", term.ID, "status", strconv.Itoa(status),
				"seconds", strconv.FormatInt(r.DurationMs/1000, 10)))
	})
}

// saveLater queues store and log writes after unlocking (awaited by Close and Wait).
func (s *Service) saveLater(later *afterUnlock, fn func(ctx context.Context)) {
	s.wg.Add(1)
	later.Then(func() {
		go func() {
			defer s.wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			fn(ctx)
		}()
	})
}

// List is the open sessions a connection may see: a console all of its customer's calls and its own
// monitorings; a terminal its own calls.
func (s *Service) List(c *realtime.Conn) []View {
	pr := c.Principal()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []View{}
	for _, ss := range s.sessions {
		if ss.customer != pr.CustomerID {
			continue
		}
		switch {
		case ss.kind == KindMonitor && (c.Kind() != realtime.Console || ss.viewers[pr.AccountID] == nil):
			continue
		case ss.kind == KindCall && c.Kind() != realtime.Console && !ss.involves(pr.AccountID):
			continue
		}
		out = append(out, s.viewLocked(ss))
	}
	return out
}

// ActiveCalls is how many video calls a customer has open (for tests and metrics).
func (s *Service) ActiveCalls(customer int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.countLocked(customer, KindCall)
}

func (s *Service) countLocked(customer int64, kind string) int {
	n := 0
	for _, ss := range s.sessions {
		if ss.customer == customer && ss.kind == kind {
			if kind == KindMonitor {
				n += len(ss.viewers)
			} else {
				n++
			}
		}
	}
	return n
}
