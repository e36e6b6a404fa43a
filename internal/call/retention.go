package call

// Retention: recordings older than the setting are deleted, files and rows together.

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"tenfour/internal/platform/ticker"
)

// RunRetention deletes recordings older than the retention setting, files and rows together, hourly.
func (s *Service) RunRetention(ctx context.Context) {
	if s.opts.Retention <= 0 {
		return
	}
	ticker.NowAndEvery(ctx, time.Hour, func() {
		if _, err := s.PruneRecordings(ctx, time.Now().Add(-s.opts.Retention)); err != nil && ctx.Err() == nil {
			slog.Error("voice: retention", "err", err)
		}
	})
}

// PruneRecordings deletes the recordings that started before cutoff; it returns how many.
func (s *Service) PruneRecordings(ctx context.Context, cutoff time.Time) (int, error) {
	total := 0
	for {
		n, err := s.store.DeleteOlder(ctx, cutoff.UnixMilli(), 500, s.removeRecording)
		total += n
		if err != nil || n < 500 {
			return total, err
		}
	}
}

// removeRecording deletes a recording file (missing is fine).
func (s *Service) removeRecording(rel string) error {
	err := os.Remove(filepath.Join(s.opts.DataDir, rel))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
