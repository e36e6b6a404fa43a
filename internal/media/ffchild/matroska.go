package ffchild

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"

	"github.com/at-wat/ebml-go"
	"github.com/at-wat/ebml-go/webm"
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
// before is dropped. The header and the clusters are encoded by github.com/at-wat/ebml-go (ebml.Marshal), each
// frame's SimpleBlock here (appendSimpleBlock); when to open a cluster and each block's time are decided here,
// not by its block writer (mkvcore), whose Write never returns the pipe's error and blocks for ever once the pipe
// has failed (docs/adr/0031). Not safe for concurrent use.
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
	buf     bytes.Buffer

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
// caller keeps for both tracks). p is not kept; its payload is, not copied, until its frame is written (the
// caller does not reuse it). The first write error is returned, then every time after.
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
	m.buf.Reset()
	if m.cluster < 0 || (track == 0 && f.key && rel >= 1000) || rel > 5000 || rel < math.MinInt16 {
		m.cluster, rel = ms, 0
		if m.err = ebml.Marshal(&clusterStart{Cluster: clusterTime{uint64(ms)}}, &m.buf); m.err != nil {
			return
		}
	}
	m.buf.Write(appendSimpleBlock(m.buf.AvailableBuffer(), track+1, int16(rel), f.key, f.data))
	if _, m.err = m.w.Write(m.buf.Bytes()); m.err != nil {
		return
	}
	if track == 0 {
		m.Frames++
	}
}

// The elements ebml-go writes (github.com/at-wat/ebml-go, the types of its webm package where they fit): a
// live stream's segment and clusters have an unknown size, their elements follow them in the stream.
type (
	streamHeader struct {
		Header  webm.EBMLHeader `ebml:"EBML"`
		Segment segmentStart    `ebml:"Segment,size=unknown"`
	}
	segmentStart struct {
		Info   webm.Info   `ebml:"Info"`
		Tracks webm.Tracks `ebml:"Tracks"`
	}
	clusterStart struct {
		Cluster clusterTime `ebml:"Cluster,size=unknown"`
	}
	clusterTime struct {
		Timecode uint64 `ebml:"Timecode"`
	}
)

// appendSimpleBlock appends a frame as a SimpleBlock element (Matroska §10.2, no lacing): its ID and size, the
// block's track number, its time from the cluster's, its flags, the frame. Written here, not by ebml.Marshal,
// which for every frame of the recorder's hot path parsed the struct's tags by reflection, allocated some 25 times
// and copied the frame twice; TestSimpleBlock holds it to ebml-go's reading.
func appendSimpleBlock(b []byte, track int, rel int16, key bool, data []byte) []byte {
	b = append(b, 0xA3)                                             // SimpleBlock
	b = binary.BigEndian.AppendUint64(b, 1<<56|uint64(4+len(data))) // its size, in EBML's 8-byte form
	b = append(b, 0x80|byte(track))                                 // the track number (1 or 2), a 1-byte EBML number
	b = binary.BigEndian.AppendUint16(b, uint16(rel))               // time (ms) from the cluster's
	flags := byte(0)
	if key {
		flags = 0x80
	}
	return append(append(b, flags), data...)
}

// header writes the EBML header, the segment's start, its info and its tracks.
func (m *Matroska) header() error {
	tracks := []webm.TrackEntry{{TrackNumber: 1, TrackUID: 1, TrackType: 1, CodecID: "V_VP8"}}
	if m.codec == H264 {
		tracks[0].CodecID, tracks[0].CodecPrivate = "V_MPEG4/ISO/AVC", avcC(nil, m.sps, m.pps)
	}
	if m.audio {
		tracks = append(tracks, webm.TrackEntry{TrackNumber: 2, TrackUID: 2, TrackType: 2, CodecID: "A_OPUS",
			// OpusHead (RFC 7845 §5.1): version 1, 2 channels, no pre-skip, 48 kHz, no gain, mapping family 0
			CodecPrivate: append([]byte("OpusHead"), 1, 2, 0, 0, 0x80, 0xBB, 0, 0, 0, 0, 0),
			Audio:        &webm.Audio{SamplingFrequency: 48000, Channels: 2}})
	}
	h := streamHeader{
		Header: webm.EBMLHeader{EBMLVersion: 1, EBMLReadVersion: 1, EBMLMaxIDLength: 4, EBMLMaxSizeLength: 8,
			DocType: "matroska", DocTypeVersion: 4, DocTypeReadVersion: 2},
		Segment: segmentStart{Info: webm.Info{TimecodeScale: 1_000_000, MuxingApp: "tenfour", WritingApp: "tenfour"},
			Tracks: webm.Tracks{TrackEntry: tracks}},
	}
	m.buf.Reset()
	if err := ebml.Marshal(&h, &m.buf); err != nil {
		return err
	}
	_, err := m.w.Write(m.buf.Bytes())
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
