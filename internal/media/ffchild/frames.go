package ffchild

import (
	"encoding/binary"
	"errors"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
)

// What a recorder hands its child is whole frames: a track's RTP packets are put back in sequence order (within
// a window, as ffmpeg's own RTP reader did), cut into frames at the marker bit or a timestamp change, and
// depacketized. A frame that lost a packet is dropped whole, never written half.

const (
	reorderWindow = 512                      // packets a gap may be waited on
	reorderWait   = int64(300_000_000)       // ns a gap is waited on at most
	errNoFrame    = constError("no payload") // a frame that depacketizes to nothing
)

type constError string

func (e constError) Error() string { return string(e) }

// kind is what a track carries.
type kind int

const (
	kindVP8 kind = iota
	kindH264
	kindOpus
)

// frame is one depacketized frame.
type frame struct {
	ts   int64 // RTP timestamp, unwrapped, 0 at the track's first frame
	at   int64 // arrival of its first packet (ns, the caller's clock)
	key  bool
	data []byte // VP8 frame; H.264 access unit with 4-byte lengths (both the framer's buffer, valid during emit); Opus packet (the packet's payload)
}

// queued is what the window keeps of a packet (by value: a recorder's packets are not allocated one by one to
// be held); payload nil is an empty slot.
type queued struct {
	payload []byte
	at      int64
	ts      uint32
	marker  bool
}

// framer turns one track's RTP packets into frames.
type framer struct {
	kind kind
	emit func(frame)

	ring  [reorderWindow]queued
	held  int
	next  uint16 // the sequence number released next
	begun bool
	gap   bool // packets were lost since the last one released

	cur    [][]byte // the payloads of the frame being assembled
	buf    []byte   // the last video frame depacketized (reused: a frame is written before the next is cut)
	curTS  uint32
	curAt  int64
	broken bool

	tsBegun bool
	lastTS  uint32
	uts     int64

	Lost    uint64 // packets never seen
	Dropped uint64 // frames dropped for a lost packet
}

func newFramer(k kind, emit func(frame)) *framer { return &framer{kind: k, emit: emit} }

// push takes one packet (in arrival order) and emits the frames it completes. p is not kept, its payload is
// (not copied) until its frame is emitted.
func (f *framer) push(p *rtp.Packet, at int64) {
	if !f.begun {
		f.begun, f.next = true, p.SequenceNumber
	}
	if int16(p.SequenceNumber-f.next) < 0 {
		return // late (its gap was given up on) or a duplicate
	}
	for p.SequenceNumber-f.next >= reorderWindow {
		f.step()
	}
	slot := &f.ring[p.SequenceNumber%reorderWindow]
	if slot.payload != nil {
		return // a duplicate
	}
	payload := p.Payload
	if payload == nil {
		payload = []byte{} // padding: held like any packet (a sequence number, no media)
	}
	*slot = queued{payload: payload, at: at, ts: p.Timestamp, marker: p.Marker}
	f.held++
	f.drain()
	// a gap waited on too long is given up on: what came after it goes on
	for f.held > 0 {
		i := f.next
		for f.ring[i%reorderWindow].payload == nil {
			i++
		}
		if at-f.ring[i%reorderWindow].at < reorderWait {
			break
		}
		for f.next != i {
			f.step()
		}
		f.drain()
	}
}

// flush releases everything held (the end of the input) and the frame being assembled if it is whole.
func (f *framer) flush() {
	for f.held > 0 {
		f.step()
	}
	if len(f.cur) > 0 {
		f.finish(!f.gap)
	}
}

// drain releases packets in order up to the first gap.
func (f *framer) drain() {
	for f.ring[f.next%reorderWindow].payload != nil {
		f.step()
	}
}

// step releases the next sequence number: its packet, or a loss.
func (f *framer) step() {
	slot := &f.ring[f.next%reorderWindow]
	f.next++
	if slot.payload == nil {
		f.Lost++
		f.gap = true
		return
	}
	p := *slot
	*slot = queued{}
	f.held--
	gap := f.gap
	f.gap = false
	f.take(p, gap)
}

// take assembles in-order packets into frames; gap tells that packets were lost just before p.
func (f *framer) take(p queued, gap bool) {
	if len(p.payload) == 0 {
		if gap {
			f.broken = true
		}
		return // padding (a sender's bandwidth probe): a sequence number, no media
	}
	if len(f.cur) > 0 && p.ts != f.curTS {
		// the frame before ended without its marker: whole unless the packets between were lost
		f.finish(!gap)
	}
	if len(f.cur) == 0 {
		// a new frame: whole if it starts at its beginning (what was lost before it was another frame's)
		f.curTS, f.curAt, f.broken = p.ts, p.at, !f.head(p.payload)
	} else if gap {
		f.broken = true
	}
	f.cur = append(f.cur, p.payload)
	if p.marker || f.kind == kindOpus {
		f.finish(true)
	}
}

func (f *framer) head(payload []byte) bool {
	switch f.kind {
	case kindVP8:
		return (&codecs.VP8Packet{}).IsPartitionHead(payload)
	case kindH264:
		return (&codecs.H264Packet{}).IsPartitionHead(payload)
	}
	return true
}

// finish ends the frame being assembled: emitted when whole and its packets depacketize.
func (f *framer) finish(whole bool) {
	pkts, ts, at, broken := f.cur, f.curTS, f.curAt, f.broken
	f.cur, f.broken = pkts[:0], false // the slice is kept for the next frame, not its payloads
	if !whole || broken {
		clear(pkts)
		f.Dropped++
		return
	}
	data, key, err := f.depacketize(pkts)
	clear(pkts)
	if err != nil {
		f.Dropped++
		return
	}
	if f.tsBegun {
		f.uts += int64(int32(ts - f.lastTS))
	}
	f.tsBegun, f.lastTS = true, ts
	f.emit(frame{ts: f.uts, at: at, key: key, data: data})
}

// depacketize is a frame's data from its payloads: a video frame in f.buf (overwritten by the next), an Opus
// packet as it came.
func (f *framer) depacketize(pkts [][]byte) (data []byte, key bool, err error) {
	if f.kind == kindOpus {
		return pkts[0], true, nil
	}
	var vp8 codecs.VP8Packet
	h264 := codecs.H264Packet{IsAVC: true}
	data = f.buf[:0]
	for _, p := range pkts {
		var b []byte
		if f.kind == kindVP8 {
			b, err = vp8.Unmarshal(p)
		} else {
			b, err = h264.Unmarshal(p)
		}
		if err != nil {
			return nil, false, err
		}
		data = append(data, b...)
	}
	f.buf = data
	if len(data) == 0 {
		return nil, false, errNoFrame
	}
	if f.kind == kindVP8 {
		return data, data[0]&1 == 0, nil // the frame tag's key bit (RFC 6386 §9.1) is 0 on a keyframe
	}
	err = eachNAL(data, func(nal []byte) { key = key || nal[0]&0x1f == 5 })
	return data, key, err
}

// eachNAL calls fn with each NAL unit of an access unit in 4-byte length form.
func eachNAL(au []byte, fn func(nal []byte)) error {
	for len(au) > 0 {
		if len(au) < 4 {
			return errors.New("ffchild: a truncated NAL length")
		}
		n := binary.BigEndian.Uint32(au)
		if n == 0 || uint64(n) > uint64(len(au)-4) {
			return errors.New("ffchild: a NAL length past the access unit")
		}
		fn(au[4 : 4+n])
		au = au[4+n:]
	}
	return nil
}
