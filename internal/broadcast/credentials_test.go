package broadcast_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/broadcast"
	"tenfour/internal/sim"
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

		// a new password ends the credential's sessions; the new one signs in, the old one no longer
		if err := w.s.Auth.SetCredential(context.Background(), auth.RealmBroadcast, "gate-pa", w.custA, md5hex("Gate-Pa-2027")); err != nil {
			t.Fatal(err)
		}
		w.api().Run(t, []testkit.Scenario{
			{Name: "a token from before the password changed", Method: "GET", Path: "/broadcast/v1/sys/user", Token: second, Code: "401"},
			{Name: "the old password", Method: "POST", Path: "/broadcast/v1/login", Params: map[string]any{"username": "gate-pa", "password": pw}, Code: "2"},
		})
		r = login(md5hex("Gate-Pa-2027"))
		if r.Code != "200" {
			t.Fatalf("the new password: %s %s", r.Code, r.Msg)
		}
		r.Into(t, &res)
		second = res.Token

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

// Migration 00175 moves the broadcast passwords and tokens to auth, nothing lost: a caster's and an
// organisation's password still sign in, the tokens of a console account's caster and of a caster with its own
// password still open the service, other sessions are untouched, and the old columns and table are gone.
func TestCredentialsMigration(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		d := testkit.OpenStoreAt(t, engine, 174)
		cust := testkit.Customer(t, d, "Before")
		// the account as that schema holds it: today's CreateAccount writes columns of later migrations (00250 kind)
		if _, err := d.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			"71000001", cust, auth.DispatcherType, "Desk", "", time.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
		console := "old-console-token" // a console session as the old sessions table holds it
		if _, err := d.Exec(ctx, `INSERT INTO sessions (token_hash, account_id, customer_id, created_at, expires_at, kind) VALUES (?, ?, ?, ?, ?, 'console')`,
			sha(console), "71000001", cust, time.Now().UnixMilli(), time.Now().Add(time.Hour).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		gateHash, _ := auth.HashPassword(md5hex("Gate-1"))
		orgHash, _ := auth.HashPassword(md5hex("Org-1"))
		now, exp := time.Now().UnixMilli(), time.Now().Add(time.Hour).UnixMilli()
		var desk, gate, org, bare int64
		for _, step := range []struct {
			q    string
			args []any
			id   *int64
		}{
			{`INSERT INTO bc_casters (customer_id, user_id, name, code, call_number, priority, pass_hash, created_at) VALUES (?, ?, ?, ?, ?, 5, '', ?) RETURNING id`,
				[]any{cust, "71000001", "Desk", "71000001", "71000001", now}, &desk},
			{`INSERT INTO bc_casters (customer_id, user_id, name, code, call_number, priority, pass_hash, created_at) VALUES (?, '', ?, ?, ?, 7, ?, ?) RETURNING id`,
				[]any{cust, "Gate", "gate-pa", "801", gateHash, now}, &gate},
			{`INSERT INTO bc_orgs (customer_id, parent_id, name, code, call_number, pass_hash, created_at) VALUES (?, 0, ?, ?, ?, ?, ?) RETURNING id`,
				[]any{cust, "Hall", "hall", "1", orgHash, now}, &org},
			{`INSERT INTO bc_orgs (customer_id, parent_id, name, code, call_number, pass_hash, created_at) VALUES (?, 0, ?, ?, ?, '', ?) RETURNING id`,
				[]any{cust, "Bare", "bare", "2", now}, &bare},
		} {
			if err := d.WriteRow(ctx, step.q, step.args...).Scan(step.id); err != nil {
				t.Fatal(err)
			}
		}
		for tok, caster := range map[string]int64{"old-desk-token": desk, "old-gate-token": gate} {
			if _, err := d.Exec(ctx, `INSERT INTO bc_sessions (token_hash, caster_id, customer_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
				sha(tok), caster, cust, now, exp); err != nil {
				t.Fatal(err)
			}
		}

		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		a := auth.NewService(d, auth.NewSessions(d, nil), nil)
		if h, err := a.LookupBroadcast(ctx, "old-desk-token"); err != nil || h.Account == nil || h.Account.AccountID != "71000001" {
			t.Fatalf("the console caster's token after the move: %+v %v", h, err)
		}
		if h, err := a.LookupBroadcast(ctx, "old-gate-token"); err != nil || h.Account != nil || h.Login != "gate-pa" || h.CustomerID != cust {
			t.Fatalf("the md5 caster's token after the move: %+v %v", h, err)
		}
		if p, err := a.Lookup(ctx, console); err != nil || p.AccountID != "71000001" {
			t.Fatalf("the console session after the move: %+v %v", p, err)
		}
		if _, err := a.LookupBroadcast(ctx, console); err == nil {
			t.Fatal("a console session opens the broadcast service after the move")
		}
		if c, err := a.CheckCredential(ctx, "127.0.0.1", auth.RealmBroadcast, "gate-pa", md5hex("Gate-1")); err != nil || c.CustomerID != cust {
			t.Fatalf("the caster's password after the move: %+v %v", c, err)
		}
		if c, err := a.CheckCredential(ctx, "127.0.0.1", auth.RealmSpeaker, itoa(org), md5hex("Org-1")); err != nil || c.CustomerID != cust {
			t.Fatalf("the organisation's password after the move: %+v %v", c, err)
		}
		if _, err := a.CheckCredential(ctx, "127.0.0.1", auth.RealmSpeaker, itoa(bare), md5hex("")); err != auth.ErrBadPwd {
			t.Fatalf("an organisation without a password: %v, want ErrBadPwd", err)
		}
		for _, q := range []string{`SELECT pass_hash FROM bc_casters`, `SELECT pass_hash FROM bc_orgs`, `SELECT COUNT(*) FROM bc_sessions`} {
			if rows, err := d.Query(ctx, q); err == nil {
				rows.Close()
				t.Errorf("%s still works after the move", q)
			}
		}
	})
}

func sha(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

// An organisation's password is shared by its speakers: many register at once with it (never refused as locked),
// and wrong guesses do not lock the organisation's speakers out (docs/adr/0018 "Credentials": the address's
// wrong-guess budget bounds them instead).
func TestSpeakersShareTheOrgPassword(t *testing.T) {
	w := newWorld(t, "sqlite")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pw := md5hex("Org-Shared")
	var org broadcast.Org
	w.ok("POST", "/broadcast/api/v1/org", w.tokA, map[string]any{"name": "Yard", "code": "yard", "call_number": "9", "password": pw}, &org)
	for i := range auth.MaxFailedLogins + 1 {
		bad := &sim.Speaker{URL: w.s.URL, OrgID: org.ID, Code: "any", Password: md5hex(fmt.Sprint("guess", i))}
		if err := bad.Run(ctx); err == nil || !strings.Contains(err.Error(), "refused: 2 ") {
			t.Fatalf("wrong guess %d: %v, want refused 2", i, err)
		}
	}
	var ids []int64
	for i := range 12 {
		var d broadcast.Device
		code := fmt.Sprintf("y%02d", i)
		w.ok("POST", "/broadcast/v1/device", w.tokA, map[string]any{"org_id": org.ID, "name": code, "code": code}, &d)
		ids = append(ids, d.ID)
	}
	errs := make(chan error, len(ids))
	start := make(chan struct{})
	for i := range ids {
		sp := &sim.Speaker{URL: w.s.URL, OrgID: org.ID, Code: fmt.Sprintf("y%02d", i), Password: pw}
		go func() { <-start; errs <- sp.Run(ctx) }()
	}
	close(start)
	testkit.Eventually(t, 30*time.Second, "twelve speakers registered at once, all online", func() bool {
		select {
		case err := <-errs:
			t.Fatalf("a speaker stopped: %v", err)
		default:
		}
		d := w.devices(w.tokA)
		for _, id := range ids {
			if d[id].Online != 1 {
				return false
			}
		}
		return true
	})
}
