package indoor

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"tenfour/internal/indoor/radio"
)

// BenchmarkEstimate is one scan of the demo walk (24 beacons a storey, up to 16 readings a fit) through the whole
// estimator as the demo building is seeded (walkable areas on both floors) — floor choice, path loss, the weighted
// least-squares fit with its outlier passes, the particle filter with walls and its fixed lag — on one goroutine: the `make bench` row "indoor estimates per second per core": estimates per second of
// the process's CPU time (user + system), so other work on a shared machine does not count against it. Scans are made before the timer starts.
func BenchmarkEstimate(b *testing.B) {
	bd := radio.Demo()
	walk := radio.NewWalk(radio.DemoRoute(), 1.2, 8)
	rng := rand.New(rand.NewPCG(1, 2))
	scans := make([][]Reading, 4096)
	for i := range scans {
		scans[i] = radio.DemoChannel.Scan(rng, bd, walk.At(float64(i)))
	}
	est := DemoEstimator()
	n := 0
	start := cpuTime()
	for b.Loop() {
		if _, ok := est.Estimate(scans[n%len(scans)], int64(n)*1000); !ok {
			b.Fatal("no fix")
		}
		n++
	}
	b.ReportMetric(float64(n)/(cpuTime()-start).Seconds(), "estimates/s/core")
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
