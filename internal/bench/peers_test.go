package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/pion/rtp"

	"tenfour/internal/termclient"
)

// The audio harness finds a packet's index in what a server forwarded, and nothing in any other payload.
func TestBenchPayloadIndex(t *testing.T) {
	for _, idx := range []int{0, 1, 499, 70000} {
		got, ok := packetIndex(benchPayload(idx))
		if !ok || got != idx {
			t.Errorf("index %d: got %d, %v", idx, got, ok)
		}
	}
	for _, pl := range [][]byte{nil, {0xf8, 0xff, 0xfe}, {0xf8, 0xff, 0xfd, 0, 0, 0, 1}, append(benchPayload(3), 0)} {
		if idx, ok := packetIndex(pl); ok {
			t.Errorf("%x: read index %d from a payload the sender did not write", pl, idx)
		}
	}
}

// Centrifugo may put several messages in one WebSocket frame, one a line: the reader finds the publication, the
// reply and the ping (to be answered) in any of them.
func TestCentrifugoFrames(t *testing.T) {
	c := &centrifugoFan{}
	cases := []struct {
		msg    string
		event  int
		reply  bool
		answer bool
	}{
		{`{"push":{"channel":"customer:1","pub":{"data":{"k":3}}}}`, 3, false, false},
		{`{}`, -1, false, true},
		{`{"id":7,"error":{"code":104,"message":"method not found"}}`, -1, true, false},
		{"{\"id\":8,\"rpc\":{}}\n{\"push\":{\"channel\":\"customer:1\",\"pub\":{\"data\":{\"k\":0}}}}\n{}", 0, true, true},
		{`{"push":{"channel":"customer:1","pub":{"data":{"other":1}}}}`, -1, false, false},
	}
	for _, tc := range cases {
		event, reply, answer := c.frame([]byte(tc.msg))
		if event != tc.event || reply != tc.reply || (answer != nil) != tc.answer {
			t.Errorf("%q: event %d reply %v answer %q; want %d %v %v", tc.msg, event, reply, answer, tc.event, tc.reply, tc.answer)
		}
	}
}

// tenfour's reader counts pongs as replies and maps a key.changed to the event whose key it carries.
func TestTenfourFrames(t *testing.T) {
	f := &tenfourFan{keys: map[string]int{"ABC": 2}}
	if _, reply, _ := f.frame([]byte(`{"re":5,"type":"pong"}`)); !reply {
		t.Error("pong not counted as a reply")
	}
	if k, _, _ := f.frame([]byte(`{"type":"key.changed","data":{"keyId":"9","secretKey":"ABC"}}`)); k != 2 {
		t.Errorf("key.changed: event %d, want 2", k)
	}
	if k, _, _ := f.frame([]byte(`{"type":"key.changed","data":{"keyId":"9","secretKey":"XYZ"}}`)); k != -1 {
		t.Errorf("another key: event %d, want -1", k)
	}
}

// The configurations the docs show: loopback only, no TLS settings, the namespace the clients subscribe in.
func TestPeerConfigs(t *testing.T) {
	lk := LiveKitConfig(7880, 7882, 7881)
	for _, want := range []string{`bind_addresses: ["127.0.0.1"]`, "node_ip: 127.0.0.1", `includes: ["lo"]`,
		"enable_loopback_candidate: true", "use_external_ip: false", "udp_port: 7882"} {
		if !strings.Contains(lk, want) {
			t.Errorf("LiveKit config lacks %q:\n%s", want, lk)
		}
	}
	if strings.Contains(lk, "tls") || strings.Contains(lk, "turn") {
		t.Errorf("LiveKit config sets TLS or TURN:\n%s", lk)
	}
	cf := CentrifugoConfig(8000)
	if cf["http_server"].(map[string]any)["address"] != "127.0.0.1" {
		t.Error("Centrifugo does not listen on loopback only")
	}
	ns := cf["channel"].(map[string]any)["namespaces"].([]map[string]any)
	if len(ns) != 1 || ns[0]["name"] != strings.Split(centrifugoChannel, ":")[0] || ns[0]["allow_subscribe_for_client"] != true {
		t.Errorf("Centrifugo namespace %v does not admit the channel %s", ns, centrifugoChannel)
	}
}

// The LiveKit client reads the SignalResponse fields it needs (as protobuf puts them on the wire) and skips the
// rest; what it writes reads back the same.
func TestLiveKitWire(t *testing.T) {
	join := appendVarint(nil, 10, 15)                          // ping_timeout
	join = appendVarint(join, lkJoinPingInterval, 5)           // ping_interval
	join = appendString(join, 1, "room info it does not read") // room (a message it skips)
	m, err := decodeLK(lkRequest(lkResJoin, join))
	if err != nil || !m.Join || m.PingInterval != 5 {
		t.Fatalf("join: %+v %v", m, err)
	}
	offer := lkDesc{Type: "offer", SDP: "v=0\r\n", ID: 7}
	m, err = decodeLK(lkRequest(lkResOffer, offer.encode()))
	if err != nil || m.Offer == nil || *m.Offer != offer || m.Answer != nil {
		t.Fatalf("offer: %+v %v", m, err)
	}
	tr := lkTrickle{CandidateInit: `{"candidate":"candidate:1 1 udp 1 127.0.0.1 7882 typ host"}`, Target: lkTargetSubscriber}
	m, err = decodeLK(lkRequest(lkResTrickle, tr.encode()))
	if err != nil || m.Trickle == nil || *m.Trickle != tr {
		t.Fatalf("trickle: %+v %v", m, err)
	}
	if m, err = decodeLK(lkRequest(lkResTrackPublished, appendString(nil, 1, "bench-mic"))); err != nil || !m.TrackPublished {
		t.Fatalf("trackPublished: %+v %v", m, err)
	}
	if m, err = decodeLK(lkRequest(lkResLeave, nil)); err != nil || !m.Leave {
		t.Fatalf("leave: %+v %v", m, err)
	}
	if _, err := decodeLK(lkRequest(lkResOffer, offer.encode())[:5]); err == nil {
		t.Error("a cut message decoded without an error")
	}
}

// The video reader counts each sequence number once (a NACK's retransmission is not a second packet), across the
// 16-bit wrap, and frames by their marker bit; a gap stays a gap, so span − unique is what was lost.
func TestVideoSubCounts(t *testing.T) {
	s := newVideoSub()
	send := func(seq uint16, marker bool) {
		s.packet(&rtp.Packet{Header: rtp.Header{SequenceNumber: seq, Marker: marker}})
	}
	send(65533, false)
	before := s.counts()
	send(65534, false)
	send(65535, true)
	send(1, false) // 0 lost
	send(2, true)
	send(65535, true) // retransmitted
	send(3, false)
	after := s.counts()
	span, got := int(after.hi-before.hi), after.unique-before.unique
	if span != 6 || got != 5 || span-got != 1 {
		t.Errorf("span %d, unique %d: want 6 and 5 (one lost)", span, got)
	}
	if f := after.frames - before.frames; f != 2 {
		t.Errorf("frames %d, want 2 (the retransmission is not a third)", f)
	}
	// A packet from before the first one, or far behind, is not counted.
	send(65530, false)
	send(3+1<<15+10, false)
	if c := s.counts(); c.hi != after.hi || c.unique != after.unique {
		t.Errorf("an old packet moved the counts: %+v → %+v", after, c)
	}
}

// Each published frame carries 1 Mbit/s at the clip's rate (a larger frame keeps its size) and starts with the
// clip's own frame.
func TestVideoFramesPadded(t *testing.T) {
	for _, codec := range []string{"VP8", "H264"} {
		frames, err := videoFrames(codec)
		if err != nil {
			t.Fatal(err)
		}
		clip, _ := termclient.ClipFor(codec, termclient.ClipSizes[0].Width, termclient.ClipSizes[0].Height)
		per, total := VideoBitrate/8/termclient.ClipFPS, 0 // rounded down: a floor for every frame
		for i, f := range frames {
			if len(f) < per || string(f[:len(clip.Frames[i].Data)]) != string(clip.Frames[i].Data) {
				t.Fatalf("%s frame %d: %d bytes, or not the clip's frame first", codec, i, len(f))
			}
			total += len(f)
		}
		if rate := float64(total*8) / (float64(len(frames)) / termclient.ClipFPS); rate < VideoBitrate || rate > 1.2*VideoBitrate {
			t.Errorf("%s: %.0f bit/s", codec, rate)
		}
	}
}

// The kernel's floors run end to end: every fan-out frame is read (FanoutFloor waits for each), and the audio
// receivers read the copies (AudioFloor fails when they read fewer than 9 in 10: sends to the wrong ports).
func TestKernelFloors(t *testing.T) {
	per, err := FanoutFloor(t.Context(), 200, 3)
	if err != nil || per <= 0 {
		t.Fatalf("fan-out floor: %v per event, %v", per, err)
	}
	cores, err := AudioFloor(t.Context(), 20, 300*time.Millisecond)
	if err != nil || cores <= 0 || cores >= 1 {
		t.Fatalf("audio floor: %.3f cores, %v", cores, err)
	}
}
