package auth

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/httpx"
)

// signInResult is the answer of /ds/user and getAccountByOauth.
type signInResult struct {
	Token    string   `json:"token"`
	UserInfo UserInfo `json:"userInfo"`
	sessionFields
}

// loadDispatcher loads an account that may sign in to the console: a dispatcher (else 6).
func (s *Service) loadDispatcher(ctx context.Context, id string) (*account, error) {
	a, err := s.loadAccount(ctx, id)
	if err == nil && a.Type != DispatcherType {
		return nil, ErrNotDispatcher
	}
	return a, err
}

// admitDispatcher is loadDispatcher and admitConsole, for a sign-in whose credential was checked before (a
// verification code, an external identity).
func (s *Service) admitDispatcher(ctx context.Context, id string) (*account, *customer, error) {
	a, err := s.loadDispatcher(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	c, err := s.admitConsole(ctx, a)
	return a, c, err
}

// admitConsole applies the rules after the credential check, in order: locked (107), disabled (4), expired
// (103), no default group (3), online limit (5). The caller has checked the account type (6).
func (s *Service) admitConsole(ctx context.Context, a *account) (*customer, error) {
	if err := a.checkState(s.now()); err != nil {
		return nil, err
	}
	if !a.GroupID.Valid {
		return nil, ErrNoGroup
	}
	c, err := s.loadCustomer(ctx, a.CustomerID)
	if err != nil {
		return nil, err
	}
	if err := s.checkOnlineLimit(ctx, a, c); err != nil {
		return nil, err
	}
	return c, nil
}

// verify is GET /ds/pub/loginext {uid, flag, verifyCode}: may uid sign in? No password; with flag=1 an e-mailed
// login code is checked (and used up).
func (s *Service) verify(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		UID        string `json:"uid"`
		Flag       string `json:"flag"`
		VerifyCode string `json:"verifyCode"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	// An attempt, unless this address has signed in to uid before: the sign-in that follows gets its own back.
	if err := s.throttle.allowFor(people, httpx.ClientIP(r), req.UID, s.now()); err != nil {
		return nil, err
	}
	if req.Flag != "" && req.Flag != "0" && req.Flag != "1" {
		return nil, httpx.BadParam("flag", `"0" or "1"`)
	}
	ctx := r.Context()
	a, c, err := s.admitDispatcher(ctx, req.UID)
	if err != nil {
		return nil, err
	}
	if req.Flag == "1" {
		if err := s.checkCode(ctx, a.ID, PurposeLogin, "", req.VerifyCode); err != nil {
			if errors.Is(err, ErrVerifyCode) {
				return nil, ErrAuthFailed
			}
			return nil, err
		}
		if err := s.dropCode(ctx, a.ID, PurposeLogin); err != nil {
			return nil, err
		}
	}
	return s.sessionFields(r, a, c), nil
}

// signIn is GET or POST /ds/user {uid, auth}: the password check. On success it opens a session.
func (s *Service) signIn(w http.ResponseWriter, r *http.Request, req struct {
	UID  string `json:"uid"`
	Auth string `json:"auth"`
}) (any, error) {
	if err := passwordParam("auth", req.Auth); err != nil {
		return nil, err
	}
	ctx := r.Context()
	a, err := s.consolePassword(ctx, s.loadDispatcher, httpx.ClientIP(r), req.UID, req.Auth)
	if err != nil {
		return nil, err
	}
	c, err := s.admitConsole(ctx, a)
	if err != nil {
		return nil, err
	}
	return s.startSession(w, r, a, c, "sign-in")
}

// hashOAuth is how an external identity is stored: it lets its holder sign in, so like a token it is kept
// only as a hash.
func hashOAuth(platform, oauth string) string {
	h := sha256.Sum256([]byte(platform + "\x00" + oauth))
	return hex.EncodeToString(h[:])
}

// signInOAuth is GET /ds/user/getAccountByOauth {platform, oauth, state}: sign-in as the account linked to that
// external identity (links are made with `tenfour admin link-oauth`). Where the host has a provider for the
// platform, oauth is the provider's authorization code and state the one oauthStart gave (oauth.go). Unknown
// identity, refused code or state → 102.
func (s *Service) signInOAuth(w http.ResponseWriter, r *http.Request, req struct {
	Platform string `json:"platform"`
	OAuth    string `json:"oauth"`
	State    string `json:"state"`
}) (any, error) {
	if err := firstErr(httpx.Required("platform", req.Platform), paramLen("platform", req.Platform, maxShortParam),
		httpx.Required("oauth", req.OAuth), paramLen("oauth", req.OAuth, maxOAuthParam), paramLen("state", req.State, maxShortParam)); err != nil {
		return nil, err
	}
	ctx := r.Context()
	identity, err := s.oauthCode(w, r, req.Platform, req.OAuth, req.State)
	if err != nil {
		return nil, err
	}
	var uid string
	err = s.db.QueryRow(ctx, `SELECT account_id FROM oauth_links WHERE platform = ? AND oauth_hash = ?`,
		req.Platform, hashOAuth(req.Platform, identity)).Scan(&uid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrAuthFailed
	}
	if err != nil {
		return nil, err
	}
	a, c, err := s.admitDispatcher(ctx, uid)
	if err != nil {
		return nil, err
	}
	s.throttle.right(people, httpx.ClientIP(r), a.ID, s.now()) // a right identity, like a right password
	return s.startSession(w, r, a, c, "OAuth sign-in ("+req.Platform+")")
}

// startSession issues the token, sets the cookie and writes log 100.
func (s *Service) startSession(w http.ResponseWriter, r *http.Request, a *account, c *customer, how string) (any, error) {
	ctx := r.Context()
	s.maybePrune(ctx)
	// The answer's user info first: a sign-in that cannot answer leaves no session behind.
	u, err := s.userInfo(ctx, a)
	if err != nil {
		return nil, err
	}
	tok, err := s.Sessions.Create(ctx, a.ID, a.CustomerID)
	if err != nil {
		return nil, err
	}
	s.setTokenCookie(w, r, tok)
	if s.log != nil {
		s.log.Write(ctx, a.CustomerID, a.ID, a.Name, oplog.Login, how+" from "+httpx.ClientIP(r),
			oplog.D("signIn", "ip", httpx.ClientIP(r)))
	}
	return signInResult{Token: tok, UserInfo: u, sessionFields: s.sessionFields(r, a, c)}, nil
}

// pruneEvery is how often sign-ins sweep expired sessions and codes.
const pruneEvery = time.Hour

// maybePrune deletes expired sessions and verification codes, at most once per pruneEvery. It rides on
// sign-ins so no background loop is needed; a failure only delays the cleanup.
func (s *Service) maybePrune(ctx context.Context) {
	now := s.now().UnixMilli()
	last := s.lastPrune.Load()
	if now-last < pruneEvery.Milliseconds() || !s.lastPrune.CompareAndSwap(last, now) {
		return
	}
	if err := s.Sessions.Prune(ctx); err != nil {
		slog.WarnContext(ctx, "prune sessions", "err", err)
	}
	if _, err := s.db.Exec(ctx, `DELETE FROM verify_codes WHERE expires_at < ?`, now); err != nil {
		slog.WarnContext(ctx, "prune verification codes", "err", err)
	}
}
