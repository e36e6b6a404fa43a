// Package db opens the store (embedded SQLite or PostgreSQL), runs migrations and hides the few dialect
// differences: placeholders are written as `?` everywhere and rebound to `$n` for PostgreSQL.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // driver "pgx"
	_ "modernc.org/sqlite"             // driver "sqlite"
)

// Dialect names the SQL engine behind a DB.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// ErrNotFound is returned by stores when a row does not exist (or belongs to another customer).
var ErrNotFound = errors.New("not found")

// DB is the store handle: one writer connection and a reader pool on SQLite (WAL lets readers run while the
// writer writes); one shared pool on PostgreSQL.
type DB struct {
	W       *sql.DB
	R       *sql.DB
	Dialect Dialect
}

// OpenSQLite opens (creating if needed) the database file at path.
func OpenSQLite(path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, err
	}
	// busy_timeout first so the other pragmas wait instead of failing on a locked file.
	pragmas := "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + pragmas
	w, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	r, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, err
	}
	n := max(4, runtime.NumCPU()*2)
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	d := &DB{W: w, R: r, Dialect: SQLite}
	if err := w.PingContext(context.Background()); err != nil {
		d.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return d, nil
}

// OpenPostgres connects to a postgres:// URL.
func OpenPostgres(ctx context.Context, dsn string) (*DB, error) {
	p, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	p.SetMaxOpenConns(32)
	p.SetMaxIdleConns(16)
	if err := p.PingContext(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("connect postgres: %w", err)
	}
	return &DB{W: p, R: p, Dialect: Postgres}, nil
}

// Close closes both pools.
func (d *DB) Close() error {
	err := d.W.Close()
	if d.R != d.W {
		err = errors.Join(err, d.R.Close())
	}
	return err
}

// Rebind turns `?` placeholders into `$1, $2…` for PostgreSQL. Question marks inside quotes are left alone.
func (d *DB) Rebind(q string) string {
	if d.Dialect != Postgres || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 8)
	n, quoted := 0, false
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'':
			quoted = !quoted
			b.WriteByte(c)
		case c == '?' && !quoted:
			n++
			fmt.Fprintf(&b, "$%d", n)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Exec runs a write on the writer.
func (d *DB) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return d.W.ExecContext(ctx, d.Rebind(q), args...)
}

// Query reads from the reader pool.
func (d *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return d.R.QueryContext(ctx, d.Rebind(q), args...)
}

// QueryRow reads one row from the reader pool.
func (d *DB) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return d.R.QueryRowContext(ctx, d.Rebind(q), args...)
}

// WriteRow runs a write that returns one row (INSERT … RETURNING) on the writer.
func (d *DB) WriteRow(ctx context.Context, q string, args ...any) *sql.Row {
	return d.W.QueryRowContext(ctx, d.Rebind(q), args...)
}

// Tx is a write transaction with the same rebinding helpers.
type Tx struct {
	*sql.Tx
	db *DB
}

func (t *Tx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.Tx.ExecContext(ctx, t.db.Rebind(q), args...)
}

func (t *Tx) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(ctx, t.db.Rebind(q), args...)
}

func (t *Tx) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(ctx, t.db.Rebind(q), args...)
}

// InTx runs fn in a write transaction: committed if fn returns nil, rolled back otherwise, so nothing is
// stored half-way.
func (d *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	tx, err := d.W.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(&Tx{Tx: tx, db: d}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// IsUniqueViolation tells whether err is a unique-constraint failure on either engine.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "UNIQUE constraint failed") || strings.Contains(s, "SQLSTATE 23505")
}

// Placeholders returns "?, ?, ?" with n marks, for IN lists.
func Placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}
