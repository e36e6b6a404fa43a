package media

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4/pkg/media/oggwriter"

	"tenfour/internal/media/oggopus"
	"tenfour/internal/platform/dropq"
)

// Quality is a recording's voice quality (spec §9: HD plays and downloads, SD does not).
type Quality string

const (
	HD Quality = "HD"
	SD Quality = "SD"
)

// Recording is what a finished recorder wrote.
type Recording struct {
	Path    string
	Size    int64
	Packets int
	Samples int // decoded length in 48 kHz samples
	Quality Quality
	Dropped int // packets the writer could not keep up with
	Skipped int // malformed Opus packets left out (the rest of the burst is kept)
}

// recorderSSRC names the one logical stream of a recording file.
const recorderSSRC = 1

type recPacket struct {
	payload []byte
	ts      uint32
}

// Recorder writes one burst to an Ogg Opus file, off the forwarding path: the talker's read loop hands it
// copies through a bounded queue and one goroutine per recording writes them.
type Recorder struct {
	path string
	f    *os.File
	w    *oggwriter.Writer
	tr   *oggwriter.Track

	q *dropq.Queue[recPacket]

	done chan struct{}
	res  Recording
	err  error
}

// recordFlush is how long a recording's pages may stay in memory before they are written to its file.
const recordFlush = time.Second

// pageFile is the recording's file as the Ogg writer sees it. Pages gather in memory and reach the file at most
// once a recordFlush (and at the end) instead of with a seek and a write for every 20 ms packet: each is a system
// call, which also wakes the runtime's monitor thread on a server that is otherwise idle between packets
// (docs/adr/0029). A process that dies in the middle of a burst loses at most the last second of its recording.
// Its Close writes what is left and flushes the file to disk before closing it, so a recording is durable before
// its index row is written.
type pageFile struct {
	f    *os.File
	buf  []byte
	off  int64 // the file's end as the writer sees it: written and gathered
	last time.Time
	err  error
}

func (p *pageFile) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	p.buf = append(p.buf, b...)
	p.off += int64(len(b))
	if len(p.buf) >= 64<<10 || time.Since(p.last) >= recordFlush {
		if err := p.flush(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

func (p *pageFile) flush() error {
	p.last = time.Now()
	if p.err != nil || len(p.buf) == 0 {
		return p.err
	}
	_, p.err = p.f.Write(p.buf)
	p.buf = p.buf[:0]
	return p.err
}

// Seek answers the writer's "where am I" (offset 0 from the current position) from memory; any other seek
// writes what is gathered first.
func (p *pageFile) Seek(offset int64, whence int) (int64, error) {
	if offset == 0 && whence == io.SeekCurrent {
		return p.off, nil
	}
	if err := p.flush(); err != nil {
		return 0, err
	}
	n, err := p.f.Seek(offset, whence)
	if err == nil {
		p.off = n
	}
	return n, err
}

// WriteAt rewrites an earlier page (the last page's end-of-stream flag, at Close), after what is gathered.
func (p *pageFile) WriteAt(b []byte, at int64) (int, error) {
	if err := p.flush(); err != nil {
		return 0, err
	}
	return p.f.WriteAt(b, at)
}

func (p *pageFile) Close() error { return errors.Join(p.flush(), p.f.Sync(), p.f.Close()) }

// StartRecorder starts recording to path. It returns at once: the file (and its directory) is created by the
// recorder's own goroutine, so a grant never waits for the disk; packets queue meanwhile. A file that cannot
// be created is reported by Finish.
func StartRecorder(path string) *Recorder {
	r := &Recorder{path: path, q: dropq.New[recPacket](512), done: make(chan struct{})}
	r.res.Path = path
	go r.run()
	return r
}

func (r *Recorder) open() error {
	if err := os.MkdirAll(filepath.Dir(r.path), 0o750); err != nil {
		return err
	}
	f, err := os.OpenFile(r.path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o640)
	if err != nil {
		return err
	}
	pf := &pageFile{f: f}
	w, err := oggwriter.NewWriter(pf, oggwriter.WithSeekableOutput(pf),
		oggwriter.WithSampleRate(48000), oggwriter.WithChannelCount(1), oggwriter.WithVendor("tenfour"))
	if err == nil {
		r.tr, err = w.NewTrack(recorderSSRC)
		if err != nil {
			w.Close()
		}
	} else {
		f.Close()
	}
	if err != nil {
		_ = os.Remove(r.path) // created above: no partial file stays behind
		return err
	}
	r.f, r.w = f, w
	return nil
}

// push queues a copy of a packet; never blocks (a full queue drops, counted).
func (r *Recorder) push(payload []byte, ts uint32) {
	r.q.Push(recPacket{payload: append([]byte(nil), payload...), ts: ts})
}

func (r *Recorder) run() {
	defer close(r.done)
	if err := r.open(); err != nil {
		r.err = fmt.Errorf("media: start recording %s: %w", r.path, err)
		for range r.q.C() { // until Finish: nothing is written
		}
		return
	}
	wide := 0
	var seq uint16
	for p := range r.q.C() {
		seq++
		pkt := &rtp.Packet{Header: rtp.Header{Version: 2, SSRC: recorderSSRC, SequenceNumber: seq, Timestamp: p.ts},
			Payload: p.payload}
		// A malformed packet (a talker's bug or an attack) is left out, not the burst: listeners heard the rest.
		if !oggopus.Valid(p.payload) {
			r.res.Skipped++
			mRecordSkipped.Inc()
			continue
		}
		if err := r.tr.WriteRTP(pkt); err != nil {
			if r.err == nil {
				r.err = fmt.Errorf("media: record %s: %w", r.path, err)
			}
			continue
		}
		r.res.Packets++
		r.res.Samples += oggopus.Samples(p.payload)
		if oggopus.PacketBandwidth(p.payload) >= oggopus.Wideband {
			wide++
		}
	}
	// Narrowband or mediumband voice (radio gateways, low-rate links) is SD.
	r.res.Quality = SD
	if wide*2 > r.res.Packets {
		r.res.Quality = HD
	}
	if err := r.w.Close(); err != nil && r.err == nil {
		r.err = err
	}
	if r.err != nil {
		_ = os.Remove(r.path) // the file this recorder created is incomplete: nothing will index it
		return
	}
	if st, err := os.Stat(r.path); err == nil {
		r.res.Size = st.Size()
	}
}

// Finish stops recording, flushes the file to disk and reports what was written. A recording without
// packets is removed (Packets is 0), and so is one that failed to write (the error).
func (r *Recorder) Finish() (Recording, error) {
	r.q.Close()
	<-r.done // run has returned: res and err are final
	res, err := r.res, r.err
	res.Dropped = int(r.q.Dropped())
	if err == nil && res.Packets == 0 {
		_ = os.Remove(r.path)
	}
	return res, err
}
