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

	"tenfour/internal/platform/retention"
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
		if err := s.store.EndRecord(ctx, rec.ID, end, size, 0); err != nil {
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

// CloseOrphans closes the recordings left open by nodes of the cluster that are dead (not in alive): a node that
// never comes back cannot close them at its restart (Restore). The end is the file's last change when the file
// is on this machine (shared storage), else now — the node died at most a node timeout and a sweep earlier; the
// size stays as the row has it. A node only cut off from NATS longer than the timeout counts as dead too: when it
// ends its recording it writes the true end and size over these (EndRecord). It returns how many it closed.
func (s *Service) CloseOrphans(ctx context.Context, alive map[string]bool) (int, error) {
	nodes, err := s.store.OpenNodes(ctx)
	if err != nil {
		return 0, err
	}
	closed := 0
	for _, node := range nodes {
		if alive[node] {
			continue
		}
		list, err := s.store.Unfinished(ctx, node)
		if err != nil {
			return closed, err
		}
		for _, rec := range list {
			end, size := max(time.Now().UnixMilli(), rec.StartTime), int64(-1)
			if fi, err := os.Stat(filepath.Join(s.opts.DataDir, rec.path)); err == nil && s.opts.DataDir != "" {
				end, size = max(fi.ModTime().UnixMilli(), rec.StartTime), fi.Size()
			}
			ok, err := s.store.CloseOpen(ctx, rec.ID, end, size)
			if err != nil {
				return closed, err
			}
			if ok {
				closed++
			}
		}
		slog.Warn("cameras: closed the recordings a dead node left open", "node", node, "count", len(list))
	}
	return closed, nil
}

// RunOrphans closes the recordings of dead nodes (CloseOrphans) every interval until ctx ends; alive lists the
// live nodes of the cluster (cluster.Node.LiveNodes: the last presence sweep's). In a cluster it runs on one node
// at a time (App.single).
func (s *Service) RunOrphans(ctx context.Context, alive func(context.Context) (map[string]bool, error), every time.Duration) {
	ticker.NowAndEvery(ctx, every, func() {
		live, err := alive(ctx)
		if err != nil { // NATS away: the list is not complete, and every node would look dead
			return
		}
		if _, err := s.CloseOrphans(ctx, live); err != nil && ctx.Err() == nil {
			slog.Error("cameras: closing dead nodes' recordings", "err", err)
		}
	})
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
	return retention.Prune(ctx, s.opts.DataDir,
		func(ctx context.Context, limit int) ([]Record, error) {
			return s.store.Older(ctx, cutoff.UnixMilli(), limit)
		},
		func(rec Record) string { return rec.path },
		func(ctx context.Context, rec Record) error { return s.store.DeleteRecord(ctx, rec.ID) })
}
