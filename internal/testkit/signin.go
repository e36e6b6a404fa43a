package testkit

import (
	"context"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/platform/wsclient"
)

// SignIn is the console's sign-in pair from hc (ClientFrom: an address of its own, for the sign-in throttle):
// GET /ds/pub/loginext, then GET /ds/user with the password. It returns the step that stopped it and its code,
// or "" and "0" when both passed.
func SignIn(t testing.TB, hc *http.Client, base, uid, password string) (step, code string) {
	t.Helper()
	if r := DoFrom(t, hc, base, http.MethodGet, "/ds/pub/loginext", "", map[string]any{"uid": uid}); r.Code != "0" {
		return "/ds/pub/loginext", r.Code
	}
	if r := DoFrom(t, hc, base, http.MethodGet, "/ds/user", "", map[string]any{"uid": uid, "auth": password}); r.Code != "0" {
		return "/ds/user", r.Code
	}
	return "", "0"
}

// TerminalSignIn logs a terminal in with its password on a new socket from hc and returns the answer's code
// ("0": logged in); the socket is closed again. A socket that does not open fails the test (t.Errorf: safe from
// a goroutine of its own) and answers "".
func TerminalSignIn(t testing.TB, hc *http.Client, base, uid, password string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := wsclient.Dial(ctx, wsclient.URL(base), wsclient.Options{HTTPClient: hc})
	if err != nil {
		t.Errorf("terminal %s: %v", uid, err)
		return ""
	}
	defer c.CloseNow()
	if err := c.Call(ctx, "session.login", map[string]string{"client": "terminal", "uid": uid, "auth": password}, nil); err != nil {
		return wsclient.Code(err)
	}
	return "0"
}
