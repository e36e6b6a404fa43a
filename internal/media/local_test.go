package media_test

import (
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"

	"tenfour/internal/media"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// heard collects what a local peer hears.
type heard struct {
	mu   sync.Mutex
	pkts []termclient.Packet
}

func (h *heard) hear(hd *rtp.Header, payload []byte) {
	h.mu.Lock()
	h.pkts = append(h.pkts, termclient.Packet{Seq: hd.SequenceNumber, TS: hd.Timestamp, Marker: hd.Marker,
		Payload: append([]byte(nil), payload...)})
	h.mu.Unlock()
}

func (h *heard) list() []termclient.Packet {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]termclient.Packet(nil), h.pkts...)
}

// A local peer (docs/adr/0043) is a party like any other without a connection: a WebRTC talker's burst reaches it
// whole and renumbered as on the wire (continuous, the talkspurt marked); what it speaks reaches a WebRTC listener
// and another local peer (heard in order), and its burst counts every packet; unrouted, what it speaks is
// dropped; closed, it hears nothing more and says it is no longer ready.
func TestLocalPeerHearsAndSpeaks(t *testing.T) {
	e := newEngine(t)
	talker, tm := connect(t, e, "T")
	listener, lm := connect(t, e, "L")
	var got heard
	var states []bool
	local := e.NewLocalPeer(media.Owner{Account: "SIP", Customer: 1}, func(_ *media.Peer, ready bool) { states = append(states, ready) }, got.hear)
	if !local.Ready() || !local.Local() {
		t.Fatal("a local peer is not ready from the start")
	}
	if _, err := local.HandleOffer("v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"); err == nil {
		t.Fatal("a local peer took an offer")
	}

	in := routeBurst(talker, media.NewBurst(nil), local.Downstream())
	ctx := ctxT(t, 20*time.Second)
	if err := tm.Send(ctx, termclient.Silence(50), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "50 packets heard", func() bool { return len(got.list()) == 50 })
	pkts := got.list()
	testkit.WantContinuous(t, pkts)
	if !pkts[0].Marker || string(pkts[10].Payload) != string(termclient.SilentPacket) {
		t.Fatalf("the first packet heard is not marked (%v) or a payload changed", pkts[0].Marker)
	}
	talker.SetRoute(nil)

	pkt := &rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: media.OpusPayloadType, SSRC: 7}, Payload: termclient.SilentPacket}
	local.Speak(pkt) // no route: dropped
	// another local peer hears a local speaker in the speaker's Speak, in order
	var got2 heard
	local2 := e.NewLocalPeer(media.Owner{Account: "SIP2", Customer: 1}, nil, got2.hear)
	defer local2.Close()
	out := routeBurst(local, media.NewBurst(nil), listener.Downstream(), local2.Downstream())
	for i := range 30 {
		pkt.SequenceNumber, pkt.Timestamp = uint16(100+i), uint32(960*i)
		local.Speak(pkt)
	}
	if _, err := lm.WaitPackets(ctx, 30); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "the other local peer hears 30 packets", func() bool { return len(got2.list()) == 30 })
	testkit.WantContinuous(t, got2.list())
	if s := out.Stats(); s.Packets != 30 {
		t.Fatalf("the local talker's burst counted %d packets, want 30", s.Packets)
	}
	if n := local.UpstreamPackets(); n != 31 {
		t.Fatalf("upstream packets %d, want 31 (one dropped unrouted)", n)
	}

	local.Close()
	routeBurst(talker, in, local.Downstream())
	if err := tm.Send(ctx, termclient.Silence(5), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "the burst's 55 packets", func() bool { return in.Stats().Packets == 55 })
	if n := len(got.list()); n != 50 {
		t.Fatalf("a closed local peer heard %d packets, want the 50 before", n)
	}
	if len(states) != 1 || states[0] {
		t.Fatalf("states told %v, want one not ready at Close", states)
	}
}
