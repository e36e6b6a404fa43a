package media

// Video sessions (video calls and video monitoring, docs/video.md): one PeerConnection per party and session,
// apart from the voice connection, with one audio and one video transceiver, both sendrecv. The video codec of
// a session is fixed (VP8 or H.264, whatever the first party offered first): the SFU forwards, it never
// transcodes, so every party of a session speaks the same codec. What a party sends is a Feed; what it receives
// is a Sink; the controller (package video) attaches feeds to sinks. Keyframes: a receiver's PLI or FIR, a new
// attachment and a receiver becoming connected each ask the feed's sender for one (PLI, at most every 300 ms).

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"tenfour/internal/media/rtcapi"
	"tenfour/internal/platform/rtcpread"
)

// VideoCodec is a session's video codec.
type VideoCodec string

const (
	VP8  VideoCodec = "VP8"
	H264 VideoCodec = "H264"
)

// VideoCodecs are the codecs the server forwards, in its own order of preference.
var VideoCodecs = []VideoCodec{VP8, H264}

var videoFeedback = []webrtc.RTCPFeedback{{Type: "nack"}, {Type: "nack", Parameter: "pli"}, {Type: "ccm", Parameter: "fir"}}

// videoParams are the codec parameters registered for each codec. H.264: constrained baseline and baseline,
// packetization mode 1 (what browsers and phones all decode).
func videoParams(c VideoCodec) []webrtc.RTPCodecParameters {
	switch c {
	case VP8:
		return []webrtc.RTPCodecParameters{{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8,
			ClockRate: 90000, RTCPFeedback: videoFeedback}, PayloadType: 96}}
	case H264:
		return []webrtc.RTPCodecParameters{
			{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000,
				SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f", RTCPFeedback: videoFeedback},
				PayloadType: 102},
			{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000,
				SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f", RTCPFeedback: videoFeedback},
				PayloadType: 104},
		}
	}
	return nil
}

var (
	// ErrNoVideo is returned for an offer without a video section.
	ErrNoVideo = errors.New("media: the offer has no video section")
	// ErrCodec is returned when an offer has none of the session's acceptable video codecs.
	ErrCodec = errors.New("media: no common video codec")
	// ErrBadOffer wraps what is wrong with a client's offer (anything else NewVideoPeer returns is the server's).
	ErrBadOffer = errors.New("media: bad offer")
)

var (
	mVideoForwarded = promauto.NewCounter(prometheus.CounterOpts{
		Name: "tenfour_video_packets_forwarded_total", Help: "Video and video-call audio RTP packets written to receivers.",
	})
	mVideoResent = promauto.NewCounter(prometheus.CounterOpts{
		Name: "tenfour_video_packets_resent_total", Help: "Video packets sent again on a receiver's NACK from the feed's history (direct path).",
	})
	mVideoPeers = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "tenfour_video_peers", Help: "Open video-session peer connections.",
	})
	mVideoKeyframeRequests = promauto.NewCounter(prometheus.CounterOpts{
		Name: "tenfour_video_keyframe_requests_total", Help: "PLIs sent to video senders.",
	})
)

// OfferedVideoCodecs lists the video codecs of an offer's first video section that the server forwards, in
// the offer's order (its preference). ErrNoVideo if it has no video section.
func OfferedVideoCodecs(offer string) ([]VideoCodec, error) {
	var sd sdp.SessionDescription
	if err := sd.UnmarshalString(offer); err != nil {
		return nil, fmt.Errorf("media: offer: %w", err)
	}
	for _, m := range sd.MediaDescriptions {
		if m.MediaName.Media != "video" {
			continue
		}
		names := map[string]string{} // payload type → codec name
		for _, a := range m.Attributes {
			if a.Key != "rtpmap" {
				continue
			}
			pt, rest, ok := strings.Cut(a.Value, " ")
			if !ok {
				continue
			}
			name, _, _ := strings.Cut(rest, "/")
			names[pt] = strings.ToUpper(name)
		}
		var out []VideoCodec
		seen := map[VideoCodec]bool{}
		for _, pt := range m.MediaName.Formats {
			c := VideoCodec(names[pt])
			if (c == VP8 || c == H264) && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
		return out, nil
	}
	return nil, ErrNoVideo
}

// PickVideoCodec is the first codec of offered that allowed contains (allowed empty: any).
func PickVideoCodec(offered, allowed []VideoCodec) (VideoCodec, bool) {
	for _, c := range offered {
		if len(allowed) == 0 {
			return c, true
		}
		for _, a := range allowed {
			if a == c {
				return c, true
			}
		}
	}
	return "", false
}

// videoPC is a party's PeerConnection in codec c (Opus plus that one video codec, NACK and receiver reports), with
// an API of its own that captures the DTLS handshake's facts (direct.go): once connected, what the party receives
// leaves on the direct path as voice does (docs/adr/0027), the server answering as the DTLS server.
// askAgain says whether the server asks the party for lost video packets (not a watcher's: nothing it sends is used).
func (e *Engine) videoPC(c VideoCodec, askAgain bool) (*webrtc.PeerConnection, *keyCapture, error) {
	params := videoParams(c)
	if params == nil {
		return nil, nil, ErrCodec
	}
	keys := &keyCapture{}
	se := e.peerSE
	se.SetDTLSKeyLogWriter(keys)
	se.SetDTLSServerHelloMessageHook(keys.serverHello)
	api, err := rtcapi.VideoServer(params, se, RTCPInterval, askAgain)
	if err != nil {
		return nil, nil, err
	}
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	return pc, keys, err
}

// VideoPeer is one party's PeerConnection of one video session.
type VideoPeer struct {
	Owner Owner
	Codec VideoCodec
	// Video and Audio are what the party sends (its camera and microphone).
	Video, Audio *Feed
	// VideoOut and AudioOut are what it receives.
	VideoOut, AudioOut *Sink

	e       *Engine
	pc      *webrtc.PeerConnection
	ready   atomic.Bool
	closed  atomic.Bool
	onState func(p *VideoPeer, ready bool)
	mu      sync.Mutex
}

// NewVideoPeer makes a party's PeerConnection in codec c from its offer and returns it with the answer (which
// carries every server candidate). early are candidates the client trickled before the offer. A watcher (a
// monitoring's dispatcher) only receives: nothing it sends is forwarded or recorded, so its lost video packets are
// not asked for again. onState is called (from pion's goroutines) when the peer becomes ready to carry media and
// when it stops.
func (e *Engine) NewVideoPeer(o Owner, c VideoCodec, offer string, early []webrtc.ICECandidateInit, watcher bool,
	onState func(p *VideoPeer, ready bool)) (*VideoPeer, string, error) {
	pc, keys, err := e.videoPC(c, !watcher)
	if err != nil {
		return nil, "", err
	}
	vcap := videoParams(c)[0].RTPCodecCapability
	vtrack, err := webrtc.NewTrackLocalStaticRTP(vcap, "video", "tenfour-video")
	if err != nil {
		pc.Close()
		return nil, "", err
	}
	atrack, err := webrtc.NewTrackLocalStaticRTP(Opus, "audio", "tenfour-video")
	if err != nil {
		pc.Close()
		return nil, "", err
	}
	p := &VideoPeer{Owner: o, Codec: c, e: e, pc: pc, onState: onState,
		VideoOut: newSink(vtrack, 90000, vcap.MimeType), AudioOut: newSink(atrack, 48000, Opus.MimeType)}
	p.Video = &Feed{peer: p, id: NewSourceID(), video: true, recent: &history{}}
	p.Audio = &Feed{peer: p, id: NewSourceID()}
	pc.OnTrack(func(tr *webrtc.TrackRemote, rcv *webrtc.RTPReceiver) {
		go rtcpread.Drain(rcv.Read)
		if tr.Kind() == webrtc.RTPCodecTypeVideo {
			p.Video.read(tr)
		} else {
			p.Audio.read(tr)
		}
	})
	followState(pc, &p.ready, func() {
		e.goDirect(keys, p.VideoOut.boundSender(), nil, p.VideoOut, p.AudioOut)
	}, func(ready bool) {
		if f := p.VideoOut.source.Load(); ready && f != nil {
			f.RequestKeyframe() // the receiver can only start decoding at a keyframe
		}
		if p.onState != nil {
			p.onState(p, ready)
		}
	}, p.Close)
	e.videoM.Lock()
	if e.vpeers == nil {
		e.vpeers = map[*VideoPeer]struct{}{}
	}
	e.vpeers[p] = struct{}{}
	e.videoM.Unlock()
	mVideoPeers.Inc()
	answer, err := p.answer(offer, early)
	if err != nil {
		p.Close()
		return nil, "", err
	}
	return p, answer, nil
}

func (p *VideoPeer) answer(offer string, early []webrtc.ICECandidateInit) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadOffer, err)
	}
	for _, c := range early {
		_ = p.pc.AddICECandidate(c)
	}
	// The offer's transceivers take the tracks, so both m-lines become sendrecv.
	for _, s := range []*Sink{p.VideoOut, p.AudioOut} {
		sender, err := p.pc.AddTrack(s.track)
		if err != nil {
			return "", fmt.Errorf("%w: add track: %w", ErrBadOffer, err)
		}
		s.bindSender(sender, p.pc)
		p.e.reports(s)
		go s.readRTCP(sender)
	}
	answer, err := p.pc.CreateAnswer(nil)
	if err != nil {
		return "", fmt.Errorf("media: answer: %w", err)
	}
	if !strings.Contains(answer.SDP, "m=video") {
		return "", ErrNoVideo
	}
	return setLocal(p.pc, answer)
}

// AddCandidate adds a trickled client candidate (an empty one, end of candidates, is ignored).
func (p *VideoPeer) AddCandidate(c webrtc.ICECandidateInit) error {
	if c.Candidate == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pc.AddICECandidate(c)
}

// Ready tells whether media flows (ICE and DTLS up).
func (p *VideoPeer) Ready() bool { return p.ready.Load() }

// Close ends the connection: its feeds stop, its sinks are detached from whatever fed them.
func (p *VideoPeer) Close() {
	if p.closed.Swap(true) {
		return
	}
	for _, s := range []*Sink{p.VideoOut, p.AudioOut} {
		if f := s.source.Load(); f != nil {
			f.Detach(s)
		}
	}
	for _, f := range []*Feed{p.Video, p.Audio} {
		f.detachAll()
	}
	p.e.unbind(p.VideoOut, p.AudioOut)
	_ = p.pc.Close()
	if p.ready.Swap(false) && p.onState != nil {
		p.onState(p, false)
	}
	p.e.videoM.Lock()
	delete(p.e.vpeers, p)
	p.e.videoM.Unlock()
	mVideoPeers.Dec()
}

func (e *Engine) closeVideoPeers() {
	e.videoM.Lock()
	list := slices.Collect(maps.Keys(e.vpeers))
	e.videoM.Unlock()
	for _, p := range list {
		p.Close()
	}
}

// Link attaches from's camera and microphone to to's receivers (from → to).
func Link(from, to *VideoPeer) {
	from.Video.Attach(to.VideoOut)
	from.Audio.Attach(to.AudioOut)
}

// Feed is what a party sends on one kind (its camera or its microphone): one read loop writes each packet to
// every attached sink.
type Feed struct {
	peer  *VideoPeer
	id    uint64 // source id: a sink rebases sequence numbers and timestamps when it changes
	video bool

	mu      sync.Mutex // attach/detach
	sinks   atomic.Pointer[[]*Sink]
	ssrc    atomic.Uint32
	lastPLI atomic.Int64

	packets, bytes, frames atomic.Uint64
	firstAt                atomic.Int64 // unix ns of the first packet (0 = none yet)
	onFirst                atomic.Pointer[func()]
	rec                    atomic.Pointer[VideoRecorder] // recording this feed (videorec.go), or nil
	recent                 *history                      // its last packets, for receivers' NACKs (video only)
}

// OnFirstPacket sets fn to be called once, in the read loop, with the first packet (at once if it came).
func (f *Feed) OnFirstPacket(fn func()) {
	f.onFirst.Store(&fn)
	if f.firstAt.Load() != 0 {
		if p := f.onFirst.Swap(nil); p != nil {
			(*p)()
		}
	}
}

// Packets, Bytes and Frames count what the party sent (frames: video packets with the marker bit).
func (f *Feed) Packets() uint64 { return f.packets.Load() }
func (f *Feed) Bytes() uint64   { return f.bytes.Load() }
func (f *Feed) Frames() uint64  { return f.frames.Load() }

// FirstPacket is when the first packet arrived (zero time if none yet).
func (f *Feed) FirstPacket() time.Time {
	if n := f.firstAt.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

// Attach makes s receive this feed (s leaves the feed it had).
func (f *Feed) Attach(s *Sink) {
	if old := s.source.Swap(f); old != nil && old != f {
		old.remove(s)
	}
	f.mu.Lock()
	cur := f.list()
	for _, x := range cur {
		if x == s {
			f.mu.Unlock()
			return
		}
	}
	next := append(append(make([]*Sink, 0, len(cur)+1), cur...), s)
	f.sinks.Store(&next)
	f.mu.Unlock()
	if f.video {
		f.RequestKeyframe()
	}
}

// Detach stops s receiving this feed.
func (f *Feed) Detach(s *Sink) {
	s.source.CompareAndSwap(f, nil)
	f.remove(s)
}

func (f *Feed) remove(s *Sink) {
	f.mu.Lock()
	defer f.mu.Unlock()
	cur := f.list()
	next := make([]*Sink, 0, len(cur))
	for _, x := range cur {
		if x != s {
			next = append(next, x)
		}
	}
	f.sinks.Store(&next)
}

func (f *Feed) detachAll() {
	f.mu.Lock()
	cur := f.list()
	f.sinks.Store(nil)
	f.mu.Unlock()
	for _, s := range cur {
		s.source.CompareAndSwap(f, nil)
	}
}

func (f *Feed) list() []*Sink {
	if p := f.sinks.Load(); p != nil {
		return *p
	}
	return nil
}

// Sinks is how many receivers the feed has.
func (f *Feed) Sinks() int { return len(f.list()) }

// RequestKeyframe asks the sender for a keyframe (PLI), at most every 300 ms.
func (f *Feed) RequestKeyframe() {
	if !f.video {
		return
	}
	ssrc := f.ssrc.Load()
	if ssrc == 0 {
		return
	}
	now := time.Now().UnixNano()
	last := f.lastPLI.Load()
	if now-last < int64(300*time.Millisecond) || !f.lastPLI.CompareAndSwap(last, now) {
		return
	}
	if f.peer.pc.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: ssrc}}) == nil {
		mVideoKeyframeRequests.Inc()
	}
}

// read is the feed's read loop. A video frame's copies leave together, at its last packet (the marker bit), or
// when the next frame begins without one (its marker was lost), or when the batch is full: each receiver's copies
// of it then leave as one GSO message (batch.go). A receiver cannot decode a frame before its last packet, so
// holding the first ones that long delays nothing it shows.
func (f *Feed) read(tr *webrtc.TrackRemote) {
	f.ssrc.Store(uint32(tr.SSRC()))
	if f.video && f.Sinks() > 0 {
		f.RequestKeyframe()
	}
	var frame *sendBatch // the video frame's copies so far, nil when none are held
	var frameTS uint32
	defer func() {
		if frame != nil {
			frame.release()
		}
	}()
	rtcapi.EachPacket(tr, func(pkt *rtp.Packet) {
		if f.firstAt.Load() == 0 && f.firstAt.CompareAndSwap(0, time.Now().UnixNano()) {
			if p := f.onFirst.Swap(nil); p != nil {
				(*p)()
			}
		}
		f.packets.Add(1)
		f.bytes.Add(uint64(len(pkt.Payload)))
		if f.video && pkt.Marker {
			f.frames.Add(1)
		}
		h := pkt.Header
		h.Extension, h.ExtensionProfile, h.Extensions = false, 0, nil
		h.CSRC, h.Padding, h.PaddingSize = nil, false, 0
		now := time.Since(epoch).Nanoseconds()
		if f.recent != nil {
			f.recent.put(&h, pkt.Payload)
		}
		written := 0
		if frame != nil && h.Timestamp != frameTS {
			frame.flush()
		}
		b := frame
		if b == nil {
			b = batches.Get().(*sendBatch)
		}
		sinks := f.list()
		if f.video {
			b.frame = true
			if b.n+len(sinks) > frameCopies { // a packet's copies leave together
				b.flush()
			}
		}
		for _, s := range sinks {
			if s.write(f.id, &h, pkt.Payload, now, b) {
				written++
			}
		}
		if f.video && !pkt.Marker && b.n > 0 {
			frame, frameTS = b, h.Timestamp
		} else {
			frame = nil
			b.release()
		}
		mVideoForwarded.Add(float64(written))
		if r := f.rec.Load(); r != nil { // after the receivers: a copy into the recorder's queue, never a wait
			r.push(f.video, f.id, &h, pkt.Payload, now)
		}
	})
}

// Sink is what a party receives on one kind: one outgoing track whose sequence numbers and timestamps stay
// continuous when the feed behind it changes (a party that reconnected). Its packets go out through pion's writer
// until the connection is up and its keys are known, then on the direct path (direct.go), which writes under the
// SSRC and payload type the sender negotiated, answers the receiver's NACKs from the feed's history and has its
// sender reports sent by the engine.
type Sink struct {
	track  *webrtc.TrackLocalStaticRTP
	source atomic.Pointer[Feed]

	directState        // mu guards seq and epochSeq too
	seq         rebase // its clock is the kind's
	epochSeq    uint16 // the receiver's number of the first packet of the feed it hears now

	frames atomic.Uint64
}

func newSink(track *webrtc.TrackLocalStaticRTP, clock int64, mime string) *Sink {
	s := &Sink{track: track, seq: rebase{clock: clock}}
	s.mime = mime
	return s
}

// Frames counts the video frames written to this receiver (marker bits).
func (s *Sink) Frames() uint64 { return s.frames.Load() }

// write renumbers one packet of feed src for this receiver and sends it (on the direct path: into b, which the
// caller flushes).
func (s *Sink) write(src uint64, h *rtp.Header, payload []byte, now int64, b *sendBatch) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := *h
	fresh := src != s.seq.cur
	s.seq.apply(src, &out, now)
	if fresh {
		s.epochSeq = out.SequenceNumber
	}
	if !s.sendLocked(s.track, &out, payload, b, s) {
		return false
	}
	if out.Marker && s.seq.clock == 90000 {
		s.frames.Add(1)
	}
	return true
}

// resend answers a NACK on the direct path: each asked packet still in the feed's history goes again, under the
// number the receiver knows it by (pion's NACK responder answers on its own writer, which the direct path's
// packets never pass). Only packets of the feed the sink hears now, since it started hearing it, are mapped: an
// earlier stretch of the same feed had another offset. A full batch leaves with the lock released, since a copy
// the socket refuses is taken back from this sink's counts under its lock.
func (s *Sink) resend(n *rtcp.TransportLayerNack) {
	f := s.source.Load()
	if f == nil || f.recent == nil {
		return
	}
	b := batches.Get().(*sendBatch)
	b.frame = true // several packets to one receiver: GSO messages where their sizes allow
	buf := make([]byte, 0, 1500)
	s.mu.Lock()
	for _, pair := range n.Nacks {
		for _, seq := range pair.PacketList() {
			if b.n == batchMax {
				s.mu.Unlock()
				b.flush()
				s.mu.Lock()
			}
			if s.direct == nil || s.seq.cur != f.id || int16(seq-s.epochSeq) < 0 {
				continue
			}
			h, payload, ok := f.recent.get(seq-s.seq.seqOff, buf)
			if !ok {
				continue
			}
			h.SequenceNumber += s.seq.seqOff
			h.Timestamp += s.seq.tsOff
			if s.sendLocked(s.track, &h, payload, b, s) {
				mVideoResent.Inc()
			}
		}
	}
	s.mu.Unlock()
	b.release()
}

// report sends a sender report if packets went out since the last one.
func (s *Sink) report(now time.Time) {
	s.mu.Lock()
	s.reportLocked(now, s.seq.lastTS, s.seq.lastAt, s.seq.clock)
}

// history keeps a video feed's last packets (header and payload, as forwarded) for receivers' NACKs: about four
// seconds of a 1 Mbit/s camera.
type history struct {
	mu      sync.Mutex
	packets [historySize]struct {
		h   rtp.Header
		buf []byte
		ok  bool
	}
}

const historySize = 512

// put keeps one packet (its payload copied into the slot's own buffer).
func (k *history) put(h *rtp.Header, payload []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e := &k.packets[h.SequenceNumber%historySize]
	e.h, e.ok = *h, true
	e.buf = append(e.buf[:0], payload...)
}

// get copies packet seq's payload into buf if it is still kept.
func (k *history) get(seq uint16, buf []byte) (rtp.Header, []byte, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e := &k.packets[seq%historySize]
	if !e.ok || e.h.SequenceNumber != seq {
		return rtp.Header{}, nil, false
	}
	return e.h, append(buf[:0], e.buf...), true
}

// readRTCP reads the receiver's RTCP on this sink's sender: a PLI or FIR asks the feed behind it for a keyframe.
func (s *Sink) readRTCP(sender *webrtc.RTPSender) {
	rtcpread.Each(sender.Read, func(p rtcp.Packet) {
		switch p := p.(type) {
		case *rtcp.PictureLossIndication, *rtcp.FullIntraRequest:
			if f := s.source.Load(); f != nil {
				f.RequestKeyframe()
			}
		case *rtcp.TransportLayerNack:
			s.resend(p)
		}
	})
}
