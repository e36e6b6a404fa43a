package termclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"tenfour/internal/media/oggopus"
	"tenfour/internal/media/rtcapi"
	"tenfour/internal/platform/rtcpread"
)

// Packet is one RTP packet the client received.
type Packet struct {
	Seq     uint16
	TS      uint32
	SSRC    uint32
	Marker  bool
	Ext     bool // had header extensions (the server strips them)
	Payload []byte
	At      time.Time
}

// MediaOptions tune the client's WebRTC side.
type MediaOptions struct {
	// Loopback restricts ICE to the loopback interface (tests and single-host simulations).
	Loopback bool
	// ICEServers are the STUN/TURN servers to use (what the server's rtc.config returns).
	ICEServers []webrtc.ICEServer
	// RelayOnly forces traffic through TURN (to test it).
	RelayOnly bool
	// KeepPayloads keeps received payloads (otherwise only headers and sizes are kept).
	KeepPayloads bool
	// OnPacket, if set, is given each received packet instead of keeping it (a long-lived client, e.g. the chaos
	// harness's terminals, would otherwise keep every packet in memory); p is valid during the call.
	OnPacket func(p *rtp.Packet)
	// Local, if set, is the ticket of an in-process party's media (call.LocalMedia, docs/adr/0043): Connect binds
	// the session to it with rtc.local instead of negotiating WebRTC, and the client has no Media of its own.
	Local string
	// OnVideoPacket, if set, sees each video packet a video session receives, after the session counted it (the
	// bench's video row reads sequence numbers with it); p is valid during the call.
	OnVideoPacket func(p *rtp.Packet)
}

// Media is the client's one PeerConnection: a sendrecv Opus transceiver whose sending track is the
// microphone (packets written by Send/PlayOgg) and whose receiving track is what the server forwards.
type Media struct {
	opts MediaOptions
	pc   *webrtc.PeerConnection
	mic  *webrtc.TrackLocalStaticRTP

	sendMu sync.Mutex
	seq    uint16
	ts     uint32

	watched  // mu guards what follows
	recv     []Packet
	onCand   func(webrtc.ICECandidateInit)
	pendingC []webrtc.ICECandidateInit
	report   *rtcp.ReceptionReport // the server's last report block on the microphone's stream
}

// NewPeerConnection is a terminal's peer connection: Opus as the server offers it (payload 111, in-band FEC),
// RTCP reports, UDP over IPv4 — only the loopback interface when loopback is set (tests, benchmarks, the
// simulator on one machine).
func NewPeerConnection(loopback bool, cfg webrtc.Configuration) (*webrtc.PeerConnection, error) {
	api, err := rtcapi.Audio(settings(loopback))
	if err != nil {
		return nil, err
	}
	return api.NewPeerConnection(cfg)
}

// NewVideoPeerConnection builds a PeerConnection for a video session in codec ("VP8" or "H264", with Opus) as
// OpenVideo does, for a harness that negotiates it with another server (the bench's LiveKit side).
func NewVideoPeerConnection(loopback bool, codec string, cfg webrtc.Configuration) (*webrtc.PeerConnection, error) {
	vc, err := videoCapability(codec)
	if err != nil {
		return nil, err
	}
	api, err := rtcapi.Video([]webrtc.RTPCodecParameters{vc}, settings(loopback))
	if err != nil {
		return nil, err
	}
	return api.NewPeerConnection(cfg)
}

// VideoCodec is the capability of a video codec ("VP8" or "H264") as the client offers it.
func VideoCodec(codec string) (webrtc.RTPCodecCapability, error) {
	vc, err := videoCapability(codec)
	return vc.RTPCodecCapability, err
}

// settings: UDP over IPv4, only on the loopback interface when loopback is set.
func settings(loopback bool) webrtc.SettingEngine {
	se := webrtc.SettingEngine{}
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	if loopback {
		se.SetInterfaceFilter(func(name string) bool { return name == "lo" })
		se.SetIncludeLoopbackCandidate(true)
	}
	return se
}

// NewMedia builds the PeerConnection (not yet negotiated).
func NewMedia(opts MediaOptions) (*Media, error) {
	cfg := webrtc.Configuration{ICEServers: opts.ICEServers}
	if opts.RelayOnly {
		cfg.ICETransportPolicy = webrtc.ICETransportPolicyRelay
	}
	pc, err := NewPeerConnection(opts.Loopback, cfg)
	if err != nil {
		return nil, err
	}
	mic, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000,
		Channels: 2}, "mic", "termclient")
	if err != nil {
		pc.Close()
		return nil, err
	}
	m := &Media{opts: opts, pc: pc, mic: mic, seq: uint16(time.Now().UnixNano())}
	tr, err := pc.AddTransceiverFromTrack(mic, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendrecv})
	if err != nil {
		pc.Close()
		return nil, err
	}
	go m.readRTCP(tr.Sender())
	pc.OnTrack(func(t *webrtc.TrackRemote, _ *webrtc.RTPReceiver) { m.readLoop(t) })
	m.follow(pc)
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c == nil {
			return
		}
		init := c.ToJSON()
		m.mu.Lock()
		fn := m.onCand
		if fn == nil {
			m.pendingC = append(m.pendingC, init)
		}
		m.mu.Unlock()
		if fn != nil {
			fn(init)
		}
	})
	return m, nil
}

// OnCandidate sets where local ICE candidates go (trickle); candidates found earlier are delivered now.
func (m *Media) OnCandidate(fn func(webrtc.ICECandidateInit)) {
	m.mu.Lock()
	m.onCand = fn
	early := m.pendingC
	m.pendingC = nil
	m.mu.Unlock()
	for _, c := range early {
		fn(c)
	}
}

// Offer creates the offer and sets it as the local description.
func (m *Media) Offer() (string, error) { return m.offer(nil) }

// RestartOffer is an offer that restarts ICE (new credentials, new checks: what a phone does after a network
// change), set as the local description.
func (m *Media) RestartOffer() (string, error) {
	return m.offer(&webrtc.OfferOptions{ICERestart: true})
}

func (m *Media) offer(o *webrtc.OfferOptions) (string, error) {
	offer, err := m.pc.CreateOffer(o)
	if err != nil {
		return "", err
	}
	if err := m.pc.SetLocalDescription(offer); err != nil {
		return "", err
	}
	return offer.SDP, nil
}

// Accept applies the server's answer.
func (m *Media) Accept(answer string) error {
	return m.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer})
}

// WaitConnected waits until ICE and DTLS are up on this side.
func (m *Media) WaitConnected(ctx context.Context) error {
	err := m.until(ctx, func() (bool, error) { return connected("peer connection", m.state) })
	if err != nil && err == ctx.Err() { // not the state's own failure
		return fmt.Errorf("termclient: not connected: %w", err)
	}
	return err
}

// Close ends the PeerConnection.
func (m *Media) Close() error { return m.pc.Close() }

// SelectedCandidateType is the local candidate type of the nominated pair ("host", "relay"…), "" before.
func (m *Media) SelectedCandidateType() string {
	stats := m.pc.GetStats()
	for _, s := range stats {
		if p, ok := s.(webrtc.ICECandidatePairStats); ok && p.Nominated {
			if c, ok := stats[p.LocalCandidateID].(webrtc.ICECandidateStats); ok {
				return c.CandidateType.String()
			}
		}
	}
	return ""
}

// ConsentResponses counts the answers to this side's ICE checks that its agent accepted on the nominated pair
// (RFC 7675 consent: each one says the server is still there and still wants the media).
func (m *Media) ConsentResponses() uint64 {
	for _, s := range m.pc.GetStats() {
		if p, ok := s.(webrtc.ICECandidatePairStats); ok && p.Nominated {
			return p.ResponsesReceived
		}
	}
	return 0
}

func (m *Media) readLoop(t *webrtc.TrackRemote) {
	rtcapi.EachPacket(t, func(p *rtp.Packet) {
		if m.opts.OnPacket != nil {
			m.opts.OnPacket(p)
			return
		}
		rec := Packet{Seq: p.SequenceNumber, TS: p.Timestamp, SSRC: p.SSRC, Marker: p.Marker, Ext: p.Extension,
			At: time.Now()}
		if m.opts.KeepPayloads {
			rec.Payload = append([]byte(nil), p.Payload...)
		} else {
			rec.Payload = p.Payload[:0:0]
		}
		m.mu.Lock()
		m.recv = append(m.recv, rec)
		m.notifyLocked()
		m.mu.Unlock()
	})
}

// Continuous says whether packets arrived as one stream — sequence numbers up by exactly one, timestamps never
// back, no header extensions — and where they did not (nil: they did). The server forwards a talker switch or
// a relayed burst as one stream: a listener's decoder must not see a jump.
func Continuous(pkts []Packet) error {
	for i := 1; i < len(pkts); i++ {
		if pkts[i].Seq != pkts[i-1].Seq+1 {
			return fmt.Errorf("packet %d: seq %d after %d", i, pkts[i].Seq, pkts[i-1].Seq)
		}
		if int32(pkts[i].TS-pkts[i-1].TS) <= 0 {
			return fmt.Errorf("packet %d: timestamp %d after %d", i, pkts[i].TS, pkts[i-1].TS)
		}
		if pkts[i].Ext {
			return fmt.Errorf("packet %d carries header extensions", i)
		}
	}
	return nil
}

// Received returns a copy of the packets received so far.
func (m *Media) Received() []Packet {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.recv)
}

// ReceivedCount is how many packets arrived so far.
func (m *Media) ReceivedCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.recv)
}

// WaitPackets waits until at least n packets arrived in total.
func (m *Media) WaitPackets(ctx context.Context, n int) ([]Packet, error) {
	if err := m.until(ctx, func() (bool, error) { return len(m.recv) >= n, nil }); err != nil {
		return m.Received(), fmt.Errorf("termclient: %d of %d packets: %w", m.ReceivedCount(), n, err)
	}
	return m.Received(), nil
}

// Send writes Opus payloads as the microphone, one every interval (0 = as fast as possible). Sequence numbers
// and timestamps continue across calls like a real sender's (timestamps advance by each packet's length).
func (m *Media) Send(ctx context.Context, payloads [][]byte, interval time.Duration) error {
	m.sendMu.Lock()
	defer m.sendMu.Unlock()
	var tick *time.Ticker
	if interval > 0 {
		tick = time.NewTicker(interval)
		defer tick.Stop()
	}
	for i, pl := range payloads {
		if i > 0 && tick != nil {
			select {
			case <-tick.C:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		m.seq++
		err := m.mic.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: m.seq,
			Timestamp: m.ts, Marker: i == 0}, Payload: pl})
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		m.ts += oggopus.Advance(pl)
	}
	return nil
}

// PlayOgg sends an Ogg Opus file as the microphone at real-time pace (one packet per its duration); speed
// above 1 plays faster (tests). It returns how many packets were sent.
func (m *Media) PlayOgg(ctx context.Context, path string, speed float64) (int, error) {
	f, err := oggopus.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if speed <= 0 {
		speed = 1
	}
	interval := time.Duration(float64(20*time.Millisecond) / speed)
	return len(f.Packets), m.Send(ctx, f.Packets, interval)
}

// SilentPacket is a valid 20 ms Opus packet (CELT fullband, code 0) of silence, for synthetic talk.
var SilentPacket = []byte{0xf8, 0xff, 0xfe}

// Silence is n SilentPackets: 20 ms each, a talk of n × 20 ms for Send or Talk.
func Silence(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = SilentPacket
	}
	return out
}

// readRTCP keeps reading the microphone sender's RTCP, so the interceptors run, and keeps the server's last report
// block on the microphone's stream.
func (m *Media) readRTCP(s *webrtc.RTPSender) {
	var mine uint32
	if enc := s.GetParameters().Encodings; len(enc) > 0 {
		mine = uint32(enc[0].SSRC)
	}
	rtcpread.Each(s.Read, func(p rtcp.Packet) {
		var blocks []rtcp.ReceptionReport
		switch r := p.(type) {
		case *rtcp.ReceiverReport:
			blocks = r.Reports
		case *rtcp.SenderReport:
			blocks = r.Reports
		}
		for _, b := range blocks {
			if b.SSRC == mine {
				m.mu.Lock()
				m.report = &b
				m.mu.Unlock()
			}
		}
	})
}

// LastReport is the server's last receiver report block on what this terminal sent (its microphone), if one came.
func (m *Media) LastReport() (rtcp.ReceptionReport, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.report == nil {
		return rtcp.ReceptionReport{}, false
	}
	return *m.report, true
}
