// Package safetytest seeds customers, dispatchers and terminals for the safety tests (SOS, lone worker),
// through auth's administration API (testkit.Account); their sockets and API calls are testkit's.
package safetytest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"tenfour/internal/auth"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

// Password is every seeded terminal's password.
const Password = testkit.Password

var nextCust atomic.Int64

// Fleet is one seeded customer.
type Fleet struct {
	CustomerID int64
	Dispatcher string   // msId of a dispatcher (type 20)
	Terminals  []string // msIds of terminals
}

// Seed creates a customer with one dispatcher and n terminals of type typ ("10" app when empty); terminal i is
// named "Unit i" and has the last known position lat 41+i/100, lng 29.
func Seed(t testing.TB, d *db.DB, n int, typ string) Fleet {
	t.Helper()
	ctx := context.Background()
	if typ == "" {
		typ = "10"
	}
	k := nextCust.Add(1)
	f := Fleet{CustomerID: testkit.Customer(t, d, "Safety")}
	prefix := fmt.Sprintf("%d%03d", 1+f.CustomerID%9, k%1000)
	f.Dispatcher = prefix + "9000"
	testkit.Account(t, d, auth.NewAccount{CustomerID: f.CustomerID, ID: f.Dispatcher, Type: auth.DispatcherType,
		Name: "Dispatcher " + prefix})
	var last []directory.LastReport
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("%s%04d", prefix, i)
		testkit.Account(t, d, auth.NewAccount{CustomerID: f.CustomerID, ID: id, Type: typ, Name: fmt.Sprintf("Unit %d", i)})
		last = append(last, directory.LastReport{ID: directory.TerminalID(id), Customer: directory.CustomerID(f.CustomerID),
			Fix: &directory.Fix{Lat: 41 + float64(i)/100, Lng: 29.0, Time: 1}})
		f.Terminals = append(f.Terminals, id)
	}
	// The last known position, stored as the GPS writer stores it (through the directory).
	if err := directory.NewStore(d).SyncLast(ctx, last); err != nil {
		t.Fatal(err)
	}
	return f
}

// Token issues a console session for the fleet's dispatcher, already past its first socket login (so tests may
// connect whenever they like).
func (f Fleet) Token(t testing.TB, d *db.DB) string {
	t.Helper()
	ctx := context.Background()
	tok, err := auth.NewSessions(d, nil).Create(ctx, f.Dispatcher, f.CustomerID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(ctx, `UPDATE sessions SET socket_login_at = created_at WHERE account_id = ? AND socket_login_at = 0`, f.Dispatcher); err != nil {
		t.Fatal(err)
	}
	return tok
}

// EachStore runs fn on a fresh, migrated store of every engine (testkit.EachStore) with a customer seeded with
// n terminals of type typ: the start of every safety store contract test.
func EachStore(t *testing.T, n int, typ string, fn func(t *testing.T, d *db.DB, f Fleet)) {
	t.Helper()
	testkit.EachStore(t, func(t *testing.T, d *db.DB) { fn(t, d, Seed(t, d, n, typ)) })
}
