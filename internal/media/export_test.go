package media

import (
	"time"

	"github.com/pion/rtp"
)

// ForwardForTest runs one packet through a route as the talker's read loop would.
func ForwardForTest(r *Route, seq uint16, ts uint32, payload []byte) {
	r.forward(&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: seq, Timestamp: ts},
		Payload: payload}, time.Now())
}
