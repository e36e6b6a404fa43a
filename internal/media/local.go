package media

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
)

// A local peer (docs/adr/0043) is a party inside this process — the SIP side's bridge of a phone call — attached to
// the forwarding without a PeerConnection. What it says goes into its route as a read loop's packet would (Speak);
// what it hears is handed to its Hear as the RTP packet a remote listener would receive (renumbered as on the wire,
// Opus). No SRTP, no loopback socket, no pion writer or reader lies between it and the forwarding; the floor,
// routes, bursts and recordings are the same as for any party.
//
// Where Hear runs: a packet forwarded by a shared loop (the media socket's reader, a relay lane) is queued for the
// listener's own goroutine, so that no listener's work holds up the others; a packet a local peer speaks is heard
// in its Speak, on the speaker's own goroutine (the bridge reading its phone), when nothing is queued for that
// listener — one goroutine wake-up less per packet, and the order kept.

// ErrLocal is returned for WebRTC negotiation on a local peer (it has no connection to negotiate).
var ErrLocal = errors.New("media: a local peer has no WebRTC connection")

// localQueue is how many heard packets wait for a local peer's goroutine (≈ 1.3 s of 20 ms packets); more are
// dropped and counted as any dropped packet.
const localQueue = 64

// Hear takes one packet a local peer hears; h and payload are valid until it returns. It runs one packet at a
// time, in the order they were forwarded, on the peer's own goroutine or a local speaker's (above): it must not
// block.
type Hear func(h *rtp.Header, payload []byte)

// NewLocalPeer makes a local peer, ready from the start, whose heard packets go to hear; onState is called when
// it closes (ready false). Close ends it.
func (e *Engine) NewLocalPeer(o Owner, onState func(p *Peer, ready bool), hear Hear) *Peer {
	p := &Peer{Owner: o, e: e, down: newDownstream(nil), onState: onState, reports: newUpstreamReports()}
	p.down.local = newLocalOut(hear)
	p.ready.Store(true)
	e.adopt(p)
	return p
}

// Local tells whether the peer is a local one.
func (p *Peer) Local() bool { return p.pc == nil }

// Speak forwards one packet a local peer says, as the read loop of a remote one does: to its route's listeners,
// burst and taps, or nowhere while it holds no route. Speak is for one goroutine at a time.
func (p *Peer) Speak(pkt *rtp.Packet) {
	now := time.Now()
	p.hmu.Lock()
	if r := p.route.Load(); r != nil {
		r.send(pkt, now, true)
	} else {
		mDropped.Inc()
	}
	p.hmu.Unlock()
	p.upPackets.Add(1)
}

// localOut is a local peer's downstream output: the packets forwarded to it, heard at once in a local speaker's
// goroutine or copied into one of up to localQueue buffers and heard on the peer's own.
type localOut struct {
	hear    Hear
	queue   chan *localPacket
	free    chan *localPacket
	pending atomic.Int32 // packets queued or being heard on the goroutine
	made    int          // buffers made so far, at most localQueue (under the Downstream's mu)
	closed  bool         // under the Downstream's mu, as every send
	hdr     rtp.Header   // an inline packet's header (under the Downstream's mu)
}

type localPacket struct {
	h       rtp.Header
	buf     [1500]byte
	payload []byte
}

func newLocalOut(hear Hear) *localOut {
	l := &localOut{hear: hear, queue: make(chan *localPacket, localQueue), free: make(chan *localPacket, localQueue)}
	go l.run()
	return l
}

func (l *localOut) run() {
	for pk := range l.queue {
		l.hear(&pk.h, pk.payload)
		l.free <- pk
		l.pending.Add(-1)
	}
}

// sendLocked hears one packet (the Downstream's mu held): at once when inline (a local speaker's goroutine) and
// nothing is pending on the peer's goroutine — every send holds that mu, so none can be queued meanwhile — else a
// copy is queued. False when the queue is full or closed.
func (l *localOut) sendLocked(h *rtp.Header, payload []byte, inline bool) bool {
	if l.closed || len(payload) > len(localPacket{}.buf) {
		return false
	}
	if inline && l.pending.Load() == 0 {
		l.hdr = *h
		l.hdr.PayloadType = OpusPayloadType
		l.hear(&l.hdr, payload)
		return true
	}
	var pk *localPacket
	select {
	case pk = <-l.free:
	default:
		if l.made == localQueue {
			mDropped.Inc() // the peer's goroutine is behind by a whole queue
			return false
		}
		l.made++ // buffers are made as the queue first needs them: most packets are heard inline or at once
		pk = new(localPacket)
	}
	pk.h = *h
	pk.h.PayloadType = OpusPayloadType
	pk.payload = pk.buf[:copy(pk.buf[:], payload)]
	l.pending.Add(1)
	l.queue <- pk // never blocks: at most localQueue buffers exist
	return true
}

// closeLocked stops the queue (the Downstream's mu held); the goroutine hands on what is queued and ends.
func (l *localOut) closeLocked() {
	if !l.closed {
		l.closed = true
		close(l.queue)
	}
}

// closeLocal ends a local peer's output: its goroutine hands on what is queued and ends (a hear may still run
// after Close returns; the peer's owner stops listening by its own means).
func (d *Downstream) closeLocal() {
	d.mu.Lock()
	if d.local != nil {
		d.local.closeLocked()
	}
	d.mu.Unlock()
}
