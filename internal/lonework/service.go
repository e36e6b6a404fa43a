package lonework

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/clock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/defaults"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/timerange"
)

// Hub is what the service needs of the socket hub (a *realtime.Hub; engine tests use a fake).
type Hub interface {
	Online(accountID string) bool
	Request(ctx context.Context, accountID, typ string, data any) (json.RawMessage, error)
	SendTo(accountID, typ string, data any) bool
	Publish(customerID int64, typ string, data any, to realtime.Audience)
	PublishDurable(ctx context.Context, customerID int64, typ string, data any, to realtime.Audience) (int64, error)
	AckTimeout() time.Duration
}

var _ Hub = (*realtime.Hub)(nil)

// Thresholds decide the alarm reasons (docs/safety.md "Lone worker").
type Thresholds struct {
	// OfflineGrace is how long a terminal may be disconnected before an offline (or battery off) alarm: a
	// reconnecting phone must not raise alarms (default 30 s).
	OfflineGrace time.Duration
	// BatteryOff is the battery percentage at or below which a terminal that went offline counts as "battery off"
	// rather than "offline" (default 5).
	BatteryOff int
	// WeakSignal is the signal level (0..5) at or below which a due check raises a weak-signal alarm (default 1).
	WeakSignal int
}

// DefaultThresholds are used for zero fields.
var DefaultThresholds = Thresholds{OfflineGrace: 30 * time.Second, BatteryOff: 5, WeakSignal: 1}

// Service runs lone-worker plans, their engine and their alarms.
type Service struct {
	clock.Clock // SetClock and Now: tests move time instead of sleeping

	db    *db.DB
	store *Store
	hub   Hub
	log   *oplog.Log
	th    Thresholds

	// mu serializes every change of a plan (REST edits, engine steps, check-ins, prompt results).
	mu           sync.Mutex
	offlineSince map[WorkID]time.Time
	delivered    map[WorkID]int64 // the deadline whose prompt reached the terminal
	inflight     map[WorkID]bool  // a prompt request is waiting for the terminal's ack
	pending      int              // prompts in flight
	idle         *sync.Cond       // signalled when pending drops
}

// New builds the service on the directory's terminals. hub may be a *realtime.Hub or a fake; log may not be nil.
func New(d *db.DB, dir Directory, hub Hub, log *oplog.Log, th Thresholds) *Service {
	defaults.Positive(&th.OfflineGrace, DefaultThresholds.OfflineGrace)
	defaults.Positive(&th.BatteryOff, DefaultThresholds.BatteryOff)
	defaults.Positive(&th.WeakSignal, DefaultThresholds.WeakSignal)
	s := &Service{db: d, store: NewStore(d, dir), hub: hub, log: log, th: th,
		offlineSince: map[WorkID]time.Time{}, delivered: map[WorkID]int64{}, inflight: map[WorkID]bool{}}
	s.idle = sync.NewCond(&s.mu)
	return s
}

// Store is the plan store.
func (s *Service) Store() *Store { return s.store }

// Thresholds in force.
func (s *Service) Thresholds() Thresholds { return s.th }

// stamp fills the fields that depend on the clock.
func stamp(p Plan, now int64) Plan {
	p.WorkState = p.workState(now)
	p.ServerTime = now
	return p
}

func (s *Service) publishState(p Plan, now int64) {
	s.hub.Publish(p.customerID, EventState, stamp(p, now), realtime.Consoles)
}

// Add creates one plan per terminal (log 120).
func (s *Service) Add(ctx context.Context, p identity.Principal, msIDs []string, raw RawInput) ([]Plan, error) {
	msIDs, err := checkTerminals(msIDs)
	if err != nil {
		return nil, err
	}
	loc, err := timerange.Zone(ctx, s.db, p.CustomerID)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	in, err := raw.Check(loc, now)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	plans, err := s.store.Create(ctx, p.CustomerID, msIDs, in, p.AccountID, now.UnixMilli())
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	for i := range plans {
		plans[i] = stamp(plans[i], now.UnixMilli())
		s.publishState(plans[i], now.UnixMilli())
	}
	s.log.By(ctx, p, oplog.LoneWorkerSet, "lone work for "+strings.Join(msIDs, ",")+" at "+plans[0].Date+" "+plans[0].Time+
		", "+itoa(in.Duration)+" min, check every "+itoa(in.Interval)+" min",
		oplog.D("loneSet", "terminals", strings.Join(msIDs, ","), "date", plans[0].Date, "time", plans[0].Time,
			"duration", itoa(in.Duration), "interval", itoa(in.Interval)))
	return plans, nil
}

// Update edits a waiting plan (log 121). Fields left out keep their values. A plan in progress accepts only
// {enabled: 0}, which ends it now.
func (s *Service) Update(ctx context.Context, p identity.Principal, id WorkID, raw RawInput) (Plan, error) {
	loc, err := timerange.Zone(ctx, s.db, p.CustomerID)
	if err != nil {
		return Plan{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now()
	cur, err := s.store.Get(ctx, p.CustomerID, id)
	if err != nil {
		return Plan{}, err
	}
	if cur.workState(now.UnixMilli()) == Working && (raw.Enabled == "0" || raw.Enabled == "false") {
		if err := s.finish(ctx, cur, now); err != nil {
			return Plan{}, err
		}
		s.log.By(ctx, p, oplog.LoneWorkerEdited, "lone work "+id.String()+" of "+cur.MsID+" ended early", oplog.D("loneEnded", "terminal", cur.MsID))
		return s.storeGet(ctx, p.CustomerID, id, now)
	}
	if !cur.Editable(now.UnixMilli()) {
		return Plan{}, ErrNotEditable
	}
	merged := mergeInput(cur, raw)
	in, err := merged.Check(loc, now)
	if err != nil {
		return Plan{}, err
	}
	pl, err := s.store.Update(ctx, p.CustomerID, id, in, now.UnixMilli())
	if err != nil {
		return Plan{}, err
	}
	pl = stamp(pl, now.UnixMilli())
	s.publishState(pl, now.UnixMilli())
	s.log.By(ctx, p, oplog.LoneWorkerEdited, "lone work "+id.String()+" of "+pl.MsID+" at "+pl.Date+" "+pl.Time+
		", "+itoa(in.Duration)+" min, check every "+itoa(in.Interval)+" min",
		oplog.D("loneEdited", "terminal", pl.MsID, "date", pl.Date, "time", pl.Time,
			"duration", itoa(in.Duration), "interval", itoa(in.Interval)))
	return pl, nil
}

func (s *Service) storeGet(ctx context.Context, customerID int64, id WorkID, now time.Time) (Plan, error) {
	p, err := s.store.Get(ctx, customerID, id)
	return stamp(p, now.UnixMilli()), err
}

// mergeInput fills the fields an update left out from the plan.
func mergeInput(cur Plan, raw RawInput) RawInput {
	out := raw
	if strings.TrimSpace(raw.STime) == "" && (strings.TrimSpace(raw.Date) == "" || strings.TrimSpace(raw.Time) == "") {
		if strings.TrimSpace(raw.Date) != "" || strings.TrimSpace(raw.Time) != "" {
			// Half a date/time: complete it from the plan.
			if out.Date == "" {
				out.Date = cur.Date
			}
			if out.Time == "" {
				out.Time = cur.Time
			}
		} else {
			out.STime = itoa64(cur.STime)
		}
	}
	if raw.Duration == "" && raw.WTime == "" && raw.ETime == "" {
		out.Duration = itoa(cur.Duration)
	}
	if raw.Interval == "" && raw.HB == "" {
		out.Interval = itoa(cur.Interval)
	}
	if raw.Countdown == "" {
		out.Countdown = itoa(cur.Countdown)
	}
	if raw.Enabled == "" {
		out.Enabled = itoa(cur.Enabled)
	}
	return out
}

// Delete removes plans that are not in progress nor in alarm (log 122); all or none.
func (s *Service) Delete(ctx context.Context, p identity.Principal, ids []WorkID) ([]WorkID, error) {
	s.mu.Lock()
	gone, err := s.store.Delete(ctx, p.CustomerID, ids, s.Now().UnixMilli())
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	out := make([]WorkID, len(gone))
	var ms []string
	for i, g := range gone {
		out[i] = g.ID
		ms = append(ms, g.MsID)
	}
	s.hub.Publish(p.CustomerID, EventRemoved, map[string]any{"ids": out}, realtime.Consoles)
	s.log.By(ctx, p, oplog.LoneWorkerRemoved, "lone work removed for "+strings.Join(ms, ","),
		oplog.D("loneRemoved", "terminals", strings.Join(ms, ",")))
	return out, nil
}

// AddAlarm records an alarm for a plan in progress by hand (a dispatcher, or a gateway that detected it).
func (s *Service) AddAlarm(ctx context.Context, p identity.Principal, id WorkID, reason Reason) (Alarm, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now()
	pl, err := s.store.Get(ctx, p.CustomerID, id)
	if err != nil {
		return Alarm{}, err
	}
	if pl.workState(now.UnixMilli()) != Working {
		return Alarm{}, ErrNotWorking
	}
	return s.raise(ctx, &pl, reason, now)
}

// HandleAlarm records a dispatcher's remark on an alarm; the plan leaves alarm status once all are handled.
func (s *Service) HandleAlarm(ctx context.Context, p identity.Principal, id AlarmID, remark string) (Alarm, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now()
	a, err := s.store.HandleAlarm(ctx, p.CustomerID, id, remark, p.AccountID, p.Name, now.UnixMilli())
	if err != nil {
		return Alarm{}, err
	}
	if _, err := s.hub.PublishDurable(ctx, p.CustomerID, EventAlarmUpdated, a, realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "lonework: publish alarm update", "err", err)
	}
	if pl, err := s.store.Get(ctx, p.CustomerID, a.WorkID); err == nil {
		s.publishState(pl, now.UnixMilli())
	}
	return a, nil
}

// raise stores an alarm for a plan and tells the consoles. The caller holds mu.
func (s *Service) raise(ctx context.Context, p *Plan, reason Reason, now time.Time) (Alarm, error) {
	ctx = context.WithoutCancel(ctx)
	a, err := s.store.AddAlarm(ctx, *p, reason, now.UnixMilli())
	if err != nil {
		return a, err
	}
	p.Status = StatusAlarm
	p.AlarmCount++
	if _, err := s.hub.PublishDurable(ctx, p.customerID, EventAlarm, a, realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "lonework: publish alarm", "work", p.ID, "err", err)
	}
	return a, nil
}

func itoa(n int) string { return itoa64(int64(n)) }

func itoa64(n int64) string { return WorkID(n).String() }
