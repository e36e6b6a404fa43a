package sip

import (
	"math"
	"time"
)

// Voice activity as the talk key (docs/sip.md): a phone or radio gateway that offers no keys (no telephone-event;
// a gateway's carrier detect arrives as audio) asks for the floor when its audio is loud for a while and releases
// it after a while of silence. The loudness is the RMS of a 20 ms frame's samples (Loudness), decoded from G.711
// by github.com/zaf/g711; no codec of ours.

// Voice activity's defaults: a frame is loud above an RMS of about -32 dBFS; 60 ms of loud frames ask for the floor
// (a click or a cough does not), 800 ms of quiet ones release it (a pause between words does not).
const (
	vadThreshold = 800
	vadAttack    = 60 * time.Millisecond
	vadHangover  = 800 * time.Millisecond
)

// voiceActivity turns a phone's frames into talk keys: keyTalk once its audio has been loud for attack, keyRelease
// once it has been quiet for hangover after that. Not safe for concurrent use (the call's RTP reader owns it).
type voiceActivity struct {
	law              Law
	threshold        float64 // RMS of 16-bit samples
	attack, hangover time.Duration
	active           bool
	run              time.Duration // how long the frames have been loud (inactive) or quiet (active)
}

func newVoiceActivity(law Law) *voiceActivity {
	return &voiceActivity{law: law, threshold: vadThreshold, attack: vadAttack, hangover: vadHangover}
}

// frame takes one G.711 payload and returns the talk key it amounts to, if any.
func (v *voiceActivity) frame(payload []byte) (rune, bool) {
	d := time.Duration(len(payload)) * time.Second / 8000 // one byte a sample at 8 kHz
	if loud := Loudness(v.law, payload) >= v.threshold; loud == v.active {
		v.run = 0 // loud while talking, quiet while not: nothing changes
		return 0, false
	}
	v.run += d
	switch {
	case !v.active && v.run >= v.attack:
		v.active, v.run = true, 0
		return keyTalk, true
	case v.active && v.run >= v.hangover:
		v.active, v.run = false, 0
		return keyRelease, true
	}
	return 0, false
}

// Loudness is a G.711 payload's loudness: the root mean square of its
// 16-bit samples, decoded one by one by github.com/zaf/g711 — nothing is allocated on the call's RTP path. The
// bench's and the tests' ears use it too.
func Loudness(law Law, payload []byte) float64 {
	if len(payload) == 0 {
		return 0
	}
	var sum float64
	for _, b := range payload {
		s := float64(law.decode(b))
		sum += s * s
	}
	return math.Sqrt(sum / float64(len(payload)))
}
