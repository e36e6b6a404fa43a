// Package rttest builds socket test fixtures on a real tenfour server: customers, dispatchers, terminals and
// groups made with SQL (sign-in over HTTP is not needed), and logged-in console and terminal sockets.
package rttest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

// Password is every fixture account's password.
const Password = "123456"

var pwHash = sync.OnceValue(func() string {
	h, err := auth.HashPassword(Password)
	if err != nil {
		panic(err)
	}
	return h
})

// Fleet is one customer: a dispatcher, terminals, and a group holding every terminal (and the dispatcher).
type Fleet struct {
	CustomerID int64
	Dispatcher string
	Terminals  []string
	Group      int64
}

// NewFleet adds a customer whose account ids start with prefix (one digit, e.g. "1" → 10000001, 10000101…).
func NewFleet(t testing.TB, d *db.DB, prefix string, terminals int) Fleet {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UnixMilli()
	f := Fleet{Dispatcher: prefix + "0000001"}
	if err := d.WriteRow(ctx, `INSERT INTO customers (name, created_at) VALUES (?, ?) RETURNING id`,
		"Fleet "+prefix, now).Scan(&f.CustomerID); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteRow(ctx, `INSERT INTO ptt_groups (customer_id, name, created_at) VALUES (?, ?, ?) RETURNING id`,
		f.CustomerID, "All "+prefix, now).Scan(&f.Group); err != nil {
		t.Fatal(err)
	}
	Account(t, d, f.CustomerID, f.Dispatcher, "20", f.Group)
	for i := range terminals {
		id := fmt.Sprintf("%s0000%03d", prefix, 101+i)
		Account(t, d, f.CustomerID, id, "10", f.Group)
		f.Terminals = append(f.Terminals, id)
	}
	return f
}

// Account adds an account of a type (spec §3; "20" dispatcher) in the given groups.
func Account(t testing.TB, d *db.DB, customerID int64, id, typ string, groups ...int64) {
	t.Helper()
	ctx := context.Background()
	var def any
	if len(groups) > 0 {
		def = groups[0]
	}
	if _, err := d.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, name, password_hash, default_group_id,
		ptt_group_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		id, customerID, typ, "Name "+id, pwHash(), def, def, time.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if _, err := d.Exec(ctx, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?)`, g, id); err != nil {
			t.Fatal(err)
		}
	}
}

// Console signs a dispatcher in (a session token, as the HTTP sign-in makes) and logs its socket in.
func Console(t testing.TB, s *testkit.Server, customerID int64, msID string) *testkit.Socket {
	t.Helper()
	tok, err := s.Sessions.Create(context.Background(), msID, customerID)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Dial()
	if f := c.Call("session.login", map[string]any{"token": tok, "client": "console"}); f.Code != "0" {
		t.Fatalf("console login %s: %+v", msID, f)
	}
	return c
}

// Terminal logs a terminal's socket in with its account and password.
func Terminal(t testing.TB, s *testkit.Server, msID string) *testkit.Socket {
	t.Helper()
	c := s.Dial()
	if f := c.Call("session.login", map[string]any{"client": "terminal", "uid": msID, "auth": Password}); f.Code != "0" {
		t.Fatalf("terminal login %s: %+v", msID, f)
	}
	return c
}

// Eventually polls cond until it holds, failing the test after 5 s.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// Decode unmarshals a frame's data.
func Decode(t testing.TB, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
}
