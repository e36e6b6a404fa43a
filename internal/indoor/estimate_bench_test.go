package indoor

import (
	"math/rand/v2"
	"testing"
	"time"

	"tenfour/internal/indoor/radio"
)

// BenchmarkEstimate is one scan of the demo walk (about 10 readings) through the whole estimator — floor choice,
// path loss, the weighted least-squares fit with its outlier passes, the Kalman update — on one goroutine: the
// `make bench` row "indoor estimates per second per core". Scans are made before the timer starts.
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
	start := time.Now()
	for b.Loop() {
		if _, ok := est.Estimate(scans[n%len(scans)], int64(n)*1000); !ok {
			b.Fatal("no fix")
		}
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "estimates/s/core")
}
