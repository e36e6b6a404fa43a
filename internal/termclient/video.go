package termclient

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
	"github.com/pion/webrtc/v4/pkg/media"

	"tenfour/internal/media/keyframe"
	"tenfour/internal/media/rtcapi"
	"tenfour/internal/platform/rtcpread"
)

// Video is one video session's PeerConnection (docs/video.md): a camera (a looped test-pattern clip, see
// clip.go) and a microphone going out, the other side's camera and microphone coming in. The session's codec
// is fixed by signalling before the offer (video.status / video.monitorStart), so the connection offers that
// one codec.
type Video struct {
	CallID string
	Codec  string

	pc     *webrtc.PeerConnection
	tap    func(p *rtp.Packet) // MediaOptions.OnVideoPacket
	cam    *webrtc.TrackLocalStaticSample
	mic    *webrtc.TrackLocalStaticRTP
	plis   atomic.Uint64
	keyNow atomic.Bool // a keyframe was asked for: the camera sends one next (as an encoder does)

	camMu   sync.Mutex
	camStop chan struct{}
	camDone chan struct{}
	camSize ClipSize
	sent    atomic.Uint64 // frames sent

	watched  // mu guards what follows
	vPackets int
	vFrames  int // video packets with the marker bit: frames received
	vKey     int // keyframes seen (VP8 key bit / H.264 IDR in the first packet of a frame)
	aPackets int
	firstAt  time.Time
	keyAt    time.Time   // arrival of the first keyframe's first packet
	frameAt  []time.Time // arrival of each frame's last packet (bounded)
	newFrame bool
}

// VideoCodecs lists the video codecs this client offers (its "codecs" in signalling), in its preference.
var VideoCodecs = []string{"VP8", "H264"}

func videoCapability(codec string) (webrtc.RTPCodecParameters, error) {
	fb := []webrtc.RTCPFeedback{{Type: "nack"}, {Type: "nack", Parameter: "pli"}, {Type: "ccm", Parameter: "fir"}}
	switch codec {
	case "VP8":
		return webrtc.RTPCodecParameters{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8,
			ClockRate: 90000, RTCPFeedback: fb}, PayloadType: 96}, nil
	case "H264":
		return webrtc.RTPCodecParameters{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264,
			ClockRate: 90000, SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
			RTCPFeedback: fb}, PayloadType: 102}, nil
	}
	return webrtc.RTPCodecParameters{}, fmt.Errorf("termclient: unknown video codec %q", codec)
}

// Caller sends a request and waits for its reply (a Client, or the simulator's own socket).
type Caller interface {
	Call(ctx context.Context, typ string, data any, out any) error
}

// StartVideo opens the PeerConnection of session callID in codec (OpenVideo) and waits until the server
// reports it connected (`video.rtc` connected). The camera is off until StartCamera.
func (c *Client) StartVideo(ctx context.Context, callID, codec string) (*Video, error) {
	v, err := OpenVideo(ctx, c, c.opts.Media, callID, codec)
	if err != nil {
		return nil, err
	}
	if _, err := c.WaitEvent(ctx, "video.rtc", func(e Event) bool {
		s := string(e.Data)
		return strings.Contains(s, `"`+callID+`"`) && strings.Contains(s, `"connected"`)
	}); err != nil {
		v.Close()
		return nil, err
	}
	return v, nil
}

// OpenVideo negotiates the PeerConnection of session callID in codec over sig (rtc.config, video.offer,
// trickled video.candidate) and waits until ICE and DTLS are up on this side.
func OpenVideo(ctx context.Context, sig Caller, mo MediaOptions, callID, codec string) (*Video, error) {
	var cfg struct {
		ICEServers []webrtc.ICEServer `json:"iceServers"`
	}
	if err := sig.Call(ctx, "rtc.config", struct{}{}, &cfg); err != nil {
		return nil, err
	}
	ice := mo.ICEServers
	if ice == nil {
		ice = cfg.ICEServers
	}
	vc, err := VideoCodec(codec)
	if err != nil {
		return nil, err
	}
	pc, err := NewVideoPeerConnection(mo.Loopback, codec, webrtc.Configuration{ICEServers: ice})
	if err != nil {
		return nil, err
	}
	v := &Video{CallID: callID, Codec: codec, pc: pc, tap: mo.OnVideoPacket}
	fail := func(err error) (*Video, error) { pc.Close(); return nil, err }
	if v.cam, err = webrtc.NewTrackLocalStaticSample(vc, "video", "termclient"); err != nil {
		return fail(err)
	}
	if v.mic, err = webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus,
		ClockRate: 48000, Channels: 2}, "audio", "termclient"); err != nil {
		return fail(err)
	}
	for _, tr := range []webrtc.TrackLocal{v.mic, v.cam} {
		t, err := pc.AddTransceiverFromTrack(tr, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendrecv})
		if err != nil {
			return fail(err)
		}
		go v.readRTCP(t.Sender())
	}
	pc.OnTrack(func(t *webrtc.TrackRemote, _ *webrtc.RTPReceiver) { v.readLoop(t) })
	v.follow(pc)
	var pending []webrtc.ICECandidateInit
	var answered atomic.Bool
	var pmu sync.Mutex
	send := func(ci webrtc.ICECandidateInit) {
		go func() {
			cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = sig.Call(cctx, "video.candidate", map[string]any{"callId": callID, "candidate": ci.Candidate,
				"sdpMid": ci.SDPMid, "sdpMLineIndex": ci.SDPMLineIndex, "usernameFragment": ci.UsernameFragment}, nil)
		}()
	}
	pc.OnICECandidate(func(cand *webrtc.ICECandidate) {
		if cand == nil {
			return
		}
		pmu.Lock()
		defer pmu.Unlock()
		if !answered.Load() {
			pending = append(pending, cand.ToJSON())
			return
		}
		send(cand.ToJSON())
	})
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return fail(err)
	}
	if err := pc.SetLocalDescription(offer); err != nil {
		return fail(err)
	}
	var answer struct {
		SDP string `json:"sdp"`
	}
	if err := sig.Call(ctx, "video.offer", map[string]any{"callId": callID, "type": "offer", "sdp": offer.SDP}, &answer); err != nil {
		return fail(err)
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer.SDP}); err != nil {
		return fail(err)
	}
	pmu.Lock()
	answered.Store(true)
	for _, ci := range pending {
		send(ci)
	}
	pending = nil
	pmu.Unlock()
	if err := v.waitState(ctx); err != nil {
		return fail(err)
	}
	return v, nil
}

func (v *Video) waitState(ctx context.Context) error {
	err := v.until(ctx, func() (bool, error) { return connected("video connection", v.state) })
	if err != nil && err == ctx.Err() { // not the state's own failure
		return fmt.Errorf("termclient: video not connected: %w", err)
	}
	return err
}

// readRTCP counts the keyframe requests (PLI/FIR) the server sends for the camera.
func (v *Video) readRTCP(s *webrtc.RTPSender) {
	rtcpread.Each(s.Read, func(p rtcp.Packet) {
		switch p.(type) {
		case *rtcp.PictureLossIndication, *rtcp.FullIntraRequest:
			v.plis.Add(1)
			v.keyNow.Store(true)
		}
	})
}

// KeyframeRequests counts the PLIs and FIRs the server sent.
func (v *Video) KeyframeRequests() uint64 { return v.plis.Load() }

func (v *Video) readLoop(t *webrtc.TrackRemote) {
	video := t.Kind() == webrtc.RTPCodecTypeVideo
	h264 := strings.EqualFold(t.Codec().MimeType, webrtc.MimeTypeH264)
	rtcapi.EachPacket(t, func(p *rtp.Packet) {
		now := time.Now()
		v.mu.Lock()
		defer v.mu.Unlock()
		if !video {
			v.aPackets++
			v.notifyLocked()
			return
		}
		if v.vPackets == 0 {
			v.firstAt = now
		}
		v.vPackets++
		if v.newFrame || v.vPackets == 1 {
			if keyframe.Starts(p.Payload, h264) {
				if v.vKey == 0 {
					v.keyAt = now
				}
				v.vKey++
			}
		}
		v.newFrame = p.Marker
		if p.Marker {
			v.vFrames++
			if len(v.frameAt) < 1<<14 {
				v.frameAt = append(v.frameAt, now)
			}
		}
		v.notifyLocked()
		if v.tap != nil {
			v.tap(p)
		}
	})
}

// VideoStats is what the session received so far.
type VideoStats struct {
	VideoPackets, Frames, Keyframes, AudioPackets int
	// FirstPacket is when the first video packet arrived, FirstKeyframe when the first keyframe began (zero if none).
	FirstPacket, FirstKeyframe time.Time
}

// Stats returns the counts so far.
func (v *Video) Stats() VideoStats {
	v.mu.Lock()
	defer v.mu.Unlock()
	return VideoStats{VideoPackets: v.vPackets, Frames: v.vFrames, Keyframes: v.vKey, AudioPackets: v.aPackets,
		FirstPacket: v.firstAt, FirstKeyframe: v.keyAt}
}

// FrameTimes returns the arrival time of each complete frame so far.
func (v *Video) FrameTimes() []time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]time.Time(nil), v.frameAt...)
}

// WaitFrames waits until at least n frames (and one keyframe) arrived.
func (v *Video) WaitFrames(ctx context.Context, n int) (VideoStats, error) {
	if err := v.until(ctx, func() (bool, error) { return v.vFrames >= n && v.vKey > 0, nil }); err != nil {
		st := v.Stats()
		return st, fmt.Errorf("termclient: %d of %d video frames (%d keyframes): %w", st.Frames, n, st.Keyframes, err)
	}
	return v.Stats(), nil
}

// WaitAudio waits until at least n audio packets arrived.
func (v *Video) WaitAudio(ctx context.Context, n int) error {
	if err := v.until(ctx, func() (bool, error) { return v.aPackets >= n, nil }); err != nil {
		return fmt.Errorf("termclient: %d of %d audio packets: %w", v.Stats().AudioPackets, n, err)
	}
	return nil
}

// StartCamera sends the test-pattern clip of the session's codec whose size is the largest not above
// width×height, looped at its frame rate, until StopCamera or Close (a running camera switches clip).
func (v *Video) StartCamera(width, height int) error {
	clip, err := ClipFor(v.Codec, width, height)
	if err != nil {
		return err
	}
	v.StopCamera()
	v.camMu.Lock()
	defer v.camMu.Unlock()
	stop, done := make(chan struct{}), make(chan struct{})
	v.camStop, v.camDone, v.camSize = stop, done, clip.Size
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second / ClipFPS)
		defer tick.Stop()
		for i := 0; ; i++ {
			if v.keyNow.Swap(false) {
				i = 0 // the clip starts with a keyframe
			}
			f := clip.Frames[i%len(clip.Frames)]
			if err := v.cam.WriteSample(media.Sample{Data: f.Data, Duration: time.Second / ClipFPS}); err != nil {
				return
			}
			v.sent.Add(1)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return nil
}

// CameraSize is the size of the clip being sent (zero when the camera is off).
func (v *Video) CameraSize() ClipSize {
	v.camMu.Lock()
	defer v.camMu.Unlock()
	if v.camStop == nil {
		return ClipSize{}
	}
	return v.camSize
}

// SendFrame writes one encoded frame (any bytes: benchmarks) as the camera, packetized like a real one.
func (v *Video) SendFrame(data []byte, d time.Duration) error {
	if err := v.cam.WriteSample(media.Sample{Data: data, Duration: d}); err != nil {
		return err
	}
	v.sent.Add(1)
	return nil
}

// FramesSent counts the camera frames written.
func (v *Video) FramesSent() uint64 { return v.sent.Load() }

// StopCamera stops sending video.
func (v *Video) StopCamera() {
	v.camMu.Lock()
	stop, done := v.camStop, v.camDone
	v.camStop, v.camDone = nil, nil
	v.camMu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
}

// Talk sends Opus payloads as the microphone, one every interval.
func (v *Video) Talk(ctx context.Context, payloads [][]byte, interval time.Duration) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	seq, ts := uint16(time.Now().UnixNano()), uint32(0)
	for i, pl := range payloads {
		if i > 0 {
			select {
			case <-tick.C:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		seq++
		if err := v.mic.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: seq,
			Timestamp: ts, Marker: i == 0}, Payload: pl}); err != nil {
			return err
		}
		ts += 960
	}
	return nil
}

// Close stops the camera and ends the connection (the session itself ends by signalling).
func (v *Video) Close() error {
	v.StopCamera()
	return v.pc.Close()
}
