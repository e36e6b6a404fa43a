package main

import (
	"context"
	"fmt"

	"tenfour/internal/bench"
)

// calibrate runs the CPU probe (internal/bench BenchmarkCalibration) three times for a second and keeps the
// fastest run (the one least disturbed: right after the build a run read 10 % low): its rate over the reference
// machine's is the host factor every throughput row without a peer scales its target by (issue 36).
func (r *runner) calibrate(ctx context.Context) error {
	best, wall := 0.0, 0.0
	for range 3 {
		if err := r.goBench(ctx, "internal/bench", "BenchmarkCalibration", "1s"); err != nil {
			return err
		}
		if v := r.figs[probeFigure]; v > best {
			best, wall = v, r.figs[probeWallFigure]
		}
	}
	r.figs[probeFigure], r.figs[probeWallFigure] = best, wall
	return nil
}

const (
	probeFigure     = "BenchmarkCalibration:units/cpu-s"
	probeWallFigure = "BenchmarkCalibration:units/s"
)

// calibrated is a throughput row's verdict against target (its figure on the reference machine) times this run's
// host factor, and the words that say so; without the probe the factor is 1 and the text says it is missing.
func (r *runner) calibrated(v, target float64) (bench.Status, string) {
	probe, ok := r.fig(probeFigure)
	st, text := bench.Calibrated(v, target, bench.HostFactor(probe))
	if !ok {
		text += " — no CPU probe in this run (step calibrate): host factor taken as 1"
	}
	return st, text
}

// calibrationRow shows the probe itself: the host factor of this run.
func (r *runner) calibrationRow() bench.Row {
	const name = "host calibration: CPU probe (JSON, sorting, maps, floating point on one goroutine), units per CPU-second"
	ref := "the reference machine: " + bench.Thousands(bench.ProbeReference) + " units/CPU-s"
	return r.measured(name, "", ref, probeFigure, "calibrate",
		func(v float64) (bench.Status, string) {
			return bench.Info, fmt.Sprintf("%s units/CPU-s (%s units/s of wall time): host factor %.2f — the throughput rows marked \"× host factor\" require their reference-machine figure times it",
				bench.Thousands(v), bench.Thousands(r.figs[probeWallFigure]), bench.HostFactor(v))
		})
}

// both is st, failed unless ok as well (a loss fails a row whatever its rate).
func both(st bench.Status, ok bool) bench.Status {
	if st == bench.Pass && !ok {
		return bench.Fail
	}
	return st
}
