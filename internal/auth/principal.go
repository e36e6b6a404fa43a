// Package auth owns accounts' credentials and sessions: the sign-in pair, tokens, lockout and throttling,
// password change and recovery, OAuth links. Other domains only use Principal, FromContext and Require.
package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
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

// TokenFrom finds the session token a client sent on purpose: `token` header, bearer header, `token`
// parameter of the query string or of a form or JSON body (the spec's clients add it to every call). A body it
// looks into is put back for the handler. It never reads the cookie: a browser attaches the cookie to any
// request of this origin, an <img> of an avatar too, so a cookie alone proves no intent (docs/adr/0009).
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
	return bodyToken(r)
}

// ReadTokenFrom is TokenFrom, else the `token` cookie: for downloads without effects that a page element
// loads (a recording in <audio>, a stored image or file), which cannot send a header.
func ReadTokenFrom(r *http.Request) string {
	if t := TokenFrom(r); t != "" {
		return t
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return c.Value
	}
	return ""
}

// bodyToken reads a `token` parameter from a form or JSON body and restores the body.
func bodyToken(r *http.Request) string {
	if r.Body == nil || r.Body == http.NoBody {
		return ""
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "application/x-www-form-urlencoded" && ct != "application/json" {
		return ""
	}
	// Read one byte past the cap so an oversized body still reaches the handler's decoder, which answers 413.
	body, err := io.ReadAll(io.LimitReader(r.Body, httpx.MaxBody+1))
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if err != nil || len(body) > httpx.MaxBody {
		return ""
	}
	if ct == "application/json" {
		var v struct {
			Token any `json:"token"`
		}
		if json.Unmarshal(body, &v) == nil {
			if t, ok := v.Token.(string); ok {
				return t
			}
		}
		return ""
	}
	vals, err := url.ParseQuery(string(body))
	if err != nil {
		return ""
	}
	return vals.Get("token")
}
