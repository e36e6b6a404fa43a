package video

// Recording of video calls and monitorings (docs/video.md §5, adr/0017): for a customer whose video_limits has
// record on, the terminal's side of a session (its camera and microphone) is recorded from the moment the
// session connects until it ends, by a media.VideoRecorder on the terminal's feeds (its own goroutine, bounded
// queue, ffmpeg muxing without transcoding: VP8 → WebM, H.264 → MP4). A row of video_records is written once
// the file is complete; a failed recording leaves neither file nor row. Retention and orphan files: below.

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/retention"
	"tenfour/internal/platform/ticker"
)

// recordDir lays recordings out by customer and UTC day: video-records/<customer>/2006/01/02/<callId>.webm|mp4.
const recordDir = "video-records"

// RecordFile is one recording (a row of video_records), as GET /ds/video/records lists it.
type RecordFile struct {
	ID         int64  `json:"id"`
	CallID     string `json:"callId"`
	Kind       string `json:"kind"` // call | monitor
	MsID       string `json:"msId"` // the terminal whose camera it is
	MsName     string `json:"msName"`
	ByID       string `json:"byId"` // the dispatcher: a call's other party, a monitoring's first viewer
	ByName     string `json:"byName"`
	Codec      string `json:"codec"`
	Audio      bool   `json:"audio"`
	StartTime  int64  `json:"startTime"`
	DurationMs int64  `json:"durationMs"`
	Bytes      int64  `json:"bytes"`
	Frames     int64  `json:"frames"`
	Dropped    int64  `json:"dropped"`
	Type       string `json:"type"` // the file's MIME type: video/webm or video/mp4
	URL        string `json:"url"`  // ranged playback / download
	path       string
	customer   int64
}

const recordCols = `id, customer_id, call_id, kind, terminal_id, terminal_name, by_id, by_name, codec, audio, path,
	start_at, duration_ms, bytes, frames, dropped`

func scanRecordFile(r db.Scanner) (RecordFile, error) {
	var f RecordFile
	var audio int
	err := r.Scan(&f.ID, &f.customer, &f.CallID, &f.Kind, &f.MsID, &f.MsName, &f.ByID, &f.ByName, &f.Codec,
		&audio, &f.path, &f.StartTime, &f.DurationMs, &f.Bytes, &f.Frames, &f.Dropped)
	f.Audio = audio == 1
	f.Type = "video/webm"
	if strings.HasSuffix(f.path, ".mp4") {
		f.Type = "video/mp4"
	}
	f.URL = "/ds/video/recordFile?id=" + strconv.FormatInt(f.ID, 10)
	return f, err
}

// AddRecordFile stores a finished recording.
func (s *Store) AddRecordFile(ctx context.Context, f RecordFile) (int64, error) {
	audio := 0
	if f.Audio {
		audio = 1
	}
	var id int64
	err := s.db.WriteRow(ctx, `INSERT INTO video_records (customer_id, call_id, kind, terminal_id, terminal_name, by_id,
		by_name, codec, audio, path, start_at, duration_ms, bytes, frames, dropped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
		?, ?, ?, ?) RETURNING id`, f.customer, f.CallID, f.Kind, f.MsID, f.MsName, f.ByID, f.ByName, f.Codec, audio, f.path, f.StartTime,
		f.DurationMs, f.Bytes, f.Frames, f.Dropped).Scan(&id)
	return id, err
}

// RecordFileQuery selects recordings: started in [From, To], of one terminal (empty: all).
type RecordFileQuery struct {
	MsID          string
	From, To      int64
	Offset, Limit int
}

// RecordFiles lists a customer's recordings, newest first, with the total.
func (s *Store) RecordFiles(ctx context.Context, customer int64, q RecordFileQuery) ([]RecordFile, int, error) {
	f := db.Scope("customer_id", customer).Between("start_at", q.From, q.To).If(q.MsID != "", "terminal_id = ?", q.MsID)
	return db.List(ctx, s.db, db.ListQuery{Select: recordCols, From: "video_records", Where: f,
		Order: "start_at DESC, id DESC", Offset: q.Offset, Limit: q.Limit}, scanRecordFile)
}

// RecordFile reads one of a customer's recordings (db.ErrNotFound).
func (s *Store) RecordFile(ctx context.Context, customer, id int64) (RecordFile, error) {
	f, err := scanRecordFile(s.db.QueryRow(ctx, `SELECT `+recordCols+` FROM video_records WHERE id = ? AND customer_id = ?`,
		id, customer))
	return f, db.NotFound(err)
}

// OlderRecordFiles lists up to limit recordings (of every customer) that started before cutoff.
func (s *Store) OlderRecordFiles(ctx context.Context, cutoff int64, limit int) ([]RecordFile, error) {
	rows, err := s.db.Query(ctx, `SELECT `+recordCols+` FROM video_records WHERE start_at < ? ORDER BY start_at LIMIT ?`,
		cutoff, limit)
	return db.Collect(rows, err, scanRecordFile)
}

// DeleteRecordFile removes a recording's row.
func (s *Store) DeleteRecordFile(ctx context.Context, id int64) error {
	_, err := s.db.Exec(ctx, `DELETE FROM video_records WHERE id = ?`, id)
	return err
}

// RecordPaths tells which of the given relative paths have a row.
func (s *Store) RecordPaths(ctx context.Context, paths []string) (map[string]bool, error) {
	return s.db.Present(ctx, "video_records", "path", paths)
}

// recording is a session's recording in progress.
type recording struct {
	rec  *media.VideoRecorder
	term *party // whose feeds it records
	by   Account
	rel  string // the file, relative to the data directory
}

// startRecordingLocked starts recording a session that just connected, when its customer records (the switch
// was read with the limits when the session began).
func (s *Service) startRecordingLocked(ss *session) {
	if !ss.record || ss.recording != nil {
		return
	}
	if s.opts.DataDir == "" || s.opts.FFmpeg == "" {
		slog.Warn("video: recording is on for the customer but the server has no data directory or ffmpeg", "call", ss.id)
		return
	}
	term, by := ss.callee, ss.opener
	if ss.kind == KindCall {
		by = ss.caller.Account
		if term == nil || term.Dispatcher() {
			term, by = ss.caller, ss.callee.Account
		}
	}
	if term == nil || term.peer == nil {
		return
	}
	rel := filepath.Join(recordDir, strconv.FormatInt(ss.customer, 10), s.opts.Now().UTC().Format("2006/01/02"),
		ss.id+media.ContainerExt(ss.codec))
	r := media.StartVideoRecorder(media.VideoRecordOptions{FFmpeg: s.opts.FFmpeg, Path: filepath.Join(s.opts.DataDir, rel),
		Codec: ss.codec}, term.peer.Video, term.peer.Audio)
	ss.recording = &recording{rec: r, term: term, by: by, rel: rel}
	s.recLive[rel] = true
}

// finishRecordingLocked finishes a session's recording after unlocking: the file, then its row.
func (s *Service) finishRecordingLocked(later *afterUnlock, ss *session) {
	rg := ss.recording
	if rg == nil {
		return
	}
	ss.recording = nil
	f := RecordFile{CallID: ss.id, Kind: ss.kind, MsID: rg.term.ID, MsName: rg.term.Name, ByID: rg.by.ID,
		ByName: rg.by.Name, Codec: string(ss.codec), path: rg.rel, customer: ss.customer}
	s.saveLater(later, func(ctx context.Context) {
		defer func() {
			s.mu.Lock()
			delete(s.recLive, rg.rel)
			s.mu.Unlock()
		}()
		res, err := rg.rec.Finish()
		if errors.Is(err, media.ErrNoKeyframe) {
			slog.Info("video: nothing to record (no keyframe came)", "call", ss.id)
			return
		}
		if err != nil {
			slog.Error("video: recording failed; no file kept", "call", ss.id, "err", err)
			return
		}
		f.Audio, f.StartTime, f.DurationMs, f.Bytes = res.Audio, res.Start.UnixMilli(), res.Duration.Milliseconds(), res.Size
		f.Frames, f.Dropped = int64(res.Frames), int64(res.Dropped)
		if res.Dropped > 0 {
			slog.Warn("video: the recorder's queue dropped packets", "call", ss.id, "dropped", res.Dropped)
		}
		id, err := s.store.AddRecordFile(ctx, f)
		if err != nil {
			slog.Error("video: store the recording; its file is removed", "call", ss.id, "err", err)
			_ = os.Remove(filepath.Join(s.opts.DataDir, rg.rel))
			return
		}
		if row, err := s.store.RecordFile(ctx, ss.customer, id); err == nil {
			s.hub.Publish(ss.customer, "video.record", row, realtime.Consoles) // open /video-records lists refresh
		}
	})
}

// Restore removes what a stop in the middle left of recordings: ".part" files and SDP files (never a
// recording), and finished files without a row.
func (s *Service) Restore(ctx context.Context) error {
	_, err := s.RemoveOrphanFiles(ctx)
	return err
}

// RemoveOrphanFiles deletes recording files that are not being written and have no row, and returns how many.
// Files are listed before the recordings in progress and the rows are read, so a recording that finishes
// meanwhile is found by one or the other.
func (s *Service) RemoveOrphanFiles(ctx context.Context) (int, error) {
	if s.opts.DataDir == "" {
		return 0, nil
	}
	root := filepath.Join(s.opts.DataDir, recordDir)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(s.opts.DataDir, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	live := maps.Clone(s.recLive)
	s.mu.Unlock()
	var finished []string
	for _, rel := range files {
		if !strings.HasSuffix(rel, ".webm") && !strings.HasSuffix(rel, ".mp4") {
			continue
		}
		finished = append(finished, rel)
	}
	rows, err := s.store.RecordPaths(ctx, finished)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, rel := range files {
		base := strings.TrimSuffix(strings.TrimSuffix(rel, media.PartSuffix), ".sdp")
		if live[base] || rows[rel] {
			continue
		}
		if err := retention.Remove(s.opts.DataDir, rel); err != nil {
			return removed, err
		}
		removed++
	}
	return removed, nil
}

// RunRetention deletes recordings older than the retention setting and orphan files, hourly.
func (s *Service) RunRetention(ctx context.Context) {
	if s.opts.DataDir == "" {
		return
	}
	ticker.NowAndEvery(ctx, time.Hour, func() {
		if s.opts.Retention > 0 {
			if _, err := s.PruneRecordFiles(ctx, time.Now().Add(-s.opts.Retention)); err != nil && ctx.Err() == nil {
				slog.Error("video: retention", "err", err)
			}
		}
		if n, err := s.RemoveOrphanFiles(ctx); err != nil && ctx.Err() == nil {
			slog.Error("video: orphan recordings", "err", err)
		} else if n > 0 {
			slog.Warn("video: removed recording files without a record", "files", n)
		}
	})
}

// PruneRecordFiles deletes the recordings that started before cutoff, files and rows; it returns how many.
func (s *Service) PruneRecordFiles(ctx context.Context, cutoff time.Time) (int, error) {
	return retention.Prune(ctx, s.opts.DataDir,
		func(ctx context.Context, limit int) ([]RecordFile, error) {
			return s.store.OlderRecordFiles(ctx, cutoff.UnixMilli(), limit)
		},
		func(f RecordFile) string { return f.path },
		func(ctx context.Context, f RecordFile) error { return s.store.DeleteRecordFile(ctx, f.ID) })
}

// ErrNoFile is a recording whose file is gone.
var ErrNoFile = httpx.E(http.StatusNotFound, "404", "errors.video.noFile", "the recording's file is missing")
