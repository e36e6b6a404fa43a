package media

import (
	"encoding/binary"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v4"
)

// Receiver reports on what a voice client sends (its microphone), from the server's own counts: a talker's audio is
// read either by pion (until its connection is on the direct path, or when its SSRC is not declared) or in the
// socket's reader (socket.go, docs/adr/0029), which pion's receiver-report interceptor never sees. Both paths count
// into one upstreamStats per SSRC, and the engine's report timer (direct.go) sends RFC 3550 receiver reports from it.

// upstreamStats are one received stream's facts (RFC 3550 §6.4.1 and appendix A.1, A.3, A.8).
type upstreamStats struct {
	mu            sync.Mutex
	started       bool
	baseSeq       uint32 // first sequence number, extended
	cycles        uint32 // sequence number wraps × 65536
	maxSeq        uint16
	received      uint32
	expectedPrior uint32 // at the last report
	receivedPrior uint32
	lastTransit   uint32 // arrival − RTP timestamp of the last packet, in 48 kHz units
	jitter        float64
	lsr           uint32 // the middle 32 bits of the last sender report's NTP time, and when it came
	lsrAt         time.Time
}

// opusRate is the RTP clock of every voice stream (Opus, 48 kHz).
const opusRate = 48000

func (s *upstreamStats) packet(seq uint16, ts uint32, now time.Time) {
	arrival := uint32(int64(now.Sub(epoch)) * (opusRate / 1000) / 1_000_000)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		s.started, s.baseSeq, s.maxSeq = true, uint32(seq), seq
		s.received = 1
		s.lastTransit = arrival - ts
		return
	}
	if d := seq - s.maxSeq; d != 0 && d < 0x8000 { // later in order (a gap is loss); otherwise late, or a duplicate
		if seq < s.maxSeq {
			s.cycles += 1 << 16
		}
		s.maxSeq = seq
	}
	s.received++
	transit := arrival - ts
	d := int32(transit - s.lastTransit)
	s.lastTransit = transit
	if d < 0 {
		d = -d
	}
	s.jitter += (float64(d) - s.jitter) / 16
}

func (s *upstreamStats) senderReport(ntp uint64, now time.Time) {
	s.mu.Lock()
	s.lsr, s.lsrAt = uint32(ntp>>16), now
	s.mu.Unlock()
}

// block is the report block for ssrc, false when nothing arrived since the last one.
func (s *upstreamStats) block(ssrc uint32, now time.Time) (rtcp.ReceptionReport, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started || s.received == s.receivedPrior {
		return rtcp.ReceptionReport{}, false
	}
	extMax := s.cycles + uint32(s.maxSeq)
	expected := extMax - s.baseSeq + 1
	lost := min(max(int64(expected)-int64(s.received), 0), 0x7fffff)
	expInt, recvInt := expected-s.expectedPrior, s.received-s.receivedPrior
	s.expectedPrior, s.receivedPrior = expected, s.received
	var fraction uint8
	if expInt > 0 && expInt > recvInt {
		fraction = uint8(min(uint64(expInt-recvInt)<<8/uint64(expInt), 255))
	}
	r := rtcp.ReceptionReport{
		SSRC: ssrc, FractionLost: fraction, TotalLost: uint32(lost), LastSequenceNumber: extMax, Jitter: uint32(s.jitter),
	}
	if s.lsr != 0 {
		r.LastSenderReport = s.lsr
		r.Delay = uint32(now.Sub(s.lsrAt) * 65536 / time.Second)
	}
	return r, true
}

// upstreamReports are a voice connection's received streams by SSRC.
type upstreamReports struct {
	mu      sync.Mutex
	streams map[uint32]*upstreamStats
}

func newUpstreamReports() *upstreamReports {
	return &upstreamReports{streams: map[uint32]*upstreamStats{}}
}

func (u *upstreamReports) stream(ssrc uint32) *upstreamStats {
	u.mu.Lock()
	defer u.mu.Unlock()
	s := u.streams[ssrc]
	if s == nil {
		s = &upstreamStats{}
		u.streams[ssrc] = s
	}
	return s
}

func (u *upstreamReports) lookup(ssrc uint32) *upstreamStats {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.streams[ssrc]
}

// report is the receiver report from reporter (the connection's own SSRC) on every stream that sent since the last
// one; nil if none did.
func (u *upstreamReports) report(reporter uint32, now time.Time) *rtcp.ReceiverReport {
	u.mu.Lock()
	defer u.mu.Unlock()
	var rr *rtcp.ReceiverReport
	for ssrc, s := range u.streams {
		if b, ok := s.block(ssrc, now); ok {
			if rr == nil {
				rr = &rtcp.ReceiverReport{SSRC: reporter}
			}
			if len(rr.Reports) < 31 {
				rr.Reports = append(rr.Reports, b)
			}
		}
	}
	return rr
}

// reportCounter is the interceptor that counts what pion reads (RTP of each remote stream, the sender reports'
// times) into a connection's upstreamReports; one per connection (engine.newPC).
type reportCounter struct {
	interceptor.NoOp
	u *upstreamReports
}

func (f reportCounter) NewInterceptor(string) (interceptor.Interceptor, error) {
	return &reportCounter{u: f.u}, nil
}

func (r *reportCounter) BindRemoteStream(info *interceptor.StreamInfo, reader interceptor.RTPReader) interceptor.RTPReader {
	s := r.u.stream(info.SSRC)
	return interceptor.RTPReaderFunc(func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
		n, a, err := reader.Read(b, a)
		if err == nil && n >= 12 {
			s.packet(binary.BigEndian.Uint16(b[2:4]), binary.BigEndian.Uint32(b[4:8]), time.Now())
		}
		return n, a, err
	})
}

func (r *reportCounter) UnbindRemoteStream(info *interceptor.StreamInfo) {
	r.u.mu.Lock()
	delete(r.u.streams, info.SSRC)
	r.u.mu.Unlock()
}

func (r *reportCounter) BindRTCPReader(reader interceptor.RTCPReader) interceptor.RTCPReader {
	return interceptor.RTCPReaderFunc(func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
		n, a, err := reader.Read(b, a)
		if err == nil && n >= 28 && b[1] == byte(rtcp.TypeSenderReport) { // a compound packet starts with its sender report (RFC 3550 §6.1)
			if s := r.u.lookup(binary.BigEndian.Uint32(b[4:8])); s != nil {
				s.senderReport(binary.BigEndian.Uint64(b[8:16]), time.Now())
			}
		}
		return n, a, err
	})
}

// declaredAudioSSRC is the one SSRC an offer declares for its audio (a=ssrc), 0 when it declares none or several.
func declaredAudioSSRC(d *webrtc.SessionDescription) uint32 {
	if d == nil {
		return 0
	}
	fresh := webrtc.SessionDescription{Type: d.Type, SDP: d.SDP} // pion's own copy caches its parse: not ours to write
	parsed, err := fresh.Unmarshal()
	if err != nil {
		return 0
	}
	var found uint32
	for _, m := range parsed.MediaDescriptions {
		if m.MediaName.Media != "audio" {
			continue
		}
		for _, a := range m.Attributes {
			if a.Key != "ssrc" {
				continue
			}
			id, _, _ := strings.Cut(a.Value, " ")
			v, err := strconv.ParseUint(id, 10, 32)
			if err != nil || v == 0 || (found != 0 && uint32(v) != found) {
				return 0
			}
			found = uint32(v)
		}
	}
	return found
}
