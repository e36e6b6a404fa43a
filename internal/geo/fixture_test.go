package geo_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

const password = "123456"

var (
	hashOnce sync.Once
	pwHash   string
)

// fleet is one seeded customer: a dispatcher and terminals (8-digit ids derived from the customer id).
type fleet struct {
	customer   int64
	dispatcher string
	terminals  []string
	group      int64
}

func seed(t testing.TB, d *db.DB, n int) fleet {
	t.Helper()
	ctx := context.Background()
	hashOnce.Do(func() {
		var err error
		if pwHash, err = auth.HashPassword(password); err != nil {
			t.Fatal(err)
		}
	})
	now := time.Now().UnixMilli()
	f := fleet{customer: testkit.Customer(t, d, "cust")}
	id := func(i int) string { return fmt.Sprintf("%03d%05d", f.customer%1000, i) }
	f.dispatcher = id(0)
	accts := []directory.FleetAccount{{ID: directory.TerminalID(f.dispatcher), Type: "20", Name: "Dispatcher",
		PasswordHash: pwHash, Groups: []string{"Patrol"}}}
	for i := 1; i <= n; i++ {
		accts = append(accts, directory.FleetAccount{ID: directory.TerminalID(id(i)), Type: "10",
			Name: fmt.Sprintf("Unit %d", i), PasswordHash: pwHash, Groups: []string{"Patrol"}})
		f.terminals = append(f.terminals, id(i))
	}
	err := d.InTx(ctx, func(tx *db.Tx) error {
		gids, err := directory.Provision(ctx, tx, directory.Fleet{Customer: directory.CustomerID(f.customer),
			Groups: []directory.FleetGroup{{Name: "Patrol"}}, Accounts: accts, Now: now})
		f.group = int64(gids["Patrol"])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// token issues a console session for the fleet's dispatcher.
func (f fleet) token(t testing.TB, s *testkit.Server) string {
	t.Helper()
	tok, err := s.Sessions.Create(context.Background(), f.dispatcher, f.customer)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// console opens a logged-in console socket.
func (f fleet) console(t testing.TB, s *testkit.Server, tok string) *testkit.Socket {
	t.Helper()
	c := s.Dial()
	if r := c.Call("session.login", map[string]string{"token": tok, "client": "console"}); r.Code != "0" {
		t.Fatalf("console login: %s %s", r.Code, r.Msg)
	}
	return c
}

// terminal opens a logged-in terminal socket.
func terminal(t testing.TB, s *testkit.Server, id string) *testkit.Socket {
	t.Helper()
	c := s.Dial()
	if r := c.Call("session.login", map[string]string{"client": "terminal", "uid": id, "auth": password}); r.Code != "0" {
		t.Fatalf("terminal login %s: %s %s", id, r.Code, r.Msg)
	}
	return c
}

func count(t testing.TB, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
