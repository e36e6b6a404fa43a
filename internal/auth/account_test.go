package auth_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/testkit"
)

// rawDo sends a request built by the test (token carriers other than the header testkit uses).
func rawDo(t *testing.T, req *http.Request) testkit.Reply {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := testkit.Reply{Status: res.StatusCode, Header: res.Header}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("not an envelope: %s", raw)
	}
	return r
}

func TestTokenRules(t *testing.T) {
	f := newFixture(t, "sqlite")
	tok := f.token(dispA)
	get := func(mod func(*http.Request)) testkit.Reply {
		req, _ := http.NewRequest("GET", f.URL+"/ds/user/getAccount", nil)
		mod(req)
		return rawDo(t, req)
	}
	// The cookie alone is no carrier for the API: a page element (an avatar <img>) sends it too (docs/adr/0009).
	if r := get(func(r *http.Request) { r.AddCookie(&http.Cookie{Name: "token", Value: tok}) }); r.Code != "105" {
		t.Errorf("token in the cookie alone: %+v, want 105", r)
	}
	carriers := map[string]func(*http.Request){
		"header": func(r *http.Request) { r.Header.Set("token", tok) },
		"bearer": func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) },
		"param":  func(r *http.Request) { r.URL.RawQuery = "token=" + url.QueryEscape(tok) },
	}
	for name, mod := range carriers {
		if r := get(mod); r.Code != "0" {
			t.Errorf("token in %s: %+v", name, r)
		}
	}
	// In a form body of a PUT, next to the handler's own parameters (which must still arrive).
	form := url.Values{"token": {tok}, "msId": {dispA}, "oldPwd": {pw}, "newPwd": {"weak"}}
	req, _ := http.NewRequest("PUT", f.URL+"/ds/data/updateMsPwd", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if r := rawDo(t, req); r.Code != "12" {
		t.Errorf("token in a form body: %+v", r)
	}
	req, _ = http.NewRequest("PUT", f.URL+"/ds/data/updateMsPwd",
		strings.NewReader(`{"token":"`+tok+`","msId":"`+dispA+`","oldPwd":"`+pw+`","newPwd":"weak"}`))
	req.Header.Set("Content-Type", "application/json")
	if r := rawDo(t, req); r.Code != "12" {
		t.Errorf("token in a JSON body: %+v", r)
	}

	expiring := f.token(adminA)
	disabled := f.token(termA)
	f.exec(`UPDATE accounts SET disabled = TRUE WHERE id = ?`, termA)
	accountExpired := f.token(adminB)
	f.exec(`UPDATE accounts SET expires_at = ? WHERE id = ?`, f.clock.Now().UnixMilli(), adminB)
	f.run(t, []testkit.Scenario{
		{Name: "no token", Method: "GET", Path: "/ds/user/getAccount", Status: 401, Code: "105"},
		{Name: "unknown token", Method: "GET", Path: "/ds/user/getAccount", Token: "tok:nope", Status: 401, Code: "105"},
		{Name: "oversized token", Method: "GET", Path: "/ds/user/getAccount", Token: "tok:" + strings.Repeat("t", 500), Status: 401, Code: "105"},
		{Name: "disabled account", Method: "GET", Path: "/ds/user/getAccount", Token: "tok:" + disabled, Status: 401, Code: "105"},
		{Name: "expired account", Method: "GET", Path: "/ds/user/getAccount", Token: "tok:" + accountExpired, Status: 401, Code: "105"},
		{Name: "unlock no token", Method: "GET", Path: "/ds/user/unlockUser", Params: map[string]any{"uid": dispA}, Status: 401, Code: "105"},
		{Name: "updateMsPwd no token", Method: "PUT", Path: "/ds/data/updateMsPwd", Params: map[string]any{"msId": dispA, "oldPwd": pw, "newPwd": "Newpass#1"}, Status: 401, Code: "105"},
	})
	f.clock.Advance(auth.TokenTTL - time.Second)
	if r := f.Do("GET", "/ds/user/getAccount", expiring, nil); r.Code != "0" {
		t.Fatalf("before expiry: %+v", r)
	}
	f.clock.Advance(time.Second)
	if r := f.Do("GET", "/ds/user/getAccount", expiring, nil); r.Status != 401 || r.Code != "105" {
		t.Fatalf("after 1 day: %+v", r)
	}
}

func TestGetAccountAndLogout(t *testing.T) {
	f := newFixture(t, "sqlite")
	tok := f.token(adminB)
	r := f.Do("GET", "/ds/user/getAccount", tok, nil)
	var u auth.UserInfo
	r.Into(t, &u)
	if r.Code != "0" || u.MsID != adminB || u.MsName != "Bravo Admin" || u.MsType != "20" || u.GName != "Patrol" || !u.Admin {
		t.Fatalf("getAccount: %+v %+v", r, u)
	}

	r = f.Do("GET", "/ds/user/logout", tok, nil)
	if r.Code != "0" {
		t.Fatalf("logout: %+v", r)
	}
	cleared := false
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		cleared = cleared || (c.Name == "token" && c.MaxAge < 0)
	}
	if !cleared {
		t.Errorf("cookie not cleared: %v", r.Header["Set-Cookie"])
	}
	if r := f.Do("GET", "/ds/user/getAccount", tok, nil); r.Code != "105" {
		t.Fatalf("token after logout: %+v", r)
	}
	// Idempotent: logging out again, or without a token, still answers 0 and changes nothing.
	f.run(t, []testkit.Scenario{
		{Name: "logout again", Method: "GET", Path: "/ds/user/logout", Token: "tok:" + tok, Status: 200, Code: "0"},
		{Name: "logout without token", Method: "GET", Path: "/ds/user/logout", Status: 200, Code: "0"},
	})
}

func TestUpdatePassword(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		const path = "/ds/data/updateMsPwd"
		const newPwd = "Newpass#1"
		p := func(msID, oldPwd, newPwd string) map[string]any {
			return map[string]any{"msId": msID, "oldPwd": oldPwd, "newPwd": newPwd, "account": msID}
		}
		long := strings.Repeat("Aa1#", 16) // 64 characters: the longest valid password
		otherSession := f.token(dispA)
		f.tokens = map[string]string{} // the scenarios get a fresh token for dispA: the one above is "another device"
		f.run(t, []testkit.Scenario{
			{Name: "missing msId", Method: "PUT", Path: path, Token: dispA, Params: map[string]any{"oldPwd": pw, "newPwd": newPwd}, Status: 400, Code: "400"},
			{Name: "missing oldPwd", Method: "PUT", Path: path, Token: dispA, Params: map[string]any{"msId": dispA, "newPwd": newPwd}, Status: 400, Code: "400"},
			{Name: "missing newPwd", Method: "PUT", Path: path, Token: dispA, Params: map[string]any{"msId": dispA, "oldPwd": pw}, Status: 400, Code: "400"},
			{Name: "oversized newPwd", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, pw, strings.Repeat("Aa1#", 100)), Status: 400, Code: "400"},
			{Name: "oversized account", Method: "PUT", Path: path, Token: dispA, Params: map[string]any{"msId": dispA, "oldPwd": pw, "newPwd": newPwd, "account": strings.Repeat("1", 100)}, Status: 400, Code: "400"},
			{Name: "numbers as JSON numbers", Method: "PUT", Path: path, Token: dispA, Params: map[string]any{"msId": 10000002, "oldPwd": 123456, "newPwd": 1234567}, Status: 400, Code: "12"},
			{Name: "new equals old", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, "Same#pass1", "Same#pass1"), Status: 400, Code: "11"},
			{Name: "too short", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, pw, "Ab1#"), Status: 400, Code: "12"},
			{Name: "65 characters", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, pw, long+"a"), Status: 400, Code: "12"},
			{Name: "no upper case", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, pw, "newpass#1"), Status: 400, Code: "12"},
			{Name: "no lower case", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, pw, "NEWPASS#1"), Status: 400, Code: "12"},
			{Name: "no digit", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, pw, "Newpass#x"), Status: 400, Code: "12"},
			{Name: "no special", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, pw, "Newpass11"), Status: 400, Code: "12"},
			{Name: "6 digits", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, pw, "654321"), Status: 400, Code: "12"},
			{Name: "bad msId", Method: "PUT", Path: path, Token: dispA, Params: p("abc", pw, newPwd), Status: 400, Code: "400"},
			{Name: "unknown msId", Method: "PUT", Path: path, Token: adminA, Params: p("99999999", pw, newPwd), Status: 404, Code: "404"},
			{Name: "other customer's account", Method: "PUT", Path: path, Token: adminA, Params: p(adminB, pw, newPwd), Status: 404, Code: "404"},
			{Name: "another account, not admin", Method: "PUT", Path: path, Token: dispA, Params: p(adminA, pw, newPwd), Status: 403, Code: "107"},
			{Name: "wrong old password", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, "000000", newPwd), Status: 403, Code: "2", Changes: true,
				Check: func(t *testing.T, r testkit.Reply) {
					if n, _ := f.failedLogins(dispA); n != 1 {
						t.Errorf("a wrong old password must count toward the lockout: %d", n)
					}
				}},
			{Name: "own password", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, pw, newPwd), Status: 200, Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					if r := f.Do("GET", "/ds/user", "", map[string]any{"uid": dispA, "auth": pw}); r.Code != "2" {
						t.Errorf("old password still works: %+v", r)
					}
					if r := f.Do("GET", "/ds/user", "", map[string]any{"uid": dispA, "auth": newPwd}); r.Code != "0" {
						t.Errorf("new password refused: %+v", r)
					}
					if r := f.Do("GET", "/ds/user/getAccount", f.token(dispA), nil); r.Code != "0" {
						t.Errorf("the caller's own session ended: %+v", r)
					}
					if r := f.Do("GET", "/ds/user/getAccount", otherSession, nil); r.Code != "105" {
						t.Errorf("another session of the account survived: %+v", r)
					}
				}},
			{Name: "longest password", Method: "PUT", Path: path, Token: dispA, Params: p(dispA, newPwd, long), Status: 200, Code: "0"},
			{Name: "admin, wrong own password", Method: "PUT", Path: path, Token: adminA, Params: p(dispA, long, "Admin#set1"), Status: 403, Code: "2", Changes: true},
			// The admin's right password clears the count of the wrong one above: the only change.
			{Name: "admin, target's current password", Method: "PUT", Path: path, Token: adminA, Params: p(dispA, pw, long), Status: 400, Code: "11", Changes: true,
				Check: func(t *testing.T, r testkit.Reply) {
					if n, _ := f.failedLogins(adminA); n != 0 {
						t.Errorf("failed logins %d", n)
					}
				}},
			{Name: "admin sets another's", Method: "PUT", Path: path, Token: adminA, Params: p(dispA, pw, "Admin#set1"), Status: 200, Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					if r := f.Do("GET", "/ds/user/getAccount", f.token(dispA), nil); r.Code != "105" {
						t.Errorf("the target's sessions must end: %+v", r)
					}
					if r := f.Do("GET", "/ds/user", "", map[string]any{"uid": dispA, "auth": "Admin#set1"}); r.Code != "0" {
						t.Errorf("password set by the admin refused: %+v", r)
					}
					if r := f.Do("GET", "/ds/user", "", map[string]any{"uid": adminA, "auth": pw}); r.Code != "0" {
						t.Errorf("the admin's own (original) password changed: %+v", r)
					}
				}},
		})
	})
}

// TestHashCost: HashPassword makes its hashes at the process's cost — this binary's is testkit.CheapHashCost
// (TestMain) — and a hash at the server's cost (RFC 9106's second recommendation, 2 passes over 19 MiB) still
// checks, its cost read from the hash itself.
func TestHashCost(t *testing.T) {
	for _, c := range []struct {
		hash func() (string, error)
		cost string
	}{
		{func() (string, error) { return auth.HashPassword("Secret-1") }, "$m=64,t=1,p=1$"},
		{func() (string, error) { return auth.HashPasswordAt("Secret-1", auth.DefaultHashCost) }, "$m=19456,t=2,p=1$"},
	} {
		h, err := c.hash()
		if err != nil || !strings.Contains(h, c.cost) {
			t.Fatalf("hash %q (%v), want the cost %s", h, err, c.cost)
		}
		for pw, want := range map[string]bool{"Secret-1": true, "Secret-2": false} {
			if ok, err := auth.CheckPassword(h, pw); err != nil || ok != want {
				t.Fatalf("%s checks %q: %v %v, want %v", c.cost, pw, ok, err, want)
			}
		}
	}
}

// TestMain: accounts made, passwords changed and reset, credentials set make password hashes; no test here
// is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
