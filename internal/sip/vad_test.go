package sip

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/zaf/g711"

	"tenfour/internal/media/ffchild"
)

// Voice activity in both laws: a tone asks for the floor once it has lasted the attack (60 ms: the third frame), a
// click (two loud frames) does not; a pause shorter than the hangover does not release it, 800 ms of silence
// (the fortieth quiet frame) does; a quiet hum below the threshold is silence.
func TestVoiceActivity(t *testing.T) {
	for _, law := range []string{ffchild.FormatMulaw, ffchild.FormatAlaw} {
		t.Run(law, func(t *testing.T) {
			loud := makeTone(440, time.Second).in(law)
			hum := quietTone(law)
			silence := toneSilence(law)
			v := newVoiceActivity(law)
			var keys strings.Builder
			feed := func(frames ...[]byte) {
				for _, f := range frames {
					if k, ok := v.frame(f); ok {
						fmt.Fprintf(&keys, "%c", k)
					} else {
						keys.WriteByte('.')
					}
				}
			}
			feed(loud[0], loud[1], silence, hum) // a click, then a hum
			feed(loud[2], loud[3], loud[4], loud[5])
			for range 20 { // a pause of 400 ms
				feed(silence)
			}
			feed(loud[6])
			for range 40 {
				feed(hum)
			}
			want := "...." + "..*." + strings.Repeat(".", 20) + "." + strings.Repeat(".", 39) + "#"
			if got := keys.String(); got != want {
				t.Fatalf("keys per frame\n got %s\nwant %s", got, want)
			}
		})
	}
}

// quietTone is a frame of a 440 Hz hum far below the threshold (about -50 dBFS).
func quietTone(law string) []byte {
	pcm := make([]byte, 2*frameSamples)
	for i := range frameSamples {
		v := 0.004 * math.MaxInt16 * math.Sin(2*math.Pi*440*float64(i)/8000)
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(v)))
	}
	return encode(law, pcm)
}

// toneSilence is a frame of digital silence.
func toneSilence(law string) []byte {
	return encode(law, make([]byte, 2*frameSamples))
}

func encode(law string, pcm []byte) []byte {
	if law == ffchild.FormatAlaw {
		return g711.EncodeAlaw(pcm)
	}
	return g711.EncodeUlaw(pcm)
}
