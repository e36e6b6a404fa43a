package sip

import (
	"errors"
	"fmt"
	"sync"

	"github.com/pion/rtp"
	"github.com/zaf/g711"

	"tenfour/internal/media/libopus"
)

// A call's audio is transcoded in process (docs/adr/0041): the phone's G.711 samples, decoded one by one by
// github.com/zaf/g711, are encoded into Opus by libopus (internal/media/libopus) for the group while the SIP side
// holds the floor; the group's Opus packets are decoded by libopus at 8 kHz, with its packet-loss concealment for a
// few lost packets, and companded into 20 ms G.711 frames for the phone. Nothing waits in a queue: each packet is
// transcoded on the goroutine that received it, in a fraction of a millisecond.

// Law is the G.711 companding law a phone's call answered with.
type Law uint8

// The two laws (RFC 3551 §4.5.14).
const (
	Ulaw Law = iota // PCMU, payload type 0
	Alaw            // PCMA, payload type 8
)

func (l Law) String() string {
	if l == Alaw {
		return "PCMA"
	}
	return "PCMU"
}

func (l Law) decode(b byte) int16 {
	if l == Alaw {
		return g711.DecodeAlawFrame(b)
	}
	return g711.DecodeUlawFrame(b)
}

func (l Law) encode(v int16) byte {
	if l == Alaw {
		return g711.EncodeAlawFrame(v)
	}
	return g711.EncodeUlawFrame(v)
}

// The group's Opus from a phone: 8 kHz narrowband speech, all G.711 carries, coded in full at this rate in 20 ms
// frames, at complexity 5 — WebRTC's own choice for phones — where libopus's default 10 costs twice the CPU
// (measured here, in wazero: 0.14 against 0.25 ms a frame) for no gain a G.711 source can carry. Encoding is most
// of a bridged call's CPU (docs/performance.md "SIP").
const (
	opusRate       = 8000
	opusBitrate    = 24000
	opusComplexity = 5
)

// maxConcealed is how many lost packets in a row (20 ms each) the decoder fills with libopus's concealment; the
// rest of a longer gap is left to the phone (its jitter buffer's own concealment or silence).
const maxConcealed = 3

// toOpus turns the phone's G.711 into 20 ms Opus packets. One goroutine uses it (the phone's reader).
type toOpus struct {
	law    Law
	enc    *libopus.Encoder
	pcm    [frameSamples]int16
	n      int // samples of pcm filled
	packet [libopus.MaxPacket]byte
}

func newToOpus(law Law) (*toOpus, error) {
	enc, err := libopus.NewEncoder(opusRate, 1, libopus.VoIP, libopus.EncoderOptions{Bitrate: opusBitrate, Complexity: opusComplexity})
	if err != nil {
		return nil, err
	}
	return &toOpus{law: law, enc: enc}, nil
}

// write takes a G.711 payload (any number of samples); each whole 20 ms frame is encoded and handed to send,
// whose packet is valid until it returns.
func (t *toOpus) write(payload []byte, send func(packet []byte) error) error {
	for _, b := range payload {
		t.pcm[t.n] = t.law.decode(b)
		if t.n++; t.n < frameSamples {
			continue
		}
		t.n = 0
		size, err := t.enc.Encode(t.pcm[:], t.packet[:])
		if err != nil {
			return err
		}
		if err := send(t.packet[:size]); err != nil {
			return err
		}
	}
	return nil
}

// reset drops a partial frame (the floor was released: the next talk starts a frame of its own).
func (t *toOpus) reset() { t.n = 0 }

func (t *toOpus) close() { t.enc.Close() }

// fromOpus turns the group's Opus packets into 20 ms G.711 frames. The group side's receive path calls packet; the
// call's end calls close, from another goroutine: mu orders them.
type fromOpus struct {
	mu      sync.Mutex
	law     Law
	dec     *libopus.Decoder // nil once closed
	started bool
	next    uint16 // the sequence number expected next
	pcm     [libopus.MaxFrame]int16
	frame   [frameSamples]byte
	n       int // bytes of frame filled
}

func newFromOpus(law Law) (*fromOpus, error) {
	dec, err := libopus.NewDecoder(opusRate, 1)
	if err != nil {
		return nil, err
	}
	return &fromOpus{law: law, dec: dec}, nil
}

var errLatePacket = errors.New("sip: a group packet older than the last one")

// packet decodes p (after concealing the first maxConcealed packets lost just before it) and hands each whole 20 ms
// G.711 frame to write, whose frame is valid until it returns. A packet that comes after a later one is dropped.
func (f *fromOpus) packet(p *rtp.Packet, write func(frame []byte) error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dec == nil {
		return errClosedTranscoder
	}
	if f.started {
		switch gap := p.SequenceNumber - f.next; {
		case gap >= 0x8000:
			return errLatePacket
		case gap > 0:
			for range min(gap, maxConcealed) {
				n, err := f.dec.Conceal(f.pcm[:frameSamples])
				if err != nil {
					return err
				}
				if err := f.out(n, write); err != nil {
					return err
				}
			}
		}
	}
	f.started, f.next = true, p.SequenceNumber+1
	if len(p.Payload) == 0 {
		return nil
	}
	n, err := f.dec.Decode(p.Payload, f.pcm[:])
	if err != nil {
		return fmt.Errorf("sip: the group's packet %d: %w", p.SequenceNumber, err)
	}
	return f.out(n, write)
}

// out compands n decoded samples into 20 ms G.711 frames for write.
func (f *fromOpus) out(n int, write func(frame []byte) error) error {
	for _, v := range f.pcm[:n] {
		f.frame[f.n] = f.law.encode(v)
		if f.n++; f.n < frameSamples {
			continue
		}
		f.n = 0
		if err := write(f.frame[:]); err != nil {
			return err
		}
	}
	return nil
}

func (f *fromOpus) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dec != nil {
		f.dec.Close()
		f.dec = nil
	}
}

var errClosedTranscoder = errors.New("sip: the call's transcoder is closed")
