// Package tenant owns the customers table (the spec's "client"): every row of every domain belongs to one.
// Other packages create, find and read customers only through these functions; the time zone is read and
// parsed here and nowhere else (TimeZone, ZoneOf).
package tenant

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/text"
)

// ErrExists answers Create for a name another customer has.
var ErrExists = errors.New("a customer with that name exists")

// MaxName is the longest customer name, in characters.
const MaxName = 64

// nameField is a customer name's rule. Its callers are the admin shell and the seeders, which print the
// error's message.
var nameField = text.Field{Name: "customer name", Max: MaxName, Required: true}

// New is a customer to add. DSConfig is the stored data-source configuration (JSON; empty: none), which only
// the demo seeds at creation.
type New struct {
	Name     string
	DSConfig string
}

// Create adds a customer on its own (the admin shell, tests) and returns its id.
func Create(ctx context.Context, d *db.DB, name string) (int64, error) {
	var id int64
	err := d.InTx(ctx, func(tx *db.Tx) (err error) {
		id, err = Add(ctx, tx, New{Name: name})
		return err
	})
	return id, err
}

// Add adds a customer inside a seeding transaction and returns its id: the name checked as a text.Name of at
// most MaxName characters, ErrExists when another customer has it.
func Add(ctx context.Context, tx *db.Tx, c New) (int64, error) {
	name, err := nameField.CheckPlain(c.Name)
	if err != nil {
		return 0, err
	}
	var id int64
	err = tx.QueryRow(ctx, `INSERT INTO customers (name, ds_config, created_at) VALUES (?, ?, ?) RETURNING id`,
		name, cmp.Or(c.DSConfig, "{}"), time.Now().UnixMilli()).Scan(&id)
	if db.IsUniqueViolation(err) {
		return 0, ErrExists
	}
	return id, err
}

// ByName returns a customer's id; db.ErrNotFound if there is none.
func ByName(ctx context.Context, q db.Querier, name string) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT id FROM customers WHERE name = ?`, strings.TrimSpace(name)).Scan(&id)
	return id, db.NotFound(err)
}

// Exists is nil for a stored customer and "customer N: not found" (db.ErrNotFound) otherwise.
func Exists(ctx context.Context, q db.Querier, id int64) error {
	var n int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM customers WHERE id = ?`, id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("customer %d: %w", id, db.ErrNotFound)
	}
	return nil
}

// Settings are the customer's columns a session hands its client (spec §6): TimeZone as stored (hours),
// DSConfig the stored JSON.
type Settings struct {
	MaxOnline int // concurrent dispatcher sessions, 0 = unlimited
	DSConfig  string
	Version   string
	TimeZone  string
	Language  string
}

// Get reads a customer's settings; db.ErrNotFound for an unknown id.
func Get(ctx context.Context, q db.Querier, id int64) (Settings, error) {
	var s Settings
	err := q.QueryRow(ctx, `SELECT max_online, ds_config, version, time_zone, language FROM customers WHERE id = ?`, id).
		Scan(&s.MaxOnline, &s.DSConfig, &s.Version, &s.TimeZone, &s.Language)
	return s, db.NotFound(err)
}

// SetDSConfig stores a customer's data-source configuration (JSON the caller has checked); db.ErrNotFound for
// an unknown id.
func SetDSConfig(ctx context.Context, d *db.DB, id int64, raw string) error {
	res, err := d.Exec(ctx, `UPDATE customers SET ds_config = ? WHERE id = ?`, raw, id)
	return db.OneRow(res, err)
}

// TimeZone is the customer's time zone (ZoneOf its stored hours); db.ErrNotFound for an unknown id.
func TimeZone(ctx context.Context, q db.Querier, id int64) (*time.Location, error) {
	var tz string
	if err := q.QueryRow(ctx, `SELECT time_zone FROM customers WHERE id = ?`, id).Scan(&tz); err != nil {
		return nil, db.NotFound(err)
	}
	return ZoneOf(tz), nil
}

// ZoneOf turns customers.time_zone (hours, possibly fractional: "8", "-3.5") into a fixed zone; a malformed or
// out-of-range value is UTC. Lists that join customers for many rows' zones parse the column with it.
func ZoneOf(hours string) *time.Location {
	h, err := strconv.ParseFloat(strings.TrimSpace(hours), 64)
	if err != nil || !(h >= -14 && h <= 14) { // also refuses NaN
		return time.UTC
	}
	return time.FixedZone("UTC"+strconv.FormatFloat(h, 'f', -1, 64), int(h*3600))
}

// None reports whether the store has no customer yet (the demo seeds only such a store).
func None(ctx context.Context, q db.Querier) (bool, error) {
	var n int
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM customers`).Scan(&n)
	return n == 0, err
}
