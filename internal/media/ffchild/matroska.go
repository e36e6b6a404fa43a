package ffchild

import (
	"encoding/binary"
	"io"
	"math"

	"github.com/pion/rtp"
)

// Codec is the video codec of a recording.
type Codec int

const (
	VP8 Codec = iota
	H264
)

// Matroska is the stream a recorder writes to its ffmpeg child's pipe (docs/adr/0031): the frames of one video
// track (VP8 or H.264) and optionally one Opus track, cut from their RTP packets and stamped on one clock, which
// ffmpeg only copies into the finished container (-f matroska -i pipe:3 … -c copy). Written as a live WebM is:
// the segment and its clusters of unknown size, nothing ever sought back to. The stream starts at the first
// video keyframe (for H.264 one whose parameter sets are known: the track's header carries them); what comes
// before is dropped. Not safe for concurrent use.
type Matroska struct {
	w     io.Writer
	codec Codec
	audio bool

	video, sound *framer
	err          error

	started bool
	origin  int64 // arrival (ns) of the first written video frame: time 0
	pending []frame
	sps     []byte
	pps     []byte
	base    [2]int64 // a track's offset (ms) on the common clock, from its first written frame's arrival
	ts0     [2]int64 // its first written frame's timestamp
	based   [2]bool
	cluster int64 // the open cluster's time (ms), -1 before the first
	buf     []byte

	Frames uint64 // video frames written
}

// NewMatroska writes to w (the child's pipe) what WriteRTP is given; audio tells whether it has an Opus track.
func NewMatroska(w io.Writer, video Codec, audio bool) *Matroska {
	m := &Matroska{w: w, codec: video, audio: audio, cluster: -1}
	k := kindVP8
	if video == H264 {
		k = kindH264
	}
	m.video = newFramer(k, func(f frame) { m.frame(0, f) })
	m.sound = newFramer(kindOpus, func(f frame) { m.frame(1, f) })
	return m
}

// WriteRTP takes one packet of the video (video true) or the audio track, arrived at (ns on any one clock the
// caller keeps for both tracks). The first write error is returned, then every time after.
func (m *Matroska) WriteRTP(video bool, at int64, p *rtp.Packet) error {
	if m.err != nil {
		return m.err
	}
	if video {
		m.video.push(p, at)
	} else if m.audio {
		m.sound.push(p, at)
	}
	return m.err
}

// Flush writes what the reorder windows still hold (the end of the input); then the caller closes the pipe.
func (m *Matroska) Flush() error {
	if m.err == nil {
		m.video.flush()
		m.sound.flush()
	}
	return m.err
}

// Lost is the packets the tracks never saw and the frames dropped for them.
func (m *Matroska) Lost() (packets, frames uint64) {
	return m.video.Lost + m.sound.Lost, m.video.Dropped + m.sound.Dropped
}

// frame writes one frame of track (0 video, 1 audio), or holds it until the stream starts.
func (m *Matroska) frame(track int, f frame) {
	if m.err != nil {
		return
	}
	if !m.started {
		if track == 1 {
			if len(m.pending) < 100 { // audio while the first keyframe completes (a few ms); older is before time 0
				m.pending = append(m.pending, f)
			}
			return
		}
		if m.codec == H264 {
			_ = eachNAL(f.data, func(nal []byte) {
				switch nal[0] & 0x1f {
				case 7:
					m.sps = append(m.sps[:0], nal...)
				case 8:
					m.pps = append(m.pps[:0], nal...)
				}
			})
		}
		if !f.key || (m.codec == H264 && (len(m.sps) < 4 || len(m.pps) == 0)) {
			return
		}
		m.started, m.origin = true, f.at
		if m.err = m.header(); m.err != nil {
			return
		}
		m.block(0, f)
		for _, a := range m.pending {
			if a.at >= m.origin {
				m.block(1, a)
			}
		}
		m.pending = nil
		return
	}
	if track == 1 && !m.based[1] && f.at < m.origin {
		return // audio from before the recording's first keyframe
	}
	m.block(track, f)
}

// block writes a frame as a SimpleBlock, opening a cluster at a video keyframe (at most one a second) or when
// the frame's time is too far from the open cluster's (a block's time is a 16-bit offset from its cluster's).
func (m *Matroska) block(track int, f frame) {
	if m.err != nil {
		return
	}
	clock := int64(90_000)
	if track == 1 {
		clock = 48_000
	}
	if !m.based[track] {
		m.based[track] = true
		m.base[track], m.ts0[track] = max(f.at-m.origin, 0)/1_000_000, f.ts
	}
	ms := max(m.base[track]+(f.ts-m.ts0[track])*1000/clock, 0)
	rel := ms - m.cluster
	b := m.buf[:0]
	if m.cluster < 0 || (track == 0 && f.key && rel >= 1000) || rel > 5000 || rel < math.MinInt16 {
		m.cluster, rel = ms, 0
		b = append(b, 0x1F, 0x43, 0xB6, 0x75, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF) // Cluster, unknown size
		b = uintElem(b, 0xE7, uint64(ms))                                                     // Timestamp
	}
	flags := byte(0)
	if f.key {
		flags = 0x80
	}
	b = appendID(b, 0xA3) // SimpleBlock
	b = appendSize(b, 4+len(f.data))
	b = append(b, 0x81+byte(track), byte(uint16(int16(rel))>>8), byte(uint16(int16(rel))), flags)
	b = append(b, f.data...)
	m.buf = b
	if _, err := m.w.Write(b); err != nil {
		m.err = err
		return
	}
	if track == 0 {
		m.Frames++
	}
}

// header writes the EBML header, the segment's start, its info and its tracks.
func (m *Matroska) header() error {
	var b []byte
	b = elem(b, 0x1A45DFA3, func(b []byte) []byte { // EBML
		b = uintElem(b, 0x4286, 1) // EBMLVersion
		b = uintElem(b, 0x42F7, 1) // EBMLReadVersion
		b = uintElem(b, 0x42F2, 4) // EBMLMaxIDLength
		b = uintElem(b, 0x42F3, 8) // EBMLMaxSizeLength
		b = elem(b, 0x4282, func(b []byte) []byte { return append(b, "matroska"...) })
		b = uintElem(b, 0x4287, 4) // DocTypeVersion
		return uintElem(b, 0x4285, 2)
	})
	b = append(b, 0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF) // Segment, unknown size
	b = elem(b, 0x1549A966, func(b []byte) []byte {                                       // Info
		b = uintElem(b, 0x2AD7B1, 1_000_000) // TimestampScale: milliseconds
		b = elem(b, 0x4D80, func(b []byte) []byte { return append(b, "tenfour"...) })
		return elem(b, 0x5741, func(b []byte) []byte { return append(b, "tenfour"...) })
	})
	b = elem(b, 0x1654AE6B, func(b []byte) []byte { // Tracks
		b = elem(b, 0xAE, func(b []byte) []byte { // TrackEntry
			b = uintElem(b, 0xD7, 1)   // TrackNumber
			b = uintElem(b, 0x73C5, 1) // TrackUID
			b = uintElem(b, 0x83, 1)   // TrackType: video
			b = uintElem(b, 0x9C, 0)   // FlagLacing
			if m.codec == H264 {
				b = elem(b, 0x86, func(b []byte) []byte { return append(b, "V_MPEG4/ISO/AVC"...) })
				return elem(b, 0x63A2, func(b []byte) []byte { return avcC(b, m.sps, m.pps) })
			}
			return elem(b, 0x86, func(b []byte) []byte { return append(b, "V_VP8"...) })
		})
		if !m.audio {
			return b
		}
		return elem(b, 0xAE, func(b []byte) []byte {
			b = uintElem(b, 0xD7, 2)
			b = uintElem(b, 0x73C5, 2)
			b = uintElem(b, 0x83, 2) // audio
			b = uintElem(b, 0x9C, 0)
			b = elem(b, 0x86, func(b []byte) []byte { return append(b, "A_OPUS"...) })
			b = elem(b, 0x63A2, func(b []byte) []byte { // OpusHead (RFC 7845 §5.1): 2 channels, no pre-skip, 48 kHz
				b = append(b, "OpusHead"...)
				return append(b, 1, 2, 0, 0, 0x80, 0xBB, 0, 0, 0, 0, 0)
			})
			return elem(b, 0xE1, func(b []byte) []byte { // Audio
				b = appendID(b, 0xB5) // SamplingFrequency
				b = appendSize(b, 8)
				b = binary.BigEndian.AppendUint64(b, math.Float64bits(48000))
				return uintElem(b, 0x9F, 2) // Channels
			})
		})
	})
	_, err := m.w.Write(b)
	return err
}

// avcC is the AVC decoder configuration record (ISO/IEC 14496-15 §5.2.4.1) of one SPS and one PPS.
func avcC(b, sps, pps []byte) []byte {
	b = append(b, 1, sps[1], sps[2], sps[3], 0xFF, 0xE1) // 4-byte NAL lengths, one SPS
	b = binary.BigEndian.AppendUint16(b, uint16(len(sps)))
	b = append(b, sps...)
	b = append(b, 1)
	b = binary.BigEndian.AppendUint16(b, uint16(len(pps)))
	return append(b, pps...)
}

// EBML (RFC 8794): an element is its ID, the size of its data as a variable-length integer, then the data.

func appendID(b []byte, id uint32) []byte {
	switch {
	case id > 0xFFFFFF:
		return append(b, byte(id>>24), byte(id>>16), byte(id>>8), byte(id))
	case id > 0xFFFF:
		return append(b, byte(id>>16), byte(id>>8), byte(id))
	case id > 0xFF:
		return append(b, byte(id>>8), byte(id))
	}
	return append(b, byte(id))
}

func appendSize(b []byte, n int) []byte {
	l := 1
	for uint64(n) >= 1<<(7*l)-1 { // all ones is reserved (unknown size)
		l++
	}
	v := uint64(n) | 1<<(7*l)
	for i := l - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// elem appends an element whose data body appends.
func elem(b []byte, id uint32, body func([]byte) []byte) []byte {
	data := body(nil)
	b = appendID(b, id)
	b = appendSize(b, len(data))
	return append(b, data...)
}

func uintElem(b []byte, id uint32, v uint64) []byte {
	n := 1
	for n < 8 && v>>(8*n) != 0 {
		n++
	}
	b = appendID(b, id)
	b = appendSize(b, n)
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}
