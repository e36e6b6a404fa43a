package directory

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Hooks are the hub's login/logout hooks: presence, logs 5, 6 and 7, and the `presence` event.
func (s *Service) Hooks() realtime.Hooks {
	return realtime.Hooks{OnLogin: s.onLogin, OnLogout: s.onLogout}
}

func (s *Service) onLogin(ctx context.Context, c *realtime.Conn, replaced bool) {
	s.online(ctx, c.Principal(), c.Kind(), replaced)
}

func (s *Service) online(ctx context.Context, p identity.Principal, kind realtime.Kind, replaced bool) {
	unlock := s.locks.Lock(p.AccountID)
	defer unlock()
	now := time.Now()
	if err := s.Store.SetOnline(ctx, p.CustomerID, p.AccountID, true, now); err != nil {
		slog.ErrorContext(ctx, "presence: set online", "msId", p.AccountID, "err", err)
		return
	}
	if replaced {
		// The account was already online on another device; that connection is being closed.
		s.log.By(ctx, p, oplog.RepeatLogin, string(kind)+" logged in from another device",
			oplog.D("replaced", "kind", string(kind)))
	} else {
		s.log.By(ctx, p, oplog.Online, string(kind)+" online", oplog.D("online", "kind", string(kind)))
	}
	s.hub.Publish(p.CustomerID, EventPresence, PresenceEvent{MsID: p.AccountID, Online: "1", Time: now.UnixMilli()},
		realtime.Consoles)
}

func (s *Service) onLogout(ctx context.Context, c *realtime.Conn, replaced bool) {
	if replaced {
		return // a newer connection of the same account took over: it stays online
	}
	s.offline(ctx, c.Principal(), c.Kind())
}

// AccountOffline takes offline an account whose node died (internal/cluster: a survivor calls it).
func (s *Service) AccountOffline(ctx context.Context, p identity.Principal, kind realtime.Kind) {
	s.offline(ctx, p, kind)
}

// AccountOnline puts back online an account the cluster had counted offline while its node still held it.
func (s *Service) AccountOnline(ctx context.Context, p identity.Principal, kind realtime.Kind) {
	s.online(ctx, p, kind, false)
}

func (s *Service) offline(ctx context.Context, p identity.Principal, kind realtime.Kind) {
	unlock := s.locks.Lock(p.AccountID)
	defer unlock()
	if s.hub.Online(p.AccountID) {
		return // logged in again meanwhile
	}
	now := time.Now()
	if err := s.Store.SetOnline(ctx, p.CustomerID, p.AccountID, false, now); errors.Is(err, db.ErrNotFound) {
		return // the account was deleted while connected
	} else if err != nil {
		slog.ErrorContext(ctx, "presence: set offline", "msId", p.AccountID, "err", err)
		return
	}
	s.log.By(ctx, p, oplog.Offline, string(kind)+" offline", oplog.D("offline", "kind", string(kind)))
	s.hub.Publish(p.CustomerID, EventPresence, PresenceEvent{MsID: p.AccountID, Online: "0", Time: now.UnixMilli()},
		realtime.Consoles)
}
