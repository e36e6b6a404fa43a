package sip

import (
	"encoding/binary"
	"math"
	"sync"
	"time"

	"github.com/zaf/g711"

	"tenfour/internal/media/libopus"
)

// The tones a phone hears when it asks for the floor: a short high beep when it is granted, a longer low one when
// it is refused or taken away (docs/sip.md). They are sine waves put into G.711 by github.com/zaf/g711 (the G.711
// codec), 20 ms per frame, made once.

// frameSamples is one 20 ms G.711 frame at 8 kHz (one RTP packet, one byte per sample).
const frameSamples = 160

// tone is one tone's frames in each codec; its Opus packets are encoded by libopus on first use.
type tone struct {
	ulaw, alaw [][]byte
	pcm        []int16
	opus       *opusFrames
}

type opusFrames struct {
	once   sync.Once
	frames [][]byte
}

var (
	toneGranted = makeTone(1200, 150*time.Millisecond)
	toneRefused = makeTone(400, 400*time.Millisecond)
)

func makeTone(freq float64, d time.Duration) tone {
	n := int(d / (20 * time.Millisecond) * frameSamples)
	samples := make([]int16, n)
	pcm := make([]byte, 2*n) // the same, 16-bit little-endian: what g711 encodes
	for i := range n {
		samples[i] = int16(0.3 * math.MaxInt16 * math.Sin(2*math.Pi*freq*float64(i)/8000))
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(samples[i]))
	}
	return tone{ulaw: frames(g711.EncodeUlaw(pcm)), alaw: frames(g711.EncodeAlaw(pcm)), pcm: samples, opus: &opusFrames{}}
}

func frames(b []byte) [][]byte {
	var out [][]byte
	for len(b) >= frameSamples {
		out = append(out, b[:frameSamples])
		b = b[frameSamples:]
	}
	return out
}

// in is the tone's frames in codec (none in Opus when this build has no libopus).
func (t tone) in(codec Codec) [][]byte {
	switch codec {
	case Alaw:
		return t.alaw
	case Opus:
		t.opus.once.Do(func() { t.opus.frames = encodeOpus(t.pcm) })
		return t.opus.frames
	}
	return t.ulaw
}

// encodeOpus is 8 kHz samples as 20 ms Opus packets, encoded as a phone's talk is (transcode.go).
func encodeOpus(pcm []int16) [][]byte {
	enc, err := newOpusEncoder()
	if err != nil {
		return nil
	}
	defer enc.Close()
	var out [][]byte
	packet := make([]byte, libopus.MaxPacket)
	for ; len(pcm) >= frameSamples; pcm = pcm[frameSamples:] {
		n, err := enc.Encode(pcm[:frameSamples], packet)
		if err != nil {
			return nil
		}
		out = append(out, append([]byte(nil), packet[:n]...))
	}
	return out
}
