package geo

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/defaults"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

// Options tune the ingest pipeline; zero values take the defaults in brackets.
type Options struct {
	Retention   time.Duration // GPS points older than this are pruned; 0 keeps them forever
	FlushEvery  time.Duration // batch commit interval [200 ms]
	FlushPoints int           // commit as soon as this many points wait [1000]
	MaxPending  int           // points waiting beyond this are refused with code 101 [200000]
	AccountSync time.Duration // last position copied to the accounts row at most this often [2 s]
	FanoutEvery time.Duration // `gps` event interval to consoles [250 ms]
	LogEvery    time.Duration // at most one log 101 entry per terminal per this [1 h]
	PruneEvery  time.Duration // retention pruning interval [1 h]
	AckTimeout  time.Duration // longest a report waits for its batch to commit [10 s]
	// A terminal's GPS budget (budget.go): Burst positions at once [5000: ten full batches of an offline
	// backlog], then Rate per second [10: ten times the fastest gpsInterval].
	Rate  float64
	Burst int
	// MaxAge is how far back a fix time may lie [72 h: a weekend out of coverage]; the retention, when shorter,
	// bounds it too. Older positions could only rewrite a past day's track.
	MaxAge time.Duration
}

// Default GPS limits (docs/terminal-protocol.md "Positions", serve --gps-rate, --gps-burst, --gps-max-age).
const (
	DefaultRate   = 10.0
	DefaultBurst  = 5000
	DefaultMaxAge = 72 * time.Hour
)

func (o Options) withDefaults() Options {
	defaults.Positive(&o.FlushEvery, 200*time.Millisecond)
	defaults.Positive(&o.AccountSync, 2*time.Second)
	defaults.Positive(&o.FanoutEvery, 250*time.Millisecond)
	defaults.Positive(&o.LogEvery, time.Hour)
	defaults.Positive(&o.PruneEvery, time.Hour)
	defaults.Positive(&o.AckTimeout, 10*time.Second)
	defaults.Positive(&o.MaxAge, DefaultMaxAge)
	defaults.Positive(&o.Rate, DefaultRate)
	defaults.Positive(&o.Burst, DefaultBurst)
	o.Burst = max(o.Burst, MaxBatch) // a full batch must always fit, if only later
	defaults.Positive(&o.FlushPoints, 1000)
	defaults.Positive(&o.MaxPending, 200000)
	return o
}

// Service is the geo domain: ingest, live fan-out, fences and their alarms, tracks, marks, reports.
type Service struct {
	Store *Store
	db    *db.DB
	hub   *realtime.Hub
	log   *oplog.Log
	opt   Options

	cache  *cache
	writer *writer
	fan    *fanout
	fences *fenceIndex
	logs   chan logEntry
	budget *budget

	now func() time.Time

	// OnTerminalChanged, when set (app wiring: the directory's TerminalChanged), publishes the full
	// `terminal.updated` after a terminal icon changed.
	OnTerminalChanged func(ctx context.Context, customerID int64, msID string) error
}

type logEntry struct {
	customer      int64
	account, name string
	remark        string
	detail        oplog.Detail
}

// New builds the service; its socket requests are Verbs and its endpoints Routes.
func New(d *db.DB, dir Directory, hub *realtime.Hub, log *oplog.Log, opt Options) *Service {
	opt = opt.withDefaults()
	s := &Service{Store: NewStore(d, dir), db: d, hub: hub, log: log, opt: opt,
		cache: newCache(), fences: newFenceIndex(), logs: make(chan logEntry, 1024), now: time.Now,
		budget: newBudget(opt.Rate, opt.Burst)}
	s.writer = newWriter(d, dir, opt, s.cache.takeDirty)
	s.fan = newFanout(hub, opt.FanoutEvery)
	return s
}

// Load warms the hot cache from the directory's last states and loads every customer's fences (App.OnPrepare).
func (s *Service) Load(ctx context.Context) error {
	states, err := s.Store.dir.LastStates(ctx)
	if err != nil {
		return fmt.Errorf("geo: load last positions: %w", err)
	}
	for _, st := range states {
		s.cache.load(st)
	}
	customers, err := s.Store.customersWithFences(ctx)
	if err != nil {
		return fmt.Errorf("geo: load fences: %w", err)
	}
	for _, c := range customers {
		if err := s.reloadFences(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// Run runs the batch writer, the console fan-out, the log writer and the retention pruner until ctx ends
// (App.Go). Points still waiting when ctx ends are committed before it returns.
func (s *Service) Run(ctx context.Context) {
	go s.fan.run(ctx)
	go s.logLoop(ctx)
	if s.opt.Retention > 0 {
		go s.pruneLoop(ctx)
	}
	s.writer.run(ctx)
}

func (s *Service) reloadFences(ctx context.Context, customer int64) error {
	list, err := s.Store.Fences(ctx, customer, FenceFilter{})
	if err != nil {
		return fmt.Errorf("geo: load fences of %d: %w", customer, err)
	}
	s.fences.replace(customer, list)
	return nil
}

// Report is what a terminal reports: a position and/or battery and signal.
type Report struct {
	Points []Point
}

// IngestResult tells a terminal what was taken.
type IngestResult struct {
	Accepted int   `json:"accepted"`
	Rejected []int `json:"rejected,omitempty"` // indexes of points refused (batch reports)
}

// Ingest takes validated points of one terminal: it updates the hot position, checks the terminal's fences
// against every fix newer than the last one (raising alarms, stored and published), queues the points for the
// batch writer and, when wait is set, returns once they are committed.
func (s *Service) Ingest(ctx context.Context, p identity.Principal, pts []Point, wait bool) error {
	if len(pts) == 0 {
		return nil
	}
	slices.SortStableFunc(pts, func(a, b Point) int { return cmp.Compare(a.Time, b.Time) })
	var crossings []alarmAt
	var live Live
	var writeLog bool
	var logCount int
	now := s.now().UnixMilli()
	fences := s.fences.forTerminal(p.CustomerID, p.AccountID)
	s.cache.with(p.AccountID, p.CustomerID, func(e *entry) {
		for _, pt := range pts {
			if e.hasFix && pt.Time <= e.fix.Time {
				continue // late or repeated fix: history only, never moves the terminal back
			}
			if len(fences) > 0 {
				if e.inside == nil {
					e.inside = map[int64]fenceMark{}
				}
				var prev *Point
				if e.hasFix {
					pr := e.fix
					prev = &pr
				}
				for _, c := range evaluate(fences, e.inside, prev, pt) {
					crossings = append(crossings, alarmAt{crossing: c, at: pt})
				}
			}
			e.fix, e.hasFix, e.posDirty = pt, true, true
		}
		live = e.live()
		e.logCount += len(pts)
		if now-e.logAt >= s.opt.LogEvery.Milliseconds() {
			writeLog, logCount = true, e.logCount
			e.logAt, e.logCount = now, 0
		}
	})
	rows := make([]row, len(pts))
	for i, pt := range pts {
		rows[i] = row{terminal: p.AccountID, Point: pt}
	}
	gen, err := s.writer.add(rows)
	if err != nil {
		return err
	}
	s.fan.put(p.CustomerID, live)
	if writeLog {
		s.queueLog(p, logCount, live)
	}
	for _, c := range crossings {
		s.raise(ctx, p, c)
	}
	if !wait {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, s.opt.AckTimeout)
	defer cancel()
	select {
	case <-gen.done:
		return gen.err
	case <-wctx.Done():
		return ErrBusy
	}
}

// SetStatus records a terminal's battery (0-100) and/or signal (0-5); nil leaves a value as it is.
func (s *Service) SetStatus(p identity.Principal, battery, signal *int) {
	var live Live
	s.cache.with(p.AccountID, p.CustomerID, func(e *entry) {
		if battery != nil {
			e.battery = *battery
		}
		if signal != nil {
			e.signal = *signal
		}
		e.statusDirty = true
		live = e.live()
	})
	s.fan.put(p.CustomerID, live)
}

type alarmAt struct {
	crossing
	at Point
}

// raise stores and publishes the alarm of a crossing found for the reporting terminal p.
func (s *Service) raise(ctx context.Context, p identity.Principal, c alarmAt) {
	if _, err := s.raiseAlarm(context.WithoutCancel(ctx), p.CustomerID, TerminalRef{MsID: p.AccountID, Name: p.Name}, c); err != nil {
		slog.ErrorContext(ctx, "geo: fence alarm", "msId", p.AccountID, "fence", c.fence.ID, "err", err)
	}
}

// raiseAlarm stores a fence alarm, then publishes it durably (`fence.alarm`) to the customer's consoles: the one
// path of every fence alarm, whether a report crossed the fence or a dispatcher raised it (fenceAlarmBreaches).
func (s *Service) raiseAlarm(ctx context.Context, customer int64, ms TerminalRef, c alarmAt) (Alarm, error) {
	a := Alarm{FenceID: c.fence.FenceID, FenceName: c.fence.Name, FenceType: c.fence.Type, MsID: ms.MsID,
		MsName: ms.Name, Type: c.kind, Time: c.at.Time, Lat: c.at.Lat, Lng: c.at.Lng}
	if err := s.Store.InsertAlarm(ctx, customer, c.fence.ID, &a); err != nil {
		return a, fmt.Errorf("store: %w", err)
	}
	if _, err := s.hub.PublishDurable(ctx, customer, EventFenceAlarm, a, realtime.Consoles); err != nil {
		return a, fmt.Errorf("publish: %w", err)
	}
	return a, nil
}

// Events to consoles (docs/geo.md "Socket events").
const (
	EventFenceAlarm   = "fence.alarm"        // durable: a raised alarm record
	EventAlarmUpdated = "fence.alarmUpdated" // durable: an alarm responded to or closed
	EventFenceChanged = "fence.changed"      // {fenceid, action: create|edit|delete|set}
	EventMarkChanged  = "mark.changed"       // {id, action: add|update|delete, mark?}
)

// Log 101 rule: at most one entry per terminal per LogEvery (an hour by default): the first report after the
// node starts writes one, later reports only count until the hour has passed; the remark tells how many reports
// and the last position. Entries go through a bounded queue and are dropped, never waited for, when it is full.
func (s *Service) queueLog(p identity.Principal, n int, l Live) {
	remark := fmt.Sprintf("%d GPS report(s)", n)
	detail := oplog.D("gpsReports", "count", strconv.Itoa(n))
	if l.Lat != nil {
		remark += fmt.Sprintf(", last %.6f,%.6f", *l.Lat, *l.Lng)
		detail = oplog.D("gpsReportsAt", "count", strconv.Itoa(n), "lat", fmt.Sprintf("%.6f", *l.Lat), "lng", fmt.Sprintf("%.6f", *l.Lng))
	}
	select {
	case s.logs <- logEntry{customer: p.CustomerID, account: p.AccountID, name: p.Name, remark: remark, detail: detail}:
	default:
	}
}

func (s *Service) logLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-s.logs:
			if s.log != nil {
				s.log.Write(ctx, e.customer, e.account, e.name, oplog.GPSReport, e.remark, e.detail)
			}
		}
	}
}

func (s *Service) pruneLoop(ctx context.Context) {
	ticker.NowAndEvery(ctx, s.opt.PruneEvery, func() { s.PruneOnce(ctx) })
}

// PruneOnce deletes points older than the retention setting.
func (s *Service) PruneOnce(ctx context.Context) {
	if s.opt.Retention <= 0 {
		return
	}
	cutoff := s.now().Add(-s.opt.Retention).UnixMilli()
	n, err := s.Store.Prune(ctx, cutoff)
	if err != nil && ctx.Err() == nil {
		slog.Error("geo: prune GPS points", "err", err)
	}
	if n > 0 {
		slog.Info("geo: pruned GPS points", "points", n)
	}
}

// LastPositions is the customer's hot last positions, as getLastGps rows.
func (s *Service) LastPositions(customer int64) []LastGPS {
	lives := s.cache.customer(customer)
	out := make([]LastGPS, 0, len(lives))
	for _, l := range lives {
		if l.Lat == nil {
			continue
		}
		out = append(out, LastGPS{Mid: l.MsID, Lat: *l.Lat, Lng: *l.Lng, Speed: *l.Speed, Direction: *l.Direction,
			Altitude: *l.Altitude, Time: l.Time})
	}
	slices.SortFunc(out, func(a, b LastGPS) int { return strings.Compare(a.Mid, b.Mid) })
	return out
}

// LastGPS is one row of getLastGps: the directory's row, served from the hot cache.
type LastGPS = directory.LastGPS
