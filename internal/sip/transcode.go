package sip

import (
	"errors"
	"fmt"
	"sync"

	"github.com/zaf/g711"

	"tenfour/internal/media/libopus"
	"tenfour/internal/media/oggopus"
)

// A G.711 call's audio is transcoded in process (docs/adr/0041): the phone's G.711 samples, decoded one by one by
// github.com/zaf/g711, are encoded into Opus by libopus (internal/media/libopus) for the group while the SIP side
// holds the floor; the group's Opus packets are decoded by libopus at 8 kHz, with its packet-loss concealment for a
// few lost packets, and companded into 20 ms G.711 frames for the phone. Nothing waits in a queue: each packet is
// transcoded on the goroutine that received it, in a fraction of a millisecond. An Opus call's audio is not
// transcoded: the phone's packets go to the group and the group's to the phone as they are.

// Codec is the audio a phone's call answered with.
type Codec uint8

// The codecs a phone may talk: G.711's two laws (RFC 3551 §4.5.14) and Opus (RFC 7587).
const (
	Ulaw Codec = iota // PCMU, payload type 0
	Alaw              // PCMA, payload type 8
	Opus              // opus/48000/2, a dynamic payload type
)

func (c Codec) String() string {
	switch c {
	case Alaw:
		return "PCMA"
	case Opus:
		return "opus"
	}
	return "PCMU"
}

// clock is the codec's RTP clock rate.
func (c Codec) clock() int {
	if c == Opus {
		return 48000
	}
	return 8000
}

// samples is how far an RTP packet of this codec advances the timestamp: a G.711 byte is a sample at 8 kHz, an
// Opus packet says its own duration (its TOC, counted at 48 kHz).
func (c Codec) samples(payload []byte) uint32 {
	if c != Opus {
		return uint32(len(payload))
	}
	return oggopus.Advance(payload)
}

// decode and encode are G.711's, sample by sample.
func (c Codec) decode(b byte) int16 {
	if c == Alaw {
		return g711.DecodeAlawFrame(b)
	}
	return g711.DecodeUlawFrame(b)
}

func (c Codec) encode(v int16) byte {
	if c == Alaw {
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

// toGroup turns the phone's G.711 into 20 ms Opus packets for the group (an Opus phone's packets pass as they
// are). One goroutine uses it (the phone's reader).
type toGroup struct {
	codec  Codec
	enc    *libopus.Encoder // nil for an Opus phone
	pcm    [frameSamples]int16
	n      int // samples of pcm filled
	packet [libopus.MaxPacket]byte
}

func newToGroup(codec Codec) (*toGroup, error) {
	if codec == Opus {
		return &toGroup{codec: codec}, nil
	}
	enc, err := newOpusEncoder()
	if err != nil {
		return nil, err
	}
	return &toGroup{codec: codec, enc: enc}, nil
}

// newOpusEncoder is the encoder of what this side says in Opus: a G.711 phone's talk, the tones to an Opus phone.
func newOpusEncoder() (*libopus.Encoder, error) {
	return libopus.NewEncoder(opusRate, 1, libopus.VoIP, libopus.EncoderOptions{Bitrate: opusBitrate, Complexity: opusComplexity})
}

// write takes a G.711 payload (any number of samples); each whole 20 ms frame is encoded and handed to send,
// whose packet is valid until it returns. An Opus payload is handed on as it is.
func (t *toGroup) write(payload []byte, send func(packet []byte) error) error {
	if t.enc == nil {
		return send(payload)
	}
	for _, b := range payload {
		t.pcm[t.n] = t.codec.decode(b)
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
func (t *toGroup) reset() { t.n = 0 }

func (t *toGroup) close() {
	if t.enc != nil {
		t.enc.Close()
	}
}

// toPhone turns the group's Opus packets into 20 ms G.711 frames for the phone (an Opus phone gets them as they
// are). The group side's receive path calls packet; the call's end calls close, from another goroutine: mu orders
// them.
type toPhone struct {
	mu      sync.Mutex
	codec   Codec
	dec     *libopus.Decoder // nil for an Opus phone
	closed  bool
	started bool
	next    uint16 // the sequence number expected next
	pcm     [libopus.MaxFrame]int16
	frame   [frameSamples]byte
	n       int // bytes of frame filled
}

func newToPhone(codec Codec) (*toPhone, error) {
	if codec == Opus {
		return &toPhone{codec: codec}, nil
	}
	dec, err := libopus.NewDecoder(opusRate, 1)
	if err != nil {
		return nil, err
	}
	return &toPhone{codec: codec, dec: dec}, nil
}

var errLatePacket = errors.New("sip: a group packet older than the last one")

// packet decodes the payload of packet seq (after concealing the first maxConcealed packets lost just before it)
// and hands each whole 20 ms G.711 frame to write, whose frame is valid until it returns. A packet that comes after
// a later one is dropped. An Opus phone gets the payload as it is (its own decoder conceals a loss).
func (f *toPhone) packet(seq uint16, payload []byte, write func(frame []byte) error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return errClosedTranscoder
	}
	if f.started {
		switch gap := seq - f.next; {
		case gap >= 0x8000:
			return errLatePacket
		case gap > 0 && f.dec != nil:
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
	f.started, f.next = true, seq+1
	switch {
	case len(payload) == 0:
		return nil
	case f.dec == nil:
		return write(payload)
	}
	n, err := f.dec.Decode(payload, f.pcm[:])
	if err != nil {
		return fmt.Errorf("sip: the group's packet %d: %w", seq, err)
	}
	return f.out(n, write)
}

// out compands n decoded samples into 20 ms G.711 frames for write.
func (f *toPhone) out(n int, write func(frame []byte) error) error {
	for _, v := range f.pcm[:n] {
		f.frame[f.n] = f.codec.encode(v)
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

func (f *toPhone) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed && f.dec != nil {
		f.dec.Close()
	}
	f.closed = true
}

var errClosedTranscoder = errors.New("sip: the call's transcoder is closed")
