package db_test

import (
	"errors"
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
