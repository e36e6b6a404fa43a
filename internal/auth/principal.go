// Package auth owns accounts' credentials and sessions: the sign-in pair, tokens, lockout and throttling,
// password change and recovery, OAuth links. Other domains only use Principal, FromContext and Require.
package auth

import (
	"context"
	"net/http"
	"strings"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// DispatcherType is the only account type that may sign in to the console (spec §5, §6).
const DispatcherType = identity.DispatcherType

// Principal is who is calling (see package identity).
type Principal = identity.Principal

// FromContext returns the caller; ok is false on unauthenticated requests.
func FromContext(ctx context.Context) (Principal, bool) { return identity.From(ctx) }

// MustFrom returns the caller of a request that passed Require.
func MustFrom(ctx context.Context) Principal { return identity.Must(ctx) }

// TokenFrom finds the session token of a request: cookie, `token` header, bearer header or `token` parameter.
func TokenFrom(r *http.Request) string {
	if t := r.Header.Get("token"); t != "" {
		return t
	}
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		return strings.TrimPrefix(h, "Bearer ")
	}
	if t := r.URL.Query().Get("token"); t != "" {
		return t
	}
	if c, err := r.Cookie(CookieName); err == nil && c.Value != "" {
		return c.Value
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if t := r.PostFormValue("token"); t != "" {
			return t
		}
	}
	return ""
}

// Require lets a request through only with a live session token; otherwise it answers code "105".
func (s *Sessions) Require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.Lookup(r.Context(), TokenFrom(r))
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(identity.With(r.Context(), p)))
	})
}
