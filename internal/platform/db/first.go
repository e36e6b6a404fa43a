package db

import (
	"database/sql"
	"errors"
)

// First is a lookup by id read through a domain's list query (the same joins and columns as its list): the row,
// or ErrNotFound when the query read none. `list, _, err := s.plans(ctx, db.ListQuery{Where: …Eq("id", id)})`
// then `return db.First(list, err)`.
func First[T any](list []T, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if len(list) == 0 {
		return zero, ErrNotFound
	}
	return list[0], nil
}

// NotFound is the error of a one-row read as a store answers it: sql.ErrNoRows (the QueryRow read nothing: an
// unknown id, or another customer's) is ErrNotFound; any other error, and nil, is itself. `return v,
// db.NotFound(row.Scan(…))` instead of a notFound of each domain's own.
func NotFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
