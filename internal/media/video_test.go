package media_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"tenfour/internal/media"
	"tenfour/internal/platform/cputime"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// direct is a termclient.Caller that negotiates video sessions with an engine directly (no socket): a test's
// stand-in for package video's signalling.
type direct struct {
	e        *media.Engine
	codec    media.VideoCodec
	watchers map[string]bool // sides that only watch (NewVideoPeer's watcher)
	mu       sync.Mutex
	peers    map[string]*media.VideoPeer
	ready    map[string]chan struct{}
}

func newDirect(e *media.Engine, codec media.VideoCodec) *direct {
	return &direct{e: e, codec: codec, watchers: map[string]bool{}, peers: map[string]*media.VideoPeer{},
		ready: map[string]chan struct{}{}}
}

func (d *direct) Call(_ context.Context, typ string, data any, out any) error {
	raw, _ := json.Marshal(data)
	switch typ {
	case "rtc.config":
		return nil
	case "video.offer":
		var req struct{ CallID, SDP string }
		_ = json.Unmarshal(raw, &req)
		ready := make(chan struct{})
		var once sync.Once
		p, answer, err := d.e.NewVideoPeer(media.Owner{Account: req.CallID, Customer: 1}, d.codec, req.SDP, nil,
			d.watchers[req.CallID], func(_ *media.VideoPeer, r bool) {
				if r {
					once.Do(func() { close(ready) })
				}
			})
		if err != nil {
			return err
		}
		d.mu.Lock()
		d.peers[req.CallID], d.ready[req.CallID] = p, ready
		d.mu.Unlock()
		b, _ := json.Marshal(map[string]string{"sdp": answer})
		return json.Unmarshal(b, out)
	case "video.candidate":
		var c struct {
			CallID string
			webrtc.ICECandidateInit
		}
		_ = json.Unmarshal(raw, &c)
		d.mu.Lock()
		p := d.peers[c.CallID]
		d.mu.Unlock()
		if p == nil {
			return errors.New("no peer")
		}
		return p.AddCandidate(c.ICECandidateInit)
	}
	return fmt.Errorf("unexpected %s", typ)
}

// open connects a Go video client as side id and waits until the server side is ready too.
func (d *direct) open(t testing.TB, id string) (*media.VideoPeer, *termclient.Video) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	v, err := termclient.OpenVideo(ctx, d, termclient.MediaOptions{Loopback: true}, id, string(d.codec))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	d.mu.Lock()
	p, ready := d.peers[id], d.ready[id]
	d.mu.Unlock()
	select {
	case <-ready:
	case <-ctx.Done():
		t.Fatal("server side not ready")
	}
	return p, v
}

// A camera linked to two receivers (one attached late): both decode from a keyframe (the late one's attachment
// asks the sender for one), sequence numbers stay continuous, an offer without the session's codec is refused.
func TestVideoFanOutAndKeyframes(t *testing.T) {
	for _, codec := range []media.VideoCodec{media.VP8, media.H264} {
		t.Run(string(codec), func(t *testing.T) {
			e := newEngine(t)
			d := newDirect(e, codec)
			cam, camV := d.open(t, "cam")
			r1, v1 := d.open(t, "r1")
			media.Link(cam, r1)
			if err := camV.StartCamera(352, 288); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if _, err := v1.WaitFrames(ctx, 20); err != nil {
				t.Fatal(err)
			}
			r2, v2 := d.open(t, "r2")
			plis := camV.KeyframeRequests()
			cam.Video.Attach(r2.VideoOut)
			st, err := v2.WaitFrames(ctx, 10)
			if err != nil {
				t.Fatal(err)
			}
			if st.Keyframes == 0 || camV.KeyframeRequests() <= plis {
				t.Fatalf("late receiver: %d keyframes, PLIs %d → %d", st.Keyframes, plis, camV.KeyframeRequests())
			}
			if cam.Video.Sinks() != 2 || cam.Video.Frames() == 0 {
				t.Fatalf("sinks %d, frames %d", cam.Video.Sinks(), cam.Video.Frames())
			}
			for _, s := range []*media.Sink{r1.VideoOut, r1.AudioOut, r2.VideoOut} { // docs/adr/0027, as voice
				if !s.Direct() {
					t.Fatal("a receiver's track is not on the direct path")
				}
			}
			other := media.H264
			if codec == media.H264 {
				other = media.VP8
			}
			if _, err := termclient.OpenVideo(ctx, newDirect(e, codec), termclient.MediaOptions{Loopback: true}, "x", string(other)); err == nil {
				t.Fatal("an offer without the session's codec was answered")
			}
		})
	}
}

// A watcher's connection (a monitoring's dispatcher: nothing it sends is used) runs no NACK generator — pion's
// 100 ms ticker on each connection it is registered on — while a sending party's does. The Go clients run one each.
func TestOnlyASenderIsAskedForLostVideo(t *testing.T) {
	e := newEngine(t)
	d := newDirect(e, media.VP8)
	d.watchers["viewer"] = true
	generators := func() int {
		buf := make([]byte, 1<<22)
		return strings.Count(string(buf[:runtime.Stack(buf, true)]), "nack.(*GeneratorInterceptor).loop")
	}
	before := generators()
	d.open(t, "viewer")
	if n := generators() - before; n != 1 {
		t.Fatalf("a watcher and its client: %d NACK generators, want 1 (the client's)", n)
	}
	d.open(t, "cam")
	if n := generators() - before; n != 3 {
		t.Fatalf("with a sending party and its client too: %d NACK generators, want 3", n)
	}
}

// Packets a receiver on the direct path missed are sent again from the feed's history when it NACKs them (its
// NACK generator asks for the gap): the receiver ends up with every one of them, once (SRTP's replay check drops a
// second copy of one it had, so a resend of a received packet would not show; the gap is what is resent).
func TestVideoNackResendsOnTheDirectPath(t *testing.T) {
	e := newEngine(t)
	d := newDirect(e, media.VP8)
	cam, camV := d.open(t, "cam")
	var mu sync.Mutex
	seen := map[uint16]int{}
	var last uint16
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rv, err := termclient.OpenVideo(ctx, d, termclient.MediaOptions{Loopback: true, OnVideoPacket: func(p *rtp.Packet) {
		mu.Lock()
		seen[p.SequenceNumber]++
		last = p.SequenceNumber
		mu.Unlock()
	}}, "r", "VP8")
	if err != nil {
		t.Fatal(err)
	}
	defer rv.Close()
	d.mu.Lock()
	r := d.peers["r"]
	d.mu.Unlock()
	media.Link(cam, r)
	if err := camV.StartCamera(352, 288); err != nil {
		t.Fatal(err)
	}
	if _, err := rv.WaitFrames(ctx, 10); err != nil {
		t.Fatal(err)
	}
	if !r.VideoOut.Direct() {
		t.Fatal("the receiver is not on the direct path")
	}
	// A gap: the receiver is detached for a moment, the feed's packets go on (and into its history).
	mu.Lock()
	from := last
	mu.Unlock()
	cam.Video.Detach(r.VideoOut)
	time.Sleep(300 * time.Millisecond)
	cam.Video.Attach(r.VideoOut)
	sent := cam.Video.Packets()
	testkit.Eventually(t, 10*time.Second, "the camera sends on", func() bool { return cam.Video.Packets() > sent+20 })
	var missing []uint16
	testkit.Eventually(t, 5*time.Second, "every packet of the gap received", func() bool {
		mu.Lock()
		defer mu.Unlock()
		missing = missing[:0]
		for q := from; q != last-5; q++ {
			if seen[q] == 0 {
				missing = append(missing, q)
			}
		}
		return len(missing) == 0 && last-from > 20
	})
	mu.Lock()
	defer mu.Unlock()
	for q := from; q != last; q++ {
		if seen[q] > 1 {
			t.Fatalf("packet %d received %d times", q, seen[q])
		}
	}
}

// BenchmarkVideoStreamsPerCore forwards one 1 Mbit/s camera (10 frames of 12.5 KB a second, ~11 RTP packets each)
// to N receivers (default 40, TENFOUR_BENCH_VIDEO_RECEIVERS) for 5 s, counts lost packets, and reports how many
// forwarded 1 Mbit/s streams one core carries from the process's CPU time — the in-process receivers' decryption
// included, so the figure is a floor for the server alone.
func BenchmarkVideoStreamsPerCore(b *testing.B) {
	n := testkit.EnvInt("TENFOUR_BENCH_VIDEO_RECEIVERS", 40)
	e := newEngine(b)
	d := newDirect(e, media.VP8)
	cam, camV := d.open(b, "cam")
	type rx struct {
		p *media.VideoPeer
		v *termclient.Video
	}
	var rxs []rx
	for i := range n {
		p, v := d.open(b, "r"+strconv.Itoa(i))
		media.Link(cam, p)
		rxs = append(rxs, rx{p, v})
	}
	frame := make([]byte, 12500)
	frame[0] = 0x10 // VP8 keyframe bit clear: a key frame as far as any parser cares
	b.ResetTimer()
	for range b.N {
		before := make([]int, n)
		for i, r := range rxs {
			before[i] = r.v.Stats().VideoPackets
		}
		sent0 := cam.Video.Packets()
		cpu0, t0 := cputime.Self(), time.Now()
		tick := time.NewTicker(100 * time.Millisecond)
		for f := 0; f < 50; f++ {
			if err := camV.SendFrame(frame, 100*time.Millisecond); err != nil {
				b.Fatal(err)
			}
			<-tick.C
		}
		tick.Stop()
		time.Sleep(300 * time.Millisecond) // the last packets in flight
		wall, cpu := time.Since(t0), cputime.Self()-cpu0
		sent := int(cam.Video.Packets() - sent0)
		lost := 0
		for i, r := range rxs {
			lost += max(0, before[i]+sent-r.v.Stats().VideoPackets)
		}
		frac := float64(cpu) / float64(wall)
		b.ReportMetric(float64(n), "streams")
		b.ReportMetric(float64(sent), "packets-per-stream")
		b.ReportMetric(float64(lost), "lost-packets")
		b.ReportMetric(frac*100, "process-cpu-%")
		b.ReportMetric(float64(n)/frac, "streams/core")
		if lost > 0 {
			b.Errorf("%d packets lost across %d receivers", lost, n)
		}
	}
}
