package sip

import (
	"math"
	"time"

	"tenfour/internal/media/libopus"
)

// Voice activity as the talk key (docs/sip.md): a phone or radio gateway that offers no keys (no telephone-event;
// a gateway's carrier detect arrives as audio) asks for the floor when its audio is loud for a while and releases
// it after a while of silence. The loudness is the RMS of a frame's samples (Loudness), decoded from G.711 by
// github.com/zaf/g711, or from Opus by libopus (internal/media/libopus); no codec of ours.

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
	codec            Codec
	opus             *libopus.Decoder // an Opus phone's audio, decoded for its loudness; nil for G.711
	pcm              []int16          // what opus decoded
	threshold        float64          // RMS of 16-bit samples
	attack, hangover time.Duration
	active           bool
	run              time.Duration // how long the frames have been loud (inactive) or quiet (active)
}

func newVoiceActivity(codec Codec) (*voiceActivity, error) {
	v := &voiceActivity{codec: codec, threshold: vadThreshold, attack: vadAttack, hangover: vadHangover}
	if codec == Opus {
		var err error
		if v.opus, err = libopus.NewDecoder(opusRate, 1); err != nil {
			return nil, err
		}
		v.pcm = make([]int16, libopus.MaxFrame)
	}
	return v, nil
}

// close frees an Opus phone's decoder.
func (v *voiceActivity) close() {
	if v.opus != nil {
		v.opus.Close()
	}
}

// frame takes one payload of the phone's codec and returns the talk key it amounts to, if any.
func (v *voiceActivity) frame(payload []byte) (rune, bool) {
	level, d := v.level(payload)
	if loud := level >= v.threshold; loud == v.active {
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

// level is a payload's loudness and duration. An Opus packet that does not decode counts as silence of the
// duration it claims.
func (v *voiceActivity) level(payload []byte) (float64, time.Duration) {
	if v.opus == nil {
		return Loudness(v.codec, payload), time.Duration(len(payload)) * time.Second / 8000 // a byte a sample
	}
	n, err := v.opus.Decode(payload, v.pcm)
	if err != nil {
		return 0, time.Duration(v.codec.samples(payload)) * time.Second / time.Duration(v.codec.clock())
	}
	var sum float64
	for _, s := range v.pcm[:n] {
		sum += float64(s) * float64(s)
	}
	return math.Sqrt(sum / float64(max(n, 1))), time.Duration(n) * time.Second / opusRate
}

// Loudness is a G.711 payload's loudness: the root mean square of its 16-bit samples, decoded one by one by
// github.com/zaf/g711 — nothing is allocated on the call's RTP path. The bench's and the tests' ears use it too.
func Loudness(codec Codec, payload []byte) float64 {
	if len(payload) == 0 {
		return 0
	}
	var sum float64
	for _, b := range payload {
		s := float64(codec.decode(b))
		sum += s * s
	}
	return math.Sqrt(sum / float64(len(payload)))
}
