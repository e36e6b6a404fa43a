package sip

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/zaf/g711"
)

// Voice activity in both laws: a tone asks for the floor once it has lasted the attack (60 ms: the third frame), a
// click (two loud frames) does not; a pause shorter than the hangover does not release it, 800 ms of silence
// (the fortieth quiet frame) does; a quiet hum below the threshold is silence.
func TestVoiceActivity(t *testing.T) {
	for _, law := range []Law{Ulaw, Alaw} {
		t.Run(law.String(), func(t *testing.T) {
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
func quietTone(law Law) []byte {
	pcm := make([]byte, 2*frameSamples)
	for i := range frameSamples {
		v := 0.004 * math.MaxInt16 * math.Sin(2*math.Pi*440*float64(i)/8000)
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(v)))
	}
	return encode(law, pcm)
}

// toneSilence is a frame of digital silence.
func toneSilence(law Law) []byte {
	return encode(law, make([]byte, 2*frameSamples))
}

func encode(law Law, pcm []byte) []byte {
	if law == Alaw {
		return g711.EncodeAlaw(pcm)
	}
	return g711.EncodeUlaw(pcm)
}

// Loudness is the RMS of the decoded samples in both laws (a sine at 0.3 of full scale: 0.3 × 32767 / √2, about
// 6,950; a hum far below the threshold; silence 0) and allocates nothing: it runs on every frame a phone sends.
func TestLoudness(t *testing.T) {
	for _, law := range []Law{Ulaw, Alaw} {
		tone := makeTone(440, time.Second).in(law)[0]
		if got := Loudness(law, tone); got < 6700 || got > 7200 {
			t.Errorf("%s: a tone at 0.3 of full scale has loudness %.0f, want about 6,950", law, got)
		}
		if got := Loudness(law, quietTone(law)); got >= vadThreshold/4 {
			t.Errorf("%s: a hum at -50 dBFS has loudness %.0f, want far below %d", law, got, vadThreshold)
		}
		if got := Loudness(law, toneSilence(law)); got > 16 {
			t.Errorf("%s: silence has loudness %.0f", law, got)
		}
		if n := testing.AllocsPerRun(100, func() { Loudness(law, tone) }); n != 0 {
			t.Errorf("%s: %v allocations per frame", law, n)
		}
	}
}
