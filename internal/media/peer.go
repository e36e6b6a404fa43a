package media

import (
	"errors"
	"fmt"
	"net/netip"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"tenfour/internal/platform/rtcpread"
)

// Owner is who a peer belongs to.
type Owner struct {
	Account  string
	Customer int64
	Console  bool
}

// Peer is one client's PeerConnection for its whole session: one audio transceiver, sendrecv. What the
// client sends (its microphone) is the upstream; the server's one local track is its downstream, through
// which every talker it listens to reaches it in turn.
type Peer struct {
	Owner Owner

	e       *Engine
	pc      *webrtc.PeerConnection
	down    *Downstream
	route   atomic.Pointer[Route]
	ready   atomic.Bool
	onState func(p *Peer, ready bool)

	mu        sync.Mutex // negotiation
	added     bool       // the downstream track is on the connection
	remoteSet bool
	early     []webrtc.ICECandidateInit // candidates that came before the offer

	upPackets atomic.Uint64
	fwdCPU    atomic.Int64 // ns of thread CPU spent forwarding (Config.MeasureCPU)
	closed    atomic.Bool

	// The upstream is handled by pion's read loop or the socket's reader (socket.go), one packet at a time.
	hmu     sync.Mutex
	reports *upstreamReports // receiver reports on the upstream, both paths counted (upstream.go)
	inMu    sync.Mutex       // the socket's inbound entry for this client, and where it is
	in      *inbound
	inSock  *mediaSocket
	inFrom  netip.AddrPort
	drained atomic.Bool // the receiver's RTCP is being read (its sender reports)
}

var (
	// ErrNoAudio is returned for an offer without an audio section.
	ErrNoAudio = errors.New("media: the offer has no audio section")
	// ErrClosed is returned by a closed peer.
	ErrClosed = errors.New("media: peer closed")
)

// NewPeer makes a peer; onState is called (from pion's goroutines) when it becomes ready to carry media and
// when it stops being ready.
func (e *Engine) NewPeer(o Owner, onState func(p *Peer, ready bool)) (*Peer, error) {
	reports := newUpstreamReports()
	ir := &interceptor.Registry{}
	ir.Add(reportCounter{u: reports})
	pc, keys, err := e.newPC(ir, true)
	if err != nil {
		return nil, err
	}
	track, err := webrtc.NewTrackLocalStaticRTP(Opus, "audio", "tenfour")
	if err != nil {
		pc.Close()
		return nil, err
	}
	p := &Peer{Owner: o, e: e, pc: pc, down: newDownstream(track), onState: onState, reports: reports}
	pc.OnTrack(func(tr *webrtc.TrackRemote, rcv *webrtc.RTPReceiver) {
		if tr.Kind() != webrtc.RTPCodecTypeAudio {
			return
		}
		p.drainReceiver(rcv)
		p.readUpstream(tr)
	})
	followState(pc, &p.ready, func() {
		// Before the peer is ready, so before it can hold a floor: the talker's audio is read in the socket's
		// reader from its first routed packet on.
		e.goDirect(keys, p.down.boundSender(), func(sock *mediaSocket, from netip.AddrPort) { p.follow(keys, sock, from) }, p.down)
	}, func(ready bool) {
		if p.onState != nil {
			p.onState(p, ready)
		}
	}, p.Close)
	e.adopt(p)
	return p, nil
}

// followState keeps ready in step with pc's connection state, for an audio and a video peer alike: connected
// runs on every connect, before the peer counts as ready; changed runs when ready flips; a failed connection
// is closed (closePeer, in the background: pion's callback must not wait for its own teardown).
func followState(pc *webrtc.PeerConnection, ready *atomic.Bool, connected func(), changed func(ready bool), closePeer func()) {
	pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		switch s {
		case webrtc.PeerConnectionStateConnected:
			if connected != nil {
				connected()
			}
			if !ready.Swap(true) {
				changed(true)
			}
		case webrtc.PeerConnectionStateFailed, webrtc.PeerConnectionStateClosed:
			if ready.Swap(false) {
				changed(false)
			}
			if s == webrtc.PeerConnectionStateFailed {
				go closePeer()
			}
		}
	})
}

// Downstream is the peer's outgoing audio (what it hears).
func (p *Peer) Downstream() *Downstream { return p.down }

// Ready tells whether media flows: ICE and DTLS are up, so packets written now are delivered.
func (p *Peer) Ready() bool { return p.ready.Load() }

// SetRoute says where this peer's upstream goes from now on; nil drops it.
func (p *Peer) SetRoute(r *Route) { p.route.Store(r) }

// Route is where the upstream goes now.
func (p *Peer) Route() *Route { return p.route.Load() }

// UpstreamPackets counts packets received from this peer and handled (forwarded or dropped).
func (p *Peer) UpstreamPackets() uint64 { return p.upPackets.Load() }

// ForwardCPU is the CPU time its read loop spent forwarding (only with Config.MeasureCPU on Linux).
func (p *Peer) ForwardCPU() time.Duration { return time.Duration(p.fwdCPU.Load()) }

// HandleOffer applies a client's offer (the first one or a renegotiation, e.g. an ICE restart) and returns
// the answer. The answer carries every server candidate (gathering on the shared port is immediate), so the
// server never trickles.
func (p *Peer) HandleOffer(sdp string) (string, error) {
	if p.closed.Load() {
		return "", ErrClosed
	}
	if !strings.Contains(sdp, "m=audio") {
		return "", ErrNoAudio
	}
	if p.pc == nil {
		return "", ErrLocal
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: sdp}); err != nil {
		return "", fmt.Errorf("media: offer: %w", err)
	}
	p.remoteSet = true
	for _, c := range p.early {
		_ = p.pc.AddICECandidate(c)
	}
	p.early = nil
	if !p.added {
		// The offer's audio transceiver takes the track, so the one m-line becomes sendrecv.
		sender, err := p.pc.AddTrack(p.down.track)
		if err != nil {
			return "", fmt.Errorf("media: add track: %w", err)
		}
		p.added = true
		p.e.bind(p.down, sender, p.pc)
		go rtcpread.Drain(sender.Read)
	}
	answer, err := p.pc.CreateAnswer(nil)
	if err != nil {
		return "", fmt.Errorf("media: answer: %w", err)
	}
	return setLocal(p.pc, answer)
}

// OtherConnection tells whether an offer comes from another RTCPeerConnection than the one this peer has
// negotiated with: its DTLS fingerprint differs (a new connection has a new certificate, which pion cannot
// renegotiate). False before the first offer, and for a renegotiation of the same connection (an ICE restart).
// Any offer is another connection than a local peer's (local.go).
func (p *Peer) OtherConnection(sdp string) bool {
	if p.pc == nil {
		return true
	}
	cur := p.pc.RemoteDescription()
	return cur != nil && !slices.Equal(fingerprints(cur.SDP), fingerprints(sdp))
}

// fingerprints are the DTLS certificate fingerprints an SDP names (session or media level), sorted, once each.
func fingerprints(sdp string) []string {
	var out []string
	for line := range strings.Lines(sdp) {
		if fp, ok := strings.CutPrefix(strings.TrimSpace(line), "a=fingerprint:"); ok {
			out = append(out, strings.ToLower(fp))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// setLocal sets a connection's local description and waits for its candidates (the server does not trickle:
// its SDP carries them all), at most 5 s.
func setLocal(pc *webrtc.PeerConnection, d webrtc.SessionDescription) (string, error) {
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(d); err != nil {
		return "", fmt.Errorf("media: %s: %w", d.Type, err)
	}
	select {
	case <-gathered:
	case <-time.After(5 * time.Second):
		return "", errors.New("media: candidate gathering timed out")
	}
	return pc.LocalDescription().SDP, nil
}

// AddCandidate adds a client's trickled ICE candidate (kept until the offer arrives if it comes first:
// socket requests are handled concurrently). An empty candidate (end of candidates) is ignored.
func (p *Peer) AddCandidate(c webrtc.ICECandidateInit) error {
	if c.Candidate == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.remoteSet {
		if len(p.early) < 64 {
			p.early = append(p.early, c)
		}
		return nil
	}
	return p.pc.AddICECandidate(c)
}

// Close ends the connection; the upstream read loop ends with it.
func (p *Peer) Close() {
	if p.closed.Swap(true) {
		return
	}
	p.route.Store(nil)
	p.e.unbind(p.down)
	p.follow(nil, nil, netip.AddrPort{})
	p.inMu.Lock()
	if p.in != nil && p.in.ctx != nil {
		mInline.Dec()
	}
	p.inMu.Unlock()
	if p.pc != nil {
		_ = p.pc.Close()
	} else {
		p.down.closeLocal()
	}
	if p.ready.Swap(false) && p.onState != nil {
		p.onState(p, false)
	}
	p.e.forget(p)
}

// readUpstream is the peer's one read loop: each packet goes to every target of the current route before the
// next is read. One goroutine per talking peer, none per packet or per listener.
func (p *Peer) readUpstream(tr *webrtc.TrackRemote) {
	readLoop(tr, p.e.cfg.MeasureCPU, p.upstream)
}

// upstream handles one packet of the upstream, from pion's read loop or the socket's reader: one at a time, in
// the order they come (the two overlap only for packets pion had already read when the reader took over).
func (p *Peer) upstream(b []byte, pkt *rtp.Packet, now time.Time, measure bool) {
	p.hmu.Lock()
	p.handle(b, pkt, now, measure)
	p.hmu.Unlock()
	p.upPackets.Add(1) // counted once handled, so a count seen means the packet went where it goes
}

// follow keeps the socket's inbound entry for this client where its selected pair is (sock nil: nowhere, as when
// the pair is not on a media socket or the peer closed). The entry is made once: the talker's audio is taken in
// the reader when its offer declares its SSRC and the keys were captured; its receiver reports are thinned either way.
func (p *Peer) follow(keys *keyCapture, sock *mediaSocket, from netip.AddrPort) {
	p.inMu.Lock()
	defer p.inMu.Unlock()
	if p.inSock != nil && (p.inSock != sock || p.inFrom != from) {
		p.inSock.unwatch(p.inFrom, p.in)
		p.inSock = nil
	}
	if sock == nil || !from.IsValid() || p.closed.Load() {
		return
	}
	if p.in == nil {
		p.in = &inbound{}
		if sender := p.down.boundSender(); sender != nil {
			p.in.consent = newConsent(sender.Transport().ICETransport())
		}
		if ssrc := declaredAudioSSRC(p.pc.RemoteDescription()); ssrc != 0 && keys != nil {
			if ctx, err := keys.remoteSRTPContext(); err == nil {
				p.in.ssrc, p.in.ctx, p.in.up, p.in.stats, p.in.buf = ssrc, ctx, p, p.reports.stream(ssrc), make([]byte, 1500)
				mInline.Inc()
				for _, r := range p.pc.GetReceivers() {
					p.drainReceiver(r) // its sender reports, for the receiver reports' round-trip fields
				}
			}
		}
	}
	p.inSock, p.inFrom = sock, from
	sock.watch(from, p.in)
}

// Inline tells whether the talker's audio is read in the media socket's reader rather than by pion.
func (p *Peer) Inline() bool {
	p.inMu.Lock()
	defer p.inMu.Unlock()
	return p.inSock != nil && p.in != nil && p.in.ctx != nil
}

// InlinePackets counts the talker's packets read in the media socket's reader.
func (p *Peer) InlinePackets() uint64 {
	p.inMu.Lock()
	defer p.inMu.Unlock()
	if p.in == nil {
		return 0
	}
	return p.in.taken.Load()
}

// drainReceiver keeps reading the upstream receiver's RTCP (once per peer) so the interceptors see its sender reports.
func (p *Peer) drainReceiver(r *webrtc.RTPReceiver) {
	if r == nil || r.Track() == nil || r.Track().Kind() != webrtc.RTPCodecTypeAudio {
		return
	}
	if !p.drained.Swap(true) {
		go rtcpread.Drain(r.Read)
	}
}

// receiverReport sends the receiver report on the upstream, if it sent since the last one (the engine's timer).
func (p *Peer) receiverReport(now time.Time) {
	p.down.mu.Lock()
	sender := p.down.sender
	p.down.mu.Unlock()
	if sender == nil || !p.ready.Load() {
		return
	}
	_, ssrc := opusPT(sender)
	if rr := p.reports.report(ssrc, now); rr != nil {
		_ = p.pc.WriteRTCP([]rtcp.Packet{rr})
	}
}

// readLoop reads tr until it ends and hands each packet to handle with its arrival time, from one buffer and one
// rtp.Packet kept for the loop; with measureCPU (where the thread's CPU time can be read) the loop keeps its OS
// thread, so that handle may measure its own CPU.
func readLoop(tr *webrtc.TrackRemote, measureCPU bool, handle func(b []byte, pkt *rtp.Packet, now time.Time, measure bool)) {
	buf := make([]byte, 1500)
	var pkt rtp.Packet
	measure := measureCPU && threadCPUSupported
	if measure {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	for {
		n, _, err := tr.Read(buf)
		if err != nil {
			return
		}
		handle(buf[:n], &pkt, time.Now(), measure)
	}
}

// handle routes one packet of the upstream (or drops it when the peer holds no route).
func (p *Peer) handle(b []byte, pkt *rtp.Packet, now time.Time, measure bool) {
	r := p.route.Load()
	if r == nil {
		mDropped.Inc()
		return
	}
	if pkt.Unmarshal(b) != nil {
		return
	}
	if measure {
		c0 := threadCPU()
		r.forward(pkt, now)
		p.fwdCPU.Add(int64(threadCPU() - c0))
		return
	}
	r.forward(pkt, now)
}
