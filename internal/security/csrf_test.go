package security

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/testkit"
)

// Issue 14 M2: a terminal avatar pointing at /ds/user/logout signed out every console that showed it (the
// browser loads an <img> with the cookie), and /ds/user/unlockUser?uid=… worked the same against an
// administrator. Both halves are replayed: an avatar can only be a stored picture, and a request that carries
// the session only in the cookie — all an <img> sends — acts on nothing (docs/adr/0009).

// cookieGet is what an <img src=path> sends: a GET with the cookie and nothing else.
func cookieGet(t *testing.T, base, path, tok string) (status int, code string, setCookie []string) {
	t.Helper()
	return cookieDo(t, http.MethodGet, base, path, tok)
}

// cookieDo sends a request whose only credential is the cookie.
func cookieDo(t *testing.T, method, base, path, tok string) (status int, code string, setCookie []string) {
	t.Helper()
	res, raw := sessRaw(t, method, base+path, tok, map[string]string{"Sec-Fetch-Dest": "image"})
	var env struct{ Code string }
	_ = json.Unmarshal(raw, &env)
	return res.StatusCode, env.Code, res.Header.Values("Set-Cookie")
}

func TestCookieOnlyLogoutDoesNothing(t *testing.T) {
	w := newSessWorld(t)
	tok := w.signIn(t, w.disp, w.dispPwd)
	sock := testkit.Console(t, w.URL, tok)
	_, _, setCookie := cookieGet(t, w.URL, "/ds/user/logout", tok)
	if len(setCookie) != 0 {
		t.Errorf("a cookie-only logout touched the cookie: %q", setCookie)
	}
	if r := w.Do(http.MethodGet, "/ds/user/getAccount", tok, nil); r.Code != "0" {
		t.Fatalf("the session after a cookie-only logout: code %q", r.Code)
	}
	sock.Request("sync", map[string]any{"after": 0})
	if !stillServes(sock) {
		t.Error("the console's socket ended after a cookie-only logout")
	}
}

func TestCookieOnlyUnlockUserDoesNothing(t *testing.T) {
	w := newSessWorld(t)
	tok := w.signIn(t, w.admin, w.adminPwd)
	lockedUntil := time.Now().Add(time.Hour).UnixMilli()
	if _, err := w.DB.Exec(context.Background(), `UPDATE accounts SET failed_logins = 5, locked_until = ? WHERE id = ?`,
		lockedUntil, w.disp); err != nil {
		t.Fatal(err)
	}
	locked := func() bool {
		var until int64
		if err := w.DB.QueryRow(context.Background(), `SELECT locked_until FROM accounts WHERE id = ?`, w.disp).Scan(&until); err != nil {
			t.Fatal(err)
		}
		return until == lockedUntil
	}
	if _, code, _ := cookieGet(t, w.URL, "/ds/user/unlockUser?uid="+w.disp, tok); code != "105" || !locked() {
		t.Fatalf("cookie-only unlockUser: code %q, still locked %v; want 105 and locked", code, locked())
	}
	// The same call with the token sent on purpose (as the console and the spec's clients send it) works.
	if r := w.Do(http.MethodGet, "/ds/user/unlockUser", tok, map[string]any{"uid": w.disp}); r.Code != "0" || locked() {
		t.Fatalf("unlockUser with the token header: %+v, still locked %v", r, locked())
	}
}

// Every endpoint with effects takes the token only from a header or a parameter: a sample of each kind.
func TestCookieOnlyRequestsWithEffectsAreRefused(t *testing.T) {
	w := newSessWorld(t)
	tok := w.signIn(t, w.admin, w.adminPwd)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/ds/user/getAccount"},
		{http.MethodPut, "/ds/data/updateMsPwd?msId=" + w.disp + "&oldPwd=123456&newPwd=Pass_2468word"},
		{http.MethodPut, "/ds/custom/updateMsIcon?msId=" + w.term + "&icon=car&image=data:image/png;base64,iVBORw0KGgo="},
		{http.MethodGet, "/ds/log/list"},
	} {
		if _, code, _ := cookieDo(t, c.method, w.URL, c.path, tok); code != "105" {
			t.Errorf("cookie-only %s %s: code %q, want 105", c.method, c.path, code)
		}
	}
	// Downloads without effects still take the cookie: a recording in an <audio> element.
	if status, code, _ := cookieGet(t, w.URL, "/ds/data/voice?callid=1&btime=1", tok); code == "105" {
		t.Errorf("cookie-only recording download refused: %d %s", status, code)
	}
}

func TestAvatarMustBeAStoredPicture(t *testing.T) {
	w := newSessWorld(t)
	tok := w.signIn(t, w.disp, w.dispPwd)
	for _, image := range []string{
		"/ds/user/logout",
		"/ds/user/unlockUser?uid=" + w.disp,
		w.URL + "/ds/user/logout",
		"//evil.example/x.png",
		"https://evil.example/x.png",
		"/filews/files/0123456789abcdef0123456789abcdef?x=/ds/user/logout",
		"data:image/svg+xml;base64,PHN2Zy8+",
	} {
		r := w.Do(http.MethodPut, "/ds/custom/updateMsIcon", tok, map[string]any{"msId": w.term, "icon": "car", "image": image})
		if r.Code != "400" {
			t.Errorf("avatar %q: code %q (%s), want a coded 400", image, r.Code, r.Msg)
		}
	}
	var avatar string
	if err := w.DB.QueryRow(context.Background(), `SELECT avatar FROM accounts WHERE id = ?`, w.term).Scan(&avatar); err != nil || avatar != "" {
		t.Errorf("avatar stored after refusals: %q %v", avatar, err)
	}
	if r := w.Do(http.MethodPut, "/ds/custom/updateMsIcon", tok, map[string]any{"msId": w.term, "icon": "car",
		"image": "data:image/png;base64,iVBORw0KGgo="}); r.Code != "0" {
		t.Errorf("an inline PNG avatar: code %q (%s)", r.Code, r.Msg)
	}
}
