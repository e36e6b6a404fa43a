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
	for _, codec := range []Codec{Ulaw, Alaw} {
		t.Run(codec.String(), func(t *testing.T) {
			loud := makeTone(440, time.Second).in(codec)
			hum := quietTone(codec)
			silence := toneSilence(codec)
			v, err := newVoiceActivity(codec)
			if err != nil {
				t.Fatal(err)
			}
			defer v.close()
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
func quietTone(codec Codec) []byte {
	pcm := make([]byte, 2*frameSamples)
	for i := range frameSamples {
		v := 0.004 * math.MaxInt16 * math.Sin(2*math.Pi*440*float64(i)/8000)
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(v)))
	}
	return encode(codec, pcm)
}

// toneSilence is a frame of digital silence.
func toneSilence(codec Codec) []byte {
	return encode(codec, make([]byte, 2*frameSamples))
}

func encode(codec Codec, pcm []byte) []byte {
	if codec == Alaw {
		return g711.EncodeAlaw(pcm)
	}
	return g711.EncodeUlaw(pcm)
}

// Loudness is the RMS of the decoded samples in both laws (a sine at 0.3 of full scale: 0.3 × 32767 / √2, about
// 6,950; a hum far below the threshold; silence 0) and allocates nothing: it runs on every frame a phone sends.
func TestLoudness(t *testing.T) {
	for _, codec := range []Codec{Ulaw, Alaw} {
		tone := makeTone(440, time.Second).in(codec)[0]
		if got := Loudness(codec, tone); got < 6700 || got > 7200 {
			t.Errorf("%s: a tone at 0.3 of full scale has loudness %.0f, want about 6,950", codec, got)
		}
		if got := Loudness(codec, quietTone(codec)); got >= vadThreshold/4 {
			t.Errorf("%s: a hum at -50 dBFS has loudness %.0f, want far below %d", codec, got, vadThreshold)
		}
		if got := Loudness(codec, toneSilence(codec)); got > 16 {
			t.Errorf("%s: silence has loudness %.0f", codec, got)
		}
		if n := testing.AllocsPerRun(100, func() { Loudness(codec, tone) }); n != 0 {
			t.Errorf("%s: %v allocations per frame", codec, n)
		}
	}
}

// An Opus phone without keys talks by voice too: its packets are decoded (libopus) for their loudness. The same
// sequence as G.711's (a shorter click), encoded as one stream (Opus is stateful); the codec's delay may move an
// edge by a frame.
func TestVoiceActivityOpus(t *testing.T) {
	var pcm []int16
	add := func(frames int, amp float64) {
		for i := range frames * frameSamples {
			pcm = append(pcm, int16(amp*math.MaxInt16*math.Sin(2*math.Pi*440*float64(len(pcm)+i)/8000)))
		}
	}
	add(1, 0.3)   // a click (the codec's delay carries it into the next frame)
	add(2, 0)     // silence
	add(1, 0.004) // a hum
	add(4, 0.3)   // talk: the floor is asked for at its third frame
	add(20, 0)    // a pause of 400 ms
	add(1, 0.3)
	add(45, 0.004) // hum: released at its fortieth frame (800 ms)
	frames := encodeOpus(pcm)
	v, err := newVoiceActivity(Opus)
	if err != nil {
		t.Fatal(err)
	}
	defer v.close()
	var talk, release []int
	for i, f := range frames {
		switch k, ok := v.frame(f); {
		case ok && k == keyTalk:
			talk = append(talk, i)
		case ok && k == keyRelease:
			release = append(release, i)
		}
	}
	if len(talk) != 1 || talk[0] < 6 || talk[0] > 7 || len(release) != 1 || release[0] < 68 || release[0] > 69 {
		t.Fatalf("talk keys at frames %v, releases at %v; want one at 6 (or 7), one at 68 (or 69)", talk, release)
	}
}
