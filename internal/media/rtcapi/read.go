package rtcapi

import (
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// EachPacket reads a remote track until it ends (its PeerConnection closed), handing fn each packet that
// decodes and skipping any that does not. The packet and the buffer under its payload are reused: fn copies
// what it keeps.
func EachPacket(tr *webrtc.TrackRemote, fn func(p *rtp.Packet)) {
	buf := make([]byte, 1500)
	var p rtp.Packet
	for {
		n, _, err := tr.Read(buf)
		if err != nil {
			return
		}
		if p.Unmarshal(buf[:n]) != nil {
			continue
		}
		fn(&p)
	}
}
