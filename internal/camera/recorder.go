package camera

// Recording: an ffmpeg child reads the stream's RTP (as rewritten by the read loop, starting with the kept
// group of pictures, so the file begins with a keyframe at once) from a loopback port described by an SDP file
// and writes a fragmented MP4 (playable while it grows and after a crash). When the recording stops, the file is
// remuxed (copied, not transcoded) into a regular MP4 with its index first, so the browser seeks at once.

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"tenfour/internal/media/ffchild"
)

// recordDir lays recordings out by customer and UTC day.
const recordDir = "camera-records"

type recorder struct {
	rec  Record
	abs  string
	sdp  string
	cmd  *exec.Cmd
	conn *net.UDPConn
	done chan struct{} // the child has exited

	mu      sync.Mutex
	stopped bool
	last    []byte // the last packet written: resent while ffmpeg winds down (see stop)

	stopping atomic.Bool // stop has signalled the child (its exit status is then expected)
}

func (r *recorder) write(pkt []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stopped {
		_, _ = r.conn.Write(pkt)
		r.last = append(r.last[:0], pkt...)
	}
}

// startRecorder spawns the recording child for st and feeds it the kept GOP; the stream then feeds it live.
func (s *Service) startRecorder(st *stream, rec Record) (*recorder, error) {
	abs := filepath.Join(s.opts.DataDir, rec.path)
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, err
	}
	port, err := ffchild.PortPair()
	if err != nil {
		return nil, err
	}
	sdp := abs + ".sdp"
	// the parameter sets of the kept GOP go into the SDP, so the MP4's header is complete from the start
	fmtp := "packetization-mode=1"
	if sprop := spropOf(st); sprop != "" {
		fmtp += "; sprop-parameter-sets=" + sprop
	}
	body := fmt.Sprintf("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=tenfour\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"+
		"m=video %d RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\na=fmtp:96 %s\r\n", port, fmtp)
	if err := os.WriteFile(sdp, []byte(body), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(s.ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error",
		"-protocol_whitelist", "file,udp,rtp", "-reorder_queue_size", "256", "-probesize", "100000", "-analyzeduration", "300000",
		"-i", sdp, "-map", "0:v:0", "-c", "copy",
		"-f", "mp4", "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-flush_packets", "1", "-y", abs)
	ffchild.Attrs(cmd)
	var stderr ffchild.Tail
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		os.Remove(sdp)
		return nil, err
	}
	s.children.Add(1)
	r := &recorder{rec: rec, abs: abs, sdp: sdp, cmd: cmd, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		s.children.Add(-1)
		if err != nil && !r.stopping.Load() {
			slog.Warn("camera: recorder ended", "stream", rec.StreamID, "err", err, "stderr", stderr.String())
		}
		close(r.done)
	}()
	// wait until ffmpeg listens, so the first keyframe is not sent into nothing
	deadline := time.Now().Add(5 * time.Second)
	for !ffchild.Bound(port) {
		select {
		case <-r.done:
			os.Remove(sdp)
			return nil, fmt.Errorf("cameras: the recorder did not start: %s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			r.kill()
			os.Remove(sdp)
			return nil, errors.New("cameras: the recorder did not open its port")
		}
	}
	conn, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port})
	if err != nil {
		r.kill()
		os.Remove(sdp)
		return nil, err
	}
	_ = conn.SetWriteBuffer(4 << 20)
	r.conn = conn
	// the kept GOP first, then live: under the stream lock, so no packet comes between or twice
	st.mu.Lock()
	for _, pkt := range st.gop {
		_, _ = conn.Write(pkt)
	}
	st.rec = r
	st.mu.Unlock()
	return r, nil
}

// spropOf is the sprop-parameter-sets value (base64 SPS,PPS) of the stream's kept GOP, or "".
func spropOf(st *stream) string {
	gop, _ := st.snapshotGOP()
	if len(gop) > 8 {
		gop = gop[:8] // the parameter sets lead the GOP
	}
	annexB, err := depacketize(gop)
	if err != nil {
		return ""
	}
	var sps, pps []byte
	for _, nal := range bytes.Split(annexB, []byte{0, 0, 1}) {
		nal = bytes.TrimRight(nal, "\x00")
		if len(nal) == 0 {
			continue
		}
		switch nal[0] & 0x1f {
		case 7:
			sps = nal
		case 8:
			pps = nal
		}
	}
	if sps == nil || pps == nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString(sps) + "," + base64.StdEncoding.EncodeToString(pps)
}

func (r *recorder) kill() {
	_ = r.cmd.Process.Kill()
	<-r.done
}

// stop ends the child gracefully: SIGINT makes ffmpeg write its last fragment, but it notices the signal only
// when a packet arrives, so the last packet is resent (a duplicate the RTP demuxer drops) until it exits; it is
// killed after 5 s.
func (r *recorder) stop() {
	// a recording stopped at once still gets its header (written once ffmpeg has analysed the first packets):
	// wait for it, at most 5 s, so the file plays
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); {
		if fi, err := os.Stat(r.abs); err == nil && fi.Size() > 64 {
			break
		}
		select {
		case <-r.done:
			end = time.Now()
		case <-time.After(30 * time.Millisecond):
		}
	}
	r.stopping.Store(true)
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	deadline := time.After(5 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case <-r.done:
			break wait
		case <-deadline:
			r.kill()
			break wait
		case <-tick.C:
			r.mu.Lock()
			if r.conn != nil && len(r.last) > 0 {
				_, _ = r.conn.Write(r.last)
			}
			r.mu.Unlock()
		}
	}
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	if r.conn != nil {
		r.conn.Close()
	}
	os.Remove(r.sdp)
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
	rec.Duration = rec.EndTime - rec.StartTime
	if rec.Bytes < 1024 { // ffmpeg never got far enough to write a playable file (the camera stopped at once)
		slog.Warn("camera: recording left no playable file; removed", "stream", rec.StreamID, "id", rec.ID)
		os.Remove(r.abs)
		if err := s.store.DeleteRecord(context.Background(), rec.ID); err != nil {
			slog.Error("camera: removing an empty recording", "id", rec.ID, "err", err)
		}
		return rec
	}
	if err := s.store.EndRecord(context.Background(), rec.ID, rec.EndTime, rec.Bytes); err != nil {
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
