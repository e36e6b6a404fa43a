package camera

// Retention (like voice recordings, internal/call/retention.go): recordings older than the setting are deleted,
// files and rows together; recordings left open by a stop of the server are closed at start-up.

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tenfour/internal/platform/ticker"
)

// Restore closes the recordings a previous run left open: their fragmented file plays up to its last fragment;
// the end is the file's last change.
func (s *Service) Restore(ctx context.Context) error {
	list, err := s.store.Unfinished(ctx, s.opts.NodeID) // in a cluster: only what this node was writing
	if err != nil {
		return err
	}
	for _, rec := range list {
		end, size := rec.StartTime, int64(0)
		if fi, err := os.Stat(filepath.Join(s.opts.DataDir, rec.path)); err == nil {
			end, size = max(fi.ModTime().UnixMilli(), rec.StartTime), fi.Size()
		}
		if err := s.store.EndRecord(ctx, rec.ID, end, size); err != nil {
			return err
		}
	}
	if len(list) > 0 {
		slog.Warn("cameras: closed recordings left open by the last run", "count", len(list))
	}
	// a recorder's SDP file and a half-made remux are leftovers of a stop in the middle: never a recording
	root := filepath.Join(s.opts.DataDir, recordDir)
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".mp4.sdp") || strings.HasSuffix(path, ".tmp.mp4")) {
			_ = os.Remove(path)
		}
		return nil
	})
	return nil
}

// RunRetention deletes recordings older than the retention setting, hourly.
func (s *Service) RunRetention(ctx context.Context) {
	if s.opts.DataDir == "" || s.opts.Retention <= 0 {
		return
	}
	ticker.NowAndEvery(ctx, time.Hour, func() {
		if _, err := s.PruneRecords(ctx, time.Now().Add(-s.opts.Retention)); err != nil && ctx.Err() == nil {
			slog.Error("cameras: retention", "err", err)
		}
	})
}

// PruneRecords deletes the finished recordings that started before cutoff, files and rows; it returns how many.
func (s *Service) PruneRecords(ctx context.Context, cutoff time.Time) (int, error) {
	total := 0
	for {
		list, err := s.store.Older(ctx, cutoff.UnixMilli(), 200)
		if err != nil || len(list) == 0 {
			return total, err
		}
		for _, rec := range list {
			if err := os.Remove(filepath.Join(s.opts.DataDir, rec.path)); err != nil && !os.IsNotExist(err) {
				return total, err
			}
			if err := s.store.DeleteRecord(ctx, rec.ID); err != nil {
				return total, err
			}
			total++
		}
	}
}
