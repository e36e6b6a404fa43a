package app

import (
	"crypto/subtle"
	"net/http"
	"net/http/pprof"
	"strings"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// TileHosts are the map providers' tile servers (web/src/map/providers.ts): MapLibre fetches raster tiles
// from them, so the console's CSP lets it connect there and nowhere else outside this server.
var TileHosts = []string{
	"https://tile.openstreetmap.org",
	"https://server.arcgisonline.com",
	"https://*.google.com",
	"https://*.is.autonavi.com",
}

// contentSecurityPolicy is the console's and the phone app's policy: scripts only from this server (no inline
// script, no eval); MapLibre's worker is a blob:; antd writes inline styles; images may be https: (branding
// logos are operators' URLs), data: and blob:; connections go to this server (API, socket) and the tile hosts;
// media plays from this server, blob: and data:; no framing, no plugins (docs/adr/0009).
//
// nodes are the other nodes' hosts of a cluster (host:port), which a page may open its socket on when its own
// node dies (docs/adr/0024 "Failover lists").
func contentSecurityPolicy(host string, nodes ...string) string {
	tiles := strings.Join(TileHosts, " ")
	sockets := "ws://" + host + " wss://" + host
	for _, n := range nodes {
		if n != host {
			sockets += " ws://" + n + " wss://" + n
		}
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self' 'unsafe-inline' https:",
		"img-src 'self' data: blob: https:",
		"font-src 'self' data:",
		"connect-src 'self' " + sockets + " data: blob: " + tiles,
		"media-src 'self' blob: data:",
		"worker-src 'self' blob:",
		"child-src 'self' blob:",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// securityHeaders adds the browser protections to every answer: the CSP and frame protection (clickjacking),
// nosniff, a Referrer-Policy that keeps paths and parameters on this server, and HSTS when the client reached
// us over TLS with a real certificate (a self-signed one would lock browsers out of the warning's bypass).
// A handler may set a stricter CSP of its own (stored files are served sandboxed).
func securityHeaders(publicURL string, selfSigned bool, nodes func() []string, next http.Handler) http.Handler {
	proxiedTLS := strings.HasPrefix(publicURL, "https://")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy(r.Host, nodes()...))
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		if (r.TLS != nil && !selfSigned) || proxiedTLS {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// metricsHandler serves Prometheus metrics to `Authorization: Bearer <token>` only; without a configured
// token /metrics is off (404), so an exposed node tells nobody its load and accounts online.
func metricsHandler(token string) http.Handler { return bearerOnly(token, promhttp.Handler()) }

// profileHandler serves the runtime's profiles (GET /metrics/pprof/{name}: heap, goroutine, allocs, …; heap
// with ?gc=1 collects first, so it shows the live heap; profile?seconds=N is the CPU over the next N seconds) to
// the same bearer token as /metrics: the scale run and the soak take the server's heap profile and goroutine
// count through it, the bench's SIP calls its CPU profile.
func profileHandler(token string) http.Handler {
	return bearerOnly(token, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name := r.PathValue("name"); name == "profile" {
			pprof.Profile(w, r)
		} else {
			pprof.Handler(name).ServeHTTP(w, r)
		}
	}))
}

// bearerOnly serves next to `Authorization: Bearer <token>` only; an empty token turns it off (404).
func bearerOnly(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token == "" {
			http.Error(w, "metrics are off: start with --metrics-token", http.StatusNotFound)
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "metrics need the bearer token of --metrics-token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
