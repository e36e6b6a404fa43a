package media

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"hash"
	"maps"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/dtls/v3"
	"github.com/pion/dtls/v3/pkg/crypto/prf"
	"github.com/pion/dtls/v3/pkg/protocol/extension"
	"github.com/pion/dtls/v3/pkg/protocol/handshake"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/srtp/v3"
	"github.com/pion/transport/v4"
	"github.com/pion/transport/v4/stdnet"
	"github.com/pion/webrtc/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// The direct path (docs/adr/0027): a listener's audio is encrypted with the connection's own SRTP keys and sent
// straight from the shared UDP socket, instead of through pion's per-track writer chain (interceptors, the SRTP
// session's lock, the DTLS/ICE mux endpoints). pion still does everything else on the connection: ICE, DTLS,
// the upstream, RTCP. The keys are RFC 5764's exporter output, computed from what the server's side of the DTLS
// handshake tells two documented hooks of pion's setting engine (the ServerHello it sends, and its key log).

// keyCapture collects one connection's DTLS handshake facts, from the server's side. When the server ends up
// the DTLS client (a peer that insists on being the server) nothing is captured and the connection stays on
// pion's writer.
type keyCapture struct {
	mu           sync.Mutex
	serverRandom []byte
	suite        uint16
	profile      dtls.SRTPProtectionProfile
	clientRandom []byte
	master       []byte
}

// serverHello is pion's ServerHello hook: it records the server random, the cipher suite and the SRTP profile
// chosen, and sends the message unchanged.
func (k *keyCapture) serverHello(m handshake.MessageServerHello) handshake.Message {
	r := m.Random.MarshalFixed()
	k.mu.Lock()
	k.serverRandom = r[:]
	if m.CipherSuiteID != nil {
		k.suite = *m.CipherSuiteID
	}
	for _, ext := range m.Extensions {
		if u, ok := ext.(*extension.UseSRTP); ok && len(u.ProtectionProfiles) == 1 {
			k.profile = dtls.SRTPProtectionProfile(u.ProtectionProfiles[0])
		}
	}
	k.mu.Unlock()
	return &m
}

// Write takes pion's key log line ("CLIENT_RANDOM <client random> <master secret>", NSS format).
func (k *keyCapture) Write(p []byte) (int, error) {
	f := strings.Fields(string(p))
	if len(f) != 3 || f[0] != "CLIENT_RANDOM" {
		return len(p), nil
	}
	cr, err1 := hex.DecodeString(f[1])
	ms, err2 := hex.DecodeString(f[2])
	if err1 != nil || err2 != nil {
		return len(p), nil
	}
	k.mu.Lock()
	k.clientRandom, k.master = cr, ms
	k.mu.Unlock()
	return len(p), nil
}

var errNoKeys = errors.New("media: DTLS keys not captured")

// ExportKeyingMaterial is RFC 5705's exporter without context, as the server computes it: the suite's PRF over
// the master secret with the label and client random ‖ server random as seed.
func (k *keyCapture) ExportKeyingMaterial(label string, context []byte, length int) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(context) != 0 {
		return nil, errors.New("media: exporter context not supported")
	}
	if len(k.master) == 0 || len(k.serverRandom) == 0 || len(k.clientRandom) == 0 || k.profile == 0 {
		return nil, errNoKeys
	}
	seed := make([]byte, 0, len(label)+64)
	seed = append(append(append(seed, label...), k.clientRandom...), k.serverRandom...)
	return prf.PHash(k.master, seed, length, prfHash(k.suite))
}

// prfHash is a TLS 1.2 cipher suite's PRF hash: SHA-384 for the suites named so, SHA-256 for every other
// (RFC 5246 §5; pion's suites follow it).
func prfHash(suite uint16) func() hash.Hash {
	switch dtls.CipherSuiteID(suite) {
	case dtls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, dtls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384:
		return sha512.New384
	}
	return sha256.New
}

// sessionKeys are the connection's SRTP master keys and salts, both directions (RFC 5764 §4.2).
func (k *keyCapture) sessionKeys() (srtp.Config, error) {
	k.mu.Lock()
	profile := k.profile
	k.mu.Unlock()
	if profile == 0 {
		return srtp.Config{}, errNoKeys
	}
	cfg := srtp.Config{Profile: srtp.ProtectionProfile(profile)}
	err := cfg.ExtractSessionKeysFromDTLS(k, false)
	return cfg, err
}

// srtpContext is a fresh SRTP context with the server's (local) keys: one per downstream, since a context is
// used by one writer at a time and downstreams (relay lanes) are written concurrently. Each downstream has its
// own SSRC, so contexts sharing the keys never share a keystream.
func (k *keyCapture) srtpContext() (*srtp.Context, error) {
	cfg, err := k.sessionKeys()
	if err != nil {
		return nil, err
	}
	return srtp.CreateContext(cfg.Keys.LocalMasterKey, cfg.Keys.LocalMasterSalt, cfg.Profile)
}

// remoteSRTPContext decrypts what the client sends (its keys), with the 64-packet replay window pion's own SRTP
// session uses: the talker's audio read in the socket's reader (socket.go).
func (k *keyCapture) remoteSRTPContext() (*srtp.Context, error) {
	cfg, err := k.sessionKeys()
	if err != nil {
		return nil, err
	}
	return srtp.CreateContext(cfg.Keys.RemoteMasterKey, cfg.Keys.RemoteMasterSalt, cfg.Profile, srtp.SRTPReplayProtection(64))
}

// socketNet is pion's standard network with the UDP sockets it opens kept: the media port's sockets, one per
// local address, which the direct path sends from (the address a client's ICE knows the server by).
type socketNet struct {
	transport.Net
	mu    sync.Mutex
	conns map[netip.Addr]*mediaSocket
}

func newSocketNet() (*socketNet, error) {
	n, err := stdnet.NewNet()
	if err != nil {
		return nil, err
	}
	return &socketNet{Net: n, conns: map[netip.Addr]*mediaSocket{}}, nil
}

func (n *socketNet) ListenUDP(network string, laddr *net.UDPAddr) (transport.UDPConn, error) {
	c, err := n.Net.ListenUDP(network, laddr)
	if uc, ok := c.(*net.UDPConn); ok && err == nil {
		r := newMediaSocket(uc)
		if ap, ok := netip.AddrFromSlice(laddr.IP); ok {
			n.mu.Lock()
			n.conns[ap.Unmap()] = r
			n.mu.Unlock()
		}
		return r, nil
	}
	return c, err
}

// socketFor is the socket bound to the local candidate's address; with a single socket (one interface, possibly
// advertised under a public address) that one.
func (n *socketNet) socketFor(local string) *mediaSocket {
	n.mu.Lock()
	defer n.mu.Unlock()
	if a, err := netip.ParseAddr(local); err == nil {
		if c, ok := n.conns[a.Unmap()]; ok {
			return c
		}
	}
	if len(n.conns) == 1 {
		for _, c := range n.conns {
			return c
		}
	}
	return nil
}

// directOut is an outgoing track that can leave on the direct path: a voice listener's Downstream, a video
// session's Sink (video.go). The engine moves it on and off the path (setDirect), sends its sender reports
// (report) and takes back a copy its batch could not send (unsent).
type directOut interface {
	setDirect(keys *keyCapture, conn *mediaSocket, to netip.AddrPort)
	report(now time.Time)
	unsent(payload int)
}

// directState is what an outgoing track (a Downstream, a Sink) keeps for the direct path: where its packets go —
// pion's writer through its track until the connection is up and its keys are known, then the direct path, which
// writes under the SSRC and payload type its sender negotiated for mime (fallbackPT when none is listed) — and
// the counts its sender reports are made from. mu guards it and the owner's other state.
type directState struct {
	mu         sync.Mutex
	mime       string
	fallbackPT uint8
	onPath     prometheus.Gauge // counts the tracks of its kind on the path (nil: not counted)
	sender     *webrtc.RTPSender
	pc         *webrtc.PeerConnection
	direct     *directPath // path while it is in use, nil on pion's writer
	path       *directPath // made once the keys are known (setDirect)
	ssrc       uint32
	pt         uint8
	packets    uint32 // sent, for the sender reports (less the dropped ones, once folded in)
	octets     uint32
	reported   uint32 // packets at the last sender report
	written    atomic.Uint64
	// dropped and droppedOctets are copies a batch counted but could not send, folded into packets and octets
	// under mu (foldLocked). unsent only adds to them, never locks: a batch may leave under any track's lock — a
	// video frame's batch, which slot flushes on a socket change, holds that same track's earlier copies.
	dropped, droppedOctets atomic.Uint32
}

// Written counts packets written to this track.
func (o *directState) Written() uint64 { return o.written.Load() }

// Direct tells whether this track's packets go out on the direct path rather than pion's writer.
func (o *directState) Direct() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.direct != nil
}

func (o *directState) bindSender(sender *webrtc.RTPSender, pc *webrtc.PeerConnection) {
	o.mu.Lock()
	o.sender, o.pc = sender, pc
	o.mu.Unlock()
}

// boundSender is the sender the track went out on, nil before it was bound.
func (o *directState) boundSender() *webrtc.RTPSender {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sender
}

// unsent takes back a copy the batch counted as written but could not send (the socket had no room).
func (o *directState) unsent(payload int) {
	o.dropped.Add(1)
	o.droppedOctets.Add(uint32(payload))
	o.written.Add(^uint64(0))
}

// foldLocked takes the dropped copies out of the sender reports' counts; under mu.
func (o *directState) foldLocked() {
	o.packets -= o.dropped.Swap(0)
	o.octets -= o.droppedOctets.Swap(0)
}

// setDirect puts the track on the direct path, sending from conn to the client at to (conn nil: back to pion's
// writer), with the SSRC and payload type its sender negotiated. Its SRTP context is made once and kept across
// pair changes and reconnections: the rollover counter must follow the stream's own sequence numbers.
func (o *directState) setDirect(keys *keyCapture, conn *mediaSocket, to netip.AddrPort) {
	o.mu.Lock()
	defer o.mu.Unlock()
	was := o.direct != nil
	o.direct = nil
	if conn != nil && to.IsValid() && o.sender != nil && keys != nil {
		if o.path == nil {
			pt, ssrc := senderPT(o.sender, o.mime, o.fallbackPT)
			if ctx, err := keys.srtpContext(); err == nil && ssrc != 0 && pt != 0 {
				o.path = &directPath{ctx: ctx, plain: make([]byte, 1500)}
				o.pt, o.ssrc = pt, ssrc
			}
		}
		if o.path != nil {
			o.path.conn, o.path.to = conn, to
			o.direct = o.path
		}
	}
	if o.onPath != nil && was != (o.direct != nil) {
		if was {
			o.onPath.Dec()
		} else {
			o.onPath.Inc()
		}
	}
}

// sendLocked writes one packet for the track, on the direct path into b, or through pion's writer; under mu.
func (o *directState) sendLocked(track *webrtc.TrackLocalStaticRTP, out *rtp.Header, payload []byte, b *sendBatch, d directOut) bool {
	if o.direct != nil {
		out.SSRC, out.PayloadType = o.ssrc, o.pt
		if o.direct.send(out, payload, b, d) != nil {
			return false
		}
	} else if err := track.WriteRTP(&rtp.Packet{Header: *out, Payload: payload}); err != nil {
		return false
	}
	o.packets++
	o.octets += uint32(len(payload))
	o.written.Add(1)
	return true
}

// reportLocked sends (after unlocking mu, which the caller holds) a sender report if packets went out since the
// last one: lastTS was the RTP time of the last packet, lastAt its arrival (ns since epoch), clock the kind's rate.
func (o *directState) reportLocked(now time.Time, lastTS uint32, lastAt, clock int64) {
	o.foldLocked()
	if o.ssrc == 0 && o.sender != nil { // on pion's writer: the SSRC it writes under
		_, o.ssrc = senderPT(o.sender, o.mime, o.fallbackPT)
	}
	if o.pc == nil || o.sender == nil || o.packets == o.reported || o.ssrc == 0 {
		o.mu.Unlock()
		return
	}
	elapsed := max(int64(now.Sub(epoch))-lastAt, 0)
	sr := &rtcp.SenderReport{SSRC: o.ssrc, NTPTime: ntpTime(now), RTPTime: lastTS + uint32(elapsed*clock/1_000_000_000),
		PacketCount: o.packets, OctetCount: o.octets}
	o.reported = o.packets
	pc := o.pc
	o.mu.Unlock()
	_ = pc.WriteRTCP([]rtcp.Packet{sr})
}

// directPath is one downstream's way out past pion: its SRTP context, the socket and the client's address.
type directPath struct {
	ctx   *srtp.Context
	conn  *mediaSocket
	to    netip.AddrPort
	plain []byte
	hdr   rtp.Header // EncryptRTP's parse of plain, kept so it is not allocated per packet
}

// send encrypts one packet into the batch (batch.go), which sends it with the other listeners' copies; called
// under the downstream's lock.
func (p *directPath) send(h *rtp.Header, payload []byte, b *sendBatch, d directOut) error {
	n, err := h.MarshalTo(p.plain)
	if err != nil {
		return err
	}
	if n+len(payload) > len(p.plain) {
		return errors.New("media: packet too large")
	}
	n += copy(p.plain[n:], payload)
	out, err := p.ctx.EncryptRTP(b.slot(p.conn)[:0], p.plain[:n], &p.hdr)
	if err != nil {
		return err
	}
	b.add(out, p.to, d, len(payload))
	return nil
}

// goDirect moves the downstreams of a connected peer connection onto the direct path where it can: the keys
// were captured, the selected pair is UDP from one of the media sockets. Otherwise they stay on pion's writer.
// It also follows a change of the selected pair (an ICE restart, a network change on the client). onPair, if
// set, is told each time where the client now is (nil socket: not on a media socket). sender is one of the
// connection's senders (its transport is the connection's).
func (e *Engine) goDirect(keys *keyCapture, sender *webrtc.RTPSender, onPair func(*mediaSocket, netip.AddrPort), outs ...directOut) {
	if len(outs) == 0 || sender == nil {
		return
	}
	ice := sender.Transport().ICETransport()
	apply := func(pair *webrtc.ICECandidatePair) {
		var conn *mediaSocket
		var to netip.AddrPort
		if pair != nil && pair.Local != nil && pair.Remote != nil && pair.Local.Protocol == webrtc.ICEProtocolUDP {
			conn = e.net.socketFor(pair.Local.Address)
			if a, err := netip.ParseAddr(pair.Remote.Address); err == nil {
				to = netip.AddrPortFrom(a.Unmap(), pair.Remote.Port)
			}
		}
		for _, d := range outs {
			d.setDirect(keys, conn, to)
		}
		if onPair != nil {
			onPair(conn, to)
		}
	}
	ice.OnSelectedCandidatePairChange(func(pair *webrtc.ICECandidatePair) { apply(pair) })
	pair, err := ice.GetSelectedCandidatePair()
	if err == nil {
		apply(pair)
	}
}

// ntpTime is t as a 64-bit NTP timestamp (RFC 3550 §4).
func ntpTime(t time.Time) uint64 {
	const unixToNTP = 2208988800
	s := uint64(t.Unix()) + unixToNTP
	frac := uint64(t.Nanosecond()) << 32 / 1e9
	return s<<32 | frac
}

// senderReports sends every RTCPInterval an RTCP sender report for each downstream that sent since the last one
// (RFC 3550 §6.4.1), and each voice client's receiver report on what it sent (upstream.go): one timer for the
// whole server instead of one per connection.
func (e *Engine) senderReports(stop <-chan struct{}) {
	t := time.NewTicker(RTCPInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			e.mu.Lock()
			downs := slices.Collect(maps.Keys(e.reporting))
			e.mu.Unlock()
			for _, d := range downs {
				d.report(now)
			}
			e.mu.Lock()
			peers := slices.Collect(maps.Keys(e.peers))
			e.mu.Unlock()
			for _, p := range peers {
				p.receiverReport(now)
			}
		}
	}
}

// bind records the sender a downstream's track went out on (its SSRC and payload type are read once the
// connection is up) and where its sender reports go.
func (e *Engine) bind(d *Downstream, sender *webrtc.RTPSender, pc *webrtc.PeerConnection) {
	d.bindSender(sender, pc)
	e.reports(d)
}

// reports adds d to the outgoing tracks the engine sends sender reports for.
func (e *Engine) reports(d directOut) {
	e.mu.Lock()
	e.reporting[d] = struct{}{}
	e.mu.Unlock()
}

// unbind stops a closed connection's downstreams' reports and direct path.
func (e *Engine) unbind(downs ...directOut) {
	e.mu.Lock()
	for _, d := range downs {
		delete(e.reporting, d)
	}
	e.mu.Unlock()
	for _, d := range downs {
		d.setDirect(nil, nil, netip.AddrPort{})
	}
}

// opusPT is the payload type the connection negotiated for Opus on this sender (the client's, e.g. 109 in
// Firefox), or the server's own.
func opusPT(s *webrtc.RTPSender) (uint8, uint32) {
	return senderPT(s, webrtc.MimeTypeOpus, OpusPayloadType)
}

// senderPT is the payload type the connection negotiated for the codec mime on this sender (or fallback), and
// the sender's SSRC.
func senderPT(s *webrtc.RTPSender, mime string, fallback uint8) (uint8, uint32) {
	params := s.GetParameters()
	var ssrc uint32
	if len(params.Encodings) > 0 {
		ssrc = uint32(params.Encodings[0].SSRC)
	}
	for _, c := range params.Codecs {
		if strings.EqualFold(c.MimeType, mime) {
			return uint8(c.PayloadType), ssrc
		}
	}
	return fallback, ssrc
}
