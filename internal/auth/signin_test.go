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
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		f := signInFixture(t, engine)
		long := strings.Repeat("9", 300)
		gid := strconv.FormatInt(f.groupA, 10)
		f.run(t, []testkit.Scenario{
			// GET /ds/pub/loginext — verify
			{Name: "verify ok", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": adminA, "flag": "0"},
				Status: 200, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
					var a sessionAnswer
					r.Into(t, &a)
					checkSessionFields(t, f, a)
					if a.Token != "" || r.Header.Get("Set-Cookie") != "" {
						t.Error("verify must not open a session")
					}
				}},
			{Name: "verify without flag", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": dispA}, Status: 200, Code: "0"},
			{Name: "verify missing uid", Method: "GET", Path: "/ds/pub/loginext", Status: 400, Code: "1"},
			{Name: "verify letters", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": "abcdefgh"}, Status: 400, Code: "1"},
			{Name: "verify 9 digits", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": "123456789"}, Status: 400, Code: "1"},
			{Name: "verify oversized uid", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": long}, Status: 400, Code: "1"},
			{Name: "verify unknown", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": "99999999"}, Status: 404, Code: "104"},
			{Name: "verify terminal", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": termA}, Status: 403, Code: "6"},
			{Name: "verify no group", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": noGroupA}, Status: 403, Code: "3"},
			{Name: "verify disabled", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": disabledA}, Status: 403, Code: "4"},
			{Name: "verify expired", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": expiredA}, Status: 403, Code: "103"},
			{Name: "verify locked", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": lockedA}, Status: 403, Code: "107", Msg: auth.LockedMsg},
			{Name: "verify bad flag", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": adminA, "flag": "2"}, Status: 400, Code: "400"},
			{Name: "verify code missing", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": adminA, "flag": "1"}, Status: 401, Code: "102"},
			{Name: "verify code never sent", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": adminA, "flag": "1", "verifyCode": "123456"}, Status: 401, Code: "102"},

			// GET/POST /ds/user — auth
			{Name: "auth ok", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": adminA, "auth": pw},
				Status: 200, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
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
			{Name: "auth POST JSON", Method: "POST", Path: "/ds/user", Params: map[string]any{"uid": dispA, "auth": pw}, Status: 200, Code: "0"},
			{Name: "auth wrong password", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": dispA, "auth": "654321"},
				Status: 401, Code: "2", Changes: true, Check: func(t *testing.T, r testkit.Reply) {
					if n, _ := f.failedLogins(dispA); n != 1 {
						t.Errorf("failed logins %d, want 1", n)
					}
				}},
			{Name: "auth missing password", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": adminA}, Status: 400, Code: "400"},
			{Name: "auth oversized password", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": adminA, "auth": long}, Status: 400, Code: "400"},
			{Name: "auth missing uid", Method: "GET", Path: "/ds/user", Params: map[string]any{"auth": pw}, Status: 400, Code: "1"},
			{Name: "auth bad uid", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": "1000000x", "auth": pw}, Status: 400, Code: "1"},
			{Name: "auth unknown", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": "99999999", "auth": pw}, Status: 404, Code: "104"},
			{Name: "auth terminal", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": termA, "auth": pw}, Status: 403, Code: "6"},
			{Name: "auth no group", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": noGroupA, "auth": pw}, Status: 403, Code: "3"},
			{Name: "auth disabled", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": disabledA, "auth": pw}, Status: 403, Code: "4"},
			{Name: "auth expired", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": expiredA, "auth": pw}, Status: 403, Code: "103"},
			{Name: "auth locked, right password", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": lockedA, "auth": pw}, Status: 403, Code: "107", Msg: auth.LockedMsg},
			{Name: "auth two uids", Method: "GET", Path: "/ds/user?uid=10000001&uid=10000002&auth=123456", Status: 400, Code: "400"},
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
	testkit.EachEngine(t, func(t *testing.T, engine string) {
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

		f.run(t, []testkit.Scenario{
			{Name: "unlock without token", Method: "GET", Path: "/ds/user/unlockUser", Params: map[string]any{"uid": dispA}, Status: 401, Code: "105"},
			{Name: "unlock by non-admin", Method: "GET", Path: "/ds/user/unlockUser", Token: termA, Params: map[string]any{"uid": dispA}, Status: 403, Code: "107", Msg: "no permission"},
			{Name: "unlock by itself", Method: "GET", Path: "/ds/user/unlockUser", Token: dispA, Params: map[string]any{"uid": dispA}, Status: 403, Code: "107", Msg: "no permission"},
			{Name: "unlock by other customer's admin", Method: "GET", Path: "/ds/user/unlockUser", Token: adminB, Params: map[string]any{"uid": dispA}, Status: 404, Code: "404"},
			{Name: "unlock missing uid", Method: "GET", Path: "/ds/user/unlockUser", Token: adminA, Status: 400, Code: "400"},
			{Name: "unlock bad uid", Method: "GET", Path: "/ds/user/unlockUser", Token: adminA, Params: map[string]any{"uid": "x"}, Status: 400, Code: "400"},
			{Name: "unlock unknown", Method: "GET", Path: "/ds/user/unlockUser", Token: adminA, Params: map[string]any{"uid": "99999999"}, Status: 404, Code: "404"},
			{Name: "unlock", Method: "GET", Path: "/ds/user/unlockUser", Token: adminA, Params: map[string]any{"uid": dispA}, Status: 200, Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
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
	l := auth.DefaultLimits()
	l.PerAddress = auth.Rate{Burst: 3, Every: time.Minute}
	f.Auth.SetLimits(l)
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
	f.Auth.SetLimits(auth.DefaultLimits())
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
	f.run(t, []testkit.Scenario{
		{Name: "verify at the limit", Method: "GET", Path: "/ds/pub/loginext", Params: map[string]any{"uid": adminA}, Status: 403, Code: "5"},
		{Name: "auth at the limit", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": adminA, "auth": pw}, Status: 403, Code: "5"},
		{Name: "the online dispatcher again", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": dispA, "auth": pw}, Status: 200, Code: "0"},
		{Name: "other customer unaffected", Method: "GET", Path: "/ds/user", Params: map[string]any{"uid": adminB, "auth": pw}, Status: 200, Code: "0"},
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
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		ctx := context.Background()
		if err := auth.LinkOAuth(ctx, f.DB, adminA, "github", "gh-42"); err != nil {
			t.Fatal(err)
		}
		if err := auth.LinkOAuth(ctx, f.DB, termA, "github", "gh-term"); err != nil {
			t.Fatal(err)
		}
		const path = "/ds/user/getAccountByOauth"
		f.run(t, []testkit.Scenario{
			{Name: "linked", Method: "GET", Path: path, Params: map[string]any{"platform": "github", "oauth": "gh-42"}, Status: 200, Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
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
			{Name: "unknown identity", Method: "GET", Path: path, Params: map[string]any{"platform": "github", "oauth": "gh-43"}, Status: 401, Code: "102"},
			{Name: "other platform", Method: "GET", Path: path, Params: map[string]any{"platform": "google", "oauth": "gh-42"}, Status: 401, Code: "102"},
			{Name: "terminal", Method: "GET", Path: path, Params: map[string]any{"platform": "github", "oauth": "gh-term"}, Status: 403, Code: "6"},
			{Name: "missing oauth", Method: "GET", Path: path, Params: map[string]any{"platform": "github"}, Status: 400, Code: "400"},
			{Name: "missing platform", Method: "GET", Path: path, Params: map[string]any{"oauth": "gh-42"}, Status: 400, Code: "400"},
			{Name: "oversized", Method: "GET", Path: path, Params: map[string]any{"platform": "github", "oauth": strings.Repeat("x", 2000)}, Status: 400, Code: "400"},
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
