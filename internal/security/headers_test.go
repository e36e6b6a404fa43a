package security

import (
	"net/http"
	"strings"
	"testing"

	"tenfour/internal/config"
)

// Issue 14 M6: the console was served without a Content-Security-Policy, frame protection, nosniff, a
// Referrer-Policy or HSTS. The browser suite runs the console under this policy (tests/e2e "no CSP violation").

func headersOf(t *testing.T, url string) http.Header {
	t.Helper()
	res, _ := sessRaw(t, http.MethodGet, url, "", nil)
	return res.Header
}

func TestConsoleIsServedWithSecurityHeaders(t *testing.T) {
	w := newSessWorld(t)
	for _, path := range []string{"/", "/home", "/app/", "/ds/pub/theme"} {
		h := headersOf(t, w.URL+path)
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"frame-ancestors 'none'", "script-src 'self'", "object-src 'none'", "worker-src 'self' blob:"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
			t.Errorf("%s: CSP allows script injection: %q", path, csp)
		}
		for k, v := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"} {
			if h.Get(k) != v {
				t.Errorf("%s: %s = %q, want %q", path, k, h.Get(k), v)
			}
		}
		// Plain HTTP: no HSTS (it would pin a name to a TLS the server does not offer).
		if v := h.Get("Strict-Transport-Security"); v != "" {
			t.Errorf("%s over plain HTTP: HSTS %q", path, v)
		}
	}
}

func TestHSTSBehindATLSProxy(t *testing.T) {
	w := newSessWorld(t, func(c *config.Config) { c.PublicURL = "https://dispatch.example" })
	if v := headersOf(t, w.URL+"/").Get("Strict-Transport-Security"); !strings.HasPrefix(v, "max-age=") {
		t.Errorf("behind a TLS proxy: HSTS %q", v)
	}
}
