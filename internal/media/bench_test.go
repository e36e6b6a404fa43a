package media_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/platform/cputime"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// fanout is one talker and n listeners connected to one engine, routed.
type fanout struct {
	talker    *media.Peer
	talkerM   *termclient.Media
	listeners []*termclient.Media
	downs     []*media.Downstream
}

func newFanout(b *testing.B, n int, measureCPU bool) *fanout {
	b.Helper()
	e := newEngineCPU(b, measureCPU)
	f := &fanout{}
	f.talker, f.talkerM = connect(b, e, "talker")
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8) // handshakes in parallel, a few at a time
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			p, m := connect(b, e, "l"+strconv.Itoa(i))
			mu.Lock()
			f.listeners = append(f.listeners, m)
			f.downs = append(f.downs, p.Downstream())
			mu.Unlock()
		}()
	}
	wg.Wait()
	return f
}

// route makes a new burst from the talker to every listener.
func (f *fanout) route() *media.Burst {
	burst := media.NewBurst(nil)
	r := &media.Route{Burst: burst}
	for _, d := range f.downs {
		d.Assign(burst.ID)
		r.Targets = append(r.Targets, media.Target{D: d, Src: burst.ID})
	}
	f.talker.SetRoute(r)
	return burst
}

// received is how many packets each listener has had so far: a burst's packets come on top.
func (f *fanout) received() []int {
	out := make([]int, len(f.listeners))
	for i, l := range f.listeners {
		out[i] = l.ReceivedCount()
	}
	return out
}

// BenchmarkForwardDelay measures the delay the server adds per packet (talker's packet read → written to its
// last listener) for a group of 10 and of 100 listeners, at the real 50 packets per second.
func BenchmarkForwardDelay(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("listeners=%d", n), func(b *testing.B) {
			f := newFanout(b, n, false)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			const packets = 250 // 5 s of speech
			b.ResetTimer()
			for range b.N {
				burst := f.route()
				before := f.received()
				if err := f.talkerM.Send(ctx, termclient.Silence(packets), 20*time.Millisecond); err != nil {
					b.Fatal(err)
				}
				for i, l := range f.listeners {
					if _, err := l.WaitPackets(ctx, before[i]+packets); err != nil {
						b.Fatalf("listener %d: %v", i, err)
					}
				}
				st := burst.Stats()
				b.ReportMetric(float64(st.DelayP50.Microseconds()), "p50-µs")
				b.ReportMetric(float64(st.DelayP99.Microseconds()), "p99-µs")
			}
		})
	}
}

// BenchmarkStreamsPerCore forwards one talker to N listeners (default 200, TENFOUR_BENCH_LISTENERS) at 50
// packets per second for 5 s, checks that no listener lost a packet, and extrapolates how many forwarded Opus
// streams one core carries: the forwarding loop runs on one goroutine, so its busy fraction of the wall time
// is the share of one core that N streams take. The busy time is measured per packet (read → last write) and
// includes everything the loop waits on (SRTP, UDP writes, being descheduled): streams/core-busy is the
// conservative figure. streams/core counts the forwarding thread's own CPU time (the loop is locked to its OS
// thread for that, which makes its delays meaningless here: BenchmarkForwardDelay measures those). The process
// CPU (the in-process listeners' decryption included) is reported too.
func BenchmarkStreamsPerCore(b *testing.B) {
	n := testkit.EnvInt("TENFOUR_BENCH_LISTENERS", 200)
	f := newFanout(b, n, true)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const packets = 250
	b.ResetTimer()
	for range b.N {
		burst := f.route()
		before := f.received()
		cpu0, t0, fwd0 := cputime.Self(), time.Now(), f.talker.ForwardCPU()
		if err := f.talkerM.Send(ctx, termclient.Silence(packets), 20*time.Millisecond); err != nil {
			b.Fatal(err)
		}
		lost := 0
		for i, l := range f.listeners {
			wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
			got, _ := l.WaitPackets(wctx, before[i]+packets)
			wcancel()
			lost += max(0, before[i]+packets-len(got))
		}
		wall, cpu := time.Since(t0), cputime.Self()-cpu0
		frac := float64(burst.Stats().Busy) / float64(wall) // wall time the loop was busy, descheduled time included
		cpuFrac := float64(f.talker.ForwardCPU()-fwd0) / float64(wall)
		b.ReportMetric(float64(n), "streams")
		b.ReportMetric(float64(lost), "lost-packets")
		b.ReportMetric(frac*100, "fwd-busy-%")
		b.ReportMetric(cpuFrac*100, "fwd-cpu-%")
		b.ReportMetric(float64(n)/cpuFrac, "streams/core")
		b.ReportMetric(float64(n)/frac, "streams/core-busy")
		b.ReportMetric(float64(cpu)/float64(wall)*100, "process-cpu-%")
		if lost > 0 {
			b.Errorf("%d packets lost across %d listeners", lost, n)
		}
	}
}

// BenchmarkListenerWrite is the cost of forwarding one packet to one listener: rewrite, SRTP, UDP send.
func BenchmarkListenerWrite(b *testing.B) {
	e := newEngine(b)
	talker, _ := connect(b, e, "talker")
	_ = talker
	p, m := connect(b, e, "listener")
	d := p.Downstream()
	burst := media.NewBurst(nil)
	d.Assign(burst.ID)
	r := &media.Route{Targets: []media.Target{{D: d, Src: burst.ID}}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		media.ForwardForTest(r, uint16(i), uint32(i*960), termclient.SilentPacket)
	}
	b.StopTimer()
	_ = m
}
