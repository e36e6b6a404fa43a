// Package rtcpread reads a WebRTC sender's or receiver's RTCP: packet by packet (Each), the one loop the server's
// video sinks and the terminal client's microphone and camera share, or only so that pion's interceptors run (Drain).
package rtcpread

import (
	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
)

// Each reads until read fails (its connection closed) and hands every RTCP packet it read to fn; what does not
// parse is skipped. Reading also keeps pion's interceptors running on that stream.
func Each(read func([]byte) (int, interceptor.Attributes, error), fn func(rtcp.Packet)) {
	buf := make([]byte, 1500)
	for {
		n, _, err := read(buf)
		if err != nil {
			return
		}
		pkts, err := rtcp.Unmarshal(buf[:n])
		if err != nil {
			continue
		}
		for _, p := range pkts {
			fn(p)
		}
	}
}

// Drain reads until read fails and drops what it read: RTCP nobody needs must still be read for pion's
// interceptors (reports, NACKs) to run on that stream.
func Drain(read func([]byte) (int, interceptor.Attributes, error)) {
	buf := make([]byte, 1500)
	for {
		if _, _, err := read(buf); err != nil {
			return
		}
	}
}
