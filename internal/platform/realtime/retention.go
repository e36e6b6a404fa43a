package realtime

import (
	"context"
	"log/slog"
	"tenfour/internal/platform/ticker"
	"time"
)

// pruneBatch bounds one DELETE, so the store's single writer is never held long by the pruner.
const pruneBatch = 5000

// RunRetention deletes durable events older than keep, at start and then every hour, until ctx ends; keep ≤ 0
// keeps them forever. A client away for longer than keep misses those events on `sync`, but every client
// refetches its screens from REST after a reconnect anyway (docs/console-socket.md), so only the live
// interruptions of that period are not replayed; alarms themselves stay in their own tables.
func (h *Hub) RunRetention(ctx context.Context, keep time.Duration) {
	if keep <= 0 {
		return
	}
	ticker.NowAndEvery(ctx, time.Hour, func() {
		if n, err := h.PruneEvents(ctx, time.Now().Add(-keep)); err != nil && ctx.Err() == nil {
			slog.Error("realtime: event retention", "err", err)
		} else if n > 0 {
			slog.Info("realtime: event retention", "deleted", n)
		}
	})
}

// PruneEvents deletes the durable events stored before cutoff, in batches; it returns how many.
func (h *Hub) PruneEvents(ctx context.Context, cutoff time.Time) (int64, error) {
	var total int64
	for {
		res, err := h.db.Exec(ctx, `DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE at < ? ORDER BY at LIMIT ?)`,
			cutoff.UnixMilli(), pruneBatch)
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += n
		if n < pruneBatch || ctx.Err() != nil {
			return total, ctx.Err()
		}
	}
}
