package libopus_test

import (
	"testing"

	"tenfour/internal/media/libopus"
)

// FuzzDecode: whatever a client sends as an Opus packet, Decode returns samples or an error, never panics, never
// writes past the room it is given, and the decoder (and its instance) decodes a good packet after it.
func FuzzDecode(f *testing.F) {
	enc, err := libopus.NewEncoder(8000, 1, libopus.VoIP, libopus.EncoderOptions{})
	if err != nil {
		f.Fatal(err)
	}
	good := make([]byte, libopus.MaxPacket)
	n, err := enc.Encode(tone(8000, 440, 0, 160, 8000), good)
	enc.Close()
	if err != nil {
		f.Fatal(err)
	}
	good = good[:n]
	f.Add(good)
	f.Add([]byte{0xFF, 0xFF})
	f.Add([]byte{0xFC, 0x00})
	f.Add([]byte{0x03, 0x83, 0x01, 0x02})
	dec, err := libopus.NewDecoder(8000, 1)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(dec.Close)
	pcm := make([]int16, libopus.MaxFrame+1)
	f.Fuzz(func(t *testing.T, packet []byte) {
		pcm[libopus.MaxFrame] = 12345
		if n, err := dec.Decode(packet, pcm[:libopus.MaxFrame]); err == nil && (n <= 0 || n > libopus.MaxFrame) {
			t.Fatalf("%d samples", n)
		}
		if pcm[libopus.MaxFrame] != 12345 {
			t.Fatal("written past the room given")
		}
		if n, err := dec.Decode(good, pcm); err != nil || n != 160 {
			t.Fatalf("a good packet after it: %d, %v", n, err)
		}
	})
}
