// Package media is the server's WebRTC media engine (pion), on one shared UDP port with an embedded TURN server
// (turn.go). What it holds:
//   - voice: one PeerConnection per client (console tab or terminal), Opus only; it forwards a talker's RTP to the
//     listeners its controller chose, rewriting sequence numbers and timestamps per listener so each hears one
//     continuous stream across talker changes (forward.go, peer.go), over the direct SRTP path where a client's
//     connection allows it (direct.go, socket*.go; docs/adr/0027), with receiver reports on what talkers send
//     (upstream.go) and the delay it adds measured (metrics.go);
//   - recording: talk bursts to Ogg Opus (recorder.go), and a video session's party to Matroska through ffmpeg
//     (videorec.go; docs/adr/0031);
//   - video: video calls and monitoring, one PeerConnection per party and session (video.go; docs/video.md), and
//     receive-only camera viewers that carry a camera's H.264 untouched (camera.go);
//   - the cluster's node-to-node relay, one PeerConnection per pair of nodes (relay.go; docs/adr/0026).
//
// Who talks, who listens and who watches is decided elsewhere (packages call, video, camera); media executes
// routes. Its subpackages: ffchild (the one way ffmpeg is run on what clients send; docs/adr/0030), keyframe,
// oggopus and rtcapi (the pion API both the server and the Go terminal client build).
package media

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/interceptor/pkg/report"
	"github.com/pion/logging"
	"github.com/pion/turn/v5"
	"github.com/pion/webrtc/v4"

	"tenfour/internal/media/rtcapi"
)

// Config is the media server's network setup.
type Config struct {
	// UDPPort is the single UDP port of every peer; 0 picks a free one (tests).
	UDPPort int
	// PublicIPs are advertised as additional host candidates (a server behind 1:1 NAT).
	PublicIPs []string
	// Interfaces limits the interfaces media binds (empty = all). "lo" alone means loopback only.
	Interfaces []string
	// TURNPort runs an embedded TURN server on this UDP port; 0 = none.
	TURNPort int
	// TURNSecret signs the time-limited TURN credentials; empty = random.
	TURNSecret string
	// TURNHost is the host name or IP clients use to reach TURN (defaults to the first public IP).
	TURNHost string
	// MeasureCPU locks each read loop to its OS thread and sums the thread's CPU time spent forwarding
	// (Peer.ForwardCPU), to measure what forwarding costs apart from everything else in the process.
	MeasureCPU bool
}

// Opus is the only codec: 48 kHz, two channels as WebRTC signals it, in-band FEC on (rtcapi: the client's too).
var Opus = rtcapi.Opus

// RTCPInterval is how often the server sends RTCP sender and receiver reports on each peer.
const RTCPInterval = 5 * time.Second

// ICEKeepalive is how often the server checks consent (a STUN binding request, RFC 7675 §5.1) on the selected pair
// of a connection other than a voice client's (video, cameras, the relays between nodes): pion sends one on every
// turn of its agent's task loop, which turns every 2 s at the least, so a longer interval here would not be kept
// (ADR 0012 set 5 s, which never applied). A voice client's connection sends none (consent.go, docs/adr/0048): the
// client's own checks are its liveness.
// A peer that goes silent is noticed by pion's disconnected timeout (5 s without a packet from it; 12 s on a voice
// connection); clients check consent on their own schedule (browsers about every 2.5 s, pion every 2 s) and the
// server answers each check.
const ICEKeepalive = 2 * time.Second

// OpusPayloadType is the payload type the server registers for Opus (browsers use 111 too).
const OpusPayloadType = rtcapi.OpusPayloadType

// Engine owns the WebRTC API, the shared UDP port and the optional TURN server.
type Engine struct {
	cfg  Config
	mux  *ice.MultiUDPMuxDefault
	port int
	turn *turn.Server

	mu        sync.Mutex
	peers     map[*Peer]struct{}
	reporting map[directOut]struct{} // sender reports (direct.go)
	stop      chan struct{}
	stopOnce  sync.Once

	// Each voice connection gets an API of its own built from these, so its DTLS handshake can be captured
	// (direct.go): the codec, the interceptors (receiver reports only: sender reports are the engine's), and
	// the settings.
	me     *webrtc.MediaEngine
	ir     *interceptor.Registry
	peerSE webrtc.SettingEngine
	net    *socketNet

	videoM sync.Mutex
	vpeers map[*VideoPeer]struct{}
}

// NewEngine opens the UDP port (and TURN, when configured).
func NewEngine(cfg Config) (*Engine, error) {
	e := &Engine{cfg: cfg, peers: map[*Peer]struct{}{}, reporting: map[directOut]struct{}{}, stop: make(chan struct{})}
	if cfg.TURNSecret == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		e.cfg.TURNSecret = hex.EncodeToString(b)
	}
	loopbackOnly := len(cfg.Interfaces) == 1 && cfg.Interfaces[0] == "lo"
	keepIface := func(name string) bool { return len(cfg.Interfaces) == 0 || slices.Contains(cfg.Interfaces, name) }
	opts := []ice.UDPMuxFromPortOption{
		ice.UDPMuxFromPortWithInterfaceFilter(keepIface),
		ice.UDPMuxFromPortWithNetworks(ice.NetworkTypeUDP4),
		ice.UDPMuxFromPortWithReadBufferSize(4 << 20),
		ice.UDPMuxFromPortWithWriteBufferSize(4 << 20),
	}
	sn, err := newSocketNet()
	if err != nil {
		return nil, err
	}
	e.net = sn
	opts = append(opts, ice.UDPMuxFromPortWithNet(sn))
	if loopbackOnly || slices.Contains(cfg.Interfaces, "lo") {
		opts = append(opts, ice.UDPMuxFromPortWithLoopback())
	}
	port := cfg.UDPPort
	if port == 0 {
		if port, err = FreeUDPPort(); err != nil {
			return nil, err
		}
	}
	mux, err := ice.NewMultiUDPMuxFromPort(port, opts...)
	for try := 0; err != nil && cfg.UDPPort == 0 && try < 5; try++ {
		// another process took the free port between the probe and the bind: probe again
		if port, err = FreeUDPPort(); err == nil {
			mux, err = ice.NewMultiUDPMuxFromPort(port, opts...)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("media: UDP port %d: %w", port, err)
	}
	e.mux, e.port = mux, port

	me := &webrtc.MediaEngine{}
	if err := me.RegisterCodec(webrtc.RTPCodecParameters{RTPCodecCapability: Opus, PayloadType: OpusPayloadType},
		webrtc.RTPCodecTypeAudio); err != nil {
		mux.Close()
		return nil, err
	}
	// No header extensions are registered, so none are negotiated; RTCP reports keep browsers' stats honest. They
	// go out every RTCPInterval (RFC 3550 §6.2's recommended minimum) rather than pion's default second: each
	// report is a timer wake-up, an encryption and a send per peer and direction. Receiver reports (on what a
	// client sends) are pion's; sender reports (on what the server sends) are the engine's one timer
	// (senderReports), since the direct path's packets never pass pion's counters.
	ir := &interceptor.Registry{}
	receiver, err := report.NewReceiverInterceptor(report.ReceiverInterval(RTCPInterval))
	if err != nil {
		mux.Close()
		return nil, err
	}
	ir.Add(receiver)
	se := webrtc.SettingEngine{}
	se.SetICEUDPMux(mux)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	// pion's disconnected and failed timeouts, consent checks on the selected pair every ICEKeepalive.
	se.SetICETimeouts(5*time.Second, 25*time.Second, ICEKeepalive)
	se.SetInterfaceFilter(keepIface)
	if slices.Contains(cfg.Interfaces, "lo") {
		se.SetIncludeLoopbackCandidate(true)
	}
	if len(cfg.PublicIPs) > 0 {
		err := se.SetICEAddressRewriteRules(webrtc.ICEAddressRewriteRule{
			External: cfg.PublicIPs, AsCandidateType: webrtc.ICECandidateTypeHost, Mode: webrtc.ICEAddressRewriteAppend,
		})
		if err != nil {
			mux.Close()
			return nil, fmt.Errorf("media: public IPs: %w", err)
		}
	}
	lf := logging.NewDefaultLoggerFactory()
	lf.DefaultLogLevel = logging.LogLevelError
	se.LoggerFactory = lf
	// Voice and video connections: the server is the DTLS server when it answers (clients offer actpass), so it
	// sends the ServerHello whose facts the direct path needs.
	e.peerSE = se
	if err := e.peerSE.SetAnsweringDTLSRole(webrtc.DTLSRoleServer); err != nil {
		mux.Close()
		return nil, err
	}
	e.me, e.ir = me, ir
	go e.senderReports(e.stop)

	if cfg.TURNPort != 0 {
		if err := e.startTURN(); err != nil {
			mux.Close()
			return nil, err
		}
	}
	slog.Info("media server", "udp", port, "publicIPs", cfg.PublicIPs, "turn", cfg.TURNPort)
	return e, nil
}

// UDPPort is the port every peer's media uses.
func (e *Engine) UDPPort() int { return e.port }

// Close ends every peer and releases the ports.
func (e *Engine) Close() error {
	e.mu.Lock()
	peers := slices.Collect(maps.Keys(e.peers))
	e.mu.Unlock()
	for _, p := range peers {
		p.Close()
	}
	e.closeVideoPeers()
	e.stopOnce.Do(func() { close(e.stop) })
	var err error
	if e.turn != nil {
		err = e.turn.Close()
	}
	return errors.Join(err, e.mux.Close())
}

// newPC is a voice connection with its own API, whose DTLS handshake (when the server is its DTLS server) is
// captured for the direct path; ir is its interceptors (nil: the engine's, pion's receiver reports). consentHere: a
// voice client's connection, whose consent checks are answered in the media socket's reader but one in every
// consentPassEvery, which keeps pion's agent seeing the client; the agent sends no checks of its own (consent.go).
func (e *Engine) newPC(ir *interceptor.Registry, consentHere bool) (*webrtc.PeerConnection, *keyCapture, error) {
	keys := &keyCapture{}
	se := e.peerSE
	if consentHere {
		se.SetICETimeouts(consentDisconnected, consentFailed, 0) // 0: no consent checks from the server
	}
	se.SetDTLSKeyLogWriter(keys)
	se.SetDTLSServerHelloMessageHook(keys.serverHello)
	if ir == nil {
		ir = e.ir
	}
	api := webrtc.NewAPI(webrtc.WithMediaEngine(e.me), webrtc.WithInterceptorRegistry(ir), webrtc.WithSettingEngine(se))
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	return pc, keys, err
}

// adopt counts a new peer among the engine's (its timer's receiver reports); forget, at its Close, undoes it.
func (e *Engine) adopt(p *Peer) {
	e.mu.Lock()
	e.peers[p] = struct{}{}
	e.mu.Unlock()
	mPeers.Inc()
}

func (e *Engine) forget(p *Peer) {
	e.mu.Lock()
	delete(e.peers, p)
	e.mu.Unlock()
	mPeers.Dec()
}

// FreeUDPPort asks the kernel for a UDP port free on 127.0.0.1 now (for UDPPort 0, and the media ports and TURN
// listeners of tests and benchmarks). Another process may take it before the caller binds it.
func FreeUDPPort() (port int, err error) {
	for range 5 {
		var c net.PacketConn
		if c, err = net.ListenPacket("udp4", "127.0.0.1:0"); err == nil {
			port = c.LocalAddr().(*net.UDPAddr).Port
			c.Close()
			return port, nil
		}
	}
	return 0, err
}
