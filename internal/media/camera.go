package media

// Camera viewers (package camera): a receive-only PeerConnection per console tile that carries one camera's
// H.264 as it came from the camera (never transcoded). Viewers use their own pion API — the voice API registers
// Opus only — on the engine's one shared UDP port: the ICE mux tells connections apart by their ufrag.

import (
	"errors"
	"slices"
	"sync"

	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/logging"
	"github.com/pion/webrtc/v4"

	"tenfour/internal/platform/rtcpread"
)

// CameraH264 is the camera codec the viewer track announces: packetization mode 1 (what ffmpeg and cameras send).
var CameraH264 = webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000,
	SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"}

// h264Profiles are the profiles a viewer accepts: the browser picks one it decodes; the stream is forwarded as
// it is (browsers' software decoders take baseline, main and high alike).
var h264Profiles = []string{"42e01f", "42001f", "4d001f", "640032", "64001f"}

// cameraAPIs holds each engine's camera-viewer API (*Engine → *webrtc.API), made on first use.
var (
	cameraMu   sync.Mutex
	cameraAPIs = map[*Engine]*webrtc.API{}
)

// ErrNoCameraVideo is returned for a camera viewer's offer without a video section or without H.264.
var ErrNoCameraVideo = errors.New("media: the offer has no H.264 video section")

func (e *Engine) cameraAPI() (*webrtc.API, error) {
	cameraMu.Lock()
	defer cameraMu.Unlock()
	if api := cameraAPIs[e]; api != nil {
		return api, nil
	}
	me := &webrtc.MediaEngine{}
	for i, prof := range h264Profiles {
		c := webrtc.RTPCodecParameters{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264,
			ClockRate: 90000, SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=" + prof,
			RTCPFeedback: []webrtc.RTCPFeedback{{Type: "nack"}, {Type: "nack", Parameter: "pli"}}},
			PayloadType: webrtc.PayloadType(102 + 2*i)}
		if err := me.RegisterCodec(c, webrtc.RTPCodecTypeVideo); err != nil {
			return nil, err
		}
	}
	ir := &interceptor.Registry{}
	if err := webrtc.ConfigureRTCPReports(ir); err != nil {
		return nil, err
	}
	keepIface := func(name string) bool { return len(e.cfg.Interfaces) == 0 || slices.Contains(e.cfg.Interfaces, name) }
	se := webrtc.SettingEngine{}
	se.SetICEUDPMux(e.mux)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetInterfaceFilter(keepIface)
	if slices.Contains(e.cfg.Interfaces, "lo") {
		se.SetIncludeLoopbackCandidate(true)
	}
	if len(e.cfg.PublicIPs) > 0 {
		if err := se.SetICEAddressRewriteRules(webrtc.ICEAddressRewriteRule{External: e.cfg.PublicIPs,
			AsCandidateType: webrtc.ICECandidateTypeHost, Mode: webrtc.ICEAddressRewriteAppend}); err != nil {
			return nil, err
		}
	}
	lf := logging.NewDefaultLoggerFactory()
	lf.DefaultLogLevel = logging.LogLevelError
	se.LoggerFactory = lf
	api := webrtc.NewAPI(webrtc.WithMediaEngine(me), webrtc.WithInterceptorRegistry(ir), webrtc.WithSettingEngine(se))
	cameraAPIs[e] = api
	return api, nil
}

// Viewer is one receive-only video PeerConnection: the client's offer is answered with track as the only
// outgoing media.
type Viewer struct {
	PC *webrtc.PeerConnection
}

// NewViewer answers a viewer's offer (non-trickle: the answer carries every server candidate) with track sending
// on the offer's video section. onState is called from pion's goroutines on every connection state change.
func (e *Engine) NewViewer(offer string, track webrtc.TrackLocal, onState func(webrtc.PeerConnectionState)) (*Viewer, string, error) {
	api, err := e.cameraAPI()
	if err != nil {
		return nil, "", err
	}
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, "", err
	}
	fail := func(err error) (*Viewer, string, error) { _ = pc.Close(); return nil, "", err }
	if onState != nil {
		pc.OnConnectionStateChange(onState)
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		return fail(err)
	}
	hasVideo := false
	for _, t := range pc.GetTransceivers() {
		hasVideo = hasVideo || t.Kind() == webrtc.RTPCodecTypeVideo
	}
	if !hasVideo {
		return fail(ErrNoCameraVideo)
	}
	// AddTrack takes the offer's unused video transceiver (a recvonly offer becomes sendonly here).
	sender, err := pc.AddTrack(track)
	if err != nil {
		return fail(err)
	}
	go rtcpread.Drain(sender.Read)
	answer, err := pc.CreateAnswer(nil)
	if err != nil {
		return fail(err)
	}
	sdp, err := setLocal(pc, answer)
	if err != nil {
		return fail(err)
	}
	return &Viewer{PC: pc}, sdp, nil
}

// Close ends the viewer's connection.
func (v *Viewer) Close() error { return v.PC.Close() }

// ForgetVideo drops the engine's viewer API (after Engine.Close).
func (e *Engine) ForgetVideo() {
	cameraMu.Lock()
	delete(cameraAPIs, e)
	cameraMu.Unlock()
}
