package broadcast

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"tenfour/internal/media/ffchild"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// MusicPath is where library files are served (spec §7 GET /music/{name} under the broadcast base).
const MusicPath = "/broadcast/music/"

// The library's one format (docs/adr/0018): MP3, mono, 44.1 kHz, constant 128 kbit/s — what IP PA speakers
// play, seekable by byte offset (16 bytes per ms), decodable by the simulator's speakers.
const (
	musicExt     = ".mp3"
	musicBitrate = 128000
)

// The most of an upload transcoded (-t: a longer file is cut there) and the most written for it (-fs: that
// length at 128 kbit/s, plus a margin), so no upload turns into more than this whatever it holds.
const (
	maxMusicLength = 2 * time.Hour
	maxMusicBytes  = int64(maxMusicLength/time.Second)*musicBitrate/8 + 1<<20
)

// ErrBusy: no ffmpeg slot came free in time (ffchild.Limiter); spec §9 "101 system busy".
var ErrBusy = httpx.E(http.StatusServiceUnavailable, "101", "broadcast.errors.busy", "system busy, try again")

// defaultJobs is the limiter of a service built without Options.Jobs (the app always passes the server's one).
var defaultJobs = sync.OnceValue(func() *ffchild.Limiter { return ffchild.NewLimiter(ffchild.DefaultLimits()) })

func randomName() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:]) + musicExt
}

// transcode turns an upload into the library format and measures its length (ms), through the ffmpeg boundary
// (docs/adr/0030): the demuxer forced to what ffchild.SniffAudio finds (ErrBadAudio when it is no audio format:
// an ID3 tag before an HLS playlist is not MP3), the file protocol only, at most maxMusicLength read and
// maxMusicBytes written, run outside the data directory, in a slot of the server's ffmpeg limiter (ErrBusy).
func (s *Service) transcode(ctx context.Context, customer int64, in, out string) (int64, error) {
	input, err := ffchild.AudioFile(in, maxMusicLength)
	if errors.Is(err, ffchild.ErrNotAudio) {
		return 0, ErrBadAudio
	} else if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	jobs := s.opt.Jobs
	if jobs == nil {
		jobs = defaultJobs()
	}
	release, err := jobs.Acquire(ctx, customer)
	if errors.Is(err, ffchild.ErrBusy) {
		return 0, ErrBusy
	} else if err != nil {
		return 0, err
	}
	defer release()
	cmd, err := ffchild.Command(ctx, s.opt.FFmpeg, input, ffchild.Output{
		Args: []string{"-y", "-map", "0:a:0", "-vn", "-ac", "1", "-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k",
			"-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"},
		Target: out, MaxBytes: maxMusicBytes})
	if err != nil {
		return 0, err
	}
	var stderr ffchild.Tail
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) { // the tool ran and refused the input: not audio it can read
			slog.InfoContext(ctx, "broadcast: upload refused by ffmpeg", "err", strings.TrimSpace(stderr.String()))
			return 0, ErrBadAudio
		}
		slog.ErrorContext(ctx, "broadcast: ffmpeg", "err", err)
		return 0, ErrTranscoder
	}
	st, err := os.Stat(out)
	if err != nil || st.Size() == 0 {
		return 0, ErrBadAudio
	}
	// constant 128 kbit/s without a tag or Xing frame: 16 bytes per ms, what ffprobe would estimate too
	return st.Size() * 8 / (musicBitrate / 1000), nil
}

// roomFor says whether a group takes a file of this name: at most FilesPerGroup files (spec §9), and no two of one
// name, which a dispatcher picks files by (spec §8 "file exists"). Asked before the upload is transcoded and again
// in the insert's transaction.
func (s *Service) roomFor(ctx context.Context, q querier, customerID, groupID int64, name string) error {
	var n int
	var taken bool
	err := q.QueryRow(ctx, `SELECT COUNT(*), COALESCE(MAX(CASE WHEN original_name = ? THEN 1 ELSE 0 END), 0) = 1
		FROM bc_files WHERE customer_id = ? AND group_id = ?`, name, customerID, groupID).Scan(&n, &taken)
	switch {
	case err != nil:
		return err
	case n >= FilesPerGroup:
		return ErrFilesFull
	case taken:
		return ErrFileExists
	}
	return nil
}

// upload is POST /v1/upload (multipart form: file, group_id): the file is transcoded to the library format and
// stored with its length and size; at most FilesPerGroup per group (spec §9), one of a name (roomFor).
func (s *Service) upload(w http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	ctx := r.Context()
	if _, err := s.opt.Quota.Room(ctx, c.CustomerID); err != nil { // full: refused before the upload is read
		return nil, err
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.opt.MaxUpload+1<<20)
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" || params["boundary"] == "" {
		return nil, httpx.BadParam("file", "a multipart/form-data upload")
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, httpx.BadParam("file", "a multipart/form-data upload")
	}
	var groupID int64
	var tmp, original string
	defer func() {
		if tmp != "" {
			os.Remove(tmp)
		}
	}()
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, uploadErr(err)
		}
		switch part.FormName() {
		case "group_id":
			b, _ := io.ReadAll(io.LimitReader(part, 32))
			if v := strings.TrimSpace(string(b)); v != "" {
				if groupID, err = httpx.Int("group_id", v); err != nil || groupID < 0 {
					return nil, httpx.BadParam("group_id", "not an id")
				}
			}
		case "file":
			if tmp != "" {
				return nil, httpx.BadParam("file", "one file per upload")
			}
			original = strings.TrimSpace(filepath.Base(strings.ReplaceAll(part.FileName(), `\`, "/")))
			f, err := ffchild.CreateInput("upload-*") // outside the data directory (docs/adr/0030)
			if err != nil {
				return nil, err
			}
			tmp = f.Name()
			n, err := io.Copy(f, io.LimitReader(part, s.opt.MaxUpload+1))
			f.Close()
			if err != nil {
				return nil, uploadErr(err)
			}
			if n > s.opt.MaxUpload {
				return nil, httpx.ErrBodyTooBig
			}
			if n == 0 {
				return nil, httpx.BadParam("file", "empty")
			}
		}
	}
	if tmp == "" {
		return nil, httpx.BadParam("file", "required")
	}
	if original == "" || original == "." || original == "/" {
		original = "audio"
	}
	if name, okName := nameField.As("file").Check(original); okName == nil {
		original = name
	} else {
		original = "audio"
	}
	if groupID != 0 {
		if _, err := s.org(ctx, c.CustomerID, groupID); err != nil {
			return nil, notFoundAs(err, "group_id")
		}
	}
	if err := s.roomFor(ctx, s.db, c.CustomerID, groupID, original); err != nil {
		return nil, err
	}
	name := randomName()
	out := filepath.Join(s.opt.MusicDir, name)
	length, err := s.transcode(ctx, c.CustomerID, tmp, out)
	if err != nil {
		os.Remove(out)
		return nil, err
	}
	st, err := os.Stat(out)
	if err != nil {
		return nil, err
	}
	f := File{GroupID: groupID, OriginalName: original, Name: name, Length: length, Size: st.Size(), CreatedAt: s.Now().UnixMilli()}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.roomFor(ctx, tx, c.CustomerID, groupID, f.OriginalName); err != nil {
			return err
		}
		if err := s.opt.Quota.Take(ctx, tx, c.CustomerID, f.Size); err != nil { // the storage quota, decided with the insert
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO bc_files (customer_id, group_id, original_name, name, length_ms, size, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, c.CustomerID, f.GroupID, f.OriginalName, f.Name, f.Length, f.Size, f.CreatedAt).Scan(&f.ID)
	})
	if err != nil {
		os.Remove(out)
		return nil, err
	}
	f.URL = MusicPath + f.Name
	return f, nil
}

func uploadErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return httpx.ErrBodyTooBig
	}
	if errors.Is(err, httpx.ErrBodyTimeout) {
		return httpx.ErrBodyTimeout
	}
	return httpx.BadParam("file", "unreadable upload")
}

// deleteFile removes a library file no task uses.
func (s *Service) deleteFile(ctx context.Context, c Caller, id int64) error {
	var name string
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT name FROM bc_files WHERE customer_id = ? AND id = ?`, c.CustomerID, id).Scan(&name); err != nil {
			return db.NotFound(err)
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM bc_task_files WHERE file_id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrFileInUse
		}
		_, err := tx.Exec(ctx, `DELETE FROM bc_files WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(s.opt.MusicDir, name)); err != nil && !os.IsNotExist(err) {
		slog.ErrorContext(ctx, "broadcast: remove music file", "name", name, "err", err)
	}
	return nil
}

// music serves a library file with range requests (spec §7 GET /music/{name}). Names are 128 random bits: the
// URL is the capability a speaker or an <audio> element needs (docs/adr/0018).
func (s *Service) music(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if len(name) != 32+len(musicExt) || !strings.HasSuffix(name, musicExt) {
		http.NotFound(w, r)
		return
	}
	if _, err := hex.DecodeString(strings.TrimSuffix(name, musicExt)); err != nil {
		http.NotFound(w, r)
		return
	}
	var created int64
	if err := s.db.QueryRow(r.Context(), `SELECT created_at FROM bc_files WHERE name = ?`, name).Scan(&created); err != nil {
		http.NotFound(w, r)
		return
	}
	f, err := os.Open(filepath.Join(s.opt.MusicDir, name))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "audio/mpeg")
	w.Header().Set("Cache-Control", "private, max-age=86400")
	http.ServeContent(w, r, name, time.UnixMilli(created), f)
}
