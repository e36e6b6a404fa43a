package testkit

import (
	"bytes"
	"encoding/binary"
	"math"
	"time"
)

// ToneWAV is a WAV file of a sine tone at freq Hz lasting d: 16-bit mono PCM at 44.1 kHz (what a dispatcher
// uploads to the broadcast library, for ffmpeg to transcode).
func ToneWAV(freq float64, d time.Duration) []byte {
	const rate = 44100
	n := int(d.Seconds() * rate)
	var b bytes.Buffer
	b.Grow(44 + 2*n)
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(36+2*n))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(rate * 2), uint16(2), uint16(16)} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	_ = binary.Write(&b, binary.LittleEndian, uint32(2*n))
	sample := make([]byte, 2)
	for i := range n {
		binary.LittleEndian.PutUint16(sample, uint16(int16(12000*math.Sin(2*math.Pi*freq*float64(i)/rate))))
		b.Write(sample)
	}
	return b.Bytes()
}
