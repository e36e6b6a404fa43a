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
	data []byte // VP8 frame; H.264 access unit with 4-byte lengths; Opus packet
}

type queued struct {
	p  *rtp.Packet
	at int64
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

	cur    []*rtp.Packet // the frame being assembled
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

// push takes one packet (in arrival order) and emits the frames it completes.
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
	if slot.p != nil {
		return // a duplicate
	}
	*slot = queued{p, at}
	f.held++
	f.drain()
	// a gap waited on too long is given up on: what came after it goes on
	for f.held > 0 {
		i := f.next
		for f.ring[i%reorderWindow].p == nil {
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
	for f.ring[f.next%reorderWindow].p != nil {
		f.step()
	}
}

// step releases the next sequence number: its packet, or a loss.
func (f *framer) step() {
	slot := &f.ring[f.next%reorderWindow]
	f.next++
	if slot.p == nil {
		f.Lost++
		f.gap = true
		return
	}
	p, at := slot.p, slot.at
	*slot = queued{}
	f.held--
	gap := f.gap
	f.gap = false
	f.take(p, at, gap)
}

// take assembles in-order packets into frames; gap tells that packets were lost just before p.
func (f *framer) take(p *rtp.Packet, at int64, gap bool) {
	if len(p.Payload) == 0 {
		if gap {
			f.broken = true
		}
		return // padding (a sender's bandwidth probe): a sequence number, no media
	}
	if len(f.cur) > 0 && p.Timestamp != f.curTS {
		// the frame before ended without its marker: whole unless the packets between were lost
		f.finish(!gap)
	}
	if len(f.cur) == 0 {
		// a new frame: whole if it starts at its beginning (what was lost before it was another frame's)
		f.curTS, f.curAt, f.broken = p.Timestamp, at, !f.head(p.Payload)
	} else if gap {
		f.broken = true
	}
	f.cur = append(f.cur, p)
	if p.Marker || f.kind == kindOpus {
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
	f.cur, f.broken = f.cur[:0:0], false
	if !whole || broken {
		f.Dropped++
		return
	}
	data, key, err := f.depacketize(pkts)
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

func (f *framer) depacketize(pkts []*rtp.Packet) (data []byte, key bool, err error) {
	switch f.kind {
	case kindVP8:
		var d codecs.VP8Packet
		for _, p := range pkts {
			b, err := d.Unmarshal(p.Payload)
			if err != nil {
				return nil, false, err
			}
			data = append(data, b...)
		}
		if len(data) == 0 {
			return nil, false, errNoFrame
		}
		return data, data[0]&1 == 0, nil // the frame tag's key bit (RFC 6386 §9.1) is 0 on a keyframe
	case kindH264:
		d := codecs.H264Packet{IsAVC: true}
		for _, p := range pkts {
			b, err := d.Unmarshal(p.Payload)
			if err != nil {
				return nil, false, err
			}
			data = append(data, b...)
		}
		err := eachNAL(data, func(nal []byte) { key = key || nal[0]&0x1f == 5 })
		if err == nil && len(data) == 0 {
			err = errNoFrame
		}
		return data, key, err
	}
	return append([]byte(nil), pkts[0].Payload...), true, nil
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
