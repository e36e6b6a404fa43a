package main

import (
	"context"
	"fmt"

	"tenfour/internal/bench"
)

// indoor runs the indoor estimator's benchmark (internal/indoor BenchmarkEstimate: one scan of the demo walk
// through floor choice, path loss, the weighted least-squares fit, the choice among its explanations with the
// track's prediction and the Kalman update, on one goroutine).
func (r *runner) indoor(ctx context.Context) error {
	return r.goBench(ctx, "internal/indoor", "BenchmarkEstimate", "2s", "-test.cpuprofile", r.prof("indoor.cpu"))
}

// indoorRow is the row "indoor position estimates per second per core".
func (r *runner) indoorRow() bench.Row {
	const name, target = "indoor position estimates per core (one beacon scan → smoothed position)", "≥ 10,000/s × host factor"
	return r.measured(name, target, "", "BenchmarkEstimate:estimates/s/core", "indoor", func(v float64) (bench.Status, string) {
		st, cal := r.calibrated(v, 10_000)
		return st, fmt.Sprintf("%s estimates per CPU-second on one goroutine (%.0f µs of CPU each; demo building, 24 beacons a storey, up to 16 readings a fit, walkable areas: the particle filter): %s terminals scanning once a second per core; %s",
			bench.Thousands(v), 1e6/v, bench.Thousands(v), cal)
	})
}
