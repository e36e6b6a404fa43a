package media_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/testkit"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/media"
	"tenfour/internal/media/oggopus"
	"tenfour/internal/termclient"
)

func newEngine(t testing.TB) *media.Engine { return newEngineCPU(t, false) }

// newEngineCPU is newEngine, measuring the forwarding loops' CPU time when measure is set.
func newEngineCPU(t testing.TB, measure bool) *media.Engine {
	t.Helper()
	e, err := media.NewEngine(media.Config{Interfaces: []string{"lo"}, MeasureCPU: measure})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// negotiate exchanges a client's offer and a server peer's answer directly (no socket), trickling the client's
// candidates to the peer; check, when not nil, reads the answer before the client applies it. Both are closed
// when the test ends.
func negotiate(t testing.TB, p *media.Peer, m *termclient.Media, check func(answer string)) {
	t.Helper()
	t.Cleanup(func() { m.Close(); p.Close() })
	m.OnCandidate(func(c webrtc.ICECandidateInit) { _ = p.AddCandidate(c) })
	offer, err := m.Offer()
	if err != nil {
		t.Fatal(err)
	}
	answer, err := p.HandleOffer(offer)
	if err != nil {
		t.Fatal(err)
	}
	if check != nil {
		check(answer)
	}
	if err := m.Accept(answer); err != nil {
		t.Fatal(err)
	}
}

// connect negotiates a client with a server peer directly (no socket) and waits until both sides carry media.
func connect(t testing.TB, e *media.Engine, name string) (*media.Peer, *termclient.Media) {
	t.Helper()
	ready := make(chan struct{})
	var once sync.Once
	p, err := e.NewPeer(media.Owner{Account: name, Customer: 1}, func(_ *media.Peer, r bool) {
		if r {
			once.Do(func() { close(ready) })
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := termclient.NewMedia(termclient.MediaOptions{Loopback: true, KeepPayloads: true})
	if err != nil {
		t.Fatal(err)
	}
	negotiate(t, p, m, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := m.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ready:
	case <-ctx.Done():
		t.Fatal("server peer not ready")
	}
	return p, m
}

// routeBurst sends talker's packets to listeners as burst (each assigned to hear it); it returns burst.
func routeBurst(talker *media.Peer, burst *media.Burst, listeners ...*media.Downstream) *media.Burst {
	r := &media.Route{Burst: burst}
	for _, d := range listeners {
		d.Assign(burst.ID)
		r.Targets = append(r.Targets, media.Target{D: d, Src: burst.ID})
	}
	talker.SetRoute(r)
	return burst
}

func ctxT(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestTalkerSwitchKeepsEveryPacketAndContinuity(t *testing.T) {
	e := newEngine(t)
	a, am := connect(t, e, "A")
	b, bm := connect(t, e, "B")
	l1, l1m := connect(t, e, "L1")
	l2, l2m := connect(t, e, "L2")
	listeners := []*media.Downstream{l1.Downstream(), l2.Downstream()}
	// The server answers as the DTLS server, so it knows each connection's SRTP keys and sends on the direct
	// path: every assertion below is about packets the clients' pion stacks decrypted.
	for _, d := range listeners {
		testkit.Eventually(t, 5*time.Second, "listener on the direct path", d.Direct)
	}
	// The talkers' audio is read in the media socket's reader (their offers declare their SSRC), not by pion.
	for _, p := range []*media.Peer{a, b} {
		testkit.Eventually(t, 5*time.Second, "talker read in the socket's reader", p.Inline)
	}

	b1 := routeBurst(a, media.NewBurst(nil), listeners...)
	ctx := ctxT(t, 20*time.Second)
	if err := am.Send(ctx, termclient.Silence(50), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	// The floor moves to B once the server has A's last packet (a release follows the talker's last packet,
	// and the next grant follows the release). A's route stays (its tail): until B's first packet reaches a
	// listener, A's packets still play there; after it, A's would be stale and are dropped.
	testkit.Eventually(t, 10*time.Second, "50 packets of the first burst", func() bool { return b1.Stats().Packets == 50 })
	b2 := routeBurst(b, media.NewBurst(nil), listeners...)
	if err := bm.Send(ctx, termclient.Silence(50), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for _, m := range []*termclient.Media{l1m, l2m} {
		pkts, err := m.WaitPackets(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		testkit.WantContinuous(t, pkts)
		if !pkts[0].Marker || !pkts[50].Marker {
			t.Fatalf("talkspurt starts not marked: %v %v", pkts[0].Marker, pkts[50].Marker)
		}
		if gap := pkts[50].TS - pkts[49].TS; gap < 960 {
			t.Fatalf("timestamp gap across the switch %d < one frame", gap)
		}
	}
	a.SetRoute(nil)
	if s := b2.Stats(); s.Packets != 50 || s.FirstPacket <= 0 || s.DelayP99 <= 0 {
		t.Fatalf("burst stats %+v", s)
	}
	if na, nb := a.InlinePackets(), b.InlinePackets(); na != 50 || nb != 50 {
		t.Fatalf("packets read in the socket's reader: %d and %d of 50", na, nb)
	}
	// The talker hears nothing of itself.
	if n := am.ReceivedCount() + bm.ReceivedCount(); n != 0 {
		t.Fatalf("talkers received %d packets", n)
	}
}

func TestUnassignedListenerGetsNothing(t *testing.T) {
	e := newEngine(t)
	a, am := connect(t, e, "A")
	l, lm := connect(t, e, "L")
	burst := media.NewBurst(nil)
	// In the route but assigned to another source (it plays another call): nothing reaches it.
	l.Downstream().Assign(media.NewSourceID())
	a.SetRoute(&media.Route{Burst: burst, Targets: []media.Target{{D: l.Downstream(), Src: burst.ID}}})
	ctx := ctxT(t, 10*time.Second)
	if err := am.Send(ctx, termclient.Silence(20), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "20 packets of the burst", func() bool { return burst.Stats().Packets == 20 })
	if n := lm.ReceivedCount(); n != 0 {
		t.Fatalf("unassigned listener received %d packets", n)
	}
}

// record sends payloads through a talker's route whose burst is recorded to a new file, and finishes it.
func record(t *testing.T, payloads [][]byte) (media.Recording, string, error) {
	t.Helper()
	e := newEngine(t)
	a, am := connect(t, e, "A")
	path := filepath.Join(t.TempDir(), "rec", "burst.ogg")
	rec := media.StartRecorder(path)
	burst := media.NewBurst(rec)
	a.SetRoute(&media.Route{Burst: burst})
	ctx := ctxT(t, 20*time.Second)
	if err := am.Send(ctx, payloads, 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "every packet sent", func() bool { return burst.Stats().Packets == len(payloads) })
	a.SetRoute(nil)
	res, err := rec.Finish()
	return res, path, err
}

func TestRecordingDuration(t *testing.T) {
	fixture, err := oggopus.ReadFile("../../testdata/audio/reply.ogg")
	if err != nil {
		t.Fatal(err)
	}
	res, path, err := record(t, fixture.Packets)
	if err != nil {
		t.Fatal(err)
	}
	if res.Quality != media.HD || res.Packets != len(fixture.Packets) || res.Size == 0 {
		t.Fatalf("recording %+v", res)
	}
	got, err := oggopus.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := fixture.Duration()
	if d := got.Duration() - want; d < -want/20 || d > want/20 {
		t.Fatalf("recording decodes to %v, spoken %v", got.Duration(), want)
	}
}

// A malformed Opus packet in the middle of a burst is left out and counted; the rest of the burst is recorded
// and plays (issue 14 M3: the first bad packet used to lose the whole recording and leave its file behind).
func TestRecordingSkipsMalformedPackets(t *testing.T) {
	fixture, err := oggopus.ReadFile("../../testdata/audio/reply.ogg")
	if err != nil {
		t.Fatal(err)
	}
	bad := [][]byte{
		{0x03},       // code 3 without its frame count byte
		{0xfb, 0x00}, // code 3, zero frames
		{0xfb, 0x3f}, // code 3, 63 frames of 20 ms: longer than 120 ms
	}
	half := len(fixture.Packets) / 2
	sent := append(append(append([][]byte{}, fixture.Packets[:half]...), bad...), fixture.Packets[half:]...)
	const skipped = "tenfour_voice_record_packets_skipped_total"
	before := testkit.Counter(t, skipped)
	res, path, err := record(t, sent)
	if err != nil {
		t.Fatalf("recording failed: %v", err)
	}
	if res.Packets != len(fixture.Packets) || res.Skipped != len(bad) || res.Size == 0 {
		t.Fatalf("recording %+v, want %d packets kept and %d skipped", res, len(fixture.Packets), len(bad))
	}
	if d := testkit.Counter(t, skipped) - before; d != float64(len(bad)) {
		t.Fatalf("skipped packets counted %v, want %d", d, len(bad))
	}
	got, err := oggopus.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Packets) != len(fixture.Packets) || got.Samples() != fixture.Samples() {
		t.Fatalf("file holds %d packets (%d samples), want %d (%d)", len(got.Packets), got.Samples(),
			len(fixture.Packets), fixture.Samples())
	}
	for i, p := range got.Packets {
		if string(p) != string(fixture.Packets[i]) {
			t.Fatalf("packet %d differs from the one spoken", i)
		}
	}
}

func TestTURNRelayAndPublicAddress(t *testing.T) {
	port, err := media.FreeUDPPort()
	if err != nil {
		t.Fatal(err)
	}
	e, err := media.NewEngine(media.Config{Interfaces: []string{"lo"}, TURNPort: port, TURNHost: "127.0.0.1",
		PublicIPs: []string{"203.0.113.7"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	servers := e.ICEServers("10001001")
	if len(servers) != 1 || servers[0].Username == "" || servers[0].Credential == "" {
		t.Fatalf("ICE servers %+v", servers)
	}
	// A client that may only use TURN relays reaches the server through the embedded TURN server.
	p, err := e.NewPeer(media.Owner{Account: "10001001", Customer: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := termclient.NewMedia(termclient.MediaOptions{Loopback: true, ICEServers: servers, RelayOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	negotiate(t, p, m, func(answer string) {
		// The server advertises its public address (NAT 1:1) next to its own.
		if !strings.Contains(answer, "203.0.113.7") {
			t.Fatalf("answer without the public address:\n%s", answer)
		}
	})
	ctx := ctxT(t, 15*time.Second)
	if err := m.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	if typ := m.SelectedCandidateType(); typ != "relay" {
		t.Fatalf("selected candidate %q, want relay", typ)
	}
	testkit.Eventually(t, 10*time.Second, "the peer ready", p.Ready)
	// Sent from the shared socket straight to the TURN relay's address.
	testkit.Eventually(t, 5*time.Second, "listener on the direct path", p.Downstream().Direct)
	other, om := connect(t, e, "talker")
	routeBurst(other, media.NewBurst(nil), p.Downstream())
	if err := om.Send(ctx, termclient.Silence(10), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := m.WaitPackets(ctx, 10); err != nil {
		t.Fatal(err)
	}
}

// A recording whose file cannot be created does not hold the grant up: it queues, drops its packets and
// reports the failure at Finish, leaving what was there in place.
func TestRecorderReportsCreateFailureAtFinish(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "taken.ogg")
	if err := os.WriteFile(path, []byte("keep"), 0o640); err != nil {
		t.Fatal(err)
	}
	rec := media.StartRecorder(path) // O_EXCL: the existing file is not overwritten
	if _, err := rec.Finish(); err == nil {
		t.Fatal("no error for an existing file")
	}
	if b, _ := os.ReadFile(path); string(b) != "keep" {
		t.Fatalf("existing file changed: %q", b)
	}
}

// The server's receiver reports on a talker's audio come from its own counts (the audio is read in the socket's
// reader, past pion's report interceptor): the talker's pion stack gets a report block on its microphone's stream.
func TestTalkerGetsReceiverReportsOnItsAudio(t *testing.T) {
	e := newEngine(t)
	a, am := connect(t, e, "A")
	l, lm := connect(t, e, "L")
	testkit.Eventually(t, 5*time.Second, "talker read in the socket's reader", a.Inline)
	routeBurst(a, media.NewBurst(nil), l.Downstream())
	ctx := ctxT(t, 20*time.Second)
	if err := am.Send(ctx, termclient.Silence(100), 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := lm.WaitPackets(ctx, 100); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, media.RTCPInterval+5*time.Second, "a receiver report on the talker's stream", func() bool {
		_, ok := am.LastReport()
		return ok
	})
	r, _ := am.LastReport()
	if r.TotalLost != 0 || r.FractionLost != 0 || r.Jitter > 48000 {
		t.Fatalf("report %+v", r)
	}
	if a.InlinePackets() != 100 {
		t.Fatalf("read in the socket's reader: %d of 100", a.InlinePackets())
	}
}

// consentAnswered counts the client's consent checks the media socket's reader answered.
func consentAnswered(p *media.Peer) uint64 {
	answered, _ := media.ConsentForTest(p)
	return answered
}

// A silent voice connection stays up past pion's disconnected timeout (12 s) on its client's consent checks alone
// (docs/adr/0048): the media socket's reader answers most of them — the client (pion, checking every 2 s) accepts
// each answer as its agent would pion's —, one in every 5 s goes on to pion's agent, which so sees the client, and
// the server sends no consent checks of its own.
func TestConsentAnsweredInTheReaderKeepsTheConnection(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	p, m := connect(t, e, "A")
	testkit.Eventually(t, 5*time.Second, "a consent check answered in the reader", func() bool {
		return consentAnswered(p) > 0
	})
	answered0, passed0 := media.ConsentForTest(p)
	accepted0 := m.ConsentResponses()
	sent0 := media.ConsentRequestsSentForTest(p)
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if s := media.ICEStateForTest(p); s != webrtc.ICEConnectionStateConnected {
			t.Fatalf("server side %v", s)
		}
		if !p.Ready() {
			t.Fatal("the server peer is no longer ready")
		}
		if err := m.WaitConnected(ctxT(t, 50*time.Millisecond)); err != nil {
			t.Fatalf("client: %v", err)
		}
	}
	answered, passed := media.ConsentForTest(p)
	answered, passed = answered-answered0, passed-passed0
	accepted := m.ConsentResponses() - accepted0
	if answered < 3 || passed < 2 || passed > answered || accepted+1 < answered+passed {
		t.Fatalf("in 15 s the reader answered %d checks and passed %d to pion; the client accepted %d answers",
			answered, passed, accepted)
	}
	if sent := media.ConsentRequestsSentForTest(p) - sent0; sent != 0 {
		t.Fatalf("the server sent %d consent checks of its own in 15 s, want none", sent)
	}
}

// An ICE restart (new credentials on both sides) is pion's to run: the reader answers none of its checks until the
// connection is up again, then answers the client's checks under the new credentials.
func TestConsentAfterAnICERestart(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	p, m := connect(t, e, "A")
	testkit.Eventually(t, 5*time.Second, "a consent check answered in the reader", func() bool {
		return consentAnswered(p) > 0
	})
	offer, err := m.RestartOffer()
	if err != nil {
		t.Fatal(err)
	}
	answer, err := p.HandleOffer(offer)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Accept(answer); err != nil {
		t.Fatal(err)
	}
	before := consentAnswered(p)
	testkit.Eventually(t, 10*time.Second, "checks answered under the new credentials", func() bool {
		return consentAnswered(p) >= before+2
	})
	if s := media.ICEStateForTest(p); s != webrtc.ICEConnectionStateConnected || !p.Ready() {
		t.Fatalf("server side %v, ready %v", s, p.Ready())
	}
	if err := m.WaitConnected(ctxT(t, time.Second)); err != nil {
		t.Fatalf("client: %v", err)
	}
}
