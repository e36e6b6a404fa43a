// Package rtcapi is the WebRTC media both ends of tenfour negotiate: the server's engine (internal/media) and
// the Go terminal client (internal/termclient) register the same Opus and build their video APIs the same way,
// so the two cannot drift apart.
package rtcapi

import (
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/interceptor/pkg/nack"
	"github.com/pion/interceptor/pkg/report"
	"github.com/pion/webrtc/v4"
)

// Opus is the only audio codec: 48 kHz, two channels as WebRTC signals it, in-band FEC on.
var Opus = webrtc.RTPCodecCapability{
	MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2, SDPFmtpLine: "minptime=10;useinbandfec=1",
}

// OpusPayloadType is the payload type Opus is registered under (browsers use 111 too).
const OpusPayloadType = 111

// Audio is the API of a voice peer: Opus and RTCP reports, with the setting engine se.
func Audio(se webrtc.SettingEngine) (*webrtc.API, error) { return build(nil, se, 0, false) }

// Video is the API of a video session: Opus and the given video codecs, RTCP reports and NACK (a lost video
// packet is asked for again), with the setting engine se.
func Video(codecs []webrtc.RTPCodecParameters, se webrtc.SettingEngine) (*webrtc.API, error) {
	return build(codecs, se, 0, true)
}

// VideoServer is Video for the server's side, whose sender reports are its own (internal/media's engine sends
// them from what its direct path wrote, which pion's sender-report interceptor never sees): receiver reports every
// interval and NACK only. askAgain is whether the client sends video: only then does the server ask it for lost
// packets again (pion's NACK generator runs a 100 ms ticker on every connection it is registered on, a viewer's
// too, whose client never sends video); lost packets the client asks for are answered either way.
func VideoServer(codecs []webrtc.RTPCodecParameters, se webrtc.SettingEngine, interval time.Duration, askAgain bool) (*webrtc.API, error) {
	return build(codecs, se, interval, askAgain)
}

// build makes the API; receiverOnly > 0 registers only the receiver reports, at that interval. With video, the
// NACK responder is registered, and the generator when askAgain.
func build(video []webrtc.RTPCodecParameters, se webrtc.SettingEngine, receiverOnly time.Duration, askAgain bool) (*webrtc.API, error) {
	me := &webrtc.MediaEngine{}
	if err := me.RegisterCodec(webrtc.RTPCodecParameters{RTPCodecCapability: Opus, PayloadType: OpusPayloadType},
		webrtc.RTPCodecTypeAudio); err != nil {
		return nil, err
	}
	for _, c := range video {
		if err := me.RegisterCodec(c, webrtc.RTPCodecTypeVideo); err != nil {
			return nil, err
		}
	}
	ir := &interceptor.Registry{}
	if receiverOnly > 0 {
		rr, err := report.NewReceiverInterceptor(report.ReceiverInterval(receiverOnly))
		if err != nil {
			return nil, err
		}
		ir.Add(rr)
	} else if err := webrtc.ConfigureRTCPReports(ir); err != nil {
		return nil, err
	}
	if len(video) > 0 { // audio is never asked for again: a late voice packet is useless
		responder, err := nack.NewResponderInterceptor()
		if err != nil {
			return nil, err
		}
		me.RegisterFeedback(webrtc.RTCPFeedback{Type: "nack"}, webrtc.RTPCodecTypeVideo)
		me.RegisterFeedback(webrtc.RTCPFeedback{Type: "nack", Parameter: "pli"}, webrtc.RTPCodecTypeVideo)
		ir.Add(responder)
		if askAgain {
			generator, err := nack.NewGeneratorInterceptor()
			if err != nil {
				return nil, err
			}
			ir.Add(generator)
		}
	}
	return webrtc.NewAPI(webrtc.WithMediaEngine(me), webrtc.WithInterceptorRegistry(ir), webrtc.WithSettingEngine(se)), nil
}
