package media

import (
	"testing"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// A new talker's first packet, read just before the old talker's last one was written (their read loops race
// for the listener's lock), still moves the listener's timestamp forward by at least one frame: a negative
// time passed must not wrap around and send the timestamp back.
func TestDownstreamTimestampNeverGoesBackAtATalkerSwitch(t *testing.T) {
	track, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", "t")
	if err != nil {
		t.Fatal(err)
	}
	d := newDownstream(track)
	d.Assign(1)
	const ms = int64(1_000_000)
	var last uint32
	var lastSeq uint16
	for i := range 3 {
		if !d.forward(1, &rtp.Header{Version: 2, SequenceNumber: uint16(100 + i), Timestamp: uint32(5000 + 960*i)}, []byte{1}, 1000*ms+int64(i)*20*ms, nil) {
			t.Fatal("old talker's packet not written")
		}
		last, lastSeq = d.lastTS, d.lastSeq
	}
	d.Assign(2)
	// Read 42 µs before the old talker's last packet was written.
	if !d.forward(2, &rtp.Header{Version: 2, SequenceNumber: 7, Timestamp: 123}, []byte{1}, 1040*ms-42_000, nil) {
		t.Fatal("new talker's packet not written")
	}
	if step := int32(d.lastTS - last); step < 960 {
		t.Fatalf("timestamp moved by %d at the switch, want at least one frame (960)", step)
	}
	if d.lastSeq != lastSeq+1 {
		t.Fatalf("sequence %d after %d", d.lastSeq, lastSeq)
	}
}
