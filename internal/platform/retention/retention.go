// Package retention deletes recordings past their retention, files and rows together: the sweep of every
// domain that keeps recordings on disk with a row each (camera, video). Voice deletes its rows in one
// transaction with the files (call.Store.DeleteOlder) but removes files the same way (Remove).
package retention

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Batch is how many rows a sweep reads at a time.
const Batch = 200

// Remove deletes a recording file, rel to dataDir; one already gone is fine (a sweep that stopped half-way,
// or a file never made).
func Remove(dataDir, rel string) error {
	if err := os.Remove(filepath.Join(dataDir, rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Prune deletes every row older lists, batch after batch until it lists none: first the row's file (path),
// then the row (del). A file that cannot be removed stops the sweep with its row still there, so no row is
// left pointing at nothing and the next sweep tries again. It returns how many it deleted.
func Prune[T any](ctx context.Context, dataDir string, older func(ctx context.Context, limit int) ([]T, error),
	path func(T) string, del func(context.Context, T) error) (int, error) {
	total := 0
	for {
		list, err := older(ctx, Batch)
		if err != nil || len(list) == 0 {
			return total, err
		}
		for _, row := range list {
			if err := Remove(dataDir, path(row)); err != nil {
				return total, err
			}
			if err := del(ctx, row); err != nil {
				return total, err
			}
			total++
		}
	}
}
