package auth

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Presence tells which accounts of a customer hold a live socket; the online limit (code 5) counts the
// dispatchers among them. *realtime.Hub implements it.
type Presence interface {
	Accounts(customerID int64) []string
}

var _ Presence = (*realtime.Hub)(nil)

// Service runs sign-in, sessions and credentials.
type Service struct {
	db       *db.DB
	Sessions *Sessions
	log      *oplog.Log

	// Set by Configure before serving.
	publicURL string
	mailer    Mailer
	presence  Presence

	throttle  *keyedLimiter
	lastPrune atomic.Int64 // unix ms of the last expired-row cleanup
}

// NewService builds the auth service. Call Configure before serving.
func NewService(d *db.DB, s *Sessions, l *oplog.Log) *Service {
	return &Service{db: d, Sessions: s, log: l,
		throttle: newKeyedLimiter(DefaultThrottleEvery, DefaultThrottleBurst)}
}

// Configure gives the service what it needs from the configuration: the public URL (media server addresses of
// the sign-in answer), the SMTP server for verification mails, and presence for the online limit (nil: no limit
// is enforced). Call it before serving.
func (s *Service) Configure(cfg config.Config, presence Presence) {
	s.publicURL = strings.TrimRight(cfg.PublicURL, "/")
	s.mailer = NewSMTPMailer(cfg.SMTP)
	s.presence = presence
}

// SetMailer replaces the mail sender (nil: mails cannot be sent, getVerifyCode answers 101).
func (s *Service) SetMailer(m Mailer) { s.mailer = m }

// SetClock replaces the clock of sessions, lockout, codes and throttling (nil = time.Now); safe while serving.
func (s *Service) SetClock(now func() time.Time) { s.Sessions.SetClock(now) }

// SetThrottle changes the per-address limit of the credential endpoints and forgets every address's history;
// safe while serving.
func (s *Service) SetThrottle(every time.Duration, burst int) { s.throttle.set(every, burst) }

func (s *Service) now() time.Time { return s.Sessions.now() }

// allowAddr takes one request from the caller's address budget; over it the answer is 101 (system busy).
func (s *Service) allowAddr(r *http.Request) error {
	if !s.throttle.allow(httpx.ClientIP(r), s.now()) {
		return ErrBusy
	}
	return nil
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
		Resume string `json:"resume"`
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
		if req.Resume != "" {
			p, err := s.Sessions.Resume(ctx, req.Resume, req.UID)
			return p, realtime.Terminal, err
		}
		p, err := s.terminalLogin(ctx, req.UID, req.Auth)
		if err != nil {
			return p, realtime.Terminal, err
		}
		// The reply carries a resume token for the next reconnect. Without one (a store hiccup) the terminal
		// simply logs in with its password again.
		if tok, err := s.Sessions.CreateResume(ctx, p.AccountID, p.CustomerID); err != nil {
			slog.WarnContext(ctx, "auth: resume token", "msId", p.AccountID, "err", err)
		} else {
			p.Token = tok
		}
		return p, realtime.Terminal, nil
	default:
		return Principal{}, "", httpx.BadParam("client", "console or terminal")
	}
}
