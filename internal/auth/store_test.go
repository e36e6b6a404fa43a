package auth_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
	"tenfour/internal/tenant"
	"tenfour/internal/testkit"
)

// Store-level tests of the administration functions and the session store, on every engine.

func TestAdminStore(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()

		acme, other := testkit.Customer(t, d, "Acme"), testkit.Customer(t, d, "Other")

		good := auth.NewAccount{CustomerID: acme, ID: "30000001", Name: "Boss", Type: "20", Password: "123456",
			Admin: true, Email: "Boss@Example.com", Group: "Ops"}
		refused := []struct {
			name string
			mod  func(*auth.NewAccount)
			want error
		}{
			{"7 digits", func(a *auth.NewAccount) { a.ID = "3000001" }, nil},
			{"9 digits", func(a *auth.NewAccount) { a.ID = "300000001" }, nil},
			{"letters", func(a *auth.NewAccount) { a.ID = "3000000a" }, nil},
			{"no name", func(a *auth.NewAccount) { a.Name = " " }, nil},
			{"unknown type", func(a *auth.NewAccount) { a.Type = "99" }, nil},
			{"admin terminal", func(a *auth.NewAccount) { a.Type = "10" }, nil},
			{"weak password", func(a *auth.NewAccount) { a.Password = "12345" }, nil},
			{"bad e-mail", func(a *auth.NewAccount) { a.Email = "boss" }, nil},
			{"unknown customer", func(a *auth.NewAccount) { a.CustomerID = 999 }, db.ErrNotFound},
			{"other customer's group", func(a *auth.NewAccount) { a.GroupID = 999 }, db.ErrNotFound},
		}
		for _, c := range refused {
			a := good
			c.mod(&a)
			err := auth.CreateAccount(ctx, d, a)
			if err == nil || (c.want != nil && !errors.Is(err, c.want)) {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts`) + testkit.Count(t, d, `SELECT COUNT(*) FROM ptt_groups`); n != 0 {
			t.Fatalf("refused accounts left %d rows", n)
		}

		if err := auth.CreateAccount(ctx, d, good); err != nil {
			t.Fatal(err)
		}
		term := auth.NewAccount{CustomerID: acme, ID: "30000101", Name: "Cam", Type: "camera", Password: "Cam#pass1", Group: "Ops"}
		if err := auth.CreateAccount(ctx, d, term); err != nil {
			t.Fatal(err)
		}
		dup := good
		dup.Email = ""
		if err := auth.CreateAccount(ctx, d, dup); !errors.Is(err, auth.ErrAccountExists) {
			t.Fatalf("duplicate id: %v", err)
		}
		sameMail := good
		sameMail.ID, sameMail.CustomerID, sameMail.Email, sameMail.Group = "30000002", other, "boss@example.COM", ""
		if err := auth.CreateAccount(ctx, d, sameMail); !errors.Is(err, auth.ErrEmailTaken) {
			t.Fatalf("duplicate e-mail: %v", err)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM ptt_groups WHERE customer_id = ? AND name = 'Ops' AND kind = 'fixed' AND parent_id = 0`, acme); n != 1 {
			t.Fatalf("the Ops group exists %d times", n)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts a JOIN group_members m ON m.account_id = a.id AND m.group_id = a.default_group_id
			WHERE a.id IN ('30000001', '30000101') AND a.ptt_group_id = a.default_group_id`); n != 2 {
			t.Fatalf("accounts not in their default group: %d", n)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE id = '30000001' AND email = 'boss@example.com' AND admin = TRUE AND type = '20'`); n != 1 {
			t.Fatal("stored account differs")
		}
		// The seeder's way: an existing group by id.
		var ops int64
		d.QueryRow(ctx, `SELECT id FROM ptt_groups WHERE name = 'Ops'`).Scan(&ops)
		if err := auth.CreateAccount(ctx, d, auth.NewAccount{CustomerID: acme, ID: "30000003", Name: "D3", Type: "20", Password: "123456", GroupID: ops}); err != nil {
			t.Fatal(err)
		}

		// ResetPassword lifts a lock, ends sessions and marks the password as issued.
		sessions := auth.NewSessions(d, nil)
		tok, _ := sessions.Create(ctx, "30000001", acme)
		if _, err := d.Exec(ctx, `UPDATE accounts SET failed_logins = 3, locked_until = 99999999999999, password_changed = TRUE WHERE id = '30000001'`); err != nil {
			t.Fatal(err)
		}
		if err := auth.ResetPassword(ctx, d, "30000001", "weak"); err == nil {
			t.Fatal("weak reset accepted")
		}
		if err := auth.ResetPassword(ctx, d, "39999999", "123456"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown account: %v", err)
		}
		if err := auth.ResetPassword(ctx, d, "30000001", "New#pass1"); err != nil {
			t.Fatal(err)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE id = '30000001' AND failed_logins = 0 AND locked_until = 0 AND password_changed = FALSE`); n != 1 {
			t.Fatal("reset did not clear the lock")
		}
		if _, err := sessions.Lookup(ctx, tok); err == nil {
			t.Fatal("session survived a reset")
		}
		var hash string
		d.QueryRow(ctx, `SELECT password_hash FROM accounts WHERE id = '30000001'`).Scan(&hash)
		if ok, _ := auth.CheckPassword(hash, "New#pass1"); !ok {
			t.Fatal("new password does not match")
		}

		// LinkOAuth stores a hash and refuses duplicates and unknown accounts.
		if err := auth.LinkOAuth(ctx, d, "30000001", "github", "gh-1"); err != nil {
			t.Fatal(err)
		}
		if err := auth.LinkOAuth(ctx, d, "30000003", "github", "gh-1"); !errors.Is(err, auth.ErrOAuthTaken) {
			t.Fatalf("duplicate link: %v", err)
		}
		if err := auth.LinkOAuth(ctx, d, "39999999", "github", "gh-2"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown account: %v", err)
		}
		if err := auth.LinkOAuth(ctx, d, "30000001", "", "gh-2"); err == nil {
			t.Fatal("empty platform accepted")
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM oauth_links WHERE oauth_hash = 'gh-1'`); n != 0 {
			t.Fatal("the external identity is stored in clear")
		}
		// Deleting an account removes its links and codes (foreign keys).
		if _, err := d.Exec(ctx, `DELETE FROM accounts WHERE id = '30000001'`); err != nil {
			t.Fatal(err)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM oauth_links`); n != 0 {
			t.Fatal("link of a deleted account left behind")
		}
	})
}

func TestSessionStore(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		cust, _ := tenant.Create(ctx, d, "Acme")
		for _, id := range []string{"30000001", "30000002"} {
			if err := auth.CreateAccount(ctx, d, auth.NewAccount{CustomerID: cust, ID: id, Name: id, Type: "20", Password: "123456", Group: "G"}); err != nil {
				t.Fatal(err)
			}
		}
		c := &clock{t: time.Now()}
		s := auth.NewSessions(d, c.Now)

		a1, _ := s.Create(ctx, "30000001", cust)
		a2, _ := s.Create(ctx, "30000001", cust)
		b, _ := s.Create(ctx, "30000002", cust)
		p, err := s.Lookup(ctx, a1)
		if err != nil || p.AccountID != "30000001" || p.CustomerID != cust || !p.IsDispatcher() || p.Token != a1 {
			t.Fatalf("lookup: %+v %v", p, err)
		}
		if testkit.Count(t, d, `SELECT COUNT(*) FROM sessions WHERE token_hash = ?`, a1) != 0 {
			t.Fatal("a token is stored in clear")
		}

		// The first socket login must come within 15 s; later ones are reconnects.
		c.Advance(auth.SocketLoginWindow)
		if _, err := s.SocketLogin(ctx, a1); err != nil {
			t.Fatalf("socket login at 15 s: %v", err)
		}
		c.Advance(time.Millisecond)
		if _, err := s.SocketLogin(ctx, a2); !errors.Is(err, auth.ErrSocketLate) {
			t.Fatalf("socket login after 15 s: %v", err)
		}
		if _, err := s.Lookup(ctx, a2); err == nil {
			t.Fatal("a late token must be revoked")
		}
		if _, err := s.SocketLogin(ctx, a1); err != nil {
			t.Fatalf("reconnect: %v", err)
		}

		// RevokeAccount keeps the one named session.
		a3, _ := s.Create(ctx, "30000001", cust)
		if err := s.RevokeAccount(ctx, "30000001", a3); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Lookup(ctx, a1); err == nil {
			t.Fatal("revoked session alive")
		}
		if _, err := s.Lookup(ctx, a3); err != nil {
			t.Fatalf("kept session: %v", err)
		}
		if _, err := s.Lookup(ctx, b); err != nil {
			t.Fatalf("another account's session: %v", err)
		}

		// Expiry after one day, and pruning a day after that.
		c.Advance(auth.TokenTTL)
		if _, err := s.Lookup(ctx, b); err == nil {
			t.Fatal("expired session alive")
		}
		c.Advance(auth.TokenTTL + time.Second)
		if err := s.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM sessions`); n != 0 {
			t.Fatalf("%d sessions left after pruning", n)
		}
	})
}
