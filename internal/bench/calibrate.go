package bench

// The host's calibration (issue 36): a fixed CPU probe measured in the same run as the rows whose figure is a
// throughput with no peer beside it (indoor estimates, forwarded streams per core, GPS ingest). The probe's rate
// on this host over its rate on the reference machine is the host factor; such a row's target is its figure on
// the reference machine times that factor, so a slower host does not fail a row and a faster one does not hide a
// regression. docs/performance.md ("Calibration") says how the reference was taken.

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// ProbeReference is ProbeUnit's rate on the reference machine — the 2-core VM the targets were met on (go1.26.8) —
// in units per CPU-second of the process: the median of 5 runs of 3 s alone on it, 2026-11-30 (33,743–35,699).
const ProbeReference = 34_010

// probeRecord is the JSON the probe encodes and decodes: a position report's shape.
type probeRecord struct {
	ID    string    `json:"id"`
	Lat   float64   `json:"lat"`
	Lng   float64   `json:"lng"`
	Speed float64   `json:"speed"`
	Time  int64     `json:"time"`
	Tags  []string  `json:"tags"`
	Fix   []float64 `json:"fix"`
}

// probeInts is the unsorted slice each unit sorts a copy of (a fixed permutation).
var probeInts = func() []int {
	s := make([]int, 256)
	x := uint32(2463534242)
	for i := range s {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		s[i] = int(x % 10007)
	}
	return s
}()

// ProbeUnit is one unit of the probe's fixed work, the kinds of work the server does: a JSON record encoded and
// decoded (reflection, allocation, the collector), 256 integers sorted, a map of 64 keys filled, and 512 steps of
// floating-point arithmetic (square roots, exponentials: the estimators'). Pure Go on purpose: no hardware crypto
// or assembly that one host has and another lacks. It returns a value that depends on all of it, so nothing is
// optimised away.
func ProbeUnit(seed int) float64 {
	rec := probeRecord{ID: strconv.Itoa(10000000 + seed), Lat: 41.0082 + float64(seed%100)*1e-4, Lng: 28.9784,
		Speed: 12.5, Time: 1_700_000_000_000 + int64(seed), Tags: []string{"gps", "fix", "moving"}, Fix: []float64{1.5, 2.5, 3.5}}
	b, _ := json.Marshal(rec)
	var back probeRecord
	_ = json.Unmarshal(b, &back)
	ints := slices.Clone(probeInts)
	slices.Sort(ints)
	m := make(map[int]int, 64)
	for i := range 64 {
		m[ints[i*4]] = i
	}
	x := back.Lat
	for i := range 512 {
		x = math.Sqrt(x*x+float64(i)) + math.Exp(-x/1000)
	}
	return x + float64(len(b)+len(m)+ints[seed%len(ints)])
}

// HostFactor is a probe rate (units per CPU-second) over ProbeReference: 1 on the reference machine, 0.8 on a
// host a fifth slower.
func HostFactor(probe float64) float64 {
	if probe <= 0 {
		return 1 // no probe in this run
	}
	return probe / ProbeReference
}

// Calibrated is a throughput row's verdict and its explanation: figure v against target (the figure required on
// the reference machine) times the host factor h.
func Calibrated(v, target, h float64) (Status, string) {
	scaled := target * h
	return Verdict(v >= scaled), fmt.Sprintf("%.2f× the target on this host (host factor %.2f by the CPU probe: ≥ %s here)",
		v/scaled, h, Thousands(scaled))
}
