package presence

import (
	"context"
	"log/slog"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/clock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/keylock"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

// SeenEvery is how often the server records that it is running (presence_clock): after a crash an open interval
// ends at most this long after the account really went (docs/adr/0022).
const SeenEvery = 30 * time.Second

// Directory is what the reports read of accounts (internal/directory's Store).
type Directory interface {
	AllTerminals(ctx context.Context, c directory.CustomerID) ([]directory.Account, error)
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
}

// Service records presence intervals and answers the online reports.
type Service struct {
	clock.Clock // SetClock and Now: tests move time instead of sleeping

	db    *db.DB
	store Store
	dir   Directory
	hub   *realtime.Hub
	// locks serialise the hooks of one account, so a logout racing a new login can never close the
	// interval the login keeps.
	locks keylock.Striped
}

// New builds the service.
func New(d *db.DB, dir Directory, hub *realtime.Hub) *Service {
	return &Service{db: d, store: Store{db: d}, dir: dir, hub: hub}
}

// Hooks are the hub's login/logout hooks that open and close intervals (register with hub.SetHooks).
func (s *Service) Hooks() realtime.Hooks {
	return realtime.Hooks{OnLogin: s.onLogin, OnLogout: s.onLogout}
}

func (s *Service) onLogin(ctx context.Context, c *realtime.Conn, _ bool) {
	p := c.Principal()
	defer s.locks.Lock(p.AccountID)()
	if err := s.store.Open(ctx, p.CustomerID, p.AccountID, s.Now().UnixMilli()); err != nil {
		slog.ErrorContext(ctx, "presence: open interval", "msId", p.AccountID, "err", err)
	}
}

func (s *Service) onLogout(ctx context.Context, c *realtime.Conn, replaced bool) {
	if replaced {
		return // the account is still online on the device that replaced this one
	}
	s.AccountOffline(ctx, c.Principal(), c.Kind())
}

// AccountOnline opens the interval of an account the cluster had counted offline while its node held it on
// (internal/cluster).
func (s *Service) AccountOnline(ctx context.Context, p identity.Principal, _ realtime.Kind) {
	defer s.locks.Lock(p.AccountID)()
	if err := s.store.Open(ctx, p.CustomerID, p.AccountID, s.Now().UnixMilli()); err != nil {
		slog.ErrorContext(ctx, "presence: open interval", "msId", p.AccountID, "err", err)
	}
}

// AccountOffline ends the interval of an account that went offline: its logout, or its node's death
// (internal/cluster).
func (s *Service) AccountOffline(ctx context.Context, p identity.Principal, _ realtime.Kind) {
	defer s.locks.Lock(p.AccountID)()
	if s.hub.Online(p.AccountID) {
		return // logged in again meanwhile: the interval goes on
	}
	if err := s.store.Close(context.WithoutCancel(ctx), p.AccountID, s.Now().UnixMilli()); err != nil {
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

// Run records every SeenEvery that the server is running, until ctx ends.
func (s *Service) Run(ctx context.Context) {
	ticker.NowAndEvery(ctx, SeenEvery, func() {
		if err := s.MarkSeen(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("presence: record the server running", "err", err)
		}
	})
}

// MarkSeen records that the server is running now (Run does every SeenEvery).
func (s *Service) MarkSeen(ctx context.Context) error { return s.store.Touch(ctx, s.Now().UnixMilli()) }
