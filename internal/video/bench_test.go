package video_test

import (
	"context"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"tenfour/internal/termclient"
	"tenfour/internal/video"
)

// BenchmarkVideoCallSetup measures a video call's set-up over the socket with Go peers on loopback: from the
// terminal's answer (video.status 200) to the first video frame at the console, both sides connecting
// their PeerConnection at once (as the console and the phone app do), up to the first keyframe (the first frame a
// decoder shows; the Go camera answers a PLI with one, like an encoder) — N calls (default 20,
// TENFOUR_BENCH_VIDEO_CALLS), p50 and p95 reported.
func BenchmarkVideoCallSetup(b *testing.B) {
	n := 20
	if v, err := strconv.Atoi(os.Getenv("TENFOUR_BENCH_VIDEO_CALLS")); err == nil && v > 0 {
		n = v
	}
	w := newWorld(b)
	con := w.console("10000001")
	term := w.term("10000101", nil)
	b.ResetTimer()
	for range b.N {
		var took []time.Duration
		for range n {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			id := invite(b, ctx, con, "10000101")
			invited(b, ctx, term)
			t0 := time.Now()
			codec := answer(b, ctx, term, id)
			var tv *termclient.Video
			var terr error
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { // the terminal connects and starts its camera as soon as it answered
				defer wg.Done()
				if tv, terr = term.StartVideo(ctx, id, codec); terr == nil {
					terr = tv.StartCamera(640, 360)
				}
			}()
			state(b, ctx, con, id, video.StateAnswered, video.StOK)
			must(b, con.Call(ctx, "video.ack", map[string]any{"callId": id}, nil))
			cv, err := con.StartVideo(ctx, id, codec)
			must(b, err)
			if _, err := cv.WaitFrames(ctx, 1); err != nil {
				b.Fatal(err)
			}
			took = append(took, cv.Stats().FirstKeyframe.Sub(t0)) // the first frame a decoder can show
			wg.Wait()
			must(b, terr)
			must(b, con.Call(ctx, "video.bye", map[string]any{"callId": id}, nil))
			state(b, ctx, con, id, video.StateEnded, video.StOK)
			cv.Close()
			tv.Close()
			cancel()
		}
		sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
		b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(took[min(len(took)-1, len(took)*95/100)].Microseconds())/1000, "p95-ms")
		b.ReportMetric(float64(n), "calls")
	}
}
