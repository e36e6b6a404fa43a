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
	carriers := map[string]func(*http.Request){
		"cookie": func(r *http.Request) { r.AddCookie(&http.Cookie{Name: "token", Value: tok}) },
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
	f.run(t, []scenario{
		{name: "no token", method: "GET", path: "/ds/user/getAccount", status: 401, code: "105"},
		{name: "unknown token", method: "GET", path: "/ds/user/getAccount", as: "tok:nope", status: 401, code: "105"},
		{name: "oversized token", method: "GET", path: "/ds/user/getAccount", as: "tok:" + strings.Repeat("t", 500), status: 401, code: "105"},
		{name: "disabled account", method: "GET", path: "/ds/user/getAccount", as: "tok:" + disabled, status: 401, code: "105"},
		{name: "expired account", method: "GET", path: "/ds/user/getAccount", as: "tok:" + accountExpired, status: 401, code: "105"},
		{name: "unlock no token", method: "GET", path: "/ds/user/unlockUser", params: map[string]any{"uid": dispA}, status: 401, code: "105"},
		{name: "updateMsPwd no token", method: "PUT", path: "/ds/data/updateMsPwd", params: map[string]any{"msId": dispA, "oldPwd": pw, "newPwd": "Newpass#1"}, status: 401, code: "105"},
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
	f.run(t, []scenario{
		{name: "logout again", method: "GET", path: "/ds/user/logout", as: "tok:" + tok, status: 200, code: "0"},
		{name: "logout without token", method: "GET", path: "/ds/user/logout", status: 200, code: "0"},
	})
}

func TestUpdatePassword(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		const path = "/ds/data/updateMsPwd"
		const newPwd = "Newpass#1"
		p := func(msID, oldPwd, newPwd string) map[string]any {
			return map[string]any{"msId": msID, "oldPwd": oldPwd, "newPwd": newPwd, "account": msID}
		}
		long := strings.Repeat("Aa1#", 16) // 64 characters: the longest valid password
		otherSession := f.token(dispA)
		f.tokens = map[string]string{} // the scenarios get a fresh token for dispA: the one above is "another device"
		f.run(t, []scenario{
			{name: "missing msId", method: "PUT", path: path, as: dispA, params: map[string]any{"oldPwd": pw, "newPwd": newPwd}, status: 400, code: "400"},
			{name: "missing oldPwd", method: "PUT", path: path, as: dispA, params: map[string]any{"msId": dispA, "newPwd": newPwd}, status: 400, code: "400"},
			{name: "missing newPwd", method: "PUT", path: path, as: dispA, params: map[string]any{"msId": dispA, "oldPwd": pw}, status: 400, code: "400"},
			{name: "oversized newPwd", method: "PUT", path: path, as: dispA, params: p(dispA, pw, strings.Repeat("Aa1#", 100)), status: 400, code: "400"},
			{name: "oversized account", method: "PUT", path: path, as: dispA, params: map[string]any{"msId": dispA, "oldPwd": pw, "newPwd": newPwd, "account": strings.Repeat("1", 100)}, status: 400, code: "400"},
			{name: "numbers as JSON numbers", method: "PUT", path: path, as: dispA, params: map[string]any{"msId": 10000002, "oldPwd": 123456, "newPwd": 1234567}, status: 400, code: "12"},
			{name: "new equals old", method: "PUT", path: path, as: dispA, params: p(dispA, "Same#pass1", "Same#pass1"), status: 400, code: "11"},
			{name: "too short", method: "PUT", path: path, as: dispA, params: p(dispA, pw, "Ab1#"), status: 400, code: "12"},
			{name: "65 characters", method: "PUT", path: path, as: dispA, params: p(dispA, pw, long+"a"), status: 400, code: "12"},
			{name: "no upper case", method: "PUT", path: path, as: dispA, params: p(dispA, pw, "newpass#1"), status: 400, code: "12"},
			{name: "no lower case", method: "PUT", path: path, as: dispA, params: p(dispA, pw, "NEWPASS#1"), status: 400, code: "12"},
			{name: "no digit", method: "PUT", path: path, as: dispA, params: p(dispA, pw, "Newpass#x"), status: 400, code: "12"},
			{name: "no special", method: "PUT", path: path, as: dispA, params: p(dispA, pw, "Newpass11"), status: 400, code: "12"},
			{name: "6 digits", method: "PUT", path: path, as: dispA, params: p(dispA, pw, "654321"), status: 400, code: "12"},
			{name: "bad msId", method: "PUT", path: path, as: dispA, params: p("abc", pw, newPwd), status: 400, code: "400"},
			{name: "unknown msId", method: "PUT", path: path, as: adminA, params: p("99999999", pw, newPwd), status: 404, code: "404"},
			{name: "other customer's account", method: "PUT", path: path, as: adminA, params: p(adminB, pw, newPwd), status: 404, code: "404"},
			{name: "another account, not admin", method: "PUT", path: path, as: dispA, params: p(adminA, pw, newPwd), status: 403, code: "107"},
			{name: "wrong old password", method: "PUT", path: path, as: dispA, params: p(dispA, "000000", newPwd), status: 403, code: "2", changes: true,
				check: func(t *testing.T, f *fixture, r testkit.Reply) {
					if n, _ := f.failedLogins(dispA); n != 1 {
						t.Errorf("a wrong old password must count toward the lockout: %d", n)
					}
				}},
			{name: "own password", method: "PUT", path: path, as: dispA, params: p(dispA, pw, newPwd), status: 200, code: "0",
				check: func(t *testing.T, f *fixture, r testkit.Reply) {
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
			{name: "longest password", method: "PUT", path: path, as: dispA, params: p(dispA, newPwd, long), status: 200, code: "0"},
			{name: "admin, wrong own password", method: "PUT", path: path, as: adminA, params: p(dispA, long, "Admin#set1"), status: 403, code: "2", changes: true},
			// The admin's right password clears the count of the wrong one above: the only change.
			{name: "admin, target's current password", method: "PUT", path: path, as: adminA, params: p(dispA, pw, long), status: 400, code: "11", changes: true,
				check: func(t *testing.T, f *fixture, r testkit.Reply) {
					if n, _ := f.failedLogins(adminA); n != 0 {
						t.Errorf("failed logins %d", n)
					}
				}},
			{name: "admin sets another's", method: "PUT", path: path, as: adminA, params: p(dispA, pw, "Admin#set1"), status: 200, code: "0",
				check: func(t *testing.T, f *fixture, r testkit.Reply) {
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
