package libopus

import (
	"errors"
	"fmt"
)

// EncoderOptions tune a new Encoder; the zero value is libopus's defaults for speech.
type EncoderOptions struct {
	Bitrate    int // bits per second; 0: libopus's choice for the rate and channels
	Complexity int // 0–10; 0 here means libopus's default (10)
}

// Encoder is one libopus encoder (opus_encoder_init): 16-bit samples in, Opus packets out. Not safe for
// concurrent use: one goroutine encodes a stream.
type Encoder struct {
	s        state
	channels int
	rate     int
}

// NewEncoder makes an encoder of rate Hz (8, 12, 16, 24 or 48 kHz) and 1 or 2 channels, signalled as voice.
func NewEncoder(rate, channels int, app Application, o EncoderOptions) (*Encoder, error) {
	s, err := newState("opus_encoder_get_size", "opus_encoder_init", rate, channels, uint64(app))
	if err != nil {
		return nil, err
	}
	e := &Encoder{s: s, channels: channels, rate: rate}
	ctl := [][2]int{{setSignal, signalVoice}}
	if o.Bitrate > 0 {
		ctl = append(ctl, [2]int{setBitrate, o.Bitrate})
	}
	if o.Complexity > 0 {
		ctl = append(ctl, [2]int{setComplexity, o.Complexity})
	}
	for _, c := range ctl {
		if err := e.s.ctl("opus_encoder_ctl_set", c[0], c[1]); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// Encode encodes one frame — len(pcm)/channels samples a channel, interleaved: 2.5, 5, 10, 20, 40 or 60 ms at the
// encoder's rate — into out (MaxPacket bytes are always enough) and returns the packet's length.
func (e *Encoder) Encode(pcm []int16, out []byte) (int, error) {
	n := len(pcm) / e.channels
	if n*e.channels != len(pcm) || n == 0 || n > MaxFrame || len(out) == 0 {
		return 0, fmt.Errorf("libopus: encode %d samples of %d channels into %d bytes", len(pcm), e.channels, len(out))
	}
	in := e.s.in
	if in == nil {
		return 0, errClosed
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.putSamples(pcm) {
		return 0, errMemory
	}
	size, err := in.call("opus_encode", uint64(e.s.ptr), uint64(in.pcm), uint64(n), uint64(in.packet), uint64(min(len(out), MaxPacket)))
	if err != nil {
		return 0, err
	}
	if size < 0 {
		return 0, in.codecError("encode", size)
	}
	b, ok := in.mem.Read(in.packet, uint32(size))
	if !ok {
		return 0, errMemory
	}
	return copy(out, b), nil
}

// Close frees the encoder's state; the Encoder is not to be used after.
func (e *Encoder) Close() { e.s.close() }

// Decoder is one libopus decoder (opus_decoder_init): Opus packets in, 16-bit samples at the decoder's rate out,
// whatever rate and channels the packets were encoded with. Not safe for concurrent use.
type Decoder struct {
	s        state
	channels int
}

// NewDecoder makes a decoder to rate Hz (8, 12, 16, 24 or 48 kHz), 1 or 2 channels.
func NewDecoder(rate, channels int) (*Decoder, error) {
	s, err := newState("opus_decoder_get_size", "opus_decoder_init", rate, channels)
	if err != nil {
		return nil, err
	}
	return &Decoder{s: s, channels: channels}, nil
}

// Decode decodes packet into pcm (interleaved; room for MaxFrame samples a channel is always enough) and returns
// how many samples a channel it wrote.
func (d *Decoder) Decode(packet []byte, pcm []int16) (int, error) {
	if len(packet) == 0 || len(packet) > MaxPacket {
		return 0, fmt.Errorf("libopus: decode a packet of %d bytes", len(packet))
	}
	return d.decode(packet, pcm)
}

// Conceal makes len(pcm)/channels samples a channel of packet-loss concealment for a packet that never came (a
// multiple of 2.5 ms at the decoder's rate: the lost packet's duration) and returns how many it wrote.
func (d *Decoder) Conceal(pcm []int16) (int, error) { return d.decode(nil, pcm) }

func (d *Decoder) decode(packet []byte, pcm []int16) (int, error) {
	frame := min(len(pcm)/d.channels, MaxFrame)
	if frame == 0 {
		return 0, errors.New("libopus: decode into no room")
	}
	in := d.s.in
	if in == nil {
		return 0, errClosed
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	data := uint64(0) // NULL: concealment
	if packet != nil {
		if !in.mem.Write(in.packet, packet) {
			return 0, errMemory
		}
		data = uint64(in.packet)
	}
	n, err := in.call("opus_decode", uint64(d.s.ptr), data, uint64(len(packet)), uint64(in.pcm), uint64(frame), 0)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, in.codecError("decode", n)
	}
	in.getSamples(pcm, int(n)*d.channels)
	return int(n), nil
}

// Close frees the decoder's state; the Decoder is not to be used after.
func (d *Decoder) Close() { d.s.close() }

var (
	errClosed = errors.New("libopus: closed")
	errMemory = errors.New("libopus: outside the instance's memory")
)

// ctl sets one encoder or decoder parameter (fn: opus_encoder_ctl_set).
func (s *state) ctl(fn string, request, value int) error {
	s.in.mu.Lock()
	defer s.in.mu.Unlock()
	code, err := s.in.call(fn, uint64(s.ptr), uint64(request), uint64(uint32(int32(value))))
	if err == nil && code < 0 {
		err = s.in.codecError(fmt.Sprintf("ctl %d", request), code)
	}
	return err
}
