package httpx

import (
	"net/http"

	"tenfour/internal/platform/identity"
)

// Router is what every service's Routes receives: the mux and the session check. A service mounts its
// endpoints with Private (signed in, enveloped Handler), Console (signed in from a dispatcher's console),
// Public (no session) or Raw (a plain http.Handler such as a file download or a ranged stream).
type Router struct {
	Mux     *http.ServeMux
	Require func(http.Handler) http.Handler // auth's session check: sets the identity.Principal
	// RequireRead is the session check of Raw downloads, which a page element (<audio>, <img>) loads with the
	// cookie alone; nil: Require. A Raw handler behind it must have no effects (docs/adr/0009).
	RequireRead func(http.Handler) http.Handler
}

// Private mounts a Handler behind the session check.
func (r Router) Private(pattern string, h Handler) { r.Mux.Handle(pattern, r.Require(Handle(h))) }

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

// Public mounts a Handler that needs no session (sign-in, branding, terminal file tokens).
func (r Router) Public(pattern string, h Handler) { r.Mux.Handle(pattern, Handle(h)) }

// Raw mounts a plain http.Handler without effects (a download, a ranged stream); private says whether it is
// behind the session check, which then also takes the cookie alone (RequireRead).
func (r Router) Raw(pattern string, h http.Handler, private bool) {
	if private && r.RequireRead != nil {
		h = r.RequireRead(h)
	} else if private {
		h = r.Require(h)
	}
	r.Mux.Handle(pattern, h)
}
