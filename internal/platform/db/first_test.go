package db_test

import (
	"database/sql"
	"errors"
	"fmt"
	"testing"

	"tenfour/internal/platform/db"
)

func TestFirst(t *testing.T) {
	failed := errors.New("query failed")
	for _, c := range []struct {
		name string
		list []int
		err  error
		want int
		is   error
	}{
		{"the row", []int{7}, nil, 7, nil},
		{"the first of more", []int{7, 8}, nil, 7, nil},
		{"none read", nil, nil, 0, db.ErrNotFound},
		{"the query's error wins", []int{7}, failed, 0, failed},
	} {
		got, err := db.First(c.list, c.err)
		if got != c.want || !errors.Is(err, c.is) || (c.is == nil) != (err == nil) {
			t.Errorf("%s: %d %v, want %d %v", c.name, got, err, c.want, c.is)
		}
	}
}

// A one-row read that found nothing is ErrNotFound, wrapped or not; another error and nil pass as they are.
func TestNotFound(t *testing.T) {
	failed := errors.New("query failed")
	for _, c := range []struct{ err, want error }{
		{sql.ErrNoRows, db.ErrNotFound},
		{fmt.Errorf("scan: %w", sql.ErrNoRows), db.ErrNotFound},
		{failed, failed},
		{nil, nil},
	} {
		if got := db.NotFound(c.err); got != c.want {
			t.Errorf("NotFound(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
