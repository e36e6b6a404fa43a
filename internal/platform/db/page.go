package db

import (
	"context"
	"database/sql"
)

// Scanner is a *sql.Row or *sql.Rows.
type Scanner interface{ Scan(dest ...any) error }

// Page reads one page of a table's rows matching cond (a WHERE clause with ? arguments), newest first by
// (at, id), and the number of all matching rows: the shape of every alarm and record list. It is List with
// that order; a new list builds its condition with a Filter and calls List.
func Page[T any](ctx context.Context, d *DB, table, cols, cond string, args []any, offset, limit int,
	scan func(Scanner) (T, error)) ([]T, int, error) {
	return List(ctx, d, ListQuery{Select: cols, From: table, Where: Where(cond, args...), Order: `at DESC, id DESC`,
		Offset: offset, Limit: limit}, scan)
}

// Collect reads every row of a query with scan and closes the rows; pass the query's own results:
// `rows, err := d.Query(…); return db.Collect(rows, err, scanThing)`. An empty result is an empty slice.
func Collect[T any](rows *sql.Rows, err error, scan func(Scanner) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// CollectSet is Collect as a set: which keys the rows hold (what a sweep or a generator finds already there).
func CollectSet[K comparable](rows *sql.Rows, err error, scan func(Scanner) (K, error)) (map[K]bool, error) {
	keys, err := Collect(rows, err, scan)
	out := make(map[K]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out, err
}

// Int64 scans a one-column integer row: `db.Collect(rows, err, db.Int64)` lists ids.
func Int64(r Scanner) (int64, error) {
	var v int64
	err := r.Scan(&v)
	return v, err
}

// Position is a row's two nullable coordinate columns (lat, lng): scan into Lat and Lng, read them with Coords.
type Position struct{ Lat, Lng sql.NullFloat64 }

// Coords are the coordinates, both nil unless both columns hold a number: a position is whole or absent.
func (p Position) Coords() (lat, lng *float64) {
	if !p.Lat.Valid || !p.Lng.Valid {
		return nil, nil
	}
	return &p.Lat.Float64, &p.Lng.Float64
}

// String scans a one-column text row: `db.Collect(rows, err, db.String)` lists names.
func String(r Scanner) (string, error) {
	var v string
	err := r.Scan(&v)
	return v, err
}
