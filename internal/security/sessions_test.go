package security

import (
	"io"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/testkit"
)

// Issue 14 M1: a socket opened with a session must not outlive it. The token is only checked at the socket's
// login, so the server closes the socket when the session ends: sign-out, a password change, expiry.

// sessWorld is one customer with an administrator dispatcher, a second dispatcher and a terminal.
type sessWorld struct {
	*testkit.Server
	cust              int64
	admin, disp, term string
	adminPwd, dispPwd string
	termPwd           string
	newPwd            string
	closeWithin       time.Duration
}

func newSessWorld(t *testing.T, opts ...func(*config.Config)) *sessWorld {
	t.Helper()
	s := testkit.Start(t, opts...)
	w := &sessWorld{Server: s, cust: testkit.Customer(t, s.DB, "security"),
		admin: "40000001", disp: "40000002", term: "40000101",
		adminPwd: testkit.Password, dispPwd: testkit.Password, termPwd: testkit.Password, newPwd: "Pass_2468word",
		closeWithin: 5 * time.Second}
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: w.cust, ID: w.admin, Name: "Admin", Type: auth.DispatcherType, Admin: true, Group: "Ops"})
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: w.cust, ID: w.disp, Name: "Dispatcher", Type: auth.DispatcherType, Group: "Ops"})
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: w.cust, ID: w.term, Name: "Unit", Type: "10", Group: "Ops"})
	return w
}

// signIn signs in over HTTP as the console does (form body) and returns the session token.
func (w *sessWorld) signIn(t *testing.T, uid, pwd string) string {
	t.Helper()
	r := w.Do(http.MethodPost, "/ds/user", "", map[string]any{"uid": uid, "auth": pwd})
	if r.Code != "0" {
		t.Fatalf("sign-in %s: %+v", uid, r)
	}
	var res struct{ Token string }
	r.Into(t, &res)
	return res.Token
}

// sessRaw sends one request with the given headers (and the cookie tok, when not empty) and returns the answer
// read in full: the replays below need what a browser or a scraper sends, not the test kit's token header.
func sessRaw(t *testing.T, method, url, cookie string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: "token", Value: cookie})
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res, raw
}

// stillServes tells whether a logged-in socket still answers a command.
func stillServes(sock *testkit.Socket) bool {
	f, ok := sock.TryWait(2*time.Second, func(f testkit.Frame) bool { return f.Re != 0 })
	return ok && f.Code == "0"
}

func TestLogoutClosesTheSessionsSockets(t *testing.T) {
	w := newSessWorld(t)
	tok := w.signIn(t, w.disp, w.dispPwd)
	win1 := testkit.Console(t, w.URL, tok)
	win2 := testkit.Console(t, w.URL, tok) // a second window of the same sign-in
	other := testkit.Console(t, w.URL, w.signIn(t, w.admin, w.adminPwd))

	if r := w.Do(http.MethodGet, "/ds/user/logout", tok, nil); r.Code != "0" {
		t.Fatalf("logout: %+v", r)
	}
	for name, sock := range map[string]*testkit.Socket{"window 1": win1, "window 2": win2} {
		if code := sock.CloseStatus(w.closeWithin); code != realtime.CloseSessionEnded {
			t.Errorf("%s after logout: closed with %d, want %d", name, code, realtime.CloseSessionEnded)
		}
	}
	// The old socket's token cannot log a new socket in either, and another session is untouched.
	if f := w.Dial().Call("session.login", map[string]any{"token": tok, "client": "console"}); f.Code != "105" {
		t.Errorf("socket login with the signed-out token: %+v", f)
	}
	other.Request("sync", map[string]any{"after": 0})
	if !stillServes(other) {
		t.Error("another session's socket stopped serving")
	}
}

func TestPasswordChangeClosesTheOtherSessionsSockets(t *testing.T) {
	w := newSessWorld(t)
	old := testkit.Console(t, w.URL, w.signIn(t, w.admin, w.adminPwd))
	term := testkit.Terminal(t, w.URL, w.term, w.termPwd)
	// The administrator signs in again elsewhere and changes its own password, then the terminal's.
	tok := w.signIn(t, w.admin, w.adminPwd)
	if r := w.Do(http.MethodPut, "/ds/data/updateMsPwd", tok, map[string]any{"msId": w.admin, "oldPwd": w.adminPwd,
		"newPwd": w.newPwd}); r.Code != "0" {
		t.Fatalf("change own password: %+v", r)
	}
	if code := old.CloseStatus(w.closeWithin); code != realtime.CloseSessionEnded {
		t.Errorf("the old sign-in's socket after a password change: closed with %d", code)
	}
	if r := w.Do(http.MethodPut, "/ds/data/updateMsPwd", tok, map[string]any{"msId": w.term, "oldPwd": w.newPwd,
		"newPwd": w.newPwd + "x"}); r.Code != "0" {
		t.Fatalf("change the terminal's password: %+v", r)
	}
	if code := term.CloseStatus(w.closeWithin); code != realtime.CloseSessionEnded {
		t.Errorf("the terminal's socket after its password changed: closed with %d", code)
	}
	// The session that changed the password keeps working.
	if r := w.Do(http.MethodGet, "/ds/user/getAccount", tok, nil); r.Code != "0" {
		t.Errorf("the changing session: %+v", r)
	}
}

func TestExpiredSessionClosesItsSocket(t *testing.T) {
	w := newSessWorld(t)
	tok := w.signIn(t, w.disp, w.dispPwd)
	sock := testkit.Console(t, w.URL, tok)
	term := testkit.Terminal(t, w.URL, w.term, w.termPwd)
	later := time.Now().Add(auth.TokenTTL + time.Minute)
	w.Auth.SetClock(func() time.Time { return later })
	// The sweep runs every auth.ExpirySweep on the sessions' clock: no request is needed to notice.
	if code := sock.CloseStatus(w.closeWithin + auth.ExpirySweep); code != realtime.CloseSessionEnded {
		t.Errorf("socket of an expired session: closed with %d", code)
	}
	// A terminal that logged in with its password is not a console session: it stays.
	term.Request("ping", nil)
	if _, ok := term.TryWait(2*time.Second, func(f testkit.Frame) bool { return f.Type == "pong" }); !ok {
		t.Error("the terminal's socket ended with the console's session")
	}
}
