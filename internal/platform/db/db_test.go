package db_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

func TestRebind(t *testing.T) {
	pg := &db.DB{Dialect: db.Postgres}
	lite := &db.DB{Dialect: db.SQLite}
	cases := []struct{ in, pg string }{
		{"SELECT 1", "SELECT 1"},
		{"a = ? AND b = ?", "a = $1 AND b = $2"},
		{"x = '?' AND y = ?", "x = '?' AND y = $1"},
	}
	for _, c := range cases {
		if got := pg.Rebind(c.in); got != c.pg {
			t.Errorf("postgres Rebind(%q) = %q, want %q", c.in, got, c.pg)
		}
		if got := lite.Rebind(c.in); got != c.in {
			t.Errorf("sqlite Rebind(%q) changed it to %q", c.in, got)
		}
	}
}

// The core schema migrates and round-trips on every engine, and a failed transaction leaves nothing behind.
func TestStoreContract(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var id int64
		if err := d.WriteRow(ctx, `INSERT INTO customers (name, created_at) VALUES (?, ?) RETURNING id`, "Acme", 1).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `INSERT INTO customers (name, created_at) VALUES (?, ?)`, "Acme", 2); !db.IsUniqueViolation(err) {
			t.Fatalf("duplicate name: got %v, want a unique violation", err)
		}
		err := d.InTx(ctx, func(tx *db.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO customers (name, created_at) VALUES (?, ?)`, "Half", 3); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
				"x", 999999, "20", "n", "h", 1) // unknown customer: foreign key fails
			return err
		})
		if err == nil {
			t.Fatal("foreign key violation was not reported")
		}
		var n int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM customers WHERE name = ?`, "Half").Scan(&n); err != nil || n != 0 {
			t.Fatalf("rolled-back row visible: n=%d err=%v", n, err)
		}
		var name string
		if err := d.QueryRow(ctx, `SELECT name FROM customers WHERE id = ?`, id).Scan(&name); err != nil || name != "Acme" {
			t.Fatalf("read back: %q %v", name, err)
		}
	})
}

// Backup produces a consistent, openable copy while writers keep writing.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	d := testkit.OpenStore(t, "sqlite")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := d.Exec(ctx, `INSERT INTO customers (name, created_at) VALUES (?, ?)`, fmt.Sprintf("c%d", i), i); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	out := filepath.Join(t.TempDir(), "copy.db")
	if err := d.Backup(ctx, out); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	cp, err := db.OpenSQLite(out)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	var res string
	if err := cp.QueryRow(ctx, `PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check = %q, %v", res, err)
	}
	var n int
	if err := cp.QueryRow(ctx, `SELECT COUNT(*) FROM customers`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	t.Logf("backup holds %d customers", n)
}
