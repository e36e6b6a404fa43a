package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

const (
	// CookieName is the session cookie (spec: token cookie, 1 day).
	CookieName = "token"
	// TokenTTL is how long a session lives (spec §9: token cookie expiry 1 day).
	TokenTTL = 24 * time.Hour
	// SocketLoginWindow is how soon after the HTTP sign-in the first socket login must come (spec §9).
	SocketLoginWindow = 15 * time.Second
	// ExpirySweep is how often the sockets of expired sessions are looked for (in memory, no store access).
	ExpirySweep = time.Second
)

// ErrSocketLate is the code for a first socket login later than SocketLoginWindow after sign-in.
var ErrSocketLate = httpx.E(http.StatusUnauthorized, "102", "errors.login.102", "socket login too late after sign-in")

// Sockets closes the sockets opened with sessions that ended: a revoked or expired token must not keep
// running commands on a socket it opened earlier (the token is only checked at the socket's login).
// *realtime.Hub implements it; match tells which logged-in principals' sockets to close.
type Sockets interface {
	CloseSessions(match func(Principal) bool) int
}

var _ Sockets = (*realtime.Hub)(nil)

// Sessions stores tokens (hashed) and resolves them to principals.
type Sessions struct {
	db      *db.DB
	clock   atomic.Pointer[func() time.Time]
	sockets Sockets // nil: no sockets to close (tests of the store alone)
}

// NewSessions builds the session store; now is the clock (time.Now outside tests).
func NewSessions(d *db.DB, now func() time.Time) *Sessions {
	s := &Sessions{db: d}
	s.SetClock(now)
	return s
}

// SetClock replaces the clock (nil = time.Now). Tests move time with it instead of sleeping; it is safe to call
// while the server runs, and the auth Service (lockout, codes, throttling) reads the same clock.
func (s *Sessions) SetClock(now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	s.clock.Store(&now)
}

func (s *Sessions) now() time.Time { return (*s.clock.Load())() }

// SetSockets gives the sessions the hub whose sockets a revoked or expired session closes; call before serving.
func (s *Sessions) SetSockets(k Sockets) { s.sockets = k }

func (s *Sessions) closeSockets(match func(Principal) bool) {
	if s.sockets != nil {
		s.sockets.CloseSessions(match)
	}
}

// RunExpiry closes the sockets of sessions that expired, every ExpirySweep until ctx ends. Each socket's
// principal carries its session's end (Principal.Expires), so the sweep reads no store.
func (s *Sessions) RunExpiry(ctx context.Context) { ticker.Every(ctx, ExpirySweep, s.CloseExpired) }

// CloseExpired closes the sockets whose session has ended by the sessions' clock; RunExpiry calls it.
func (s *Sessions) CloseExpired() {
	now := s.now().UnixMilli()
	s.closeSockets(func(p Principal) bool { return p.Expires != 0 && now >= p.Expires })
}

func hashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

// Session kinds: a console token (HTTP sign-in, cookie) or a terminal's resume token.
const (
	kindConsole  = "console"
	kindTerminal = "terminal"
)

// Create issues a new console token for an account.
func (s *Sessions) Create(ctx context.Context, accountID string, customerID int64) (string, error) {
	return s.create(ctx, accountID, customerID, kindConsole)
}

// CreateResume issues a terminal's resume token: the terminal presents it instead of its password when it
// reconnects (docs/terminal-protocol.md "Login"), for TokenTTL. It opens neither the HTTP API nor a console login.
func (s *Sessions) CreateResume(ctx context.Context, accountID string, customerID int64) (string, error) {
	return s.create(ctx, accountID, customerID, kindTerminal)
}

func (s *Sessions) create(ctx context.Context, accountID string, customerID int64, kind string) (string, error) {
	tok, _, err := s.insert(ctx, accountID, nil, customerID, kind)
	return tok, err
}

// insert stores a new session of an account (accountID) or of a service credential (credentialID; the other
// one nil) and returns its token and end (unix ms).
func (s *Sessions) insert(ctx context.Context, accountID, credentialID any, customerID int64, kind string) (string, int64, error) {
	return s.insertUnder(ctx, accountID, credentialID, customerID, kind, "", 0)
}

// insertUnder is insert for a session opened on the proof of another (parent: the parent's token, "" = none),
// which ends no later than until (unix ms, 0 = TokenTTL) and is revoked with its parent (Revoke): a broadcast
// session of a console account ends when the console signs out (docs/adr/0018).
func (s *Sessions) insertUnder(ctx context.Context, accountID, credentialID any, customerID int64, kind, parent string, until int64) (string, int64, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", 0, err
	}
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	now := s.now()
	exp := now.Add(TokenTTL).UnixMilli()
	if until != 0 && until < exp {
		exp = until
	}
	parentHash := ""
	if parent != "" {
		parentHash = hashToken(parent)
	}
	_, err := s.db.Exec(ctx,
		`INSERT INTO sessions (token_hash, account_id, credential_id, customer_id, created_at, expires_at, kind, parent_hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		hashToken(tok), accountID, credentialID, customerID, now.UnixMilli(), exp, kind, parentHash)
	return tok, exp, err
}

// Lookup resolves a console token to its principal; unknown, revoked or expired tokens are ErrToken (code
// "105"), and so is a token whose account was disabled or expired since, and a terminal's resume token.
func (s *Sessions) Lookup(ctx context.Context, token string) (Principal, error) {
	return s.lookup(ctx, token, kindConsole)
}

// Resume resolves a terminal's resume token; it must belong to account uid. Failures are ErrToken ("105"):
// the terminal then logs in with its password.
func (s *Sessions) Resume(ctx context.Context, token, uid string) (Principal, error) {
	p, err := s.lookup(ctx, token, kindTerminal)
	if err == nil && p.AccountID != uid {
		return Principal{}, httpx.ErrToken
	}
	return p, err
}

func (s *Sessions) lookup(ctx context.Context, token, kind string) (Principal, error) {
	if token == "" || len(token) > 128 {
		return Principal{}, httpx.ErrToken
	}
	var p Principal
	var expires, accountExpires int64
	var revoked, disabled bool
	var got string
	err := s.db.QueryRow(ctx, `
		SELECT a.id, a.customer_id, a.type, a.acct_type, a.admin, a.name, a.disabled, a.expires_at, s.expires_at, s.revoked, s.kind
		FROM sessions s JOIN accounts a ON a.id = s.account_id
		WHERE s.token_hash = ?`, hashToken(token)).
		Scan(&p.AccountID, &p.CustomerID, &p.Type, &p.AcctType, &p.Admin, &p.Name, &disabled, &accountExpires, &expires, &revoked, &got)
	if errors.Is(err, sql.ErrNoRows) {
		return Principal{}, httpx.ErrToken
	}
	if err != nil {
		return Principal{}, err
	}
	now := s.now().UnixMilli()
	if got != kind || revoked || disabled || now >= expires || (accountExpires != 0 && now >= accountExpires) {
		return Principal{}, httpx.ErrToken
	}
	p.Token = token
	// A console socket ends with its session; a terminal's resume token only spares it the password at a
	// reconnect, so its socket lives on (while the account does).
	if kind == kindConsole {
		p.Expires = expires
	}
	if accountExpires != 0 && (p.Expires == 0 || accountExpires < p.Expires) {
		p.Expires = accountExpires
	}
	return p, nil
}

// SocketLogin checks a token for a socket login: the first socket login of a token must come within
// SocketLoginWindow of its creation (else the token is revoked and ErrSocketLate returned); later ones are
// reconnects and pass while the token lives.
func (s *Sessions) SocketLogin(ctx context.Context, token string) (Principal, error) {
	p, err := s.Lookup(ctx, token)
	if err != nil {
		return p, err
	}
	now := s.now().UnixMilli()
	var created, first int64
	if err := s.db.QueryRow(ctx, `SELECT created_at, socket_login_at FROM sessions WHERE token_hash = ?`,
		hashToken(token)).Scan(&created, &first); err != nil {
		return p, err
	}
	if first != 0 {
		return p, nil
	}
	if now-created > SocketLoginWindow.Milliseconds() {
		_ = s.Revoke(ctx, token)
		return Principal{}, ErrSocketLate
	}
	_, err = s.db.Exec(ctx, `UPDATE sessions SET socket_login_at = ? WHERE token_hash = ? AND socket_login_at = 0`,
		now, hashToken(token))
	return p, err
}

// Revoke ends a session, the sessions opened on its proof (a console's broadcast sessions: insertUnder) and
// the sockets opened with it.
func (s *Sessions) Revoke(ctx context.Context, token string) error {
	h := hashToken(token)
	if _, err := s.db.Exec(ctx, `UPDATE sessions SET revoked = TRUE WHERE token_hash = ? OR parent_hash = ?`, h, h); err != nil {
		return err
	}
	s.closeSockets(func(p Principal) bool { return p.Token == token })
	return nil
}

// Prune deletes sessions that expired before cutoff.
func (s *Sessions) Prune(ctx context.Context) error {
	_, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE expires_at < ?`, s.now().Add(-TokenTTL).UnixMilli())
	return err
}

// RevokeAccount ends every session of an account except the one with token keep (may be empty), so a changed
// password locks out whoever knew the old one; their sockets close too.
func (s *Sessions) RevokeAccount(ctx context.Context, accountID, keep string) error {
	if _, err := s.db.Exec(ctx, `UPDATE sessions SET revoked = TRUE WHERE account_id = ? AND token_hash <> ?`,
		accountID, hashToken(keep)); err != nil {
		return err
	}
	s.closeSockets(func(p Principal) bool { return p.AccountID == accountID && (keep == "" || p.Token != keep) })
	return nil
}
