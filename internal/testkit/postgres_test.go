package testkit

import (
	"context"
	"testing"
)

// A PostgreSQL store is a migrated copy of the template; when another test process dropped the template meanwhile
// (a checkout of newer migrations keeps only the newest few), the next store builds it again instead of failing.
func TestPostgresTemplateComesBack(t *testing.T) {
	ctx := context.Background()
	first := OpenStore(t, "postgres") // skipped without TENFOUR_TEST_PG
	var n int
	if err := first.QueryRow(ctx, `SELECT COUNT(*) FROM customers`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("a fresh store's customers: %d %v", n, err)
	}
	tmpl, err := postgresTemplate(ctx, pgAdmin.db, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pgAdmin.db.ExecContext(ctx, "DROP DATABASE "+tmpl); err != nil {
		t.Fatal(err)
	}
	second := OpenStore(t, "postgres")
	if err := second.QueryRow(ctx, `SELECT COUNT(*) FROM customers`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the store after the template was dropped: %d %v", n, err)
	}
}
