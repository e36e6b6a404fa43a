package sim

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/zaf/g711"
)

// ToneFrames is G.711 µ-law of a tone (freq Hz, amplitude a third of full scale) in 20 ms frames: what a simulated
// phone says.
func ToneFrames(freq float64, d time.Duration) [][]byte {
	n := int(d/(20*time.Millisecond)) * 160
	pcm := make([]byte, 2*n)
	for i := range n {
		v := math.MaxInt16 / 3 * math.Sin(2*math.Pi*freq*float64(i)/8000)
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(v)))
	}
	ulaw := g711.EncodeUlaw(pcm)
	frames := make([][]byte, 0, n/160)
	for ; len(ulaw) >= 160; ulaw = ulaw[160:] {
		frames = append(frames, ulaw[:160])
	}
	return frames
}
