package app

import (
	"log/slog"
	"net"
	"net/http"
	"time"

	"tenfour/internal/platform/httpx"
)

// Connection limits' defaults (serve --body-timeout, --body-min-rate-kb; docs/security.md "Limits").
const (
	DefaultBodyTimeout = 30 * time.Second
	DefaultBodyMinRate = 4 << 10 // bytes per second: a weak mobile link (32 kbit/s) still uploads a video
)

// HTTPServer is the one HTTP server of a node (serve, and the test kit's servers): header and idle timeouts,
// and the body deadline of Handler. Serve it on Listener(ln).
func (a *App) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           a.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn),
	}
}

// Listener caps the open connections per peer address (serve --conns-per-ip; trusted proxies exempt).
func (a *App) Listener(ln net.Listener) net.Listener {
	return httpx.LimitPerIP(ln, a.Cfg.HTTP.ConnsPerIP, a.trusted)
}

// Handler is the node's HTTP handler: observed (logs, metrics, panics), the client's address from a trusted
// proxy, request bodies under their read deadline, then the routes.
func (a *App) Handler() http.Handler {
	grace, rate := a.Cfg.HTTP.BodyTimeout, a.Cfg.HTTP.BodyMinRate
	if grace <= 0 {
		grace = DefaultBodyTimeout
	}
	if rate <= 0 {
		rate = DefaultBodyMinRate
	}
	return httpx.Observe(httpx.RealIP(a.trusted, securityHeaders(a.Cfg.PublicURL, a.Cfg.TLSSelfSigned, a.nodeHosts, httpx.BodyDeadline(grace, rate, a.mux))))
}
