package auth_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/testkit"
)

// consoleLogin signs in over HTTP and returns the token.
func consoleLogin(t *testing.T, f *fixture, uid string) string {
	t.Helper()
	r := f.Do("GET", "/ds/user", "", map[string]any{"uid": uid, "auth": pw})
	if r.Code != "0" {
		t.Fatalf("sign-in %s: %+v", uid, r)
	}
	var a sessionAnswer
	r.Into(t, &a)
	return a.Token
}

func socketLogin(f *fixture, data map[string]string) testkit.Frame {
	return f.Dial().Call("session.login", data)
}

func TestConsoleSocketLogin(t *testing.T) {
	f := newFixture(t, "sqlite")

	tok := consoleLogin(t, f, dispA)
	f.clock.Advance(auth.SocketLoginWindow)
	if rep := socketLogin(f, map[string]string{"token": tok, "client": "console"}); rep.Code != "0" {
		t.Fatalf("socket login 15 s after sign-in: %+v", rep)
	}
	// A reconnect later is not a first login: it passes while the token lives.
	f.clock.Advance(time.Hour)
	if rep := socketLogin(f, map[string]string{"token": tok, "client": "console"}); rep.Code != "0" {
		t.Fatalf("reconnect: %+v", rep)
	}

	late := consoleLogin(t, f, adminA)
	f.clock.Advance(auth.SocketLoginWindow + time.Millisecond)
	if rep := socketLogin(f, map[string]string{"token": late, "client": "console"}); rep.Code != "102" {
		t.Fatalf("socket login after 15 s: %+v", rep)
	}
	if r := f.Do("GET", "/ds/user/getAccount", late, nil); r.Code != "105" {
		t.Fatalf("a late token must be revoked: %+v", r)
	}

	// A terminal's token on a console login is refused with 6 (terminals never get one over HTTP; made here
	// directly).
	if rep := socketLogin(f, map[string]string{"token": f.token(termA), "client": "console"}); rep.Code != "6" {
		t.Fatalf("non-dispatcher console login: %+v", rep)
	}
	if rep := socketLogin(f, map[string]string{"token": "nope", "client": "console"}); rep.Code != "105" {
		t.Fatalf("unknown token: %+v", rep)
	}
}

func TestTerminalSocketLogin(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		login := func(uid, pass string) testkit.Frame {
			return socketLogin(f, map[string]string{"client": "terminal", "uid": uid, "auth": pass})
		}
		cases := []struct {
			name, uid, pass, code string
		}{
			{"ok", termA, pw, "0"},
			{"dispatcher id: the wrong account type", dispA, pw, "6"},
			{"malformed id", "12", pw, "1"},
			{"unknown", "99999999", pw, "104"},
			{"missing password", termA, "", "2"},
		}
		for _, c := range cases {
			if rep := login(c.uid, c.pass); rep.Code != c.code {
				t.Fatalf("%s: %+v, want code %s", c.name, rep, c.code)
			}
		}
		if n, _ := f.failedLogins(termA); n != 0 {
			t.Fatalf("a missing password counted: %d", n)
		}
		for i := 1; i < auth.MaxFailedLogins; i++ {
			if rep := login(termA, "000000"); rep.Code != "2" {
				t.Fatalf("wrong password %d: %+v", i, rep)
			}
		}
		if rep := login(termA, "000000"); rep.Code != "107" || rep.Msg != auth.LockedMsg {
			t.Fatalf("5th wrong password: %+v", rep)
		}
		if rep := login(termA, pw); rep.Code != "107" {
			t.Fatalf("right password while locked: %+v", rep)
		}
		f.clock.Advance(auth.LockDuration)
		if rep := login(termA, pw); rep.Code != "0" {
			t.Fatalf("after the lock: %+v", rep)
		}

		f.exec(`UPDATE accounts SET disabled = TRUE WHERE id = ?`, termA)
		if rep := login(termA, pw); rep.Code != "4" {
			t.Fatalf("disabled: %+v", rep)
		}
		f.exec(`UPDATE accounts SET disabled = FALSE, expires_at = ? WHERE id = ?`, f.clock.Now().UnixMilli(), termA)
		if rep := login(termA, pw); rep.Code != "103" {
			t.Fatalf("expired: %+v", rep)
		}
	})
}

// A terminal's password login returns a resume token; the next login presents it instead of the password (no
// hash). The token is bound to its terminal, opens neither the HTTP API nor a console login, and ends with its
// lifetime, the account's disabling or a password reset — after which the password works again.
func TestTerminalResumeToken(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		first := socketLogin(f, map[string]string{"client": "terminal", "uid": termA, "auth": pw})
		var reply struct {
			MsID   string `json:"msId"`
			Resume string `json:"resume"`
		}
		if err := json.Unmarshal(first.Data, &reply); first.Code != "0" || err != nil || reply.Resume == "" {
			t.Fatalf("password login: %+v", first)
		}
		resume := func(uid, tok string) testkit.Frame {
			return socketLogin(f, map[string]string{"client": "terminal", "uid": uid, "resume": tok})
		}
		var again struct {
			MsID   string `json:"msId"`
			Resume string `json:"resume"`
		}
		rep := resume(termA, reply.Resume)
		if err := json.Unmarshal(rep.Data, &again); rep.Code != "0" || err != nil || again.MsID != termA || again.Resume != reply.Resume {
			t.Fatalf("resume: %+v", rep)
		}
		if rep := resume(dispA, reply.Resume); rep.Code != "105" {
			t.Fatalf("another terminal's token: %+v", rep)
		}
		if rep := resume(termA, "forged"); rep.Code != "105" {
			t.Fatalf("unknown token: %+v", rep)
		}
		if r := f.Do("GET", "/ds/user/getAccount", reply.Resume, nil); r.Code != "105" {
			t.Fatalf("resume token on the HTTP API: %+v", r)
		}
		if rep := socketLogin(f, map[string]string{"client": "console", "token": reply.Resume}); rep.Code != "105" {
			t.Fatalf("resume token on a console login: %+v", rep)
		}

		f.exec(`UPDATE accounts SET disabled = TRUE WHERE id = ?`, termA)
		if rep := resume(termA, reply.Resume); rep.Code != "105" {
			t.Fatalf("disabled: %+v", rep)
		}
		f.exec(`UPDATE accounts SET disabled = FALSE WHERE id = ?`, termA)
		if err := f.Sessions.RevokeAccount(context.Background(), termA, ""); err != nil { // what a password reset does
			t.Fatal(err)
		}
		if rep := resume(termA, reply.Resume); rep.Code != "105" {
			t.Fatalf("after a password reset: %+v", rep)
		}

		fresh := socketLogin(f, map[string]string{"client": "terminal", "uid": termA, "auth": pw})
		if err := json.Unmarshal(fresh.Data, &reply); fresh.Code != "0" || err != nil {
			t.Fatalf("password login: %+v", fresh)
		}
		f.clock.Advance(auth.TokenTTL)
		if rep := resume(termA, reply.Resume); rep.Code != "105" {
			t.Fatalf("expired: %+v", rep)
		}
		if rep := socketLogin(f, map[string]string{"client": "terminal", "uid": termA, "auth": pw}); rep.Code != "0" {
			t.Fatalf("password after expiry: %+v", rep)
		}
	})
}
