package indoor

import (
	"math/rand/v2"
	"testing"

	"tenfour/internal/indoor/radio"
	"tenfour/internal/platform/cputime"
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
	start := cputime.Self()
	for b.Loop() {
		if _, ok := est.Estimate(scans[n%len(scans)], int64(n)*1000); !ok {
			b.Fatal("no fix")
		}
		n++
	}
	b.ReportMetric(float64(n)/(cputime.Self()-start).Seconds(), "estimates/s/core")
}
