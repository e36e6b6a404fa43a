package auth

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// ErrNotDispatcher is sign-in code 6: only msType 20 may use the console.
var ErrNotDispatcher = httpx.E(http.StatusForbidden, "6", "errors.login.6", "incorrect account type")

// Service runs sign-in, sessions and credentials.
type Service struct {
	db       *db.DB
	Sessions *Sessions
	log      *oplog.Log
	now      func() time.Time
}

// NewService builds the auth service.
func NewService(d *db.DB, s *Sessions, l *oplog.Log) *Service {
	return &Service{db: d, Sessions: s, log: l, now: time.Now}
}

var _ realtime.Authenticator = (*Service)(nil)

// SocketLogin implements realtime.Authenticator: consoles present the token of their HTTP sign-in; terminals
// present their account and password (docs/terminal-protocol.md).
func (s *Service) SocketLogin(ctx context.Context, data json.RawMessage) (Principal, realtime.Kind, error) {
	var req struct {
		Token  string `json:"token"`
		Client string `json:"client"`
		UID    string `json:"uid"`
		Auth   string `json:"auth"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return Principal{}, "", httpx.BadParam("data", "malformed login")
	}
	switch req.Client {
	case "", string(realtime.Console):
		p, err := s.Sessions.SocketLogin(ctx, req.Token)
		if err != nil {
			return Principal{}, "", err
		}
		if !p.IsDispatcher() {
			return Principal{}, "", ErrNotDispatcher
		}
		return p, realtime.Console, nil
	case string(realtime.Terminal):
		p, err := s.terminalLogin(ctx, req.UID, req.Auth)
		return p, realtime.Terminal, err
	default:
		return Principal{}, "", httpx.BadParam("client", "console or terminal")
	}
}
