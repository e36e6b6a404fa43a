package media

import (
	"encoding/binary"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/srtp/v3"
)

// mediaSocket is one of the media port's UDP sockets (one per local address), opened by pion through socketNet
// (direct.go). pion's UDP mux reads it and writes its ICE, DTLS and SRTCP through it; the direct path sends
// listeners' audio from it. On Linux its reads and writes are raw system calls (socket_linux.go): the socket is
// non-blocking, so they never wait in the kernel, and the runtime's system-call bookkeeping — which wakes its
// monitor thread for the next millisecond of polling — is left out (docs/adr/0029).
//
// A client whose connection is on the direct path has an inbound entry under its address: its packets are looked
// at in the reader before pion's mux sees them. A talker's audio is decrypted and forwarded there, the client's
// consent checks are answered there (consent.go), and its receiver reports, which the server does not use, are
// dropped (inbound.take).
type mediaSocket struct {
	*net.UDPConn
	sys sockSys
	in  sync.Map // netip.AddrPort → *inbound
}

func newMediaSocket(c *net.UDPConn) *mediaSocket { return &mediaSocket{UDPConn: c, sys: newSockSys(c)} }

// ReadFromAddrPort is pion's mux reading the socket (ice.AddrPortReaderWriter): packets an inbound entry takes
// never reach it.
func (s *mediaSocket) ReadFromAddrPort(b []byte) (int, netip.AddrPort, error) {
	for {
		n, from, err := s.sys.readFrom(b)
		if err != nil || n == 0 {
			return n, from, err
		}
		if v, ok := s.in.Load(from); ok && v.(*inbound).take(b[:n], s, from) {
			continue
		}
		return n, from, nil
	}
}

// WriteToAddrPort is pion's mux writing (ICE, DTLS, SRTCP): with a full send buffer it waits for room.
func (s *mediaSocket) WriteToAddrPort(b []byte, to netip.AddrPort) (int, error) {
	return s.sys.writeTo(b, to)
}

// ReadFromUDPAddrPort and WriteToUDPAddrPort shadow the socket's own, so that every reader and writer goes the
// same way.
func (s *mediaSocket) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	return s.ReadFromAddrPort(b)
}

func (s *mediaSocket) WriteToUDPAddrPort(b []byte, to netip.AddrPort) (int, error) {
	return s.WriteToAddrPort(b, to)
}

// watch puts an inbound entry under a client's address (replacing any); unwatch removes it if it is still that one.
func (s *mediaSocket) watch(from netip.AddrPort, in *inbound) { s.in.Store(from, in) }

func (s *mediaSocket) unwatch(from netip.AddrPort, in *inbound) { s.in.CompareAndDelete(from, in) }

// inbound is what the reader does with one direct client's packets. It is used by the socket's one reader
// goroutine; a pair change can move it to another socket's reader while the old one still finishes a packet, so the
// decryption context and buffers are used under mu (never contended otherwise).
type inbound struct {
	taken atomic.Uint64 // talker packets decrypted and handled here
	mu    sync.Mutex

	// The client's consent checks, answered here (consent.go; nil: pion answers them).
	consent *consent

	// The talker's upstream, taken here when its SSRC is declared in the offer (nil ctx: pion reads it).
	ssrc  uint32
	ctx   *srtp.Context // the client's keys, with a replay window
	up    *Peer
	stats *upstreamStats
	buf   []byte
	hdr   rtp.Header
	pkt   rtp.Packet
}

// take handles one packet from the client at from, read on s; false hands it to pion (DTLS, sender reports, a STUN
// message other than a consent check, anything else).
func (in *inbound) take(b []byte, s *mediaSocket, from netip.AddrPort) bool {
	if len(b) >= 20 && b[0] < 2 { // STUN (RFC 7983: a request's or response's first byte is 0 or 1)
		if in.consent == nil {
			return false
		}
		in.mu.Lock()
		defer in.mu.Unlock()
		return in.consent.answer(b, s, from)
	}
	if len(b) < 8 || b[0]>>6 != 2 {
		return false // DTLS (RFC 7983)
	}
	if b[1] >= 192 && b[1] <= 223 { // RTCP (RFC 5761 §4): the first packet's type is in the clear in SRTCP
		// A receiver report is dropped: the server uses nothing in it, and pion's agent no longer needs it as a sign
		// of life (its own consent checks' responses are that, consent.go).
		if b[1] != byte(rtcp.TypeSenderReport) {
			mThinned.Inc()
			return true
		}
		return in.senderReport(b)
	}
	if in.ctx == nil || len(b) < 12 || binary.BigEndian.Uint32(b[8:12]) != in.ssrc {
		return false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	out, err := in.ctx.DecryptRTP(in.buf[:0], b, &in.hdr)
	if err != nil { // not authentic, or a replay: what pion's SRTP session would drop too
		mInboundRejected.Inc()
		return true
	}
	now := time.Now()
	in.stats.packet(in.hdr.SequenceNumber, in.hdr.Timestamp, now)
	if in.up.e != nil && in.up.e.cfg.MeasureCPU && threadCPUSupported {
		// Config.MeasureCPU: the forwarding's thread CPU, on a thread kept for the span (as pion's read loop is)
		runtime.LockOSThread()
		in.up.upstream(out, &in.pkt, now, true)
		runtime.UnlockOSThread()
	} else {
		in.up.upstream(out, &in.pkt, now, false)
	}
	in.taken.Add(1)
	return true
}

// senderReport reads a sender report on the client's declared stream (a compound packet starts with it, RFC 3550
// §6.1, its SSRC in the clear in SRTCP): its time is what the server's receiver reports on that stream answer with
// (LSR, DLSR), all the server uses of it, so pion never sees it. Another stream's goes on to pion.
func (in *inbound) senderReport(b []byte) bool {
	if in.ctx == nil || len(b) < 8 || binary.BigEndian.Uint32(b[4:8]) != in.ssrc {
		return false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	out, err := in.ctx.DecryptRTCP(in.buf[:0], b, nil)
	if err != nil { // not authentic, or a replay: what pion's SRTCP session would drop too
		mInboundRejected.Inc()
		return true
	}
	if len(out) >= 16 {
		in.stats.senderReport(binary.BigEndian.Uint64(out[8:16]), time.Now())
	}
	return true
}
