package db

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// Statements run through the helpers are prepared once per text, including those first met inside a
// transaction (prepared after it ends, never on the writer the transaction holds), and give the same results
// as unprepared ones; texts with several statements and failing texts are not cached and still report.
func TestStatementCache(t *testing.T) {
	ctx := context.Background()
	d, err := OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Exec(ctx, `CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL); CREATE INDEX kv_v ON kv (v)`); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.ws.m[`CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL); CREATE INDEX kv_v ON kv (v)`]; ok {
		t.Fatal("a two-statement text was cached")
	}
	// Both statements of the script ran.
	var n int
	if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name IN ('kv', 'kv_v')`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("schema objects %d, %v", n, err)
	}
	const ins = `INSERT INTO kv (k, v) VALUES (?, ?)`
	const upd = `UPDATE kv SET v = v + ? WHERE k = ?`
	for i, k := range []string{"a", "b", "c"} {
		if _, err := d.Exec(ctx, ins, k, i); err != nil {
			t.Fatal(err)
		}
	}
	if st, ok := d.ws.lookup(ins); !ok || st == nil {
		t.Fatal("insert not cached on the writer")
	}
	err = d.InTx(ctx, func(tx *Tx) error {
		for range 3 {
			if _, err := tx.Exec(ctx, upd, 10, "a"); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, ins, "d", 4) // cached: bound to the transaction
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.ws.lookup(upd); !ok {
		t.Fatal("statement first met in a transaction was not prepared after it")
	}
	// Second transaction uses the prepared update; a failure rolls everything back.
	err = d.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, upd, 100, "a"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, ins, "a", 1) // duplicate key
		return err
	})
	if !IsUniqueViolation(err) {
		t.Fatalf("want a unique violation, got %v", err)
	}
	var v int
	if err := d.QueryRow(ctx, `SELECT v FROM kv WHERE k = ?`, "a").Scan(&v); err != nil || v != 30 {
		t.Fatalf("a = %d (%v), want 30", v, err)
	}
	if _, ok := d.rs.lookup(`SELECT v FROM kv WHERE k = ?`); !ok {
		t.Fatal("read not cached on the reader pool")
	}
	if _, err := d.Query(ctx, `SELECT nope FROM kv`); err == nil {
		t.Fatal("a bad query ran")
	}
	if _, err := d.Query(ctx, `SELECT nope FROM kv`); err == nil || errors.Is(err, context.Canceled) {
		t.Fatalf("a bad query's second run: %v", err)
	}
}
