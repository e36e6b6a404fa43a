package media

import (
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// ForwardForTest runs one packet through a route as the talker's read loop would.
func ForwardForTest(r *Route, seq uint16, ts uint32, payload []byte) {
	r.forward(&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: seq, Timestamp: ts},
		Payload: payload}, time.Now())
}

// ConsentForTest counts the client's consent checks the media socket's reader answered (consent.go), and the
// valid ones it left to pion (consentPassEvery).
func ConsentForTest(p *Peer) (answered, passedOn uint64) {
	p.inMu.Lock()
	defer p.inMu.Unlock()
	if p.in == nil || p.in.consent == nil {
		return 0, 0
	}
	return p.in.consent.answered.Load(), p.in.consent.passedOn.Load()
}

// ICEStateForTest is the server side's ICE connection state.
func ICEStateForTest(p *Peer) webrtc.ICEConnectionState { return p.pc.ICEConnectionState() }

// ConsentRequestsSentForTest counts the binding requests the server's agent sent on the selected pair.
func ConsentRequestsSentForTest(p *Peer) uint64 {
	var n uint64
	for _, s := range p.pc.GetStats() {
		if cp, ok := s.(webrtc.ICECandidatePairStats); ok && cp.Nominated {
			n += cp.RequestsSent
		}
	}
	return n
}
