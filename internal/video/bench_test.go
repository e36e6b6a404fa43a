package video_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"tenfour/internal/platform/cputime"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
	"tenfour/internal/video"
)

// BenchmarkVideoCallSetup measures a video call's set-up over the socket with Go peers on loopback: from the
// terminal's answer (video.status 200) to the first video frame at the console, both sides connecting
// their PeerConnection at once (as the console and the phone app do), up to the first keyframe (the first frame a
// decoder shows; the Go camera answers a PLI with one, like an encoder) — N calls (default 20,
// TENFOUR_BENCH_VIDEO_CALLS), p50 and p95 reported.
func BenchmarkVideoCallSetup(b *testing.B) {
	n := testkit.EnvInt("TENFOUR_BENCH_VIDEO_CALLS", 20)
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

// BenchmarkVideoRecordCPU is `make bench`'s "CPU per recorded video call": N calls (default 4,
// TENFOUR_BENCH_RECORD_CALLS) between Go peers, each terminal sending its 640x360 15 fps clip and Opus, connected
// for 10 s without recording and then 10 s with it; the figure is the difference in this process's CPU (the
// recorders' queues and loopback writes) plus the ffmpeg children's CPU (RUSAGE_CHILDREN once they exited), per
// call, in % of one core. The live path's cost is the same in both runs and cancels out.
func BenchmarkVideoRecordCPU(b *testing.B) {
	n := testkit.EnvInt("TENFOUR_BENCH_RECORD_CALLS", 4)
	const window = 10 * time.Second
	w := newWorld(b)
	for i := range n {
		w.Account(fmt.Sprintf("1000030%d", i), "20")
		w.Account(fmt.Sprintf("1000040%d", i), "10")
	}
	run := func(record bool) (self, children time.Duration) {
		w.limits(video.Limits{MaxCalls: 64, MaxMonitors: 16, MaxDuration: 3600, CreditMs: -1, Record: record})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var ids []string
		var cons []*termclient.Client
		var vids []*termclient.Video
		for i := range n {
			msID := fmt.Sprintf("1000040%d", i)
			con, term := w.console(fmt.Sprintf("1000030%d", i)), w.term(msID, nil)
			id := invite(b, ctx, con, msID)
			invited(b, ctx, term)
			codec := answer(b, ctx, term, id, "VP8")
			a, t := connect(b, ctx, con, term, id, codec)
			go func() {
				_ = t.Talk(ctx, termclient.Silence(int(window/(20*time.Millisecond))+100), 20*time.Millisecond)
			}()
			if _, err := a.WaitFrames(ctx, 10); err != nil {
				b.Fatal(err)
			}
			ids, cons, vids = append(ids, id), append(cons, con), append(vids, a, t)
		}
		s0, c0 := cputime.Self(), cputime.Children()
		time.Sleep(window)
		s1 := cputime.Self()
		for i, id := range ids {
			must(b, cons[i].Call(ctx, "video.bye", map[string]any{"callId": id}, nil))
		}
		w.svc().Wait() // the recorders finished: their children exited and were waited for
		c1 := cputime.Children()
		for _, v := range vids {
			v.Close()
		}
		for _, c := range cons {
			c.Close()
		}
		return s1 - s0, c1 - c0
	}
	b.ResetTimer()
	for range b.N {
		off, _ := run(false)
		on, kids := run(true)
		per := func(d time.Duration) float64 { return float64(d) / float64(window) * 100 / float64(n) }
		b.ReportMetric(per(on-off+kids), "%core/call")
		b.ReportMetric(per(kids), "%core-ffmpeg/call")
		b.ReportMetric(per(on-off), "%core-server/call")
		b.ReportMetric(float64(n), "calls")
	}
}
