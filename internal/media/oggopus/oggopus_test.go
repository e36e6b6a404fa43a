package oggopus

import (
	"testing"
	"time"
)

func TestFixtures(t *testing.T) {
	for _, tc := range []struct {
		file string
		want time.Duration
		bw   Bandwidth
	}{
		{"speech.ogg", 5653 * time.Millisecond, Fullband},
		{"reply.ogg", 1955 * time.Millisecond, Fullband},
		{"reply-nb.ogg", 1955 * time.Millisecond, Narrowband},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := ReadFile("../../../testdata/audio/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if f.Head.Channels != 1 || f.Head.PreSkip != 312 {
				t.Fatalf("head %+v", f.Head)
			}
			// The decoded length minus the pre-skip is the input's length, rounded up to a 20 ms packet.
			got := SamplesDuration(f.Samples() - f.Head.PreSkip)
			if d := got - tc.want; d < 0 || d > 20*time.Millisecond {
				t.Fatalf("duration %v, want %v", got, tc.want)
			}
			if int(f.Granule) > f.Samples() || int(f.Granule) < f.Samples()-960 {
				t.Fatalf("granule %d vs samples %d", f.Granule, f.Samples())
			}
			counts := map[Bandwidth]int{}
			for _, p := range f.Packets {
				if Samples(p) != 960 {
					t.Fatalf("packet of %d samples; fixtures use 20 ms packets", Samples(p))
				}
				counts[PacketBandwidth(p)]++
			}
			if counts[tc.bw] < len(f.Packets)/2 {
				t.Fatalf("bandwidths %v, want mostly %d", counts, tc.bw)
			}
		})
	}
}

func TestSamplesCodes(t *testing.T) {
	for _, tc := range []struct {
		p    []byte
		want int
	}{
		{[]byte{0x78}, 960},         // config 15 hybrid FB 20 ms, code 0
		{[]byte{0x08 | 1}, 2 * 960}, // SILK NB 20 ms, code 1: two frames
		{[]byte{0xfb, 3}, 3 * 960},  // CELT FB 20 ms code 3 with 3 frames
		{[]byte{0x80}, 120},         // CELT NB 2.5 ms
		{[]byte{0x18}, 2880},        // SILK NB 60 ms
		{[]byte{0x03}, 0},           // code 3 without a count byte
		{nil, 0},
	} {
		if got := Samples(tc.p); got != tc.want {
			t.Errorf("Samples(%x) = %d, want %d", tc.p, got, tc.want)
		}
		advance := uint32(tc.want)
		if advance == 0 {
			advance = 960 // a packet that says nothing readable moves the timestamp one 20 ms frame
		}
		if got := Advance(tc.p); got != advance {
			t.Errorf("Advance(%x) = %d, want %d", tc.p, got, advance)
		}
	}
}

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		p    []byte
		want bool
	}{
		{nil, false},
		{[]byte{0xfc}, true},          // CELT 20 ms, one frame
		{[]byte{0x03}, false},         // code 3 without its frame count
		{[]byte{0xfb, 0x00}, false},   // code 3, no frame
		{[]byte{0xfb, 0x06}, true},    // 6 × 20 ms = 120 ms
		{[]byte{0xfb, 0x07}, false},   // 140 ms
		{[]byte{0x1b, 0x02, 0}, true}, // SILK 60 ms × 2
		{[]byte{0x1b, 0x03, 0}, false},
	} {
		if got := Valid(tc.p); got != tc.want {
			t.Errorf("Valid(% x) = %v, want %v", tc.p, got, tc.want)
		}
	}
}
