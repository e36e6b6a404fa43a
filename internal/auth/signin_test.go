package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/branding"
	"tenfour/internal/config"
	"tenfour/internal/testkit"
)

// More accounts of customer A for the sign-in outcomes.
const (
	noGroupA  = "10000003" // dispatcher without a default group
	disabledA = "10000004"
	expiredA  = "10000005"
	lockedA   = "10000006"
)

func signInFixture(t *testing.T, engine string) *fixture {
	f := newFixture(t, engine)
	f.account(auth.NewAccount{CustomerID: f.custA, ID: noGroupA, Name: "No Group", Type: "20"})
	f.account(auth.NewAccount{CustomerID: f.custA, ID: disabledA, Name: "Disabled", Type: "20", Group: "Patrol"})
	f.account(auth.NewAccount{CustomerID: f.custA, ID: expiredA, Name: "Expired", Type: "20", Group: "Patrol"})
	f.account(auth.NewAccount{CustomerID: f.custA, ID: lockedA, Name: "Locked", Type: "20", Group: "Patrol"})
	now := f.clock.Now()
	f.exec(`UPDATE accounts SET disabled = TRUE WHERE id = ?`, disabledA)
	f.exec(`UPDATE accounts SET expires_at = ? WHERE id = ?`, now.Add(-time.Hour).UnixMilli(), expiredA)
	f.exec(`UPDATE accounts SET locked_until = ? WHERE id = ?`, now.Add(5*time.Minute).UnixMilli(), lockedA)
	f.exec(`UPDATE customers SET ds_config = ?, time_zone = '5.5', language = 'tr-TR' WHERE id = ?`,
		`{"map":1,"broadcast":0}`, f.custA)
	return f
}

type sessionAnswer struct {
	Token    string          `json:"token"`
	UserInfo auth.UserInfo   `json:"userInfo"`
	Version  string          `json:"version"`
	TimeZone string          `json:"timeZone"`
	Media    []string        `json:"mediaServer"`
	FileURL  string          `json:"mediaFileUrl"`
	DSConfig json.RawMessage `json:"dsConfig"`
	Language string          `json:"language"`
	AcctType string          `json:"accountType"`
}

func checkSessionFields(t *testing.T, f *fixture, a sessionAnswer) {
	t.Helper()
	if a.Version != "1" || a.TimeZone != "5.5" || a.Language != "tr-TR" || a.AcctType != "1" {
		t.Errorf("session fields: %+v", a)
	}
	if len(a.Media) != 1 || a.Media[0] != f.URL || a.FileURL != f.URL+"/filews/files" {
		t.Errorf("media addresses %v %q, want %s", a.Media, a.FileURL, f.URL)
	}
	var ds map[string]int
	if err := json.Unmarshal(a.DSConfig, &ds); err != nil || ds["map"] != 1 || ds["broadcast"] != 0 || len(ds) != len(branding.FeatureKeys) || ds["patrol"] != 1 {
		t.Errorf("dsConfig %s", a.DSConfig)
	}
}

func TestSignInPair(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		f := signInFixture(t, engine)
		long := strings.Repeat("9", 300)
		gid := strconv.FormatInt(f.groupA, 10)
		f.run(t, []scenario{
			// GET /ds/pub/loginext — verify
			{name: "verify ok", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": adminA, "flag": "0"},
				status: 200, code: "0", check: func(t *testing.T, f *fixture, r testkit.Reply) {
					var a sessionAnswer
					r.Into(t, &a)
					checkSessionFields(t, f, a)
					if a.Token != "" || r.Header.Get("Set-Cookie") != "" {
						t.Error("verify must not open a session")
					}
				}},
			{name: "verify without flag", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": dispA}, status: 200, code: "0"},
			{name: "verify missing uid", method: "GET", path: "/ds/pub/loginext", status: 400, code: "1"},
			{name: "verify letters", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": "abcdefgh"}, status: 400, code: "1"},
			{name: "verify 9 digits", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": "123456789"}, status: 400, code: "1"},
			{name: "verify oversized uid", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": long}, status: 400, code: "1"},
			{name: "verify unknown", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": "99999999"}, status: 404, code: "104"},
			{name: "verify terminal", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": termA}, status: 403, code: "6"},
			{name: "verify no group", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": noGroupA}, status: 403, code: "3"},
			{name: "verify disabled", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": disabledA}, status: 403, code: "4"},
			{name: "verify expired", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": expiredA}, status: 403, code: "103"},
			{name: "verify locked", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": lockedA}, status: 403, code: "107", msg: auth.LockedMsg},
			{name: "verify bad flag", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": adminA, "flag": "2"}, status: 400, code: "400"},
			{name: "verify code missing", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": adminA, "flag": "1"}, status: 401, code: "102"},
			{name: "verify code never sent", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": adminA, "flag": "1", "verifyCode": "123456"}, status: 401, code: "102"},

			// GET/POST /ds/user — auth
			{name: "auth ok", method: "GET", path: "/ds/user", params: map[string]any{"uid": adminA, "auth": pw},
				status: 200, code: "0", check: func(t *testing.T, f *fixture, r testkit.Reply) {
					var a sessionAnswer
					r.Into(t, &a)
					checkSessionFields(t, f, a)
					want := auth.UserInfo{MsID: adminA, MsName: "Alpha Admin", MsType: "20", GID: gid, GName: "Patrol",
						PTTGroup: gid, AcctType: "1", Admin: true}
					if a.UserInfo != want {
						t.Errorf("userInfo %+v, want %+v", a.UserInfo, want)
					}
					checkCookie(t, r.Header, a.Token)
					if g := f.Do("GET", "/ds/user/getAccount", a.Token, nil); g.Code != "0" {
						t.Errorf("the new token does not work: %+v", g)
					}
					var n int
					var remark string
					if err := f.DB.QueryRow(context.Background(), `SELECT COUNT(*), MAX(remark) FROM oplog WHERE type = 100 AND account_id = ? AND customer_id = ?`,
						adminA, f.custA).Scan(&n, &remark); err != nil || n != 1 || !strings.HasPrefix(remark, "sign-in from ") {
						t.Errorf("log 100: %d %q %v", n, remark, err)
					}
				}},
			{name: "auth POST JSON", method: "POST", path: "/ds/user", params: map[string]any{"uid": dispA, "auth": pw}, status: 200, code: "0"},
			{name: "auth wrong password", method: "GET", path: "/ds/user", params: map[string]any{"uid": dispA, "auth": "654321"},
				status: 401, code: "2", changes: true, check: func(t *testing.T, f *fixture, r testkit.Reply) {
					if n, _ := f.failedLogins(dispA); n != 1 {
						t.Errorf("failed logins %d, want 1", n)
					}
				}},
			{name: "auth missing password", method: "GET", path: "/ds/user", params: map[string]any{"uid": adminA}, status: 400, code: "400"},
			{name: "auth oversized password", method: "GET", path: "/ds/user", params: map[string]any{"uid": adminA, "auth": long}, status: 400, code: "400"},
			{name: "auth missing uid", method: "GET", path: "/ds/user", params: map[string]any{"auth": pw}, status: 400, code: "1"},
			{name: "auth bad uid", method: "GET", path: "/ds/user", params: map[string]any{"uid": "1000000x", "auth": pw}, status: 400, code: "1"},
			{name: "auth unknown", method: "GET", path: "/ds/user", params: map[string]any{"uid": "99999999", "auth": pw}, status: 404, code: "104"},
			{name: "auth terminal", method: "GET", path: "/ds/user", params: map[string]any{"uid": termA, "auth": pw}, status: 403, code: "6"},
			{name: "auth no group", method: "GET", path: "/ds/user", params: map[string]any{"uid": noGroupA, "auth": pw}, status: 403, code: "3"},
			{name: "auth disabled", method: "GET", path: "/ds/user", params: map[string]any{"uid": disabledA, "auth": pw}, status: 403, code: "4"},
			{name: "auth expired", method: "GET", path: "/ds/user", params: map[string]any{"uid": expiredA, "auth": pw}, status: 403, code: "103"},
			{name: "auth locked, right password", method: "GET", path: "/ds/user", params: map[string]any{"uid": lockedA, "auth": pw}, status: 403, code: "107", msg: auth.LockedMsg},
			{name: "auth two uids", method: "GET", path: "/ds/user?uid=10000001&uid=10000002&auth=123456", status: 400, code: "400"},
		})
	})
}

// checkCookie asserts the token cookie of spec §9 and docs/adr/0002-token-cookie.md.
func checkCookie(t *testing.T, h http.Header, token string) {
	t.Helper()
	res := http.Response{Header: h}
	for _, c := range res.Cookies() {
		if c.Name != "token" {
			continue
		}
		if c.Value != token || c.Path != "/" || c.MaxAge != 86400 || c.SameSite != http.SameSiteLaxMode || c.HttpOnly || c.Secure {
			t.Errorf("token cookie %+v", c)
		}
		return
	}
	t.Errorf("no token cookie in %v", h["Set-Cookie"])
}

// TestSignInFormBody: /ds/user also takes a form body (keeps the password out of URLs and logs), and the
// password never reaches the logs.
func TestSignInFormBody(t *testing.T) {
	f := newFixture(t, "sqlite")
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })

	const secret = "Wr0ng#Secret"
	post := func(form url.Values) (int, testkit.Reply) {
		res, err := http.PostForm(f.URL+"/ds/user", form)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var r testkit.Reply
		if err := json.NewDecoder(res.Body).Decode(&r); err != nil {
			t.Fatal(err)
		}
		r.Header = res.Header
		return res.StatusCode, r
	}
	if st, r := post(url.Values{"uid": {adminA}, "auth": {pw}}); st != 200 || r.Code != "0" {
		t.Fatalf("form sign-in: %d %+v", st, r)
	}
	if st, r := post(url.Values{"uid": {adminA}, "auth": {secret}}); st != 401 || r.Code != "2" {
		t.Fatalf("form wrong password: %d %+v", st, r)
	}
	if r := f.Do("GET", "/ds/user", "", map[string]any{"uid": adminA, "auth": secret}); r.Code != "2" {
		t.Fatalf("query wrong password: %+v", r)
	}
	// Malformed bodies are coded errors and count nothing.
	req, _ := http.NewRequest("POST", f.URL+"/ds/user", strings.NewReader(`{"uid":`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var r testkit.Reply
	json.NewDecoder(res.Body).Decode(&r)
	res.Body.Close()
	if res.StatusCode != 400 || r.Code != "400" {
		t.Fatalf("malformed body: %d %+v", res.StatusCode, r)
	}
	big := strings.NewReader(`{"uid":"` + adminA + `","auth":"` + strings.Repeat("x", 2<<20) + `"}`)
	res, err = http.Post(f.URL+"/ds/user", "application/json", big)
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(res.Body).Decode(&r)
	res.Body.Close()
	if res.StatusCode != 413 || r.Code != "413" {
		t.Fatalf("oversized body: %d %+v", res.StatusCode, r)
	}
	if n, _ := f.failedLogins(adminA); n != 2 {
		t.Fatalf("failed logins %d, want 2 (the two wrong passwords only)", n)
	}
	if strings.Contains(logs.String(), secret) || strings.Contains(logs.String(), "auth=") {
		t.Fatalf("the password reached the logs:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "/ds/user") {
		t.Fatalf("expected request logs to check, got:\n%s", logs.String())
	}
}

func TestLockout(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		wrong := func(uid string) testkit.Reply {
			return f.Do("GET", "/ds/user", "", map[string]any{"uid": uid, "auth": "000000"})
		}
		right := func(uid string) testkit.Reply {
			return f.Do("GET", "/ds/user", "", map[string]any{"uid": uid, "auth": pw})
		}
		lock := func(uid string) {
			t.Helper()
			for i := 1; i < auth.MaxFailedLogins; i++ {
				if r := wrong(uid); r.Code != "2" {
					t.Fatalf("wrong password %d: %+v", i, r)
				}
			}
			if r := wrong(uid); r.Status != 403 || r.Code != "107" || r.Msg != "User is locked of 10 minutes" {
				t.Fatalf("5th wrong password: %+v", r)
			}
		}

		// A right password in between starts the count again.
		for range 4 {
			wrong(dispA)
		}
		if r := right(dispA); r.Code != "0" {
			t.Fatalf("right password: %+v", r)
		}
		if n, _ := f.failedLogins(dispA); n != 0 {
			t.Fatalf("count not reset: %d", n)
		}
		for range 4 {
			if r := wrong(dispA); r.Code != "2" {
				t.Fatalf("after reset: %+v", r)
			}
		}
		right(dispA)

		lock(dispA)
		if _, until := f.failedLogins(dispA); until != f.clock.Now().Add(auth.LockDuration).UnixMilli() {
			t.Fatalf("locked until %d, want now + 10 min", until)
		}
		if r := right(dispA); r.Code != "107" || r.Msg != auth.LockedMsg {
			t.Fatalf("right password while locked: %+v", r)
		}
		if r := f.Do("GET", "/ds/pub/loginext", "", map[string]any{"uid": dispA}); r.Code != "107" {
			t.Fatalf("verify while locked: %+v", r)
		}

		f.run(t, []scenario{
			{name: "unlock without token", method: "GET", path: "/ds/user/unlockUser", params: map[string]any{"uid": dispA}, status: 401, code: "105"},
			{name: "unlock by non-admin", method: "GET", path: "/ds/user/unlockUser", as: termA, params: map[string]any{"uid": dispA}, status: 403, code: "107", msg: "no permission"},
			{name: "unlock by itself", method: "GET", path: "/ds/user/unlockUser", as: dispA, params: map[string]any{"uid": dispA}, status: 403, code: "107", msg: "no permission"},
			{name: "unlock by other customer's admin", method: "GET", path: "/ds/user/unlockUser", as: adminB, params: map[string]any{"uid": dispA}, status: 404, code: "404"},
			{name: "unlock missing uid", method: "GET", path: "/ds/user/unlockUser", as: adminA, status: 400, code: "400"},
			{name: "unlock bad uid", method: "GET", path: "/ds/user/unlockUser", as: adminA, params: map[string]any{"uid": "x"}, status: 400, code: "400"},
			{name: "unlock unknown", method: "GET", path: "/ds/user/unlockUser", as: adminA, params: map[string]any{"uid": "99999999"}, status: 404, code: "404"},
			{name: "unlock", method: "GET", path: "/ds/user/unlockUser", as: adminA, params: map[string]any{"uid": dispA}, status: 200, code: "0",
				check: func(t *testing.T, f *fixture, r testkit.Reply) {
					if n, until := f.failedLogins(dispA); n != 0 || until != 0 {
						t.Errorf("still locked: %d %d", n, until)
					}
				}},
		})
		if r := right(dispA); r.Code != "0" {
			t.Fatalf("after unlock: %+v", r)
		}

		// The lock ends by itself after 10 minutes.
		lock(dispA)
		f.clock.Advance(auth.LockDuration - time.Second)
		if r := right(dispA); r.Code != "107" {
			t.Fatalf("9:59 later: %+v", r)
		}
		f.clock.Advance(time.Second)
		if r := right(dispA); r.Code != "0" {
			t.Fatalf("10 minutes later: %+v", r)
		}
	})
}

func TestThrottle(t *testing.T) {
	f := newFixture(t, "sqlite")
	f.Auth.SetThrottle(time.Minute, 3)
	verify := map[string]any{"uid": dispA}
	for i := range 3 {
		if r := f.Do("GET", "/ds/pub/loginext", "", verify); r.Code != "0" {
			t.Fatalf("request %d: %+v", i+1, r)
		}
	}
	before := f.state()
	for _, c := range []struct {
		path   string
		params map[string]any
	}{
		{"/ds/pub/loginext", verify},
		{"/ds/user", map[string]any{"uid": dispA, "auth": "000000"}}, // a wrong password that must not count
		{"/ds/user/getAccountByOauth", map[string]any{"platform": "github", "oauth": "x"}},
		{"/ds/pub/getVerifyCode", map[string]any{"uid": dispA, "email": "a@example.com", "type": "bind"}},
		{"/ds/pub/bindEmail", map[string]any{"uid": dispA, "auth": pw, "email": "a@example.com", "verifyCode": "123456"}},
	} {
		if r := f.Do("GET", c.path, "", c.params); r.Status != 429 || r.Code != "101" {
			t.Fatalf("%s over the limit: %+v", c.path, r)
		}
	}
	if r := f.Do("POST", "/ds/pub/resetPwd", "", map[string]any{"uid": dispA}); r.Status != 429 || r.Code != "101" {
		t.Fatalf("resetPwd over the limit: %+v", r)
	}
	if f.state() != before {
		t.Fatal("throttled calls changed the store")
	}
	// Calls with a token are not throttled per address.
	if r := f.Do("GET", "/ds/user/getAccount", f.token(dispA), nil); r.Code != "0" {
		t.Fatalf("token call: %+v", r)
	}
	f.clock.Advance(time.Minute)
	if r := f.Do("GET", "/ds/pub/loginext", "", verify); r.Code != "0" {
		t.Fatalf("a minute later: %+v", r)
	}
	if r := f.Do("GET", "/ds/pub/loginext", "", verify); r.Code != "101" {
		t.Fatalf("one token per minute: %+v", r)
	}
}

// TestThrottleSavesOthers: with the default limit, one address trying wrong passwords on many accounts is
// stopped before it can lock more than a handful.
func TestThrottleSavesOthers(t *testing.T) {
	f := newFixture(t, "sqlite")
	f.Auth.SetThrottle(auth.DefaultThrottleEvery, auth.DefaultThrottleBurst)
	ids := []string{adminA, dispA}
	for i := 3; i <= 9; i++ {
		id := "1000010" + strconv.Itoa(i)
		f.account(auth.NewAccount{CustomerID: f.custA, ID: id, Name: "D" + id, Type: "20", Group: "Patrol", Password: pw})
		ids = append(ids, id)
	}
	busy := 0
	for _, id := range ids {
		for range auth.MaxFailedLogins {
			if r := f.Do("GET", "/ds/user", "", map[string]any{"uid": id, "auth": "000000"}); r.Code == "101" {
				busy++
			}
		}
	}
	locked := 0
	for _, id := range ids {
		if _, until := f.failedLogins(id); until > 0 {
			locked++
		}
	}
	if max := auth.DefaultThrottleBurst / auth.MaxFailedLogins; locked > max || busy == 0 {
		t.Fatalf("%d of %d accounts locked (at most %d allowed), %d attempts throttled", locked, len(ids), max, busy)
	}
}

func TestOnlineLimit(t *testing.T) {
	f := newFixture(t, "sqlite")
	f.exec(`UPDATE customers SET max_online = 1 WHERE id = ?`, f.custA)
	// dispA signs in and opens its socket: the one place is taken.
	r := f.Do("GET", "/ds/user", "", map[string]any{"uid": dispA, "auth": pw})
	if r.Code != "0" {
		t.Fatal(r)
	}
	var a sessionAnswer
	r.Into(t, &a)
	ws := f.Dial()
	if rep := ws.Call("session.login", map[string]string{"token": a.Token, "client": "console"}); rep.Code != "0" {
		t.Fatalf("socket login: %+v", rep)
	}
	// A terminal online does not count.
	term := f.Dial()
	if rep := term.Call("session.login", map[string]string{"client": "terminal", "uid": termA, "auth": pw}); rep.Code != "0" {
		t.Fatalf("terminal login: %+v", rep)
	}
	f.run(t, []scenario{
		{name: "verify at the limit", method: "GET", path: "/ds/pub/loginext", params: map[string]any{"uid": adminA}, status: 403, code: "5"},
		{name: "auth at the limit", method: "GET", path: "/ds/user", params: map[string]any{"uid": adminA, "auth": pw}, status: 403, code: "5"},
		{name: "the online dispatcher again", method: "GET", path: "/ds/user", params: map[string]any{"uid": dispA, "auth": pw}, status: 200, code: "0"},
		{name: "other customer unaffected", method: "GET", path: "/ds/user", params: map[string]any{"uid": adminB, "auth": pw}, status: 200, code: "0"},
	})
	ws.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := f.Do("GET", "/ds/user", "", map[string]any{"uid": adminA, "auth": pw})
		if r.Code == "0" {
			break
		}
		if r.Code != "5" || time.Now().After(deadline) {
			t.Fatalf("after the socket closed: %+v", r)
		}
		time.Sleep(20 * time.Millisecond) // poll: the hub unregisters the closed socket asynchronously
	}
}

func TestOAuthSignIn(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		ctx := context.Background()
		if err := auth.LinkOAuth(ctx, f.DB, adminA, "github", "gh-42"); err != nil {
			t.Fatal(err)
		}
		if err := auth.LinkOAuth(ctx, f.DB, termA, "github", "gh-term"); err != nil {
			t.Fatal(err)
		}
		const path = "/ds/user/getAccountByOauth"
		f.run(t, []scenario{
			{name: "linked", method: "GET", path: path, params: map[string]any{"platform": "github", "oauth": "gh-42"}, status: 200, code: "0",
				check: func(t *testing.T, f *fixture, r testkit.Reply) {
					var a sessionAnswer
					r.Into(t, &a)
					if a.UserInfo.MsID != adminA || a.Token == "" || a.Version != "1" {
						t.Errorf("answer %+v", a)
					}
					checkCookie(t, r.Header, a.Token)
					var remark string
					if err := f.DB.QueryRow(ctx, `SELECT remark FROM oplog WHERE type = 100 AND account_id = ?`, adminA).Scan(&remark); err != nil ||
						!strings.HasPrefix(remark, "OAuth sign-in (github)") {
						t.Errorf("log 100: %q %v", remark, err)
					}
				}},
			{name: "unknown identity", method: "GET", path: path, params: map[string]any{"platform": "github", "oauth": "gh-43"}, status: 401, code: "102"},
			{name: "other platform", method: "GET", path: path, params: map[string]any{"platform": "google", "oauth": "gh-42"}, status: 401, code: "102"},
			{name: "terminal", method: "GET", path: path, params: map[string]any{"platform": "github", "oauth": "gh-term"}, status: 403, code: "6"},
			{name: "missing oauth", method: "GET", path: path, params: map[string]any{"platform": "github"}, status: 400, code: "400"},
			{name: "missing platform", method: "GET", path: path, params: map[string]any{"oauth": "gh-42"}, status: 400, code: "400"},
			{name: "oversized", method: "GET", path: path, params: map[string]any{"platform": "github", "oauth": strings.Repeat("x", 2000)}, status: 400, code: "400"},
		})
		f.exec(`UPDATE accounts SET disabled = TRUE WHERE id = ?`, adminA)
		if r := f.Do("GET", path, "", map[string]any{"platform": "github", "oauth": "gh-42"}); r.Code != "4" {
			t.Fatalf("disabled: %+v", r)
		}
	})
}

// TestPublicURL: behind a TLS proxy the configured public URL names the media servers and makes the cookie
// Secure.
func TestPublicURL(t *testing.T) {
	f := newFixture(t, "sqlite", func(c *config.Config) { c.PublicURL = "https://dispatch.example.com/" })
	r := f.Do("GET", "/ds/user", "", map[string]any{"uid": adminA, "auth": pw})
	var a sessionAnswer
	r.Into(t, &a)
	if len(a.Media) != 1 || a.Media[0] != "https://dispatch.example.com" || a.FileURL != "https://dispatch.example.com/filews/files" {
		t.Fatalf("media addresses: %v %q", a.Media, a.FileURL)
	}
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "token" && !c.Secure {
			t.Fatalf("cookie not Secure: %+v", c)
		}
	}
}
