package camera

// Recording: an ffmpeg child reads the stream's H.264 (as rewritten by the read loop, starting with the kept
// group of pictures, so the file begins with a keyframe at once) as Matroska from a pipe it inherited
// (ffchild.Matroska, docs/adr/0031) and writes a fragmented MP4 (playable while it grows and after a crash).
// The read loop hands packets to the recorder's queue and never waits (a full queue drops, counted); the
// recorder's goroutine writes them. When the recording stops, the pipe is closed (ffmpeg writes the last
// fragment and exits) and the file is remuxed (copied, not transcoded) into a regular MP4 with its index first,
// so the browser seeks at once.

import (
	"cmp"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"

	"tenfour/internal/media/ffchild"
	"tenfour/internal/platform/dropq"
)

// recordDir lays recordings out by customer and UTC day.
const recordDir = "camera-records"

// recordQueue is the packets a recorder holds for its goroutine (about 2 s of an 8 Mbit/s camera).
const recordQueue = 2048

type recorder struct {
	rec   Record
	abs   string
	cmd   *exec.Cmd
	in    *ffchild.Feed
	done  chan struct{} // the child has exited
	fed   chan struct{} // the goroutine wrote everything and closed the child's input
	queue *dropq.Queue[[]byte]

	stopping atomic.Bool // stop has ended the child's input (its exit status is then expected)
}

// write queues one packet of the stream (the read loop); never blocks.
func (r *recorder) write(pkt []byte) { r.queue.Push(pkt) }

// startRecorder spawns the recording child for st with the kept GOP; the stream then feeds it live.
func (s *Service) startRecorder(st *stream, rec Record) (*recorder, error) {
	abs := filepath.Join(s.opts.DataDir, rec.path)
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, err
	}
	args := []string{"-nostdin", "-hide_banner", "-loglevel", "error", "-probesize", "100000", "-analyzeduration", "300000"}
	args = append(args, ffchild.FeedArgs...)
	args = append(args, "-map", "0:v:0", "-c", "copy",
		"-f", "mp4", "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-flush_packets", "1", "-y", abs)
	cmd := exec.Command(s.ffmpeg, args...)
	ffchild.Attrs(cmd)
	var stderr ffchild.Tail
	cmd.Stderr = &stderr
	in, err := ffchild.StartFed(cmd)
	if err != nil {
		return nil, err
	}
	s.children.Add(1)
	r := &recorder{rec: rec, abs: abs, cmd: cmd, in: in, done: make(chan struct{}), fed: make(chan struct{}),
		queue: dropq.New[[]byte](recordQueue)}
	go func() {
		err := cmd.Wait()
		s.children.Add(-1)
		if err != nil && !r.stopping.Load() {
			slog.Warn("camera: recorder ended", "stream", rec.StreamID, "err", err, "stderr", stderr.String())
		}
		close(r.done)
	}()
	// the kept GOP first, then live: taken under the stream lock, so no packet comes between or twice
	st.mu.Lock()
	gop := append([][]byte(nil), st.gop...)
	st.rec = r
	st.mu.Unlock()
	go r.feed(gop)
	return r, nil
}

// feed writes the kept GOP, then the queue, to the child until the queue is closed; then it ends the input.
func (r *recorder) feed(gop [][]byte) {
	defer close(r.fed)
	defer r.in.Close()
	mux := ffchild.NewMatroska(r.in, ffchild.H264, false)
	var werr error
	put := func(raw []byte) {
		var pkt rtp.Packet
		if werr == nil && pkt.Unmarshal(raw) == nil {
			werr = mux.WriteRTP(true, time.Now().UnixNano(), &pkt)
		}
	}
	for _, raw := range gop {
		put(raw)
	}
	for raw := range r.queue.C() {
		put(raw)
	}
	if werr == nil {
		werr = mux.Flush()
	}
	if werr != nil {
		slog.Warn("camera: writing to the recorder", "stream", r.rec.StreamID, "err", werr)
	}
	if lost, broken := mux.Lost(); lost > 0 {
		slog.Debug("camera: packets lost before the recorder", "stream", r.rec.StreamID, "packets", lost, "frames", broken)
	}
	if n := r.queue.Dropped(); n > 0 {
		slog.Warn("camera: the recorder's queue dropped packets", "stream", r.rec.StreamID, "packets", n)
	}
}

func (r *recorder) kill() {
	_ = r.cmd.Process.Kill()
	<-r.done
}

// stop ends the child's input and waits for it to finish the file; it is killed after 10 s (a child that
// stopped reading).
func (r *recorder) stop() {
	r.stopping.Store(true)
	r.queue.Close()
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		r.kill()
	}
	<-r.fed
}

// finishRecord stops a recorder, makes its file seekable and closes its row.
func (s *Service) finishRecord(r *recorder) Record {
	r.stop()
	s.faststart(r.abs)
	rec := r.rec
	rec.EndTime = s.now().UnixMilli()
	if fi, err := os.Stat(r.abs); err == nil {
		rec.Bytes = fi.Size()
	}
	// the playing time the file states, which a player shows; the wall time from start to stop only when the
	// file states none (the remux failed and it stayed fragmented)
	measured := int64(0)
	if d, err := mediaDuration(r.abs); err == nil {
		measured = d.Milliseconds()
	}
	rec.Duration = cmp.Or(measured, rec.EndTime-rec.StartTime)
	if rec.Bytes < 1024 { // ffmpeg never got far enough to write a playable file (the camera stopped at once)
		slog.Warn("camera: recording left no playable file; removed", "stream", rec.StreamID, "id", rec.ID)
		os.Remove(r.abs)
		if err := s.store.DeleteRecord(context.Background(), rec.ID); err != nil {
			slog.Error("camera: removing an empty recording", "id", rec.ID, "err", err)
		}
		return rec
	}
	if err := s.store.EndRecord(context.Background(), rec.ID, rec.EndTime, rec.Bytes, measured); err != nil {
		slog.Error("camera: closing a recording", "id", rec.ID, "err", err)
	}
	return rec
}

// faststart remuxes a fragmented MP4 into a regular one with the index first (copy, no transcoding); on any
// failure the fragmented file stays (it plays too).
func (s *Service) faststart(abs string) {
	tmp := abs + ".tmp.mp4"
	cmd := exec.Command(s.ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-i", abs, "-c", "copy",
		"-movflags", "+faststart", "-y", tmp)
	ffchild.Attrs(cmd)
	s.children.Add(1)
	out, err := cmd.CombinedOutput()
	s.children.Add(-1)
	if err != nil {
		slog.Warn("camera: remux", "file", abs, "err", err, "out", string(out))
		os.Remove(tmp)
		return
	}
	if err := os.Rename(tmp, abs); err != nil {
		os.Remove(tmp)
	}
}
