package camera

// A stream is one camera being pulled: a supervised ffmpeg child copies the camera's H.264 (never transcoded)
// into RTP on a loopback UDP port of ours; the read loop rewrites sequence numbers and timestamps so the stream
// stays continuous across ffmpeg restarts, keeps the current group of pictures (from the last keyframe) for
// snapshots and recordings, and writes each packet to every viewer's track (a viewer starts at a keyframe) and
// to the recorder.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"tenfour/internal/media/ffchild"
	"tenfour/internal/platform/httpx"
)

// State is what a stream is doing, as consoles show it on a tile.
type State string

// The states of a stream.
const (
	StateIdle       State = "idle"       // not pulled (nobody watches, records or asked for it)
	StateConnecting State = "connecting" // ffmpeg is starting or waiting for the first keyframe
	StatePlaying    State = "playing"    // media arrives
	StateFailed     State = "failed"     // the last attempt failed (Reason says why); retried with backoff
)

// maxGOP bounds the kept group of pictures (packets); a longer GOP is not kept (no snapshot until the next).
const maxGOP = 4000

type streamKey struct {
	customer int64
	stream   string
}

type stream struct {
	svc *Service
	key streamKey

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{} // closed when the pull loop has ended and its child is reaped

	recMu     sync.Mutex // serializes starting and stopping the recording
	mu        sync.Mutex
	cam       Camera
	state     State
	reason    *httpx.Error  // why the last attempt failed (StateFailed)
	changed   chan struct{} // closed and replaced at every state change
	gop       [][]byte      // RTP packets (rewritten) from the last keyframe on
	gopFrames int
	gopTS     uint32
	viewers   map[*viewer]struct{}
	rec       *recorder
	lastUse   time.Time
	pid       int

	// snapshots: the kept GOP's keyframe decoded once, shared by every request for it (snap in ops.go)
	snapMu sync.Mutex
	snap   *snapshot

	// continuity across ffmpeg runs (read loop only)
	haveOut       bool
	lastSeq       uint16
	lastTS        uint32
	seqOff        uint16
	tsOff         uint32
	newRun        bool
	lastPacketAt  atomic.Int64 // unix ms
	firstKeyAt    atomic.Int64 // unix ms of the first keyframe of the current run
	packets       atomic.Uint64
	restarts      atomic.Int64
	lastStartedAt time.Time
}

type viewer struct {
	track   *webrtc.TrackLocalStaticRTP
	started bool        // a keyframe has been written (under stream.mu)
	ready   atomic.Bool // ICE+DTLS up
	closed  atomic.Bool
	closeFn func()
}

func newStream(svc *Service, cam Camera) *stream {
	ctx, cancel := context.WithCancel(svc.ctx)
	return &stream{svc: svc, key: streamKey{cam.customerID, cam.StreamID}, cam: cam, ctx: ctx, cancel: cancel,
		done: make(chan struct{}), state: StateConnecting, changed: make(chan struct{}),
		viewers: map[*viewer]struct{}{}, lastUse: svc.now()}
}

// setState records a state change, wakes waiters and tells the customer's consoles.
func (s *stream) setState(st State, reason *httpx.Error) {
	s.mu.Lock()
	if s.state == st && s.reason == reason {
		s.mu.Unlock()
		return
	}
	s.state, s.reason = st, reason
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	s.svc.publishState(s.key, st, reason)
}

// status is the stream's state, its failure and a channel closed at the next change.
func (s *stream) status() (State, *httpx.Error, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, s.reason, s.changed
}

func (s *stream) touch() {
	s.mu.Lock()
	s.lastUse = s.svc.now()
	s.mu.Unlock()
}

// idle tells whether nobody uses the stream since before cutoff.
func (s *stream) idle(cutoff time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.viewers) == 0 && s.rec == nil && s.lastUse.Before(cutoff)
}

// online tells whether media arrived recently.
func (s *stream) online() bool {
	st, _, _ := s.status()
	return st == StatePlaying && time.Since(time.UnixMilli(s.lastPacketAt.Load())) < s.svc.opts.NoMediaTimeout
}

// run is the supervised pull: ffmpeg is (re)started with exponential backoff until the stream is stopped.
func (s *stream) run() {
	defer close(s.done)
	backoff := s.svc.opts.BackoffMin
	for s.ctx.Err() == nil {
		started := time.Now()
		err := s.pullOnce()
		if s.ctx.Err() != nil {
			return
		}
		coded := classify(err)
		s.setState(StateFailed, coded)
		if time.Since(started) > 30*time.Second {
			backoff = s.svc.opts.BackoffMin // it played a while: a fresh failure
		}
		s.restarts.Add(1)
		slog.Info("camera: pull ended", "stream", s.key.stream, "customer", s.key.customer,
			"url", redact(s.cam.StreamURL), "reason", coded.Key, "err", err, "retry_in", backoff)
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, s.svc.opts.BackoffMax)
	}
}

// pullError is an ffmpeg run's end with the tail of its error output.
type pullError struct {
	stderr string
	err    error
}

func (e *pullError) Error() string {
	return fmt.Sprintf("%v: %s", e.err, strings.TrimSpace(e.stderr))
}

// pullOnce runs one ffmpeg child until it exits, no media comes for NoMediaTimeout, or the stream stops.
func (s *stream) pullOnce() error {
	s.mu.Lock()
	cam := s.cam
	s.mu.Unlock()
	s.setState(StateConnecting, nil)
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return err
	}
	defer conn.Close()
	rtcp, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return err
	}
	defer rtcp.Close()
	_ = conn.SetReadBuffer(4 << 20)
	rctx, rcancel := context.WithTimeout(s.ctx, s.svc.opts.ConnectTimeout)
	addr, err := s.svc.opts.AllowNets.pinned(rctx, cam.StreamURL) // --camera-allow-nets, checked where the name resolves now
	rcancel()
	if err != nil {
		return err
	}
	// the one boundary (ffchild.CameraURL): -f rtsp, only RTSP's protocols, so a camera's answer cannot lead
	// ffmpeg to files or HTTP
	in, err := ffchild.CameraURL(addr, cam.Protocol == TransportUDP, s.svc.opts.ConnectTimeout)
	if err != nil {
		return ErrOffline
	}
	port, rport := conn.LocalAddr().(*net.UDPAddr).Port, rtcp.LocalAddr().(*net.UDPAddr).Port
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	cmd, err := ffchild.Command(ctx, s.svc.ffmpeg, in, ffchild.Output{
		Args: []string{"-map", "0:v:0", "-an", "-c:v", "copy", "-bsf:v", "h264_mp4toannexb,dump_extra=freq=keyframe",
			"-f", "rtp", "-payload_type", "96"},
		Target: fmt.Sprintf("rtp://127.0.0.1:%d?rtcpport=%d&pkt_size=1200", port, rport)})
	if err != nil {
		return err
	}
	var stderr ffchild.Tail
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	s.svc.children.Add(1)
	s.mu.Lock()
	s.pid = cmd.Process.Pid
	s.newRun = true
	s.lastStartedAt = time.Now()
	s.mu.Unlock()
	s.firstKeyAt.Store(0)
	s.lastPacketAt.Store(time.Now().UnixMilli())
	go func() { // RTCP sender reports: read and dropped (the receiver side is ours)
		buf := make([]byte, 1500)
		for {
			if _, err := rtcp.Read(buf); err != nil {
				return
			}
		}
	}()
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		s.readLoop(conn)
	}()
	// watchdog: a camera that connects but sends nothing (or stops sending) is restarted
	waitDone := make(chan error, 1)
	go func() { waitDone <- cmd.Wait() }()
	tick := time.NewTicker(s.svc.opts.NoMediaTimeout / 4)
	defer tick.Stop()
	var runErr error
loop:
	for {
		select {
		case err := <-waitDone:
			runErr = err
			break loop
		case <-tick.C:
			if time.Since(time.UnixMilli(s.lastPacketAt.Load())) > s.svc.opts.NoMediaTimeout {
				cancel()
				<-waitDone
				runErr = errNoMedia
				break loop
			}
		}
	}
	s.svc.children.Add(-1)
	conn.Close()
	<-readDone
	s.mu.Lock()
	s.pid = 0
	s.mu.Unlock()
	if runErr == nil {
		runErr = errors.New("ffmpeg ended")
	}
	return &pullError{stderr: stderr.String(), err: runErr}
}

var errNoMedia = errors.New("no media")

// classify maps how a pull ended to the coded reason a tile shows.
func classify(err error) *httpx.Error {
	var coded *httpx.Error
	if errors.As(err, &coded) { // refused before ffmpeg ran (--camera-allow-nets)
		return coded
	}
	var pe *pullError
	if !errors.As(err, &pe) {
		return ErrOffline
	}
	msg := strings.ToLower(pe.stderr)
	switch {
	case strings.Contains(msg, "404 not found") || strings.Contains(msg, "454 session not found"):
		return ErrNoStream
	case strings.Contains(msg, "401 unauthorized") || strings.Contains(msg, "403 forbidden"):
		return ErrUnauthorized
	case strings.Contains(msg, "453 not enough bandwidth") || strings.Contains(msg, "503 service unavailable") ||
		strings.Contains(msg, "too many"):
		return ErrBusy
	case strings.Contains(msg, "not supported by the bitstream filter") || strings.Contains(msg, "codec not currently supported"):
		return ErrNotSupported
	case errors.Is(pe.err, errNoMedia) && msg == "":
		return ErrNoMedia
	}
	return ErrOffline
}

// readLoop reads ffmpeg's RTP until the socket closes.
func (s *stream) readLoop(conn *net.UDPConn) {
	buf := make([]byte, 1600)
	var pkt rtp.Packet
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return
		}
		if err := pkt.Unmarshal(buf[:n]); err != nil || pkt.PayloadType != 96 {
			continue
		}
		s.lastPacketAt.Store(time.Now().UnixMilli())
		s.packets.Add(1)
		s.handle(&pkt)
	}
}

// handle forwards one packet (read loop only).
func (s *stream) handle(pkt *rtp.Packet) {
	// continuity: a new ffmpeg run continues where the last left off
	if s.newRun {
		s.newRun = false
		if s.haveOut {
			s.seqOff = s.lastSeq + 1 - pkt.SequenceNumber
			s.tsOff = s.lastTS + 3000 - pkt.Timestamp
		} else {
			s.seqOff, s.tsOff = 0, 0
		}
	}
	pkt.SequenceNumber += s.seqOff
	pkt.Timestamp += s.tsOff
	s.haveOut, s.lastSeq, s.lastTS = true, pkt.SequenceNumber, pkt.Timestamp
	pkt.Extension, pkt.Extensions = false, nil
	key := isKeyframeStart(pkt.Payload)
	raw, err := pkt.Marshal()
	if err != nil {
		return
	}
	if key && s.firstKeyAt.Load() == 0 {
		s.firstKeyAt.Store(time.Now().UnixMilli())
		s.setState(StatePlaying, nil)
	}
	s.mu.Lock()
	switch {
	case key && (len(s.gop) == 0 || s.gopTS != pkt.Timestamp):
		// a new keyframe (its parameter sets and slices share one timestamp: one access unit)
		s.gop = append(s.gop[:0:0], raw)
		s.gopFrames, s.gopTS = 0, pkt.Timestamp
	case s.gop != nil && len(s.gop) < maxGOP:
		s.gop = append(s.gop, raw)
	default:
		s.gop = nil
	}
	if pkt.Marker && s.gop != nil {
		s.gopFrames++
	}
	for v := range s.viewers {
		if !v.ready.Load() {
			v.started = false
			continue
		}
		if !v.started {
			v.started = true
			if len(s.gop) > 0 && !key {
				// a viewer joining mid-GOP gets the kept GOP at once (its keyframe first, the current packet last)
				joinGOP(v, s.gop, pkt.Timestamp)
				continue
			} else if !key {
				v.started = false
				continue
			}
		}
		_ = v.track.WriteRTP(pkt)
	}
	rec := s.rec
	s.mu.Unlock()
	if rec != nil {
		rec.write(raw)
	}
}

// joinGOP writes the kept GOP to a viewer that just joined, so its decoder starts now rather than at the next
// keyframe. The GOP's timestamps are squeezed towards now's (1/64 of their distance, order kept), so the
// browser decodes and shows the catch-up frames at once and plays live from the next packet on, with no added
// delay; sequence numbers stay as they are (the GOP is the stream's own preceding packets).
func joinGOP(v *viewer, gop [][]byte, now uint32) {
	var p rtp.Packet
	for _, raw := range gop {
		if err := p.Unmarshal(raw); err != nil {
			continue
		}
		p.Timestamp = now - (now-p.Timestamp)/64
		_ = v.track.WriteRTP(&p)
	}
}

// snapshotGOP copies the kept group of pictures and how many frames it holds.
func (s *stream) snapshotGOP() ([][]byte, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.gop...), s.gopFrames
}

// addViewer attaches a viewer; it receives packets from its first keyframe once ready.
func (s *stream) addViewer(v *viewer) {
	s.mu.Lock()
	if !v.closed.Load() { // a viewer closed meanwhile is not attached (closeFn sets closed before it detaches)
		s.viewers[v] = struct{}{}
	}
	s.lastUse = s.svc.now()
	s.mu.Unlock()
}

func (s *stream) removeViewer(v *viewer) {
	s.mu.Lock()
	delete(s.viewers, v)
	s.lastUse = s.svc.now()
	s.mu.Unlock()
}

// stop ends the pull, closes every viewer and stops a recording; it waits for the child to be reaped.
func (s *stream) stop() {
	s.cancel()
	<-s.done
	s.mu.Lock()
	vs := make([]*viewer, 0, len(s.viewers))
	for v := range s.viewers {
		vs = append(vs, v)
	}
	rec := s.rec
	s.rec = nil
	s.mu.Unlock()
	for _, v := range vs {
		v.closeFn()
	}
	if rec != nil {
		s.svc.finishRecord(rec)
	}
}

// isKeyframeStart tells whether an H.264 RTP payload begins an IDR picture or carries the parameter sets
// that precede one (SPS 7, PPS 8, IDR slice 5; single NAL, STAP-A 24, FU-A 28 start).
func isKeyframeStart(p []byte) bool {
	if len(p) < 2 {
		return false
	}
	switch t := p[0] & 0x1f; t {
	case 5, 7:
		return true
	case 24: // STAP-A: NALs with 16-bit sizes
		for i := 1; i+2 < len(p); {
			size := int(p[i])<<8 | int(p[i+1])
			if nt := p[i+2] & 0x1f; nt == 7 || nt == 5 {
				return true
			}
			i += 2 + size
		}
	case 28: // FU-A: start bit and the fragmented NAL's type
		return p[1]&0x80 != 0 && p[1]&0x1f == 5
	}
	return false
}
