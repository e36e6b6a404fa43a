package call

// Retention: recordings older than the setting are deleted, files and rows together; recording files left
// without a row (a crash in the middle of a burst) are deleted too.

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/platform/retention"
	"tenfour/internal/platform/ticker"
)

// dayDirs lays recordings out by the UTC day their burst started: recordings/<customer>/2006/01/02/.
const dayDirs = "2006/01/02"

// orphanDays is how far back the hourly orphan sweep looks after its first, complete sweep: orphans are made
// by a crash, so they are as old as the last start.
const orphanDays = 2

// RunRetention deletes recordings older than the retention setting (if any), files and rows together, and
// orphan recording files, hourly.
func (s *Service) RunRetention(ctx context.Context) {
	if s.opts.DataDir == "" {
		return
	}
	var since time.Time // the first sweep looks at every day
	ticker.NowAndEvery(ctx, time.Hour, func() {
		if s.opts.Retention > 0 {
			if _, err := s.PruneRecordings(ctx, time.Now().Add(-s.opts.Retention)); err != nil && ctx.Err() == nil {
				slog.Error("voice: retention", "err", err)
			}
		}
		if n, err := s.RemoveOrphans(ctx, since); err != nil && ctx.Err() == nil {
			slog.Error("voice: orphan recordings", "err", err)
		} else if n > 0 {
			slog.Warn("voice: removed recording files without a record", "files", n)
		}
		since = time.Now().AddDate(0, 0, -orphanDays)
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
func (s *Service) removeRecording(rel string) error { return retention.Remove(s.opts.DataDir, rel) }

// orphanDay is one day directory of a customer's recordings and the burst files in it ("callId-btime").
type orphanDay struct {
	customer int64
	day      time.Time
	dir      string // relative to the data directory
	bursts   []string
}

// RemoveOrphans deletes the recording files of days since since (zero: every day) that have no record row: a
// partial file left by a crash in the middle of a burst. A file is kept while its burst is being recorded or
// indexed, when its row waits in recordings/pending for the next start, and when its name is not a burst's.
// It returns how many files it deleted.
func (s *Service) RemoveOrphans(ctx context.Context, since time.Time) (int, error) {
	// The order makes it safe against bursts that end meanwhile: files are listed first, then the bursts in
	// progress, then the rows. A listed file whose burst was no longer in progress had its row (or its pending
	// row) written before, so the row is found.
	days, err := s.recordingDays(since)
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	live := maps.Clone(s.recording)
	s.mu.Unlock()
	pending := map[string]bool{} // "customer-callId-btime"
	entries, err := os.ReadDir(s.pendingDir())
	if err != nil && !os.IsNotExist(err) {
		return 0, err
	}
	for _, e := range entries {
		pending[strings.TrimSuffix(e.Name(), ".json")] = true
	}
	removed := 0
	for _, d := range days {
		rows, err := s.store.RecordedBursts(ctx, d.customer, d.day.AddDate(0, 0, -1).UnixMilli(),
			d.day.AddDate(0, 0, 2).UnixMilli()) // a btime may run a little past its directory's day
		if err != nil {
			return removed, err
		}
		for _, key := range d.bursts {
			rel := filepath.Join(d.dir, key+".ogg")
			if rows[key] || live[rel] || pending[strconv.FormatInt(d.customer, 10)+"-"+key] {
				continue
			}
			if err := s.removeRecording(rel); err != nil {
				return removed, err
			}
			removed++
		}
	}
	return removed, nil
}

// recordingDays lists the day directories of recordings since since (zero: all) with their burst files.
func (s *Service) recordingDays(since time.Time) ([]orphanDay, error) {
	root := filepath.Join(s.opts.DataDir, "recordings")
	from := since.UTC().Truncate(24 * time.Hour)
	var out []orphanDay
	customers, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, c := range customers {
		cust, err := strconv.ParseInt(c.Name(), 10, 64)
		if err != nil || !c.IsDir() {
			continue // recordings/pending and anything not ours
		}
		days, err := filepath.Glob(filepath.Join(root, c.Name(), "[0-9][0-9][0-9][0-9]", "[0-9][0-9]", "[0-9][0-9]"))
		if err != nil {
			return nil, err
		}
		for _, dir := range days {
			rel, _ := filepath.Rel(s.opts.DataDir, dir)
			date, _ := filepath.Rel(filepath.Join(root, c.Name()), dir)
			day, err := time.Parse(dayDirs, filepath.ToSlash(date))
			if err != nil || day.Before(from) {
				continue
			}
			files, err := os.ReadDir(dir)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			d := orphanDay{customer: cust, day: day, dir: rel}
			for _, f := range files {
				key, ok := strings.CutSuffix(f.Name(), ".ogg")
				if i := strings.LastIndexByte(key, '-'); ok && f.Type().IsRegular() && i > 0 {
					if _, err := strconv.ParseInt(key[i+1:], 10, 64); err == nil {
						d.bursts = append(d.bursts, key)
					}
				}
			}
			out = append(out, d)
		}
	}
	return out, nil
}
