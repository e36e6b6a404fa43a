package testkit

import (
	"context"
	"testing"

	"tenfour/internal/platform/db"
)

// Tenants is a World with two customers' fleets: A, whose console (ConsoleA) the test drives, and B, another
// customer with one terminal and one group, there to show what A's console and terminals may not reach.
type Tenants struct {
	*World
	A, B     Fleet
	ConsoleA *Socket
}

// NewTenants starts a World on engine with A's fleet of terminals (one group) and B's fleet of one terminal,
// and opens A's console.
func NewTenants(t *testing.T, engine string, terminals int) *Tenants {
	t.Helper()
	w := NewWorld(t, engine)
	tn := &Tenants{World: w, A: w.NewFleet("1", terminals, 1), B: w.NewFleet("2", 1, 1)}
	tn.ConsoleA = w.Console(tn.A.Dispatcher, tn.A.Customer)
	return tn
}

// Count runs a query of one number (SELECT COUNT(*) …) on a store: what a test reads of rows no owner's API
// lists.
func Count(t testing.TB, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// Count is Count on the world's store.
func (w *World) Count(q string, args ...any) int {
	w.t.Helper()
	return Count(w.t, w.DB, q, args...)
}
