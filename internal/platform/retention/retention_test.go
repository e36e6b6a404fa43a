package retention_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"tenfour/internal/platform/retention"
)

// Prune reads batch after batch until none is left, removes each file before its row (a missing file is fine),
// and stops at a file it cannot remove with that row kept.
func TestPruneRemovesFilesThenRows(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "rec"), 0o755); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for i := range retention.Batch + 3 { // more than one batch
		rel := filepath.Join("rec", fmt.Sprintf("%03d.mp4", i))
		rows = append(rows, rel)
		if i == 1 {
			continue // its file is already gone
		}
		if err := os.WriteFile(filepath.Join(dir, rel), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	older := func(_ context.Context, limit int) ([]string, error) {
		return slices.Clone(rows[:min(limit, len(rows))]), nil
	}
	del := func(_ context.Context, rel string) error {
		if _, err := os.Stat(filepath.Join(dir, rel)); err == nil {
			t.Fatalf("row %s deleted before its file", rel)
		}
		rows = slices.DeleteFunc(rows, func(r string) bool { return r == rel })
		return nil
	}
	path := func(rel string) string { return rel }
	n, err := retention.Prune(context.Background(), dir, older, path, del)
	if err != nil || n != retention.Batch+3 || len(rows) != 0 {
		t.Fatalf("pruned %d (%v), %d rows left", n, err, len(rows))
	}

	// A file that cannot be removed (here: a directory with something in it) keeps its row and stops the sweep.
	stuck := filepath.Join("rec", "stuck")
	if err := os.MkdirAll(filepath.Join(dir, stuck, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	rows = []string{stuck, "rec/after.mp4"}
	n, err = retention.Prune(context.Background(), dir, older, path, del)
	if err == nil || n != 0 || len(rows) != 2 {
		t.Fatalf("stuck file: pruned %d (%v), rows %v", n, err, rows)
	}
	boom := errors.New("db down")
	rows = []string{"rec/gone.mp4"}
	if _, err := retention.Prune(context.Background(), dir, older, path, func(context.Context, string) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("a failed delete: %v", err)
	}
}
