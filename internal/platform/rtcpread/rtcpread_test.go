package rtcpread

import (
	"errors"
	"strings"
	"testing"

	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
)

// Every packet of a compound read reaches fn in order, an unparsable read is skipped, and a failed read ends it.
func TestEachHandsOverEveryPacketUntilTheReadFails(t *testing.T) {
	compound, err := rtcp.Marshal([]rtcp.Packet{&rtcp.ReceiverReport{SSRC: 1}, &rtcp.PictureLossIndication{MediaSSRC: 2}})
	if err != nil {
		t.Fatal(err)
	}
	reads := [][]byte{compound, {0xff, 0x00}, compound}
	read := func(b []byte) (int, interceptor.Attributes, error) {
		if len(reads) == 0 {
			return 0, nil, errors.New("closed")
		}
		n := copy(b, reads[0])
		reads = reads[1:]
		return n, nil, nil
	}
	var got []string
	Each(read, func(p rtcp.Packet) {
		switch p := p.(type) {
		case *rtcp.ReceiverReport:
			got = append(got, "rr")
		case *rtcp.PictureLossIndication:
			if p.MediaSSRC == 2 {
				got = append(got, "pli")
			}
		}
	})
	if want := "rr pli rr pli"; strings.Join(got, " ") != want {
		t.Fatalf("got %q, want %q", strings.Join(got, " "), want)
	}
}
