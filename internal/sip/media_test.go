package sip

import (
	"errors"
	"testing"

	"github.com/pion/rtp"
)

// An offer is answered with its first codec this side talks — PCMU, PCMA or Opus (opus/48000/2), in its own
// order — and telephone-event when it offers one (beside Opus the one at 48 kHz first), at its media address (the
// stream's c= before the session's), on SRTP with the first a=crypto this side takes when it is on RTP/SAVP; an
// offer without one of those codecs, or on RTP/SAVP without a key this side takes (an unknown
// suite, a key of the wrong length, a master key identifier, session parameters), is refused (488).
func TestParseOffer(t *testing.T) {
	const head = "v=0\r\no=phone 1 1 IN IP4 10.0.0.9\r\ns=-\r\nc=IN IP4 10.0.0.9\r\nt=0 0\r\n"
	const key30 = "WVNfX19zZW1jdGwgKCkgewkyMjA7fQp9CnVubGVz" // 30 bytes, AES_CM_128's key and salt
	for _, tc := range []struct {
		name, media string
		pt          uint8
		codec       Codec
		events      int
		addr        string
		err         bool
		suite       string // the SRTP suite taken ("": plain RTP)
	}{
		{"PCMU first", "m=audio 4000 RTP/AVP 0 8 101\r\na=rtpmap:101 telephone-event/8000\r\n", ptPCMU, Ulaw, 101, "10.0.0.9:4000", false, ""},
		{"PCMA first, no events", "m=audio 4002 RTP/AVP 8 0\r\n", ptPCMA, Alaw, -1, "10.0.0.9:4002", false, ""},
		{"other codecs first", "m=audio 4004 RTP/AVP 9 18 0 96\r\na=rtpmap:96 telephone-event/8000\r\n", ptPCMU, Ulaw, 96, "10.0.0.9:4004", false, ""},
		{"the stream's address", "m=audio 4006 RTP/AVP 8\r\nc=IN IP4 10.0.0.7\r\n", ptPCMA, Alaw, -1, "10.0.0.7:4006", false, ""},
		{"a video stream first", "m=video 5000 RTP/AVP 96\r\nm=audio 4008 RTP/AVP 0\r\n", ptPCMU, Ulaw, -1, "10.0.0.9:4008", false, ""},
		{"no codec it talks", "m=audio 4010 RTP/AVP 9 18\r\n", 0, Ulaw, 0, "", true, ""},
		{"Opus first", "m=audio 4020 RTP/AVP 111 0 101\r\na=rtpmap:111 opus/48000/2\r\na=rtpmap:101 telephone-event/48000\r\n", 111, Opus, 101, "10.0.0.9:4020", false, ""},
		{"PCMU before Opus", "m=audio 4022 RTP/AVP 0 111\r\na=rtpmap:111 opus/48000/2\r\n", ptPCMU, Ulaw, -1, "10.0.0.9:4022", false, ""},
		{"Opus, events at its clock", "m=audio 4024 RTP/AVP 111 101 102\r\na=rtpmap:111 OPUS/48000/2\r\na=rtpmap:101 telephone-event/8000\r\na=rtpmap:102 telephone-event/48000\r\n", 111, Opus, 102, "10.0.0.9:4024", false, ""},
		{"Opus not as RFC 7587 names it", "m=audio 4026 RTP/AVP 111\r\na=rtpmap:111 opus/48000/1\r\n", 0, Ulaw, 0, "", true, ""},
		{"a rejected stream", "m=audio 0 RTP/AVP 0\r\n", 0, Ulaw, 0, "", true, ""},
		{"SRTP", "m=audio 4012 RTP/SAVP 0\r\na=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:" + key30 + "|2^20\r\n", ptPCMU, Ulaw, -1, "10.0.0.9:4012", false, "AES_CM_128_HMAC_SHA1_80"},
		{"SRTP, the first key it takes", "m=audio 4014 RTP/SAVP 8\r\na=crypto:1 F8_128_HMAC_SHA1_80 inline:" + key30 +
			"\r\na=crypto:2 AES_CM_128_HMAC_SHA1_80 inline:" + key30 + "|2^20|1:4\r\na=crypto:3 AES_CM_128_HMAC_SHA1_80 inline:" + key30 +
			" UNENCRYPTED_SRTP\r\na=crypto:4 AES_CM_128_HMAC_SHA1_32 inline:" + key30 + "\r\n", ptPCMA, Alaw, -1, "10.0.0.9:4014", false, "AES_CM_128_HMAC_SHA1_32"},
		{"SRTP without a key it takes", "m=audio 4016 RTP/SAVP 0\r\na=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:c2hvcnQ=\r\n", 0, Ulaw, 0, "", true, ""},
		{"SRTP without a key", "m=audio 4018 RTP/SAVP 0\r\n", 0, Ulaw, 0, "", true, ""},
	} {
		o, err := parseOffer([]byte(head + tc.media))
		if tc.err {
			if !errors.Is(err, errNoCodec) {
				t.Errorf("%s: %v, want no G.711", tc.name, err)
			}
			continue
		}
		suite := ""
		if o.keys != nil {
			suite = o.keys.suite
		}
		if err != nil || o.pt != tc.pt || o.codec != tc.codec || o.events != tc.events || o.remote.String() != tc.addr || suite != tc.suite {
			t.Errorf("%s: %+v %v, want pt %d %s events %d at %s, SRTP %q", tc.name, o, err, tc.pt, tc.codec, tc.events, tc.addr, tc.suite)
		}
	}
	if _, err := parseOffer([]byte("not sdp")); err == nil {
		t.Error("a body that is not SDP was read as an offer")
	}
}

// A key is pressed once per RFC 4733 event: the repeats and end packets of the same event (same timestamp) are
// not presses again, the next event is; events that are not keys (tones, flash) are none.
func TestKeyPresses(t *testing.T) {
	var k keyPresses
	ev := func(ts uint32, code, flags byte) (rune, bool) {
		return k.press(&rtp.Packet{Header: rtp.Header{Timestamp: ts}, Payload: []byte{code, flags | 10, 0, 160}})
	}
	var got []rune
	for _, p := range []struct {
		ts         uint32
		code, flag byte
	}{
		{100, 10, 0}, {100, 10, 0}, {100, 10, 0x80}, {100, 10, 0x80}, // *, its repeats and end packets
		{900, 11, 0}, {900, 11, 0x80}, // #
		{1700, 10, 0}, // * again
		{2500, 16, 0}, // flash: not a key
		{3300, 3, 0},  // 3
	} {
		if r, ok := ev(p.ts, p.code, p.flag); ok {
			got = append(got, r)
		}
	}
	if string(got) != "*#*3" {
		t.Fatalf("presses %q, want \"*#*3\"", string(got))
	}
	if _, ok := k.press(&rtp.Packet{Header: rtp.Header{Timestamp: 4100}, Payload: []byte{1}}); ok {
		t.Fatal("a truncated event was a press")
	}
}
