package httpx

import (
	"context"
	"net/http"
	"slices"

	"tenfour/internal/platform/identity"
)

// Authenticate is how a service learns who calls: it answers the request's context carrying the caller (an
// identity.Principal, or a service's own caller) or the error the service refuses with — the console session's
// "105", the patrol token's "1011", the broadcast token's 401. The router writes a refusal in its envelope.
type Authenticate func(r *http.Request) (context.Context, error)

// Codes is how a service's envelope spells its codes: OK on success, Of(e) for an Error's code. The zero Codes
// is the dispatch service's (spec §7: "0", and the Error's code as a string).
type Codes struct {
	OK any
	Of func(e *Error) any
}

// Router is what every service's Routes receives: the mux, the service's authenticator and envelope, and the
// list of what is mounted. A service mounts its endpoints with Private (signed in, enveloped Handler), Console
// (signed in from a dispatcher's console), Public (no sign-in) or Raw (a plain http.Handler such as a file
// download or a ranged stream); a service of its own (patrol, broadcast) mounts on With(its codes, its
// authenticator) — the same mux, the same list.
type Router struct {
	Mux  *http.ServeMux
	Auth Authenticate // who calls a Private, Console or private Raw endpoint
	// ReadAuth is the authenticator of Raw downloads, which a page element (<audio>, <img>) loads with the
	// cookie alone; nil: Auth. A Raw handler behind it must have no effects (docs/adr/0009).
	ReadAuth Authenticate
	Codes    Codes
	mounted  *[]string
}

// With is a router on the same mux for a service with its own codes and authenticator (ReadAuth: none).
func (r Router) With(codes Codes, auth Authenticate) Router {
	r.Codes, r.Auth, r.ReadAuth = codes, auth, nil
	return r
}

// Routes lists the patterns mounted so far through this router and every router made from it with With, in
// the order they were mounted (http.ServeMux cannot list its own): TestRouteIndex holds them against docs/api.md.
func (r Router) Routes() []string {
	if r.mounted == nil {
		return nil
	}
	return slices.Clone(*r.mounted)
}

// NewRouter is a router on mux with the dispatch service's codes that lists what is mounted (a Router literal
// mounts the same but lists nothing).
func NewRouter(mux *http.ServeMux, auth, readAuth Authenticate) Router {
	return Router{Mux: mux, Auth: auth, ReadAuth: readAuth, mounted: new([]string)}
}

// Handle mounts a plain handler outside any service's sign-in (a socket, health, metrics), listed with the rest.
func (r Router) Handle(pattern string, h http.Handler) {
	r.Mux.Handle(pattern, h)
	if r.mounted != nil {
		*r.mounted = append(*r.mounted, pattern)
	}
}

// Private mounts a Handler behind the router's authenticator.
func (r Router) Private(pattern string, h Handler) {
	r.Handle(pattern, r.signedIn(r.Auth, r.enveloped(h)))
}

// Console mounts a Handler behind the session check for dispatchers only: a terminal's token is refused
// with ErrPermission ("107") before the handler runs.
func (r Router) Console(pattern string, h Handler) {
	r.Private(pattern, func(w http.ResponseWriter, req *http.Request) (any, error) {
		if p, ok := identity.From(req.Context()); !ok || !p.IsDispatcher() {
			return nil, ErrPermission
		}
		return h(w, req)
	})
}

// Public mounts a Handler that needs no sign-in (sign-in itself, branding, terminal file tokens).
func (r Router) Public(pattern string, h Handler) { r.Handle(pattern, r.enveloped(h)) }

// Raw mounts a plain http.Handler without effects (a download, a ranged stream); private says whether it is
// behind the authenticator, which then also takes the cookie alone (ReadAuth).
func (r Router) Raw(pattern string, h http.Handler, private bool) {
	if private && r.ReadAuth != nil {
		h = r.signedIn(r.ReadAuth, h)
	} else if private {
		h = r.signedIn(r.Auth, h)
	}
	r.Handle(pattern, h)
}

// signedIn runs next as the caller auth finds, or answers auth's refusal in the router's envelope.
func (r Router) signedIn(auth Authenticate, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ctx, err := auth(req)
		if err != nil {
			r.Codes.WriteError(w, req, err)
			return
		}
		next.ServeHTTP(w, req.WithContext(ctx))
	})
}

// enveloped writes a Handler's result or error in the router's envelope.
func (r Router) enveloped(h Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		res, err := h(w, req)
		if err != nil {
			r.Codes.WriteError(w, req, err)
			return
		}
		r.Codes.WriteResult(w, res)
	})
}

// TokenAuth is the authenticator of a token-bearing service: token reads the token from the request, lookup
// finds its Principal (or the error the service refuses with).
func TokenAuth(token func(*http.Request) string, lookup func(ctx context.Context, token string) (identity.Principal, error)) Authenticate {
	return func(r *http.Request) (context.Context, error) {
		p, err := lookup(r.Context(), token(r))
		if err != nil {
			return nil, err
		}
		return identity.With(r.Context(), p), nil
	}
}
