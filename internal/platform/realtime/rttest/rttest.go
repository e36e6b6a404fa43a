// Package rttest builds socket test fixtures on a real tenfour store: customers, dispatchers, terminals and a
// group, provisioned through auth's administration API (testkit.Account); their sockets are testkit's.
package rttest

import (
	"context"
	"fmt"
	"testing"

	"tenfour/internal/auth"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

// Password is every fixture account's password.
const Password = testkit.Password

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
	f := Fleet{CustomerID: testkit.Customer(t, d, "Fleet "+prefix), Dispatcher: prefix + "0000001"}
	testkit.Account(t, d, auth.NewAccount{CustomerID: f.CustomerID, ID: f.Dispatcher, Type: auth.DispatcherType,
		Name: "Name " + f.Dispatcher, Group: "All " + prefix})
	groups, err := directory.NewStore(d).GroupsOf(context.Background(), f.CustomerID, f.Dispatcher)
	if err != nil || len(groups) != 1 {
		t.Fatalf("the fleet's group: %v %v", groups, err)
	}
	f.Group = int64(groups[0].GID)
	for i := range terminals {
		id := fmt.Sprintf("%s0000%03d", prefix, 101+i)
		Account(t, d, f.CustomerID, id, "10", f.Group)
		f.Terminals = append(f.Terminals, id)
	}
	return f
}

// Account adds an account of a type (spec §3; "20" dispatcher) whose default group is group (0: none).
func Account(t testing.TB, d *db.DB, customerID int64, id, typ string, group int64) {
	t.Helper()
	testkit.Account(t, d, auth.NewAccount{CustomerID: customerID, ID: id, Type: typ, Name: "Name " + id, GroupID: group})
}
