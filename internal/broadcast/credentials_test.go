package broadcast_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/broadcast"
	"tenfour/internal/testkit"
)

// authClock moves the clock of auth (sessions, lockout) in a world; the broadcast scheduler keeps its own.
type authClock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *authClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return time.Now().Add(c.off) }

func (c *authClock) advance(d time.Duration) { c.mu.Lock(); c.off += d; c.mu.Unlock() }

// Broadcast credentials and tokens are auth's (docs/adr/0018 "Credentials"): the md5 login, its lockout, a
// revoked or expired token, and which tokens open which API.
func TestBroadcastTokens(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		clk := &authClock{}
		w.s.Auth.SetClock(clk.now)
		pw := md5hex("Gate-Pa-2026")
		w.ok("POST", "/broadcast/v1/caster", w.tokA, map[string]any{"name": "Gate PA", "code": "gate-pa", "call_number": "801",
			"password": pw, "priority": 7}, nil)
		login := func(password string) testkit.Reply {
			return w.doHdr("POST", "/broadcast/v1/login", "", map[string]any{"username": "gate-pa", "password": password})
		}
		var res struct {
			Token     string
			ExpiresAt int64 `json:"expires_at"`
			User      struct {
				UserCode string `json:"user_code"`
			}
		}
		r := login(pw)
		if r.Code != "200" {
			t.Fatalf("md5 login: %s %s", r.Code, r.Msg)
		}
		r.Into(t, &res)
		if res.Token == "" || res.User.UserCode != "gate-pa" || res.ExpiresAt <= time.Now().Add(23*time.Hour).UnixMilli() {
			t.Fatalf("md5 login answer: %+v", res)
		}
		gate := res.Token
		w.ok("GET", "/broadcast/v1/sys/user", gate, nil, nil)

		// the password is auth's: no broadcast table holds it, auth's credentials do (a hash, never the md5)
		var hash string
		if err := w.s.DB.QueryRow(context.Background(), `SELECT password_hash FROM service_credentials WHERE realm = 'broadcast' AND login = 'gate-pa'`).
			Scan(&hash); err != nil || !strings.HasPrefix(hash, "$argon2id$") || strings.Contains(hash, pw) {
			t.Fatalf("the caster's credential at auth: %q %v", hash, err)
		}

		// tokens open only their own API
		w.api().Run(t, []testkit.Scenario{
			{Name: "a broadcast token on the dispatch API", Method: "GET", Path: "/ds/data/getGrpMsList", Token: gate, Code: "105"},
			{Name: "the console's broadcast token on the dispatch API", Method: "GET", Path: "/ds/data/getGrpMsList", Token: "A", Code: "105"},
			{Name: "a console token on the broadcast API", Method: "GET", Path: "/broadcast/v1/org", Token: "consoleA", Code: "401", Status: 401},
			{Name: "the console token still works on its own API", Method: "GET", Path: "/ds/data/getGrpMsList", Token: "consoleA", Code: "0"},
		})

		// wrong passwords: 2 each, the fifth locks the login for 10 minutes (107, the text the console maps to 502)
		for i := 1; i <= auth.MaxFailedLogins; i++ {
			r := login(md5hex("wrong"))
			want := "2"
			if i == auth.MaxFailedLogins {
				want = "107"
			}
			if r.Code != want {
				t.Fatalf("wrong password %d: %s %s, want %s", i, r.Code, r.Msg, want)
			}
			if want == "107" && r.Msg != auth.LockedMsg {
				t.Fatalf("lockout text %q, want %q", r.Msg, auth.LockedMsg)
			}
		}
		if r := login(pw); r.Code != "107" {
			t.Fatalf("the right password while locked: %s %s, want 107", r.Code, r.Msg)
		}
		w.ok("GET", "/broadcast/v1/sys/user", gate, nil, nil) // a lock ends no session
		clk.advance(auth.LockDuration)
		r = login(pw)
		if r.Code != "200" {
			t.Fatalf("the right password after the lock: %s %s", r.Code, r.Msg)
		}
		r.Into(t, &res)
		second := res.Token

		// a revoked token is refused; others live on
		if err := w.s.Auth.Sessions.Revoke(context.Background(), gate); err != nil {
			t.Fatal(err)
		}
		w.api().Run(t, []testkit.Scenario{
			{Name: "a revoked broadcast token", Method: "GET", Path: "/broadcast/v1/sys/user", Token: gate, Code: "401", Status: 401},
			{Name: "another token of the caster", Method: "GET", Path: "/broadcast/v1/sys/user", Token: second, Code: "200"},
		})

		// a console account's broadcast token ends with the account
		if _, err := w.s.DB.Exec(context.Background(), `UPDATE accounts SET disabled = TRUE WHERE id = ?`, w.dispA); err != nil {
			t.Fatal(err)
		}
		w.api().Run(t, []testkit.Scenario{
			{Name: "the broadcast token of a disabled account", Method: "GET", Path: "/broadcast/v1/sys/user", Token: "A", Code: "401"},
		})
		if _, err := w.s.DB.Exec(context.Background(), `UPDATE accounts SET disabled = FALSE WHERE id = ?`, w.dispA); err != nil {
			t.Fatal(err)
		}

		// every token expires after auth.TokenTTL
		clk.advance(auth.TokenTTL)
		w.api().Run(t, []testkit.Scenario{
			{Name: "an expired caster token", Method: "GET", Path: "/broadcast/v1/sys/user", Token: second, Code: "401"},
			{Name: "an expired console-account token", Method: "GET", Path: "/broadcast/v1/sys/user", Token: "A", Code: "401"},
		})
	})
}

// An organisation's speaker password is auth's credential: set at creation, replaced or removed by an edit,
// gone with the organisation; a refused edit stores nothing.
func TestOrgPasswordAtAuth(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		ctx := context.Background()
		creds := func() int {
			var n int
			if err := w.s.DB.QueryRow(ctx, `SELECT COUNT(*) FROM service_credentials WHERE realm = 'speaker'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		var org broadcast.Org
		w.ok("POST", "/broadcast/api/v1/org", w.tokA, map[string]any{"name": "Hall", "code": "hall", "call_number": "1",
			"password": md5hex("Org-1")}, &org)
		if n := creds(); n != 1 {
			t.Fatalf("speaker credentials after the org: %d", n)
		}
		w.api().Run(t, []testkit.Scenario{
			{Name: "org password not md5", Method: "POST", Path: "/broadcast/api/v1/org", Token: "A", Code: "400",
				Params: map[string]any{"name": "X", "code": "x", "call_number": "2", "password": "plain"}},
			{Name: "org edit, password not md5", Method: "PATCH", Path: "/broadcast/v1/org/" + itoa(org.ID), Token: "A", Code: "400",
				Params: map[string]any{"name": "Renamed", "password": "plain"}},
		})
		if n := creds(); n != 1 {
			t.Fatalf("speaker credentials after refusals: %d", n)
		}
		w.ok("PATCH", "/broadcast/v1/org/"+itoa(org.ID), w.tokA, map[string]any{"password": "{secret}"}, nil)
		if n := creds(); n != 0 {
			t.Fatalf("'{secret}' should remove the speakers' password: %d left", n)
		}
		w.ok("PATCH", "/broadcast/v1/org/"+itoa(org.ID), w.tokA, map[string]any{"password": md5hex("Org-2")}, nil)
		if n := creds(); n != 1 {
			t.Fatalf("a new password: %d", n)
		}
		w.ok("DELETE", "/broadcast/v1/org/"+itoa(org.ID), w.tokA, nil, nil)
		if n := creds(); n != 0 {
			t.Fatalf("the org's credential outlived it: %d", n)
		}
	})
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }
