package media

// Recording of a video session's party (its camera and microphone, docs/video.md §5, adr/0017): the party's
// feeds hand the recorder a copy of each packet through a bounded queue (a full queue drops, counted: the live
// path never waits), and the recorder's own goroutine writes them, from the first keyframe on, as Matroska to a
// pipe its ffmpeg child inherited (ffchild.Matroska: whole frames on one clock; docs/adr/0031), which ffmpeg
// copies without transcoding — VP8 + Opus into WebM, H.264 + Opus into MP4 (index first). The file is written
// under a ".part" name and renamed when ffmpeg finished it: a file with the final name is always complete, and
// a failed recording leaves nothing.

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"tenfour/internal/media/ffchild"
	"tenfour/internal/media/keyframe"
	"tenfour/internal/platform/defaults"
	"tenfour/internal/platform/dropq"
)

// PartSuffix marks a recording file still being written (or left by a crash: never a recording).
const PartSuffix = ".part"

// ErrNoKeyframe is Finish's answer for a recording that never saw a keyframe: nothing was written.
var ErrNoKeyframe = errors.New("media: no keyframe to start the recording at")

var mVideoRecDropped = promauto.NewCounter(prometheus.CounterOpts{
	Name: "tenfour_video_record_dropped_total", Help: "Video-session packets a recorder's full queue dropped.",
})

// VideoRecordOptions configure one recording.
type VideoRecordOptions struct {
	FFmpeg string     // the ffmpeg executable
	Path   string     // the finished file (absolute): ContainerExt(Codec) is its extension
	Codec  VideoCodec // the session's codec
	Queue  int        // packets the queue holds (default 4096: about 20 s of a 1 Mbit/s call)
}

// ContainerExt is the file extension a codec is recorded in: WebM for VP8, MP4 for H.264 (what browsers play).
func ContainerExt(c VideoCodec) string {
	if c == H264 {
		return ".mp4"
	}
	return ".webm"
}

// VideoRecording is what a finished recorder wrote.
type VideoRecording struct {
	Path     string
	Start    time.Time // the first keyframe
	Duration time.Duration
	Size     int64
	Audio    bool
	Frames   uint64 // video frames written
	Packets  uint64
	Dropped  uint64 // packets the full queue dropped
}

type vrecPacket struct {
	video   bool
	src     uint64
	at      int64 // since epoch, ns
	h       rtp.Header
	payload []byte
}

// rebase keeps one kind's sequence numbers and timestamps continuous when the feed behind it changes (a party
// that reconnected): a Sink's numbering, and a recording's.
type rebase struct {
	cur     uint64
	started bool
	seqOff  uint16
	tsOff   uint32
	lastSeq uint16
	lastTS  uint32
	lastAt  int64
	clock   int64
}

// apply renumbers h, a packet of feed src that arrived at (ns since epoch): a new feed goes on one packet and
// the time that passed after the last one of the previous feed.
func (r *rebase) apply(src uint64, h *rtp.Header, at int64) {
	if src != r.cur {
		if r.started {
			gap := max(uint32(max(at-r.lastAt, 0)*r.clock/1_000_000_000), 1)
			r.seqOff = r.lastSeq + 1 - h.SequenceNumber
			r.tsOff = r.lastTS + gap - h.Timestamp
		}
		r.cur = src
	}
	h.SequenceNumber += r.seqOff
	h.Timestamp += r.tsOff
	if !r.started || int16(h.SequenceNumber-r.lastSeq) > 0 {
		r.lastSeq, r.lastTS = h.SequenceNumber, h.Timestamp
	}
	r.started = true
	r.lastAt = at
}

// VideoRecorder records one party of a video session.
type VideoRecorder struct {
	opts VideoRecordOptions

	q     *dropq.Queue[vrecPacket]
	mu    sync.Mutex
	feeds []*Feed // changed with q's closing under mu: a closed recorder follows no feed

	audioSeen atomic.Bool
	done      chan struct{}
	res       VideoRecording
	err       error

	// the child, owned by run
	cmd       *exec.Cmd
	exited    chan struct{}
	stderr    ffchild.Tail
	in        *ffchild.Feed
	mux       *ffchild.Matroska
	vr, ar    rebase
	firstTS   uint32
	lastTS    uint32
	startedAt time.Time
}

// StartVideoRecorder starts recording what video and audio (a party's camera and microphone; audio may be nil)
// send. It returns at once; the child starts with the first keyframe, which the recorder asks the sender for.
func StartVideoRecorder(opts VideoRecordOptions, video, audio *Feed) *VideoRecorder {
	defaults.Positive(&opts.Queue, 4096)
	r := &VideoRecorder{opts: opts, q: dropq.New[vrecPacket](opts.Queue), done: make(chan struct{})}
	r.vr.clock, r.ar.clock = 90000, 48000
	r.res.Path = opts.Path
	r.Follow(video, audio)
	go r.run()
	return r
}

// Follow moves the recording to a party's new feeds (it reconnected): the file goes on, its timestamps
// continuous.
func (r *VideoRecorder) Follow(video, audio *Feed) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.q.Closed() {
		return
	}
	for _, f := range r.feeds {
		f.rec.CompareAndSwap(r, nil)
	}
	r.feeds = r.feeds[:0]
	for _, f := range []*Feed{video, audio} {
		if f != nil {
			f.rec.Store(r)
			r.feeds = append(r.feeds, f)
		}
	}
	if video != nil {
		video.RequestKeyframe()
	}
}

// push queues a copy of a packet; never blocks (a full queue drops, counted).
func (r *VideoRecorder) push(video bool, src uint64, h *rtp.Header, payload []byte, now int64) {
	if !video {
		r.audioSeen.Store(true)
	}
	if !r.q.Push(vrecPacket{video: video, src: src, at: now, h: *h, payload: append([]byte(nil), payload...)}) {
		mVideoRecDropped.Inc()
	}
}

func (r *VideoRecorder) videoFeed() *Feed {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range r.feeds {
		if f.video {
			return f
		}
	}
	return nil
}

func (r *VideoRecorder) run() {
	defer close(r.done)
	ask := time.NewTicker(time.Second) // keyframe requests until the first one is written
	defer ask.Stop()
	for {
		select {
		case p, ok := <-r.q.C():
			if !ok {
				r.finish()
				return
			}
			if r.cmd == nil {
				if r.err != nil || !p.video || !keyframe.Starts(p.payload, r.opts.Codec == H264) {
					continue // before the first keyframe (or after a failed start): nothing to write
				}
				r.awaitAudio(time.Second)
				if err := r.start(); err != nil {
					r.err = err
					continue
				}
				r.startedAt = epoch.Add(time.Duration(p.at))
			}
			r.write(&p)
		case <-ask.C:
			if r.mux != nil && r.mux.Frames > 0 {
				ask.Stop()
			} else if f := r.videoFeed(); f != nil {
				f.RequestKeyframe() // none yet, or an H.264 one without its parameter sets (the file's header needs them)
			}
		}
	}
}

// awaitAudio gives a party's microphone up to d to send its first packet when the first keyframe came before it
// (a microphone opened after the camera): the file's tracks are fixed when ffmpeg starts. Packets queue meanwhile.
func (r *VideoRecorder) awaitAudio(d time.Duration) {
	r.mu.Lock()
	hasAudio := false
	for _, f := range r.feeds {
		hasAudio = hasAudio || !f.video
	}
	r.mu.Unlock()
	for end := time.Now().Add(d); hasAudio && !r.audioSeen.Load() && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
}

// start starts ffmpeg reading Matroska from a pipe it inherits; what is written before it reads waits in the pipe.
func (r *VideoRecorder) start() error {
	part := r.opts.Path + PartSuffix
	if err := os.MkdirAll(filepath.Dir(part), 0o750); err != nil {
		return err
	}
	audio := r.audioSeen.Load() // a party whose microphone sends nothing is recorded without audio
	format := []string{"-f", "webm"}
	codec := ffchild.VP8
	if r.opts.Codec == H264 {
		format = []string{"-f", "mp4", "-movflags", "+faststart"}
		codec = ffchild.H264
	}
	args := []string{"-nostdin", "-hide_banner", "-loglevel", "error", "-probesize", "200000", "-analyzeduration", "500000"}
	args = append(args, ffchild.FeedArgs...)
	args = append(args, "-map", "0", "-c", "copy")
	args = append(append(args, format...), "-y", part)
	cmd := exec.Command(r.opts.FFmpeg, args...)
	ffchild.Attrs(cmd)
	cmd.Stderr = &r.stderr
	in, err := ffchild.StartFed(cmd)
	if err != nil {
		return fmt.Errorf("media: start the recorder: %w", err)
	}
	r.cmd, r.exited, r.in = cmd, make(chan struct{}), in
	go func() { _ = cmd.Wait(); close(r.exited) }()
	r.mux = ffchild.NewMatroska(in, codec, audio)
	r.res.Audio = audio
	return nil
}

func (r *VideoRecorder) write(p *vrecPacket) {
	if p.video {
		r.vr.apply(p.src, &p.h, p.at)
		if r.res.Packets == 0 {
			r.firstTS = p.h.Timestamp
		}
		if int32(p.h.Timestamp-r.lastTS) > 0 || r.res.Packets == 0 {
			r.lastTS = p.h.Timestamp
		}
	} else {
		r.ar.apply(p.src, &p.h, p.at)
	}
	if err := r.mux.WriteRTP(p.video, p.at, &rtp.Packet{Header: p.h, Payload: p.payload}); err == nil {
		r.res.Packets++
	}
}

func (r *VideoRecorder) kill() {
	if r.cmd != nil && r.cmd.Process != nil {
		_ = r.cmd.Process.Kill()
		<-r.exited
	}
}

// finish ends the child's input (ffmpeg then writes the rest and its trailer, and exits) and renames the file;
// anything short of a finished file is removed. A child that does not finish in 10 s is killed (the recording
// lost).
func (r *VideoRecorder) finish() {
	r.res.Dropped = r.q.Dropped()
	if r.cmd == nil {
		if r.err == nil {
			r.err = ErrNoKeyframe
		}
		return
	}
	part := r.opts.Path + PartSuffix
	werr := r.mux.Flush()
	r.res.Frames = r.mux.Frames
	r.in.Close()
	killed := false
	select {
	case <-r.exited:
	case <-time.After(10 * time.Second):
		r.kill()
		killed = true
	}
	fi, err := os.Stat(part)
	switch {
	case killed:
		r.err = fmt.Errorf("media: the recorder did not finish in time: %s", r.stderr.String())
	case !r.cmd.ProcessState.Success():
		r.err = fmt.Errorf("media: the recorder failed (%s): %s", r.cmd.ProcessState, r.stderr.String())
	case werr != nil:
		r.err = fmt.Errorf("media: writing to the recorder: %w (%s)", werr, r.stderr.String())
	case err != nil:
		r.err = fmt.Errorf("media: the recorder wrote nothing: %w (%s)", err, r.stderr.String())
	case fi.Size() == 0 || r.res.Frames == 0:
		r.err = fmt.Errorf("media: the recording is empty (%s)", r.stderr.String())
	}
	if r.err == nil {
		if err := os.Rename(part, r.opts.Path); err != nil {
			r.err = err
		}
	}
	if r.err != nil {
		_ = os.Remove(part)
		return
	}
	r.res.Size = fi.Size()
	r.res.Start = r.startedAt
	r.res.Duration = time.Duration(r.lastTS-r.firstTS) * time.Second / 90000
	lost, broken := r.mux.Lost()
	slog.Debug("media: recorded", "file", r.opts.Path, "frames", r.res.Frames, "lost", lost, "framesLost", broken,
		"stderr", r.stderr.String())
}

// Finish stops recording, waits for the file to be finished and reports it. ErrNoKeyframe when nothing was
// recorded; on any error no file is left.
func (r *VideoRecorder) Finish() (VideoRecording, error) {
	r.mu.Lock()
	if !r.q.Closed() {
		for _, f := range r.feeds {
			f.rec.CompareAndSwap(r, nil)
		}
		r.q.Close()
	}
	r.mu.Unlock()
	<-r.done
	return r.res, r.err
}
