package presence

import (
	"context"
	"hash/fnv"
	"log/slog"
	"sync"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

// SeenEvery is how often the open intervals are marked as still open: after a crash an interval ends at most
// this long after the account really went (docs/adr/0022).
const SeenEvery = 30 * time.Second

// Directory is what the reports read of accounts (internal/directory's Store).
type Directory interface {
	AllTerminals(ctx context.Context, c directory.CustomerID) ([]directory.Account, error)
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
}

// Service records presence intervals and answers the online reports.
type Service struct {
	db    *db.DB
	store Store
	dir   Directory
	hub   *realtime.Hub
	now   func() time.Time
	locks accountLocks
}

// New builds the service.
func New(d *db.DB, dir Directory, hub *realtime.Hub) *Service {
	return &Service{db: d, store: Store{db: d}, dir: dir, hub: hub, now: time.Now}
}

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Hooks are the hub's login/logout hooks that open and close intervals (register with hub.SetHooks).
func (s *Service) Hooks() realtime.Hooks {
	return realtime.Hooks{OnLogin: s.onLogin, OnLogout: s.onLogout}
}

func (s *Service) onLogin(ctx context.Context, c *realtime.Conn, _ bool) {
	p := c.Principal()
	defer s.locks.lock(p.AccountID)()
	if err := s.store.Open(ctx, p.CustomerID, p.AccountID, s.now().UnixMilli()); err != nil {
		slog.ErrorContext(ctx, "presence: open interval", "msId", p.AccountID, "err", err)
	}
}

func (s *Service) onLogout(ctx context.Context, c *realtime.Conn, replaced bool) {
	if replaced {
		return // the account is still online on the device that replaced this one
	}
	p := c.Principal()
	defer s.locks.lock(p.AccountID)()
	if s.hub.Online(p.AccountID) {
		return // logged in again meanwhile: the interval goes on
	}
	if err := s.store.Close(context.WithoutCancel(ctx), p.AccountID, s.now().UnixMilli()); err != nil {
		slog.ErrorContext(ctx, "presence: close interval", "msId", p.AccountID, "err", err)
	}
}

// Prepare ends the intervals a previous run left open (a crash: nothing is connected to this node yet) at the
// last moment that run saw them open. Register with App.OnPrepare.
func (s *Service) Prepare(ctx context.Context) error {
	n, err := s.store.CloseStale(ctx)
	if n > 0 {
		slog.Info("presence: closed intervals left open by the previous run", "count", n)
	}
	return err
}

// Run marks the open intervals as seen every SeenEvery until ctx ends.
func (s *Service) Run(ctx context.Context) {
	ticker.Every(ctx, SeenEvery, func() {
		if err := s.store.Touch(ctx, s.now().UnixMilli()); err != nil && ctx.Err() == nil {
			slog.Warn("presence: mark open intervals", "err", err)
		}
	})
}

// accountLocks serialize the hooks of one account, so a logout racing a new login can never close the
// interval the login keeps.
type accountLocks [64]sync.Mutex

func (l *accountLocks) lock(id string) func() {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	m := &l[h.Sum32()%uint32(len(l))]
	m.Lock()
	return m.Unlock
}
