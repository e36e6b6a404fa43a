package camera

import (
	"fmt"
	"net"
	"testing"
	"time"

	"tenfour/internal/platform/cputime"
)

// procCPU is a process's CPU time so far (0 once it is gone).
func procCPU(pid int) time.Duration {
	d, _ := cputime.Of(pid)
	return d
}

// BenchmarkCameraPullCPU is `make bench`'s "CPU per pulled camera": 4 simulated cameras (640x360, 15 fps, about
// 500 kbit/s H.264) pulled at once for 10 s; the figure is the ffmpeg children's CPU plus this process's (the
// read loops and fan-out) per camera, in % of one core. The simulated cameras' own encoding is not counted.
func BenchmarkCameraPullCPU(b *testing.B) {
	if err := CheckTestCameras(); err != nil {
		b.Fatalf("simulated cameras: %v (make test-deps)", err)
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	const n = 4
	mounts := []string{"m1", "m2", "m3", "m4"}
	tc, err := StartTestCameras(port, mounts)
	if err != nil {
		b.Fatal(err)
	}
	defer tc.Stop()
	svc := New(nil, nil, nil, Options{IdleStop: time.Hour})
	defer svc.Close()
	if !svc.HasTool() {
		b.Fatal("ffmpeg is not installed (make test-deps)")
	}
	var streams []*stream
	for i, m := range mounts {
		st, err := svc.ensure(Camera{customerID: 1, StreamID: m, StreamURL: tc.URL(m), Protocol: i % 2})
		if err != nil {
			b.Fatal(err)
		}
		streams = append(streams, st)
	}
	for _, st := range streams {
		if err := svc.waitMedia(b.Context(), st, 20*time.Second); err != nil {
			b.Fatalf("%s: %v", st.key.stream, err)
		}
	}
	pids := func() []int {
		var out []int
		for _, st := range streams {
			st.mu.Lock()
			out = append(out, st.pid)
			st.mu.Unlock()
		}
		return out
	}
	const window = 10 * time.Second
	b.ResetTimer()
	for range b.N {
		ps := pids()
		var c0 time.Duration
		for _, p := range ps {
			c0 += procCPU(p)
		}
		s0, p0, t0 := cputime.Self(), streams[0].packets.Load(), time.Now()
		time.Sleep(window)
		var c1 time.Duration
		for _, p := range pids() {
			c1 += procCPU(p)
		}
		took := time.Since(t0)
		child := float64(c1-c0) / float64(took) * 100 / n
		own := float64(cputime.Self()-s0) / float64(took) * 100 / n
		pps := float64(streams[0].packets.Load()-p0) / took.Seconds()
		b.ReportMetric(child+own, "%core/camera")
		b.ReportMetric(child, "%core-ffmpeg/camera")
		b.ReportMetric(pps, "packets/s/camera")
		fmt.Printf("BENCH camera_cpu_pct %.2f\nBENCH camera_ffmpeg_cpu_pct %.2f\n", child+own, child)
	}
}
