package db

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
)

// Migrations live in migrations/<dialect>/NNNNN_name.sql, one file per step, each run in a transaction.
// Version ranges per domain keep parallel work from colliding: 1-9 core, 10-19 auth, 20-29 directory,
// 30-39 realtime, 40-49 voice, 50-59 terminals, 60-69 geo, 70-79 messages, 80-89 safety.
//
//go:embed migrations
var migrations embed.FS

// Migrate brings the schema up to date.
func (d *DB) Migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrations, "migrations/"+string(d.Dialect))
	if err != nil {
		return err
	}
	dialect := goose.DialectSQLite3
	if d.Dialect == Postgres {
		dialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(dialect, d.W, sub, goose.WithAllowOutofOrder(true))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Backup writes a consistent copy of a live SQLite database to out (VACUUM INTO runs in one read
// transaction, so concurrent writers never produce a torn copy).
func (d *DB) Backup(ctx context.Context, out string) error {
	if d.Dialect != SQLite {
		return fmt.Errorf("backup: use pg_dump for PostgreSQL")
	}
	_, err := d.W.ExecContext(ctx, "VACUUM INTO ?", out)
	return err
}
