package security

import (
	"net/http"
	"strings"
	"testing"

	"tenfour/internal/config"
	"tenfour/internal/testkit"
)

// Issue 14 L7: /metrics answered anyone (load, accounts online, latencies). It now needs the bearer token of
// --metrics-token, and is off without one.

func metricsGet(t *testing.T, base, auth string) (int, string) {
	return metricsPath(t, base, "/metrics", auth)
}

func metricsPath(t *testing.T, base, path, auth string) (int, string) {
	t.Helper()
	header := map[string]string{}
	if auth != "" {
		header["Authorization"] = auth
	}
	res, body := sessRaw(t, http.MethodGet, base+path, "", header)
	return res.StatusCode, string(body)
}

// The runtime's profiles (GET /metrics/pprof/{name}, issue 21: the scale run and the soak read the server's heap
// through it) need the same token.
func TestProfilesNeedTheMetricsToken(t *testing.T) {
	w := newSessWorld(t)
	tok := w.signIn(t, w.admin, w.adminPwd)
	for name, auth := range map[string]string{"none": "", "wrong": "Bearer nope", "a session token": "Bearer " + tok} {
		if status, body := metricsPath(t, w.URL, "/metrics/pprof/goroutine?debug=1", auth); status != http.StatusUnauthorized || strings.Contains(body, "goroutine profile") {
			t.Errorf("goroutine profile with %s: %d", name, status)
		}
	}
	if status, body := metricsPath(t, w.URL, "/metrics/pprof/goroutine?debug=1", "Bearer "+testkit.MetricsToken); status != 200 || !strings.Contains(body, "goroutine profile") {
		t.Errorf("goroutine profile with the token: %d %.80s", status, body)
	}
	if status, _ := metricsPath(t, w.URL, "/metrics/pprof/nonesuch", "Bearer "+testkit.MetricsToken); status != http.StatusNotFound {
		t.Errorf("unknown profile: %d", status)
	}
	off := newSessWorld(t, func(c *config.Config) { c.MetricsToken = "" })
	if status, _ := metricsPath(t, off.URL, "/metrics/pprof/heap", "Bearer "); status != http.StatusNotFound {
		t.Errorf("profiles without a configured token: %d", status)
	}
}

func TestMetricsNeedTheToken(t *testing.T) {
	w := newSessWorld(t) // the test kit starts servers with --metrics-token testkit.MetricsToken
	tok := w.signIn(t, w.admin, w.adminPwd)
	for name, auth := range map[string]string{"none": "", "wrong": "Bearer nope", "a session token": "Bearer " + tok} {
		if status, body := metricsGet(t, w.URL, auth); status != http.StatusUnauthorized || strings.Contains(body, "tenfour_") {
			t.Errorf("metrics with %s: %d", name, status)
		}
	}
	if status, body := metricsGet(t, w.URL, "Bearer "+testkit.MetricsToken); status != 200 || !strings.Contains(body, "tenfour_socket_connections") {
		t.Errorf("metrics with the token: %d", status)
	}
}

func TestMetricsAreOffWithoutAToken(t *testing.T) {
	w := newSessWorld(t, func(c *config.Config) { c.MetricsToken = "" })
	if status, body := metricsGet(t, w.URL, "Bearer "); status != http.StatusNotFound || strings.Contains(body, "tenfour_") {
		t.Errorf("metrics without a configured token: %d", status)
	}
}
