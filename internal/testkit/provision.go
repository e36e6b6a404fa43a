package testkit

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
	"tenfour/internal/tenant"
)

// Password is the password of every account a fixture provisions (the original 6-digit kind).
const Password = "123456"

var customers atomic.Int64

// Customer creates a customer through auth's administration API; name gets a suffix that keeps it unique in
// the store.
func Customer(t testing.TB, d *db.DB, name string) int64 {
	t.Helper()
	id, err := tenant.Create(context.Background(), d, fmt.Sprintf("%s #%d", name, customers.Add(1)))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Account creates an account through auth's administration API (validated as `tenfour admin` does); an empty
// password is Password.
func Account(t testing.TB, d *db.DB, a auth.NewAccount) {
	t.Helper()
	if a.Password == "" {
		a.Password = Password
	}
	if err := auth.CreateAccount(context.Background(), d, a); err != nil {
		t.Fatalf("account %s: %v", a.ID, err)
	}
}
