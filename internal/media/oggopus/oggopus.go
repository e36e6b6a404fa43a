// Package oggopus reads Ogg Opus files packet by packet (RFC 7845) and reads the facts of an Opus packet that
// its first byte tells (RFC 6716 §3.1: duration and audio bandwidth), without decoding audio. The recorder
// uses it to index bursts, the terminal client to play fixtures, and tests to measure recordings.
package oggopus

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Head is the OpusHead of a stream.
type Head struct {
	Channels   int
	PreSkip    int
	SampleRate int // the original input rate (informational; Opus always decodes at 48 kHz here)
}

// File is a whole Ogg Opus stream: its head and its audio packets in order (OpusTags is skipped).
type File struct {
	Head    Head
	Packets [][]byte
	// Granule is the last page's granule position (48 kHz samples including the pre-skip).
	Granule uint64
}

var (
	errNotOgg  = errors.New("oggopus: not an Ogg stream")
	errNotOpus = errors.New("oggopus: not an Opus stream")
)

// ReadFile reads an Ogg Opus file.
func ReadFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f)
}

// Read reads a single-stream Ogg Opus file from r, reassembling packets that span pages.
func Read(r io.Reader) (*File, error) {
	br := bufio.NewReader(r)
	var out File
	var pending []byte // a packet continued on the next page
	n := 0             // packets seen, including the two header packets
	hdr := make([]byte, 27)
	for {
		if _, err := io.ReadFull(br, hdr); err != nil {
			if errors.Is(err, io.EOF) && n > 0 {
				break
			}
			return nil, fmt.Errorf("oggopus: page header: %w", err)
		}
		if string(hdr[:4]) != "OggS" {
			return nil, errNotOgg
		}
		granule := binary.LittleEndian.Uint64(hdr[6:14])
		lacing := make([]byte, hdr[26])
		if _, err := io.ReadFull(br, lacing); err != nil {
			return nil, fmt.Errorf("oggopus: lacing: %w", err)
		}
		size := 0
		for _, l := range lacing {
			size += int(l)
		}
		body := make([]byte, size)
		if _, err := io.ReadFull(br, body); err != nil {
			return nil, fmt.Errorf("oggopus: page body: %w", err)
		}
		if granule != ^uint64(0) {
			out.Granule = granule
		}
		off := 0
		for _, l := range lacing {
			pending = append(pending, body[off:off+int(l)]...)
			off += int(l)
			if l == 255 {
				continue // the packet goes on in the next segment (or page)
			}
			pkt := pending
			pending = nil
			switch n {
			case 0:
				h, err := parseHead(pkt)
				if err != nil {
					return nil, err
				}
				out.Head = h
			case 1: // OpusTags
			default:
				if len(pkt) > 0 {
					out.Packets = append(out.Packets, pkt)
				}
			}
			n++
		}
	}
	if n < 1 {
		return nil, errNotOpus
	}
	return &out, nil
}

func parseHead(p []byte) (Head, error) {
	if len(p) < 19 || string(p[:8]) != "OpusHead" {
		return Head{}, errNotOpus
	}
	return Head{
		Channels:   int(p[9]),
		PreSkip:    int(binary.LittleEndian.Uint16(p[10:12])),
		SampleRate: int(binary.LittleEndian.Uint32(p[12:16])),
	}, nil
}

// Samples is the decoded length of the packets in 48 kHz samples.
func (f *File) Samples() int {
	total := 0
	for _, p := range f.Packets {
		total += Samples(p)
	}
	return total
}

// Duration is the decoded length of the packets.
func (f *File) Duration() time.Duration { return SamplesDuration(f.Samples()) }

// SamplesDuration converts 48 kHz samples to a duration.
func SamplesDuration(samples int) time.Duration {
	return time.Duration(samples) * time.Second / 48000
}

// Advance is how far a sender moves its RTP timestamp (48 kHz) past an Opus packet: what it decodes to, or 960 —
// one 20 ms frame — for a packet that says nothing readable.
func Advance(p []byte) uint32 {
	if n := Samples(p); n > 0 {
		return uint32(n)
	}
	return 960
}

// Samples is how many 48 kHz samples an Opus packet decodes to (0 for a malformed packet).
func Samples(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	var frames int
	switch p[0] & 3 {
	case 0:
		frames = 1
	case 1, 2:
		frames = 2
	default:
		if len(p) < 2 {
			return 0
		}
		frames = int(p[1] & 0x3f)
	}
	return frames * frameSamples(p[0])
}

// MaxPacketSamples is the longest an Opus packet may last: 120 ms at 48 kHz (RFC 6716 §3.2.5).
const MaxPacketSamples = 5760

// Valid tells whether a packet's first bytes describe a decodable Opus packet (RFC 6716 §3.4 R1, R5, R6: at
// least one byte, at least one frame, at most 120 ms), the checks an Ogg muxer needs for its granule positions.
func Valid(p []byte) bool {
	n := Samples(p)
	return n > 0 && n <= MaxPacketSamples
}

func frameSamples(toc byte) int {
	cfg := toc >> 3
	switch {
	case cfg < 12: // SILK: 10, 20, 40, 60 ms
		return []int{480, 960, 1920, 2880}[cfg&3]
	case cfg < 16: // hybrid: 10, 20 ms
		return []int{480, 960}[cfg&1]
	default: // CELT: 2.5, 5, 10, 20 ms
		return []int{120, 240, 480, 960}[cfg&3]
	}
}

// Bandwidth is the audio bandwidth an Opus packet carries (RFC 6716 table 2).
type Bandwidth int

const (
	Narrowband    Bandwidth = 4  // 4 kHz audio (8 kHz sampling)
	Mediumband    Bandwidth = 6  // 6 kHz
	Wideband      Bandwidth = 8  // 8 kHz
	SuperWideband Bandwidth = 12 // 12 kHz
	Fullband      Bandwidth = 20 // 20 kHz
)

// PacketBandwidth reads a packet's bandwidth from its TOC byte (0 for an empty packet).
func PacketBandwidth(p []byte) Bandwidth {
	if len(p) == 0 {
		return 0
	}
	cfg := p[0] >> 3
	switch {
	case cfg < 4:
		return Narrowband
	case cfg < 8:
		return Mediumband
	case cfg < 12:
		return Wideband
	case cfg < 14:
		return SuperWideband
	case cfg < 16:
		return Fullband
	case cfg < 20:
		return Narrowband
	case cfg < 24:
		return Wideband
	case cfg < 28:
		return SuperWideband
	default:
		return Fullband
	}
}
