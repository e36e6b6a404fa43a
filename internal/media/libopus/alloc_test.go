//go:build !race

package libopus_test

import (
	"testing"

	"tenfour/internal/media/libopus"
)

// A call's 20 ms frame is encoded and decoded without an allocation (not under -race, which makes the calls'
// state escape): a bridged call does both 50 times a second.
func TestEncodeAndDecodeDoNotAllocate(t *testing.T) {
	enc, dec := newPair(t, 8000, 8000)
	pcm := tone(8000, 440, 0, 160, 8000)
	packet := make([]byte, libopus.MaxPacket)
	out := make([]int16, 160)
	allocs := testing.AllocsPerRun(200, func() {
		n, err := enc.Encode(pcm, packet)
		if err == nil {
			_, err = dec.Decode(packet[:n], out)
		}
		if err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a frame", allocs)
	}
}
