package bench

import (
	"testing"
	"time"
)

// BenchmarkCalibration is the CPU probe `make bench` runs first (step "calibrate"): ProbeUnit on one goroutine,
// its rate in units per CPU-second of the process (the collector's work on other threads included), so other load
// on the machine slows the wall clock but hardly the figure.
func BenchmarkCalibration(b *testing.B) {
	sink := 0.0
	cpu0, wall0 := OwnCPU(), time.Now()
	for i := 0; b.Loop(); i++ {
		sink += ProbeUnit(i)
	}
	cpu, wall := OwnCPU()-cpu0, time.Since(wall0)
	if sink == 0 || cpu <= 0 {
		b.Fatalf("probe: sink %v, process CPU %v", sink, cpu)
	}
	b.ReportMetric(float64(b.N)/cpu.Seconds(), "units/cpu-s")
	b.ReportMetric(float64(b.N)/wall.Seconds(), "units/s")
}

// The probe is deterministic: the same unit gives the same value, so every host does the same work.
func TestProbeUnitIsDeterministic(t *testing.T) {
	for _, seed := range []int{0, 1, 977} {
		if a, b := ProbeUnit(seed), ProbeUnit(seed); a != b || a == 0 {
			t.Fatalf("unit %d: %v then %v", seed, a, b)
		}
	}
	if HostFactor(ProbeReference) != 1 {
		t.Fatal("the reference machine's own rate is not a factor of 1")
	}
	if st, _ := Calibrated(900, 1000, 0.8); st != Pass {
		t.Fatal("900 against 1,000 on a host a fifth slower did not pass")
	}
	if st, _ := Calibrated(900, 1000, 1); st != Fail {
		t.Fatal("900 against 1,000 on the reference machine passed")
	}
}
