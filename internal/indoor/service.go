package indoor

import (
	"context"
	"image"
	_ "image/gif" // floor plans: PNG, JPEG or GIF
	_ "image/jpeg"
	_ "image/png"
	"io"
	"log/slog"
	"math"
	"sort"
	"sync"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/files"
	"tenfour/internal/indoor/radio"
	"tenfour/internal/platform/clock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

// Hub is what the service needs of the socket hub.
type Hub interface {
	Publish(customerID int64, typ string, data any, to realtime.Audience)
}

var _ Hub = (*realtime.Hub)(nil)

// Directory is what indoor reads of terminals (internal/directory's Store).
type Directory interface {
	CheckTerminal(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
}

// Files is what indoor needs of the file service: the floor-plan images.
type Files interface {
	Get(ctx context.Context, customerID int64, id string) (files.Info, error)
	Storage() files.Storage
	Save(ctx context.Context, p identity.Principal, name string, want files.Kind, r io.Reader) (files.Info, error)
}

// Options tune the service.
type Options struct {
	// Retention keeps positions this long (0 keeps them; serve passes --gps-retention-days).
	Retention time.Duration
}

// Service is indoor positioning: the plan administration, the estimator over terminals' reports, the history.
type Service struct {
	clock.Clock // SetClock and Now: tests move time instead of sleeping

	db    *db.DB
	store *Store
	dir   Directory
	files Files
	hub   Hub
	opts  Options

	mu      sync.Mutex
	layouts map[int64]*layout // per customer, dropped by every plan change
	gen     map[int64]uint64  // per customer, bumped by every plan change: a layout read before one is not cached
	tracks  map[string]*Track // per terminal
	locks   map[string]*sync.Mutex
}

// New builds the service.
func New(d *db.DB, dir Directory, fs Files, hub Hub, opts Options) *Service {
	return &Service{db: d, store: NewStore(d), dir: dir, files: fs, hub: hub, opts: opts,
		layouts: map[int64]*layout{}, gen: map[int64]uint64{}, tracks: map[string]*Track{}, locks: map[string]*sync.Mutex{}}
}

// Store is the indoor store.
func (s *Service) Store() *Store { return s.store }

// Run prunes old positions every hour until ctx ends (an App background loop); without a retention it
// returns at once.
func (s *Service) Run(ctx context.Context) {
	if s.opts.Retention <= 0 {
		return
	}
	ticker.Every(ctx, time.Hour, func() {
		if n, err := s.store.Prune(ctx, s.Now().Add(-s.opts.Retention).UnixMilli()); err != nil {
			slog.ErrorContext(ctx, "indoor: prune positions", "err", err)
		} else if n > 0 {
			slog.Info("indoor: positions pruned", "rows", n)
		}
	})
}

// changed drops a customer's cached layout and tells its consoles to reload the plans.
func (s *Service) changed(customerID int64, what string, id int64) {
	s.forget(customerID)
	s.hub.Publish(customerID, EventChanged, map[string]any{"what": what, "id": id}, realtime.Consoles)
}

// forget drops a customer's cached layout.
func (s *Service) forget(customerID int64) {
	s.mu.Lock()
	delete(s.layouts, customerID)
	s.gen[customerID]++
	s.mu.Unlock()
}

func (s *Service) layout(ctx context.Context, customerID int64) (*layout, error) {
	s.mu.Lock()
	l, gen := s.layouts[customerID], s.gen[customerID]
	s.mu.Unlock()
	if l != nil {
		return l, nil
	}
	l, err := s.store.Layout(ctx, customerID)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.gen[customerID] == gen { // no plan changed while it was read
		s.layouts[customerID] = l
	}
	s.mu.Unlock()
	return l, nil
}

// plan checks that fileID is one of the customer's images the server can read and returns its size.
func (s *Service) plan(ctx context.Context, customerID int64, fileID string) (int, int, error) {
	info, err := s.files.Get(ctx, customerID, fileID)
	if err != nil || info.Kind != files.Image {
		return 0, 0, ErrPlan
	}
	body, err := s.files.Storage().Open(ctx, info.ID)
	if err != nil {
		return 0, 0, err
	}
	defer body.Close()
	cfg, _, err := image.DecodeConfig(body)
	if err != nil || cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxPlanSide || cfg.Height > MaxPlanSide {
		return 0, 0, ErrPlan
	}
	return cfg.Width, cfg.Height, nil
}

// Reading is one beacon a terminal heard (docs/terminal-protocol.md "Indoor positioning").
type Reading = radio.Reading

// Report estimates a terminal's position from one scan, stores it and pushes it to the consoles.
// ErrNoBeacon when none of the readings is a placed beacon.
func (s *Service) Report(ctx context.Context, p identity.Principal, readings []Reading) (Position, error) {
	l, err := s.layout(ctx, p.CustomerID)
	if err != nil {
		return Position{}, err
	}
	lock := s.terminalLock(p.AccountID)
	lock.Lock()
	defer lock.Unlock()
	s.mu.Lock()
	tr := s.tracks[p.AccountID]
	if tr == nil {
		tr = &Track{}
		s.tracks[p.AccountID] = tr
	}
	s.mu.Unlock()
	pos, ok := l.estimate(tr, readings, s.Now().UnixMilli())
	if !ok {
		return Position{}, ErrNoBeacon
	}
	pos.MsID, pos.Name = p.AccountID, p.Name
	if err := s.store.AddPosition(context.WithoutCancel(ctx), p.CustomerID, pos); err != nil {
		return Position{}, err
	}
	s.hub.Publish(p.CustomerID, EventPosition, pos, realtime.Consoles)
	return pos, nil
}

func (s *Service) terminalLock(id string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.locks[id]
	if l == nil {
		l = &sync.Mutex{}
		s.locks[id] = l
	}
	return l
}

// estimate runs one scan through the estimator (PickFloor, Solve, the terminal's Track) and returns the
// smoothed position in plan pixels; ok is false when no reading is of a placed beacon.
func (l *layout) estimate(tr *Track, readings []Reading, now int64) (Position, bool) {
	// Several readings of one beacon in a scan: their mean.
	sum := map[string][2]float64{}
	for _, r := range readings {
		mac, ok := NormalizeMAC(r.MAC)
		if !ok {
			continue
		}
		if _, known := l.byMAC[mac]; known {
			v := sum[mac]
			sum[mac] = [2]float64{v[0] + float64(r.RSSI), v[1] + 1}
		}
	}
	heard := make([]Heard, 0, len(sum))
	for mac, v := range sum {
		heard = append(heard, Heard{Anchor: l.byMAC[mac], RSSI: v[0] / v[1]})
	}
	sort.Slice(heard, func(i, j int) bool { return heard[i].Beacon < heard[j].Beacon })
	floor := PickFloor(heard, tr.Floor)
	var on []Heard
	for _, h := range heard {
		if h.Floor == floor {
			on = append(on, h)
		}
	}
	g := l.floors[floor]
	obs := observe(on)
	wk := l.walk[floor]
	fit, ok := solveObs(obs, floor, g.Building, g.W, g.H, true)
	if !ok {
		return Position{}, false
	}
	var sm Smoothed
	if wk != nil {
		sm = tr.Filter(fit, obs, now, wk, g.W, g.H)
	} else {
		fit = tr.Refine(fit, obs, now)
		if g.W > 0 && g.H > 0 {
			fit.X, fit.Y = math.Min(math.Max(fit.X, 0), g.W), math.Min(math.Max(fit.Y, 0), g.H)
		}
		sm = tr.Update(fit, now, g.W, g.H)
	}
	at := now
	if sm.At != 0 {
		at = sm.At
	}
	return Position{BuildingID: g.Building, FloorID: floor, X: round(sm.X/g.Scale, 2), Y: round(sm.Y/g.Scale, 2),
		Accuracy: round(sm.Accuracy, 2), Uncertain: sm.Uncertain, Beacons: fit.Used, Time: at}, true
}

// named fills positions' terminal names.
func (s *Service) named(ctx context.Context, customerID int64, list []Position) error {
	ids := make([]directory.TerminalID, 0, len(list))
	for _, p := range list {
		ids = append(ids, directory.TerminalID(p.MsID))
	}
	if len(ids) == 0 {
		return nil
	}
	names, err := s.dir.Names(ctx, directory.CustomerID(customerID), ids)
	if err != nil {
		return err
	}
	for i := range list {
		list[i].Name = names[directory.TerminalID(list[i].MsID)]
	}
	return nil
}
