package bench

import (
	"math"
	"time"
)

// histBuckets is the resolution of a Hist: 1 ms buckets up to 10 s; longer latencies share the last bucket.
const histBuckets = 10_000

// Hist counts latencies in 1 ms buckets. Its size does not grow with the count: a soak window holds millions
// of position deliveries, which as a slice of durations cost the harness hundreds of megabytes, and the
// collector's time with them, on the machine it measures. The zero value is empty and ready.
type Hist struct {
	n      int
	max    time.Duration
	bucket [histBuckets + 1]uint32
}

// Add counts one latency (negative ones as 0).
func (h *Hist) Add(d time.Duration) {
	d = max(d, 0)
	h.bucket[min(int(d/time.Millisecond), histBuckets)]++
	h.n++
	h.max = max(h.max, d)
}

// Count is the number of latencies added.
func (h *Hist) Count() int { return h.n }

// Pct is the p-quantile (0 < p ≤ 1) with Pct's rank rule, as the upper edge of its bucket (at most the largest
// latency added, and that latency when the quantile falls past the last bucket); 0 when empty.
func (h *Hist) Pct(p float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	k := max(0, min(int(math.Ceil(p*float64(h.n)))-1, h.n-1))
	seen := 0
	for i, c := range h.bucket {
		seen += int(c)
		if seen > k && i < histBuckets {
			return min(time.Duration(i+1)*time.Millisecond, h.max)
		}
	}
	return h.max
}
