package sip

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/zaf/g711"
)

// The tones a phone hears when it asks for the floor: a short high beep when it is granted, a longer low one when
// it is refused or taken away (docs/sip.md). They are sine waves put into G.711 by github.com/zaf/g711 (the G.711
// codec), 20 ms per frame, made once.

// frameSamples is one 20 ms G.711 frame at 8 kHz (one RTP packet, one byte per sample).
const frameSamples = 160

type tone struct{ ulaw, alaw [][]byte }

var (
	toneGranted = makeTone(1200, 150*time.Millisecond)
	toneRefused = makeTone(400, 400*time.Millisecond)
)

func makeTone(freq float64, d time.Duration) tone {
	n := int(d / (20 * time.Millisecond) * frameSamples)
	pcm := make([]byte, 2*n) // 16-bit little-endian, what g711 encodes
	for i := range n {
		v := 0.3 * math.MaxInt16 * math.Sin(2*math.Pi*freq*float64(i)/8000)
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(v)))
	}
	return tone{ulaw: frames(g711.EncodeUlaw(pcm)), alaw: frames(g711.EncodeAlaw(pcm))}
}

func frames(b []byte) [][]byte {
	var out [][]byte
	for len(b) >= frameSamples {
		out = append(out, b[:frameSamples])
		b = b[frameSamples:]
	}
	return out
}

// in is the tone's frames in law.
func (t tone) in(law Law) [][]byte {
	if law == Alaw {
		return t.alaw
	}
	return t.ulaw
}
