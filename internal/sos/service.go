package sos

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/clock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

// EmergencyFloor is the voice side's emergency priority: while a terminal has an open alarm its floor requests
// pre-empt everyone else's in its calls (DESIGN §4 "emergency pre-empts all"). Implemented by the call service.
type EmergencyFloor interface {
	SetEmergency(msID string, on bool)
}

type noFloor struct{}

func (noFloor) SetEmergency(string, bool) {}

// Options tune the service; zero values take the defaults.
type Options struct {
	// RealertEvery is how often consoles are alerted again about an alarm nobody acknowledged (default 10 s).
	RealertEvery time.Duration
	// StopTimeout is how long a remote close waits for the terminal to confirm it stopped alarming (default: the
	// hub's acknowledgement timeout).
	StopTimeout time.Duration
}

// DefaultRealertEvery is the re-alert interval unless Options say otherwise.
const DefaultRealertEvery = 10 * time.Second

// Service runs SOS alarms.
type Service struct {
	clock.Clock // SetClock and Now: tests move time instead of sleeping

	db    *db.DB
	store *Store
	hub   *realtime.Hub
	log   *oplog.Log
	opts  Options
	floor atomic.Pointer[EmergencyFloor]

	mu      sync.Mutex
	alerted map[AlarmID]*alertState
}

type alertState struct {
	last  time.Time
	count int
}

// New builds the service on the directory's terminals; hub and log may not be nil.
func New(d *db.DB, dir Directory, hub *realtime.Hub, log *oplog.Log, opts Options) *Service {
	if opts.RealertEvery <= 0 {
		opts.RealertEvery = DefaultRealertEvery
	}
	s := &Service{db: d, store: NewStore(d, dir), hub: hub, log: log, opts: opts, alerted: map[AlarmID]*alertState{}}
	s.SetFloor(nil)
	return s
}

// Store is the alarm store (reports and tests read it).
func (s *Service) Store() *Store { return s.store }

// SetFloor installs the emergency priority hook (nil = none); safe while serving.
func (s *Service) SetFloor(f EmergencyFloor) {
	if f == nil {
		f = noFloor{}
	}
	s.floor.Store(&f)
}

func (s *Service) setEmergency(msID string, on bool) { (*s.floor.Load()).SetEmergency(msID, on) }

// RealertEvery is the re-alert interval in force.
func (s *Service) RealertEvery() time.Duration { return s.opts.RealertEvery }

// Raise stores a terminal's alarm, then logs it (102), publishes `sos.alarm` to the customer's consoles and
// turns on emergency floor priority; only then does the caller acknowledge the terminal. A raise while the
// terminal already has an open alarm returns that alarm (created = false) and re-alerts the consoles at once.
func (s *Service) Raise(ctx context.Context, p identity.Principal, typ string, lat, lng *float64) (Alarm, bool, error) {
	typ, err := checkType(typ)
	if err != nil {
		return Alarm{}, false, err
	}
	if lat, lng, err = checkLatLng(lat, lng); err != nil {
		return Alarm{}, false, err
	}
	// Once started, a raise completes even if the terminal's connection drops meanwhile.
	ctx = context.WithoutCancel(ctx)
	now := s.Now()
	a, created, err := s.store.Raise(ctx, p.CustomerID, NewAlarm{MsID: p.AccountID, Type: typ, Lat: lat, Lng: lng, At: now.UnixMilli()})
	if err != nil {
		return Alarm{}, false, err
	}
	s.setEmergency(a.MsID, true)
	if !created {
		s.realertOne(p.CustomerID, a, now)
		return a, false, nil
	}
	s.mu.Lock()
	s.alerted[a.ID] = &alertState{last: now}
	s.mu.Unlock()
	if _, err := s.hub.PublishDurable(ctx, p.CustomerID, EventAlarm, a, realtime.Consoles); err != nil {
		// The alarm is stored, its durable event is not: the hub sent it live (the terminal's "0" says the consoles
		// have it); a console that reconnects later finds it through findSos and the re-alerts.
		slog.ErrorContext(ctx, "sos: durable alarm event; sent live only", "id", a.ID, "err", err)
	}
	s.log.Write(ctx, p.CustomerID, a.MsID, a.MsName, oplog.Alarm, raiseRemark(a), raiseDetail(a))
	return a, true, nil
}

func raiseRemark(a Alarm) string {
	r := "SOS " + a.ID.String() + " type " + a.Type
	if a.Lat != nil {
		r += fmt.Sprintf(" at %.6f,%.6f", *a.Lat, *a.Lng)
	}
	return r
}

func raiseDetail(a Alarm) oplog.Detail {
	if a.Lat != nil {
		return oplog.D("sosRaisedAt", "alarm", a.ID.String(), "type", a.Type, "lat", fmt.Sprintf("%.6f", *a.Lat), "lng", fmt.Sprintf("%.6f", *a.Lng))
	}
	return oplog.D("sosRaised", "alarm", a.ID.String(), "type", a.Type)
}

// Cancel closes the terminal's own open alarm (the worker canceled it on the device): log 118.
// id 0 means "my open alarm".
func (s *Service) Cancel(ctx context.Context, p identity.Principal, id AlarmID) (Alarm, error) {
	ctx = context.WithoutCancel(ctx)
	open, err := s.store.OpenOf(ctx, p.CustomerID, p.AccountID)
	if err != nil {
		if err == db.ErrNotFound {
			return Alarm{}, ErrNoOpen
		}
		return Alarm{}, err
	}
	if id != 0 && id != open.ID {
		return Alarm{}, ErrNoOpen
	}
	a, err := s.store.Close(ctx, p.CustomerID, open.ID, Actor{ID: p.AccountID, Name: open.MsName}, ClosedByTerminal, "", s.Now().UnixMilli())
	if err != nil {
		return Alarm{}, err
	}
	s.closed(ctx, p.CustomerID, a)
	s.log.Write(ctx, p.CustomerID, p.AccountID, open.MsName, oplog.AlarmCanceled, "SOS "+a.ID.String()+" canceled by the terminal", oplog.D("sosCanceled", "alarm", a.ID.String()))
	return a, nil
}

// Acknowledge is a dispatcher confirming the alarm (state 0 → 1); the terminal hears `sos.acked`.
func (s *Service) Acknowledge(ctx context.Context, p identity.Principal, id AlarmID) (Alarm, error) {
	ctx = context.WithoutCancel(ctx)
	a, err := s.store.Acknowledge(ctx, p.CustomerID, id, Actor{ID: p.AccountID, Name: p.Name}, s.Now().UnixMilli())
	if err != nil {
		return a, err
	}
	s.forget(a.ID)
	s.publishUpdate(ctx, p.CustomerID, a)
	s.hub.SendTo(a.MsID, TermAcked, map[string]any{"id": a.ID, "responder": a.Responder, "responderName": a.ResponderName})
	return a, nil
}

// Close is a dispatcher closing the alarm record with a remark (0/1 → 2). The terminal hears `sos.closed`
// (best effort); to make the terminal stop alarming and confirm it, use RemoteClose.
func (s *Service) Close(ctx context.Context, p identity.Principal, id AlarmID, remark string) (Alarm, error) {
	if err := checkRemark(remark); err != nil {
		return Alarm{}, err
	}
	ctx = context.WithoutCancel(ctx)
	a, err := s.store.Close(ctx, p.CustomerID, id, Actor{ID: p.AccountID, Name: p.Name}, ClosedByConsole, remark, s.Now().UnixMilli())
	if err != nil {
		return a, err
	}
	s.closed(ctx, p.CustomerID, a)
	return a, nil
}

// RemoteClose tells the terminal to stop alarming (`sos.stop`, awaiting its acknowledgement), then closes
// the record: log 119. An offline terminal is code "4" and nothing changes; so is a refusal or no answer.
func (s *Service) RemoteClose(ctx context.Context, p identity.Principal, id AlarmID, remark string) (Alarm, error) {
	if err := checkRemark(remark); err != nil {
		return Alarm{}, err
	}
	ctx = context.WithoutCancel(ctx)
	cur, err := s.store.Get(ctx, p.CustomerID, id)
	if err != nil {
		return cur, err
	}
	if !cur.State.CanBecome(Closed) {
		return cur, ErrTransition
	}
	timeout := s.opts.StopTimeout
	if timeout <= 0 {
		timeout = s.hub.AckTimeout()
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	_, err = s.hub.Request(rctx, cur.MsID, TermStop, map[string]any{"id": cur.ID, "by": p.AccountID, "byName": p.Name})
	cancel()
	if err != nil {
		return cur, err
	}
	a, err := s.store.Close(ctx, p.CustomerID, id, Actor{ID: p.AccountID, Name: p.Name}, ClosedByRemote, remark, s.Now().UnixMilli())
	if err != nil {
		return a, err
	}
	s.closed(ctx, p.CustomerID, a)
	s.log.By(ctx, p, oplog.RemoteAlarmClosed, "SOS "+a.ID.String()+" of "+a.MsID+" closed remotely", oplog.D("sosClosed", "alarm", a.ID.String(), "terminal", a.MsID))
	return a, nil
}

// Update applies a console's updateSos: state 1 acknowledges, state 2 closes (remotely when remote is set).
func (s *Service) Update(ctx context.Context, p identity.Principal, id AlarmID, to State, remark string, remote bool) (Alarm, error) {
	switch {
	case to == Acknowledged && !remote:
		return s.Acknowledge(ctx, p, id)
	case to == Closed && remote:
		return s.RemoteClose(ctx, p, id, remark)
	case to == Closed:
		return s.Close(ctx, p, id, remark)
	case to == Acknowledged:
		return Alarm{}, httpx.BadParam("remote", "only with state 2")
	}
	return Alarm{}, httpx.BadParam("state", "1 or 2")
}

func (s *Service) closed(ctx context.Context, customerID int64, a Alarm) {
	s.forget(a.ID)
	s.setEmergency(a.MsID, false)
	s.publishUpdate(ctx, customerID, a)
	if a.CloseKind != ClosedByTerminal {
		s.hub.SendTo(a.MsID, TermClosed, map[string]any{"id": a.ID, "kind": a.CloseKind, "closer": a.Closer, "closerName": a.CloserName})
	}
}

func (s *Service) publishUpdate(ctx context.Context, customerID int64, a Alarm) {
	if _, err := s.hub.PublishDurable(ctx, customerID, EventUpdated, a, realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "sos: publish update", "id", a.ID, "err", err)
	}
}

func (s *Service) forget(id AlarmID) {
	s.mu.Lock()
	delete(s.alerted, id)
	s.mu.Unlock()
}

// Realert is one pass of the re-alert loop: every alarm still in state 0 whose last alert is RealertEvery old
// is announced again (`sos.realert`, not stored: the alarm itself already is).
func (s *Service) Realert(ctx context.Context) error {
	open, err := s.store.Unacknowledged(ctx)
	if err != nil {
		return err
	}
	now := s.Now()
	live := make(map[AlarmID]bool, len(open))
	for _, o := range open {
		live[o.ID] = true
		s.mu.Lock()
		st := s.alerted[o.ID]
		if st == nil {
			// First sight on this node: raised before a restart, or on another node of a cluster (the re-alerts
			// run on one node: App.single). It was announced when raised; the re-alerts go on from there,
			// counted as if this node had made them (an old one is due at once).
			raised := time.UnixMilli(o.Time)
			st = &alertState{last: raised, count: max(0, int(now.Sub(raised)/s.opts.RealertEvery)-1)}
			s.alerted[o.ID] = st
		}
		due := now.Sub(st.last) >= s.opts.RealertEvery
		s.mu.Unlock()
		if due {
			s.realertOne(o.CustomerID, o.Alarm, now)
		}
	}
	s.mu.Lock()
	for id := range s.alerted {
		if !live[id] {
			delete(s.alerted, id)
		}
	}
	s.mu.Unlock()
	return nil
}

// Realerted is the `sos.realert` event: the alarm and how many times it has been re-announced.
type Realerted struct {
	Alarm
	Count int `json:"count"`
}

func (s *Service) realertOne(customerID int64, a Alarm, now time.Time) {
	s.mu.Lock()
	st := s.alerted[a.ID]
	if st == nil {
		st = &alertState{}
		s.alerted[a.ID] = st
	}
	st.last = now
	st.count++
	n := st.count
	s.mu.Unlock()
	s.hub.Publish(customerID, EventRealert, Realerted{Alarm: a, Count: n}, realtime.Consoles)
}

// Run re-alerts until ctx ends, checking every second (or every RealertEvery/2 when that is shorter). In a cluster
// it runs on the node holding the re-alert lease (App.single), from the moment it takes the lease: what this node
// noted of an alarm before that (its raise, when the terminal is connected here) is older than the re-alerts
// another node made meanwhile, so the count starts again from each open alarm's raise time (Realert's first sight)
// and goes on from where the other node left it instead of from 1.
func (s *Service) Run(ctx context.Context) {
	s.mu.Lock()
	clear(s.alerted)
	s.mu.Unlock()
	every := min(time.Second, s.opts.RealertEvery/2)
	ticker.Every(ctx, every, func() {
		if err := s.Realert(ctx); err != nil && ctx.Err() == nil {
			slog.Error("sos: realert", "err", err)
		}
	})
}

// Restore re-applies emergency floor priority for alarms left open by a previous run (start-up work).
func (s *Service) Restore(ctx context.Context) error {
	open, err := s.store.OpenAll(ctx)
	if err != nil {
		return err
	}
	for _, o := range open {
		s.setEmergency(o.MsID, true)
	}
	return nil
}
