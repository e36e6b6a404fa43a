package libopus_test

import (
	"errors"
	"math"
	"sync"
	"testing"

	"tenfour/internal/media/libopus"
)

// tone is n samples of a sine of freq Hz at rate, from sample start on, at amplitude amp.
func tone(rate, freq, start, n int, amp float64) []int16 {
	pcm := make([]int16, n)
	for i := range pcm {
		pcm[i] = int16(amp * math.Sin(2*math.Pi*float64(freq)*float64(start+i)/float64(rate)))
	}
	return pcm
}

// power is the Goertzel power of freq Hz in pcm at rate, per sample.
func power(pcm []int16, rate, freq int) float64 {
	w := 2 * math.Pi * float64(freq) / float64(rate)
	c := 2 * math.Cos(w)
	var s1, s2 float64
	for _, v := range pcm {
		s1, s2 = float64(v)+c*s1-s2, s1
	}
	return (s1*s1 + s2*s2 - c*s1*s2) / float64(len(pcm)*len(pcm))
}

func newPair(t testing.TB, encRate, decRate int) (*libopus.Encoder, *libopus.Decoder) {
	t.Helper()
	enc, err := libopus.NewEncoder(encRate, 1, libopus.VoIP, libopus.EncoderOptions{Bitrate: 24000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(enc.Close)
	dec, err := libopus.NewDecoder(decRate, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dec.Close)
	return enc, dec
}

// A tone encoded at 8 kHz comes back a tone, at 8 kHz and at 48 kHz: its own frequency far above any other, 20 ms
// a packet, the packets small.
func TestRoundTripKeepsTheTone(t *testing.T) {
	for _, decRate := range []int{8000, 48000} {
		enc, dec := newPair(t, 8000, decRate)
		var got []int16
		packet := make([]byte, libopus.MaxPacket)
		pcm := make([]int16, libopus.MaxFrame)
		bytes := 0
		for f := range 50 {
			n, err := enc.Encode(tone(8000, 440, f*160, 160, 8000), packet)
			if err != nil {
				t.Fatal(err)
			}
			bytes += n
			m, err := dec.Decode(packet[:n], pcm)
			if err != nil {
				t.Fatal(err)
			}
			if m != decRate/50 {
				t.Fatalf("a 20 ms packet decoded to %d samples at %d Hz", m, decRate)
			}
			got = append(got, pcm[:m]...)
		}
		if bytes > 50*(24000/8/50)*3/2 {
			t.Errorf("1 s at 24 kbit/s took %d bytes", bytes)
		}
		late := got[len(got)/2:] // past the codec's start-up
		at, off := power(late, decRate, 440), power(late, decRate, 1300)
		if at < 1e5 || at < 100*off {
			t.Fatalf("decoded at %d Hz: power at 440 Hz %.0f, at 1300 Hz %.0f", decRate, at, off)
		}
	}
}

// A lost packet is concealed with sound like what came before, not silence; the next packet decodes as usual.
func TestConcealFillsALostPacket(t *testing.T) {
	enc, dec := newPair(t, 8000, 8000)
	packet := make([]byte, libopus.MaxPacket)
	pcm := make([]int16, 160)
	for f := range 20 {
		n, err := enc.Encode(tone(8000, 440, f*160, 160, 8000), packet)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dec.Decode(packet[:n], pcm); err != nil {
			t.Fatal(err)
		}
	}
	n, err := dec.Conceal(pcm)
	if err != nil || n != 160 {
		t.Fatalf("conceal: %d samples, %v", n, err)
	}
	if p := power(pcm, 8000, 440); p < 1e4 {
		t.Fatalf("the concealed frame has power %.0f at 440 Hz: silence", p)
	}
}

// What libopus refuses comes back as an error in its own words, and nothing is left allocated.
func TestRefusals(t *testing.T) {
	if _, err := libopus.NewEncoder(44100, 1, libopus.VoIP, libopus.EncoderOptions{}); err == nil {
		t.Fatal("44.1 kHz accepted")
	}
	if _, err := libopus.NewDecoder(8000, 3); err == nil {
		t.Fatal("3 channels accepted")
	}
	if _, err := libopus.NewEncoder(8000, 1, libopus.VoIP, libopus.EncoderOptions{Complexity: 11}); err == nil {
		t.Fatal("complexity 11 accepted")
	}
	enc, dec := newPair(t, 8000, 8000)
	pcm := make([]int16, 160)
	// a code-3 packet announcing 63 frames: more than 120 ms
	if _, err := dec.Decode([]byte{0xFF, 0xFF}, pcm); err == nil || err.Error() != "libopus: decode: corrupted stream" {
		t.Fatalf("a corrupt packet: %v", err)
	}
	if _, err := enc.Encode(make([]int16, 150), make([]byte, libopus.MaxPacket)); err == nil {
		t.Fatal("150 samples (18.75 ms) encoded")
	}
	dec.Close()
	if _, err := dec.Decode([]byte{0x08}, pcm); err == nil {
		t.Fatal("decoded after Close")
	}
}

// Many streams at once, over several instances, each on its own goroutine: each stream's audio stays its own.
func TestStreamsInParallelStayApart(t *testing.T) {
	const streams = 40 // 80 states: five instances
	var wg sync.WaitGroup
	errs := make(chan error, streams)
	for s := range streams {
		enc, dec := newPair(t, 8000, 8000)
		freq := 300 + 25*s
		wg.Go(func() {
			packet := make([]byte, libopus.MaxPacket)
			pcm := make([]int16, 160)
			var got []int16
			for f := range 40 {
				n, err := enc.Encode(tone(8000, freq, f*160, 160, 8000), packet)
				if err == nil {
					_, err = dec.Decode(packet[:n], pcm)
				}
				if err != nil {
					errs <- err
					return
				}
				got = append(got, pcm...)
			}
			if at, other := power(got[3200:], 8000, freq), power(got[3200:], 8000, freq+400); at < 100*other {
				errs <- errors.New("a stream's tone is lost")
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func BenchmarkEncode8kHz(b *testing.B) {
	enc, _ := newPair(b, 8000, 8000)
	packet := make([]byte, libopus.MaxPacket)
	frames := make([][]int16, 50)
	for f := range frames {
		frames[f] = tone(8000, 440, f*160, 160, 8000)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := enc.Encode(frames[i%50], packet); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode8kHz(b *testing.B) {
	enc, dec := newPair(b, 8000, 8000)
	packets := make([][]byte, 50)
	for f := range packets {
		p := make([]byte, libopus.MaxPacket)
		n, err := enc.Encode(tone(8000, 440, f*160, 160, 8000), p)
		if err != nil {
			b.Fatal(err)
		}
		packets[f] = p[:n]
	}
	pcm := make([]int16, 160)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := dec.Decode(packets[i%50], pcm); err != nil {
			b.Fatal(err)
		}
	}
}
