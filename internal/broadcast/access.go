package broadcast

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// TokenTTL is how long a broadcast token lives (spec §9: the token cookie lives one day).
const TokenTTL = 24 * time.Hour

// Sessions resolves a console session token (auth's *Sessions).
type Sessions interface {
	Lookup(ctx context.Context, token string) (identity.Principal, error)
}

// Secrets checks a password against its hash through the sign-in throttle (auth's *Service.CheckSecret).
type Secrets interface {
	CheckSecret(ctx context.Context, addr, key, hash, secret string) (bool, error)
}

// SetSecrets routes every password check of the service (md5 logins, speaker registrations) through the
// sign-in throttle; without it (tests, tools) the hash is checked directly.
func (s *Service) SetSecrets(c Secrets) { s.secrets = c }

func (s *Service) checkSecret(ctx context.Context, addr, key, hash, secret string) (bool, error) {
	if s.secrets != nil {
		return s.secrets.CheckSecret(ctx, addr, key, hash, secret)
	}
	return auth.CheckPassword(hash, secret)
}

// Caller is who calls a broadcast endpoint: a caster of a customer.
type Caller struct {
	CustomerID int64
	CasterID   int64
	Code       string
	Name       string
	UserID     string
	Priority   int
}

// Envelope is the broadcast service's answer (spec §7 "Broadcast service": success code 200). Failures carry
// the service's code as a number (spec §8: the console rejects with it, else 500) and an i18n key.
type Envelope struct {
	Code   int    `json:"code"`
	Msg    string `json:"msg"`
	Key    string `json:"key,omitempty"`
	Result any    `json:"result,omitempty"`
}

// handler is a broadcast endpoint run as a caller.
type handler func(w http.ResponseWriter, r *http.Request, c Caller) (any, error)

func writeErr(w http.ResponseWriter, r *http.Request, err error) {
	e, known := httpx.AsError(err)
	if !known && !errors.Is(err, context.Canceled) {
		slog.ErrorContext(r.Context(), "broadcast request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	code, cerr := strconv.Atoi(e.Code)
	if cerr != nil {
		code = 500
	}
	writeJSON(w, e.Status, Envelope{Code: code, Msg: e.Msg, Key: e.Key})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func ok(w http.ResponseWriter, res any) {
	writeJSON(w, http.StatusOK, Envelope{Code: 200, Msg: "ok", Result: res})
}

// signedIn wraps an endpoint: the caller comes from the token (header `token`, `Authorization: Bearer`, or
// a `token` parameter — auth.TokenFrom), a broadcast token from POST /v1/login or the caller's console session.
func (s *Service) signedIn(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := s.caller(r.Context(), auth.TokenFrom(r))
		if err != nil {
			writeErr(w, r, err)
			return
		}
		res, err := h(w, r, c)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		ok(w, res)
	})
}

func (s *Service) public(h func(w http.ResponseWriter, r *http.Request) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, err := h(w, r)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		ok(w, res)
	})
}

func hashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

// caller resolves a token: a broadcast session, else a console session of a dispatcher with account type "1"
// (spec §6), whose caster is ensured (spec §4).
func (s *Service) caller(ctx context.Context, token string) (Caller, error) {
	if token == "" || len(token) > 128 {
		return Caller{}, ErrToken
	}
	var c Caller
	var expires int64
	err := s.db.QueryRow(ctx, `SELECT c.id, c.customer_id, c.code, c.name, c.user_id, c.priority, s.expires_at
		FROM bc_sessions s JOIN bc_casters c ON c.id = s.caster_id WHERE s.token_hash = ?`, hashToken(token)).
		Scan(&c.CasterID, &c.CustomerID, &c.Code, &c.Name, &c.UserID, &c.Priority, &expires)
	if err == nil {
		if time.Now().UnixMilli() >= expires { // sessions live by the wall clock, not the scheduler's
			return Caller{}, ErrToken
		}
		return c, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Caller{}, err
	}
	if s.sessions == nil {
		return Caller{}, ErrToken
	}
	p, err := s.sessions.Lookup(ctx, token)
	if err != nil {
		return Caller{}, ErrToken
	}
	return s.consoleCaller(ctx, p)
}

func (s *Service) consoleCaller(ctx context.Context, p identity.Principal) (Caller, error) {
	if !p.IsDispatcher() {
		return Caller{}, httpx.ErrPermission
	}
	if p.AcctType != "1" {
		return Caller{}, ErrAccountType
	}
	cs, err := s.EnsureCaster(ctx, p)
	if err != nil {
		return Caller{}, err
	}
	return Caller{CustomerID: p.CustomerID, CasterID: cs.ID, Code: cs.Code, Name: cs.Name, UserID: cs.UserID, Priority: cs.Priority}, nil
}

// EnsureCaster returns the caster of a console account, creating it when missing (spec §4: after login the
// broadcast user is ensured to have a caster record): code and call number are the account id, priority 5, no
// password of its own.
func (s *Service) EnsureCaster(ctx context.Context, p identity.Principal) (Caster, error) {
	cs, err := s.casterByCode(ctx, p.AccountID)
	if err == nil {
		if cs.customerID != p.CustomerID {
			return Caster{}, httpx.ErrPermission
		}
		return cs.Caster, nil
	}
	if !errors.Is(err, db.ErrNotFound) {
		return Caster{}, err
	}
	name := p.Name
	if name == "" {
		name = p.AccountID
	}
	cs2, err := s.createCaster(ctx, p.CustomerID, casterIn{UserID: p.AccountID, Name: name, Code: p.AccountID,
		CallNumber: p.AccountID, Priority: DefaultPriority})
	if errors.Is(err, ErrCodeTaken) || errors.Is(err, ErrCallTaken) { // created meanwhile by another login
		if cs, err := s.casterByCode(ctx, p.AccountID); err == nil && cs.customerID == p.CustomerID {
			return cs.Caster, nil
		}
	}
	return cs2, err
}

// login checks {username, password}: password is the md5 (hex) of the caster's password (spec §5), or
// '{secret}' together with the same account's console session.
func (s *Service) login(ctx context.Context, r *http.Request, username, password string) (map[string]any, error) {
	username, password = strings.TrimSpace(username), strings.TrimSpace(password)
	if username == "" {
		return nil, httpx.BadParam("username", "required")
	}
	if password == "" {
		password = Secret // spec §5: a missing password is replaced by '{secret}'
	}
	var c Caller
	if password == Secret {
		tok := r.Header.Get("token")
		if h := r.Header.Get("Authorization"); tok == "" && strings.HasPrefix(h, "Bearer ") {
			tok = strings.TrimPrefix(h, "Bearer ")
		}
		if tok == "" || s.sessions == nil {
			return nil, ErrBadLogin
		}
		p, err := s.sessions.Lookup(ctx, tok)
		if err != nil || p.AccountID != username {
			return nil, ErrBadLogin
		}
		if c, err = s.consoleCaller(ctx, p); err != nil {
			return nil, err
		}
	} else {
		if !isMD5(password) {
			return nil, httpx.BadParam("password", "the md5 of the password, 32 hex digits")
		}
		cs, err := s.casterByCode(ctx, username)
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return nil, err
		}
		hash := cs.passHash
		if hash == "" { // unknown name or no password of its own: the same work and the same budget as a wrong one
			hash = dummyHash()
		}
		good, err := s.checkSecret(ctx, httpx.ClientIP(r), username, hash, strings.ToLower(password))
		if err == nil && cs.passHash == "" {
			good = false
		}
		if err != nil {
			return nil, err
		}
		if !good {
			return nil, ErrBadLogin
		}
		c = Caller{CustomerID: cs.customerID, CasterID: cs.ID, Code: cs.Code, Name: cs.Name, UserID: cs.UserID, Priority: cs.Priority}
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	now := time.Now()
	exp := now.Add(TokenTTL).UnixMilli()
	if _, err := s.db.Exec(ctx, `DELETE FROM bc_sessions WHERE expires_at <= ?`, now.UnixMilli()); err != nil {
		return nil, err
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO bc_sessions (token_hash, caster_id, customer_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
		hashToken(tok), c.CasterID, c.CustomerID, now.UnixMilli(), exp); err != nil {
		return nil, err
	}
	return map[string]any{"token": tok, "expires_at": exp, "user": sysUser(c)}, nil
}

// sysUser is GET /v1/sys/user (spec §3 broadcast user: user_code, user_id, user_name).
func sysUser(c Caller) map[string]any {
	return map[string]any{"user_code": c.Code, "user_id": c.CasterID, "user_name": c.Name, "account": c.UserID,
		"priority": c.Priority}
}

func isMD5(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// hashSecret stores a password sent as md5: '{secret}' or nothing means no password of its own.
func hashSecret(md5hex string) (string, error) {
	md5hex = strings.TrimSpace(md5hex)
	if md5hex == "" || md5hex == Secret {
		return "", nil
	}
	if !isMD5(md5hex) {
		return "", httpx.BadParam("password", "the md5 of the password, 32 hex digits")
	}
	return auth.HashPassword(strings.ToLower(md5hex))
}

// dummyHash is checked for unknown names so a wrong name costs what a wrong password costs.
var dummyHash = sync.OnceValue(func() string {
	h, _ := auth.HashPassword("00000000000000000000000000000000")
	return h
})
