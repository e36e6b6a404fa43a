package broadcast

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// Auth is what the service asks of internal/auth (*auth.Service), which owns every credential and session
// (docs/adr/0018 "Credentials"): casters' md5 logins and organisations' speaker passwords are auth's service
// credentials, broadcast tokens are auth sessions of kind "broadcast", and every password check goes through
// auth's one sign-in throttle and lockout.
type Auth interface {
	// Lookup resolves a console session token (for the '{secret}' login).
	Lookup(ctx context.Context, token string) (identity.Principal, error)
	// OpenBroadcast opens a broadcast session of account uid on the proof of its console session.
	OpenBroadcast(ctx context.Context, consoleToken, uid string) (identity.Principal, string, int64, error)
	// BroadcastSignIn checks a caster's md5 login and opens a broadcast session of its credential.
	BroadcastSignIn(ctx context.Context, addr, login, md5hex string) (auth.Credential, string, int64, error)
	// LookupBroadcast resolves a broadcast token.
	LookupBroadcast(ctx context.Context, token string) (auth.BroadcastHolder, error)
	// SetCredential sets (or with "" / '{secret}' removes) the password of a login, from its md5.
	SetCredential(ctx context.Context, realm, login string, customerID int64, md5hex string) error
	// DropCredential removes a customer's login's password and its sessions.
	DropCredential(ctx context.Context, realm, login string, customerID int64) error
	// CheckDeviceCredential checks the md5 a device of a fleet registers with through the sign-in throttle.
	CheckDeviceCredential(ctx context.Context, addr, realm, login, device, md5hex string) (auth.Credential, error)
	// MatchCredential tells whether md5hex is a login's password, outside the sign-in paths (the demo's own
	// simulated speakers, in process).
	MatchCredential(ctx context.Context, realm, login string, customerID int64, md5hex string) (bool, error)
	// AccountOf tells whether id is an account of the customer (a caster's user_id).
	AccountOf(ctx context.Context, customerID int64, id string) (bool, error)
}

// checkAccount refuses a caster's user_id that is not an account of the customer (400 user_id unknown, the
// same answer whether or not the account exists at another customer).
func (s *Service) checkAccount(ctx context.Context, customerID int64, id string) error {
	if s.auth == nil {
		return errNoAuth
	}
	ok, err := s.auth.AccountOf(ctx, customerID, id)
	if err != nil {
		return err
	}
	if !ok {
		return httpx.BadParam("user_id", "unknown")
	}
	return nil
}

// errNoAuth answers what needs auth when the service runs without it (a tool, a test of the store alone).
var errNoAuth = errors.New("broadcast: no auth service")

// Caller is who calls a broadcast endpoint: a caster of a customer.
type Caller struct {
	CustomerID int64
	CasterID   int64
	Code       string
	Name       string
	UserID     string
	Priority   int
}

// codes is the broadcast service's envelope (spec §7 "Broadcast service": success code 200). Failures carry the
// service's code as a number (spec §8: the console rejects with it, else 500) and an i18n key.
var codes = httpx.Codes{OK: 200, Of: httpx.NumericCode}

// handler is a broadcast endpoint run as a caller.
type handler func(w http.ResponseWriter, r *http.Request, c Caller) (any, error)

type callerKey struct{}

// authenticate finds the caller of a request from its token (header `token`, `Authorization: Bearer`, or a
// `token` parameter — auth.TokenFrom), a broadcast token from POST /v1/login (never a console token).
func (s *Service) authenticate(r *http.Request) (context.Context, error) {
	c, err := s.caller(r.Context(), auth.TokenFrom(r))
	if err != nil {
		return nil, err
	}
	return context.WithValue(r.Context(), callerKey{}, c), nil
}

// callerIn is the caller authenticate found (an endpoint mounted with Router.Private runs after it).
func callerIn(ctx context.Context) Caller {
	c, ok := ctx.Value(callerKey{}).(Caller)
	if !ok {
		panic("broadcast: endpoint mounted without its authenticator")
	}
	return c
}

// as runs an endpoint that reads the request itself (the upload's multipart body) as its caller.
func as(h handler) httpx.Handler {
	return func(w http.ResponseWriter, r *http.Request) (any, error) { return h(w, r, callerIn(r.Context())) }
}

// caller resolves a broadcast token (auth session of kind "broadcast"): a console account's (its caster is
// ensured, spec §4; account type "1" only, spec §6) or a caster credential's. Console and patrol tokens are
// refused here (401), as broadcast tokens are under /ds (105).
func (s *Service) caller(ctx context.Context, token string) (Caller, error) {
	if s.auth == nil {
		return Caller{}, ErrToken
	}
	h, err := s.auth.LookupBroadcast(ctx, token)
	if err != nil {
		if _, known := httpx.AsError(err); known {
			return Caller{}, ErrToken
		}
		return Caller{}, err
	}
	if h.Account != nil {
		return s.consoleCaller(ctx, *h.Account)
	}
	cs, err := s.casterByCode(ctx, h.CustomerID, h.Login)
	if errors.Is(err, db.ErrNotFound) {
		return Caller{}, ErrToken
	}
	if err != nil {
		return Caller{}, err
	}
	return callerOf(cs), nil
}

func callerOf(cs casterRow) Caller {
	return Caller{CustomerID: cs.customerID, CasterID: cs.ID, Code: cs.Code, Name: cs.Name, UserID: cs.UserID, Priority: cs.Priority}
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
	// a console pages with its own microphone, whatever account the caster row names
	return Caller{CustomerID: p.CustomerID, CasterID: cs.ID, Code: cs.Code, Name: cs.Name, UserID: p.AccountID, Priority: cs.Priority}, nil
}

// EnsureCaster returns the caster of a console account, creating it when missing (spec §4: after login the
// broadcast user is ensured to have a caster record): code and call number are the account id, priority 5, no
// password of its own.
func (s *Service) EnsureCaster(ctx context.Context, p identity.Principal) (Caster, error) {
	cs, err := s.casterByCode(ctx, p.CustomerID, p.AccountID)
	if err == nil {
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
		if cs, err := s.casterByCode(ctx, p.CustomerID, p.AccountID); err == nil {
			return cs.Caster, nil
		}
	}
	return cs2, err
}

// login is POST /v1/login {username, password}: password is the md5 (hex) of the caster's password, checked by
// auth (throttle, lockout: 2 wrong, 107 locked, 101 busy), or '{secret}' (spec §5: also for a missing password)
// together with the same account's console session in the `token` header (102 without one).
func (s *Service) login(ctx context.Context, r *http.Request, username, password string) (map[string]any, error) {
	username, password = strings.TrimSpace(username), strings.TrimSpace(password)
	if username == "" {
		return nil, httpx.BadParam("username", "required")
	}
	if password == "" {
		password = Secret // spec §5: a missing password is replaced by '{secret}'
	}
	if s.auth == nil {
		return nil, errNoAuth
	}
	var c Caller
	var tok string
	var exp int64
	if password == Secret {
		console := r.Header.Get("token")
		if h := r.Header.Get("Authorization"); console == "" && strings.HasPrefix(h, "Bearer ") {
			console = strings.TrimPrefix(h, "Bearer ")
		}
		p, err := s.auth.Lookup(ctx, console)
		if err != nil || p.AccountID != username {
			return nil, auth.ErrAuthFailed
		}
		if c, err = s.consoleCaller(ctx, p); err != nil { // account type "1" only; the caster is ensured
			return nil, err
		}
		if _, tok, exp, err = s.auth.OpenBroadcast(ctx, console, username); err != nil {
			return nil, err
		}
	} else {
		if !auth.ValidMD5(password) {
			return nil, auth.ErrMD5
		}
		cred, t, e, err := s.auth.BroadcastSignIn(ctx, httpx.ClientIP(r), username, password)
		if err != nil {
			return nil, err
		}
		cs, err := s.casterByCode(ctx, cred.CustomerID, cred.Login)
		if err != nil {
			return nil, auth.ErrBadPwd
		}
		c, tok, exp = callerOf(cs), t, e
	}
	return map[string]any{"token": tok, "expires_at": exp, "user": sysUser(c)}, nil
}

// sysUser is GET /v1/sys/user (spec §3 broadcast user: user_code, user_id, user_name).
func sysUser(c Caller) map[string]any {
	return map[string]any{"user_code": c.Code, "user_id": c.CasterID, "user_name": c.Name, "account": c.UserID,
		"priority": c.Priority}
}
