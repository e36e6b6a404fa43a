package sip

import (
	"errors"
	"testing"
	"time"
)

// packetsOf encodes a second of a tone in codec through toGroup, the phone's frames payload bytes at a time.
func packetsOf(t *testing.T, codec Codec, payload int) [][]byte {
	t.Helper()
	enc, err := newToGroup(codec)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.close()
	var packets [][]byte
	send := keepCopies(&packets)
	var all []byte
	for _, f := range makeTone(440, time.Second).in(codec) {
		all = append(all, f...)
	}
	for len(all) > 0 {
		n := min(payload, len(all))
		if err := enc.write(all[:n], send); err != nil {
			t.Fatal(err)
		}
		all = all[n:]
	}
	return packets
}

// The phone's G.711 becomes one Opus packet per 20 ms whatever its packet time, and the group's Opus comes back
// as 20 ms G.711 frames as loud as the tone was, in both laws.
func TestTranscodeBothWays(t *testing.T) {
	for _, codec := range []Codec{Ulaw, Alaw} {
		for _, payload := range []int{160, 240, 80} { // 20, 30 and 10 ms packets from the phone
			packets := packetsOf(t, codec, payload)
			if len(packets) != 50 {
				t.Fatalf("%v, %d-byte packets: %d Opus packets for a second, want 50", codec, payload, len(packets))
			}
			frames := decodeAll(t, codec, packets, nil)
			if len(frames) != 50 {
				t.Fatalf("%v: %d frames back, want 50", codec, len(frames))
			}
			want := Loudness(codec, makeTone(440, time.Second).in(codec)[0])
			if got := Loudness(codec, frames[40]); got < want*0.7 || got > want*1.3 {
				t.Fatalf("%v: a frame back has loudness %.0f, the tone %.0f", codec, got, want)
			}
		}
	}
}

// keepCopies is a send or write function that keeps a copy of each packet or frame in out.
func keepCopies(out *[][]byte) func([]byte) error {
	return func(p []byte) error { *out = append(*out, append([]byte(nil), p...)); return nil }
}

// decodeAll runs packets (sequence numbers from 65530 on, wrapping) through toPhone, leaving out the indexes in
// lost.
func decodeAll(t *testing.T, codec Codec, packets [][]byte, lost map[int]bool) [][]byte {
	t.Helper()
	dec, err := newToPhone(codec)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.close()
	var frames [][]byte
	write := keepCopies(&frames)
	for i, p := range packets {
		if lost[i] {
			continue
		}
		if err := dec.packet(uint16(65530+i), p, write); err != nil {
			t.Fatal(err)
		}
	}
	return frames
}

// A lost packet or up to three in a row are concealed (the phone hears 20 ms of sound for each, not a gap); a
// longer loss is not filled past three; a packet older than the last one is dropped. Sequence numbers wrap.
func TestLossIsConcealed(t *testing.T) {
	packets := packetsOf(t, Ulaw, 160)
	frames := decodeAll(t, Ulaw, packets, map[int]bool{4: true, 20: true, 21: true, 22: true})
	if len(frames) != 50 {
		t.Fatalf("%d frames with 1 and 3 packets lost, want 50", len(frames))
	}
	if l := Loudness(Ulaw, frames[21]); l < 1000 {
		t.Fatalf("a concealed frame has loudness %.0f", l)
	}
	if frames := decodeAll(t, Ulaw, packets, map[int]bool{10: true, 11: true, 12: true, 13: true, 14: true}); len(frames) != 48 {
		t.Fatalf("%d frames with 5 packets lost in a row, want 48 (3 concealed)", len(frames))
	}

	dec, err := newToPhone(Ulaw)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	write := func([]byte) error { n++; return nil }
	for _, seq := range []uint16{7, 8} {
		if err := dec.packet(seq, packets[seq], write); err != nil {
			t.Fatal(err)
		}
	}
	if err := dec.packet(6, packets[6], write); !errors.Is(err, errLatePacket) || n != 2 {
		t.Fatalf("a late packet: %v, %d frames", err, n)
	}
	dec.close()
	if err := dec.packet(9, packets[9], write); !errors.Is(err, errClosedTranscoder) {
		t.Fatalf("after close: %v", err)
	}
}
