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
	"time"

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

	// Prepared statements by query text, per pool (SQLite only: pgx caches statements per connection itself).
	// Parsing SQL is a large share of a short SQLite statement's cost; database/sql prepares a cached
	// statement again on each pool connection as needed.
	ws, rs *stmtCache
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
	d := &DB{W: w, R: r, Dialect: SQLite, ws: newStmtCache(w), rs: newStmtCache(r)}
	if err := w.PingContext(context.Background()); err != nil {
		d.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return d, nil
}

// postgresConns is how many connections a process keeps to PostgreSQL at the most.
const postgresConns = 32

// OpenPostgres connects to a postgres:// URL.
func OpenPostgres(ctx context.Context, dsn string) (*DB, error) {
	p, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	// As many idle as open: with fewer, every burst above the idle limit closed its extra connections as it
	// ended and the next opened them again — a PostgreSQL backend forked each time (15 a second in the cluster
	// scale run, whose logins took twice as long). Connections idle for minutes are closed.
	p.SetMaxOpenConns(postgresConns)
	p.SetMaxIdleConns(postgresConns)
	p.SetConnMaxIdleTime(5 * time.Minute)
	if err := p.PingContext(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("connect postgres: %w", err)
	}
	return &DB{W: p, R: p, Dialect: Postgres}, nil
}

// Close closes both pools.
func (d *DB) Close() error {
	d.ws.close()
	d.rs.close()
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
	if st := d.ws.get(ctx, q); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return d.W.ExecContext(ctx, d.Rebind(q), args...)
}

// Query reads from the reader pool.
func (d *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := d.rs.get(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return d.R.QueryContext(ctx, d.Rebind(q), args...)
}

// QueryRow reads one row from the reader pool.
func (d *DB) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := d.rs.get(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return d.R.QueryRowContext(ctx, d.Rebind(q), args...)
}

// WriteRow runs a write that returns one row (INSERT … RETURNING) on the writer.
func (d *DB) WriteRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := d.ws.get(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return d.W.QueryRowContext(ctx, d.Rebind(q), args...)
}

// Tx is a write transaction with the same rebinding helpers.
type Tx struct {
	*sql.Tx
	db     *DB
	missed []string                // statements to prepare once the writer is free again
	bound  map[*sql.Stmt]*sql.Stmt // cached statements bound to this transaction
}

// stmt is the cached statement for q bound to the transaction, or nil. A statement is never prepared on the
// writer from inside a transaction: the writer's only connection is the transaction's, so that would wait
// for itself. Misses are prepared after the transaction ends.
func (t *Tx) stmt(ctx context.Context, q string) *sql.Stmt {
	if t.db.ws == nil {
		return nil
	}
	st, ok := t.db.ws.lookup(q)
	if !ok {
		if t.db.ws.cacheable(q) {
			t.missed = append(t.missed, q)
		}
		return nil
	}
	if b := t.bound[st]; b != nil {
		return b
	}
	if t.bound == nil {
		t.bound = map[*sql.Stmt]*sql.Stmt{}
	}
	b := t.Tx.StmtContext(ctx, st)
	t.bound[st] = b
	return b
}

func (t *Tx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := t.stmt(ctx, q); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, t.db.Rebind(q), args...)
}

func (t *Tx) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := t.stmt(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, t.db.Rebind(q), args...)
}

func (t *Tx) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := t.stmt(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, t.db.Rebind(q), args...)
}

// InTx runs fn in a write transaction: committed if fn returns nil, rolled back otherwise, so nothing is
// stored half-way.
func (d *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	tx, err := d.W.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	t := &Tx{Tx: tx, db: d}
	if err := fn(t); err != nil {
		_ = tx.Rollback()
		return err
	}
	err = tx.Commit()
	for _, q := range t.missed {
		d.ws.get(ctx, q)
	}
	return err
}

// IsUniqueViolation tells whether err is a unique-constraint failure on either engine.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "UNIQUE constraint failed") || strings.Contains(s, "SQLSTATE 23505")
}

// IsForeignKeyViolation tells whether err is a foreign-key failure on either engine (a row others still refer to).
func IsForeignKeyViolation(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "FOREIGN KEY constraint failed") || strings.Contains(s, "SQLSTATE 23503")
}

// OneRow is the answer of an UPDATE or DELETE of one row named by its key and customer: err when it failed,
// ErrNotFound when it touched nothing (an unknown id, or another customer's). Use it as
// `return db.OneRow(tx.Exec(ctx, "DELETE … WHERE id = ? AND customer_id = ?", id, customerID))`.
func OneRow(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// Placeholders returns "?, ?, ?" with n marks, for IN lists.
func Placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

// Present tells which of values stand in column of table (both named by the caller, never by a client): the
// recorders' orphan sweeps ask it which files on disk have a row. Values go in IN lists of at most 500.
func (d *DB) Present(ctx context.Context, table, column string, values []string) (map[string]bool, error) {
	out := map[string]bool{}
	for len(values) > 0 {
		n := min(len(values), 500)
		args := make([]any, n)
		for i, v := range values[:n] {
			args[i] = v
		}
		rows, err := d.Query(ctx, `SELECT `+column+` FROM `+table+` WHERE `+column+` IN (`+Placeholders(n)+`)`, args...)
		got, err := Collect(rows, err, func(r Scanner) (string, error) { var v string; return v, r.Scan(&v) })
		if err != nil {
			return nil, err
		}
		for _, v := range got {
			out[v] = true
		}
		values = values[n:]
	}
	return out, nil
}
