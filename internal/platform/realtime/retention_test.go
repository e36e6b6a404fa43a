package realtime

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/platform/db"
)

// Events older than the cutoff are deleted, in batches larger than one DELETE, newer ones stay and still replay.
func TestPruneEventsKeepsTheNewer(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	now := time.Now()
	old := now.Add(-40 * 24 * time.Hour).UnixMilli()
	const nOld = pruneBatch + 7
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		for i := range nOld {
			if _, err := tx.Exec(ctx, `INSERT INTO events (customer_id, type, data, at) VALUES (?, ?, ?, ?)`,
				1+i%2, "test.old", `{}`, old+int64(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	keep, err := r.hub.PublishDurable(ctx, 1, "test.new", map[string]int{}, Consoles)
	if err != nil {
		t.Fatal(err)
	}
	n, err := r.hub.PruneEvents(ctx, now.Add(-30*24*time.Hour))
	if err != nil || n != nOld {
		t.Fatalf("pruned %d (%v), want %d", n, err, nOld)
	}
	frames, err := r.hub.Replay(ctx, 1, 0, 10)
	if err != nil || len(frames) != 1 || frames[0].Seq != keep {
		t.Fatalf("left %+v (%v)", frames, err)
	}
}
