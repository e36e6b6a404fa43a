package media

import (
	"crypto/rand"
	"encoding/binary"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// A source is what a listener hears at a time: one talk burst (a floor grant) or one monitoring session.
// Source ids are unique for the process; 0 means none.
var nextSource atomic.Uint64

// NewSourceID returns a fresh source id.
func NewSourceID() uint64 { return nextSource.Add(1) }

// epoch anchors the monotonic clock the forwarder uses for timestamp gaps.
var epoch = time.Now()

// Downstream is one listener's outgoing audio track. Whoever it hears, it sees one RTP stream: sequence
// numbers continue by one across talker changes and timestamps advance with the wall-clock gap, so jitter
// buffers and loss statistics stay right.
type Downstream struct {
	track *webrtc.TrackLocalStaticRTP
	local *localOut // a local peer's (local.go): instead of track
	// assigned is the source the controller wants this listener to hear. A packet of another source is
	// dropped, except that the source already playing may finish until the assigned one starts (so a
	// released talker's last packets in flight are not lost).
	assigned atomic.Uint64

	directState // mu guards what follows too

	cur     uint64 // source of the last packet written
	started bool
	seqOff  uint16
	tsOff   uint32
	lastSeq uint16 // highest sequence number written
	lastTS  uint32 // its timestamp
	lastAt  int64  // monotonic ns of the last write
	seq0    uint16 // random initial sequence number and timestamp (RFC 3550 §5.1)
	ts0     uint32
}

func newDownstream(track *webrtc.TrackLocalStaticRTP) *Downstream {
	var b [6]byte
	_, _ = rand.Read(b[:])
	d := &Downstream{track: track, seq0: binary.BigEndian.Uint16(b[:2]), ts0: binary.BigEndian.Uint32(b[2:])}
	d.mime, d.fallbackPT, d.onPath = webrtc.MimeTypeOpus, OpusPayloadType, mDirect
	return d
}

// Assign sets the source this listener hears (0 = none).
func (d *Downstream) Assign(src uint64) { d.assigned.Store(src) }

// Assigned is the source this listener is meant to hear.
func (d *Downstream) Assigned() uint64 { return d.assigned.Load() }

// forward rewrites one packet for this listener and writes it (on the direct path: into the batch, which sends
// it); false if the packet is not for it.
func (d *Downstream) forward(src uint64, h *rtp.Header, payload []byte, now int64, b *sendBatch) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := *h
	if src != d.cur {
		if src != d.assigned.Load() {
			return false
		}
		// A new source: continue from the last packet written, one sequence number on, and the timestamp
		// moved by the time that passed (at least one 20 ms frame). now is when this packet was read; the old
		// talker's read loop may have written a packet read a little later (its release tail) while this one
		// waited for the lock, so the time passed can be negative: it counts as none.
		if d.started {
			elapsed := max(now-d.lastAt, 0)
			gap := max(uint32(elapsed*48/1_000_000), 960)
			d.seqOff = d.lastSeq + 1 - h.SequenceNumber
			d.tsOff = d.lastTS + gap - h.Timestamp
		} else {
			d.seqOff = d.seq0 - h.SequenceNumber
			d.tsOff = d.ts0 - h.Timestamp
		}
		d.cur = src
		out.Marker = true // start of a talkspurt (RFC 3551 §4.1)
	}
	out.SequenceNumber = h.SequenceNumber + d.seqOff
	out.Timestamp = h.Timestamp + d.tsOff
	if !d.started || int16(out.SequenceNumber-d.lastSeq) > 0 {
		d.lastSeq, d.lastTS = out.SequenceNumber, out.Timestamp
	}
	d.started = true
	d.lastAt = now
	if d.local != nil {
		if !d.local.sendLocked(&out, payload, b.local) {
			return false
		}
		d.written.Add(1)
		return true
	}
	return d.sendLocked(d.track, &out, payload, b, d)
}

// outsOf is downstreams as the engine's direct-path outputs.
func outsOf(ds []*Downstream) []directOut {
	outs := make([]directOut, len(ds))
	for i, d := range ds {
		outs[i] = d
	}
	return outs
}

// report sends a sender report if packets went out since the last one.
func (d *Downstream) report(now time.Time) {
	d.mu.Lock()
	d.reportLocked(now, d.lastTS, d.lastAt, 48000)
}

// Target is one listener of a route and the source under which it hears it.
type Target struct {
	D   *Downstream
	Src uint64
}

// Tap receives every packet of a route besides its listeners: live paging to public-address speakers
// (internal/broadcast). It runs in the talker's read loop and must not block.
type Tap func(h *rtp.Header, payload []byte)

// Route is where a talker's packets go: its burst (recording, metrics) if it holds a floor, the listeners, and
// taps. Routes are immutable; the controller swaps a peer's route as a whole.
type Route struct {
	Burst   *Burst
	Targets []Target
	Taps    []Tap
}

// forward sends one packet to every target, in the talker's read loop.
func (r *Route) forward(pkt *rtp.Packet, at time.Time) { r.send(pkt, at, false) }

// send is forward; local when it runs on a local peer's own goroutine (Speak), where local listeners hear at once
// (local.go).
func (r *Route) send(pkt *rtp.Packet, at time.Time, local bool) {
	h := pkt.Header
	// Header extensions, CSRCs and padding are the talker's business; listeners get a plain Opus packet.
	h.Extension, h.ExtensionProfile, h.Extensions = false, 0, nil
	h.CSRC, h.Padding, h.PaddingSize = nil, false, 0
	now := int64(at.Sub(epoch))
	n := 0
	b := batches.Get().(*sendBatch)
	b.local = local
	for i := range r.Targets {
		t := &r.Targets[i]
		if t.D.forward(t.Src, &h, pkt.Payload, now, b) {
			n++
		}
	}
	b.release()
	for _, tap := range r.Taps {
		th := h // a tap may keep what it is given: its own copy, so h stays on the stack for the listeners
		tap(&th, pkt.Payload)
	}
	delay := time.Since(at)
	mForwarded.Add(float64(n))
	mDelay.Observe(delay.Seconds())
	if r.Burst != nil {
		r.Burst.packet(pkt.Payload, h.Timestamp, at, delay, n > 0)
	}
}

// Burst is one floor grant: the talker's packets from the grant to the release, their recording and the
// latency facts the console shows.
type Burst struct {
	ID      uint64
	Granted time.Time
	// OnFirstPacket, if set, is called once, in the talker's read loop, with the first packet forwarded.
	OnFirstPacket func(sinceGrant time.Duration)

	rec   *Recorder
	first atomic.Bool

	mu      sync.Mutex
	packets int
	busy    time.Duration // sum of the per-packet delays: the forwarding loop's busy time for this burst
	delays  []uint32      // per-packet server-added delay, µs (bounded)
	firstAt time.Duration
}

// NewBurst starts a burst granted now; rec may be nil (no recording).
func NewBurst(rec *Recorder) *Burst {
	return &Burst{ID: NewSourceID(), Granted: time.Now(), rec: rec, delays: make([]uint32, 0, 512)}
}

const maxDelaySamples = 1 << 14

func (b *Burst) packet(payload []byte, ts uint32, at time.Time, delay time.Duration, forwarded bool) {
	if b.rec != nil {
		b.rec.push(payload, ts)
	}
	if !b.first.Load() && (forwarded || b.rec != nil) && b.first.CompareAndSwap(false, true) {
		since := at.Sub(b.Granted)
		mGrantToFirst.Observe(since.Seconds())
		b.mu.Lock()
		b.firstAt = since
		b.mu.Unlock()
		if b.OnFirstPacket != nil {
			b.OnFirstPacket(since)
		}
	}
	b.mu.Lock()
	b.packets++
	b.busy += delay
	if len(b.delays) < maxDelaySamples {
		b.delays = append(b.delays, uint32(delay/time.Microsecond))
	}
	b.mu.Unlock()
}

// BurstStats are a burst's measured facts.
type BurstStats struct {
	Packets int
	// FirstPacket is grant → first forwarded packet (0 if none came).
	FirstPacket time.Duration
	// DelayP50 and DelayP99 are the server-added per-packet delay (receive → last listener written).
	DelayP50, DelayP99 time.Duration
	// Busy is the forwarding loop's time spent on this burst's packets (the sum of their delays).
	Busy time.Duration
}

// Stats summarises the burst so far.
func (b *Burst) Stats() BurstStats {
	b.mu.Lock()
	d := slices.Clone(b.delays)
	s := BurstStats{Packets: b.packets, FirstPacket: b.firstAt, Busy: b.busy}
	b.mu.Unlock()
	if len(d) > 0 {
		slices.Sort(d)
		s.DelayP50 = time.Duration(d[len(d)/2]) * time.Microsecond
		s.DelayP99 = time.Duration(d[min(len(d)-1, len(d)*99/100)]) * time.Microsecond
	}
	return s
}

// Recorder is the burst's recorder (nil if it is not recorded).
func (b *Burst) Recorder() *Recorder { return b.rec }
