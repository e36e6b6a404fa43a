package auth

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"tenfour/internal/platform/httpx"
)

// Routes mounts the sign-in pair and the account endpoints (docs/api.md "Sign-in pair", "Other account calls").
func (s *Service) Routes(r httpx.Router) {
	// Sign-in: no token; throttled per address.
	r.Public("GET /ds/pub/loginext", s.verify)
	r.Public("GET /ds/user", throttled(s, s.signIn))
	r.Public("POST /ds/user", throttled(s, s.signIn))
	r.Public("GET /ds/user/getAccountByOauth", throttled(s, s.signInOAuth))
	r.Public("GET /ds/pub/oauthStart", s.oauthStart)

	// Account calls of a signed-in user.
	r.Private("GET /ds/user/getAccount", httpx.Bind(s.getAccount))
	r.Private("GET /ds/user/unlockUser", httpx.Bind(s.unlockUser))
	r.Public("GET /ds/user/logout", s.logout)
	r.Private("PUT /ds/data/updateMsPwd", httpx.Bind(s.updatePassword))

	// E-mail binding and password recovery: no token; throttled per address.
	r.Public("GET /ds/pub/getVerifyCode", throttled(s, s.getVerifyCode))
	r.Public("GET /ds/pub/bindEmail", throttled(s, s.bindEmail))
	r.Public("POST /ds/pub/bindEmail", throttled(s, s.bindEmail))
	r.Public("POST /ds/pub/resetPwd", throttled(s, s.resetPassword))
}

// throttled is the shape of the people's credential endpoints (sign-in, OAuth sign-in, e-mail binding and
// recovery): the call costs one of its address's attempts (allowAddr: 101 over the budget) before its request
// is read, then fn handles the request.
func throttled[Req any](s *Service, fn func(w http.ResponseWriter, r *http.Request, req Req) (any, error)) httpx.Handler {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		if err := s.allowAddr(r); err != nil {
			return nil, err
		}
		var req Req
		if err := httpx.Decode(r, &req); err != nil {
			return nil, err
		}
		return fn(w, r, req)
	}
}

// Parameter size limits: anything longer is a coded 400 before any work is done.
const (
	maxPasswordParam = 256 // bytes; the longest valid password is 64 characters
	maxShortParam    = 64
	maxOAuthParam    = 1024
)

// sessionFields is the part of the sign-in answer that describes the customer and this server (spec §3
// "Session"): both calls of the pair carry it.
type sessionFields struct {
	Version      string          `json:"version"`
	TimeZone     string          `json:"timeZone"`
	MediaServer  []string        `json:"mediaServer"`
	MediaFileURL string          `json:"mediaFileUrl"`
	DSConfig     json.RawMessage `json:"dsConfig"`
	Language     string          `json:"language"`
	// AccountType is the account's feature access code of spec §6 ("1" or "-2").
	AccountType string `json:"accountType"`
}

// baseURL is how clients reach this server: --public-url, else the scheme and host the request came in on.
func (s *Service) baseURL(r *http.Request) string {
	if s.publicURL != "" {
		return s.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (s *Service) sessionFields(r *http.Request, a *account, c *customer) sessionFields {
	base := s.baseURL(r)
	// The media and file services live in this same binary (docs/DESIGN.md §1), so both point here.
	return sessionFields{
		Version: c.Version, TimeZone: c.TimeZone, Language: c.Language, DSConfig: c.DSConfig,
		MediaServer: []string{base}, MediaFileURL: base + "/filews/files", AccountType: a.AcctType,
	}
}

// secure tells whether the client reached us over TLS (directly or, per --public-url, through a proxy).
func (s *Service) secure(r *http.Request) bool {
	return r.TLS != nil || strings.HasPrefix(s.publicURL, "https://")
}

// setTokenCookie sets the session cookie: 1 day, SameSite=Lax, Secure on TLS, readable by the console's
// scripts (docs/adr/0002-token-cookie.md explains why it is not HttpOnly).
func (s *Service) setTokenCookie(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: token, Path: "/",
		MaxAge: int(TokenTTL / time.Second), Expires: s.now().Add(TokenTTL),
		SameSite: http.SameSiteLaxMode, Secure: s.secure(r),
	})
}

func (s *Service) clearTokenCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1,
		SameSite: http.SameSiteLaxMode, Secure: s.secure(r)})
}

// paramLen fails with a coded 400 when v is longer than max bytes.
func paramLen(name, v string, max int) error {
	if len(v) > max {
		return httpx.BadParam(name, "too long")
	}
	return nil
}

// passwordParam is a password parameter's rule: required, at most maxPasswordParam bytes (coded 400s).
func passwordParam(name, v string) error {
	return firstErr(httpx.Required(name, v), paramLen(name, v, maxPasswordParam))
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
