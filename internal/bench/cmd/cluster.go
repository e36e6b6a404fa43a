package main

import (
	"context"
	"fmt"

	"tenfour/internal/bench"
)

// cluster runs internal/cluster's three-node tests on PostgreSQL and an in-process NATS (docs/adr/0024): 200
// alarms from node 3 to 20 consoles spread over the three nodes, the floor re-taken after its node's loss, and
// a simulated fleet moving to the surviving node after a SIGKILL. They print BENCH lines.
func (r *runner) cluster(ctx context.Context) error {
	if r.pgURL == "" {
		r.errs["cluster"] = "no PostgreSQL (run scripts/test-deps.sh or set TENFOUR_TEST_PG)"
		return nil
	}
	return r.benchLines(r.testBin(ctx, "internal/cluster", []string{"TENFOUR_TEST_PG=" + r.pgURL, "TENFOUR_CLUSTER_ALARMS=200",
		"TENFOUR_CLUSTER_PRESSES=100", "TENFOUR_CLUSTER_PACKETS=250"},
		"-test.run", "^(TestClusterAlarmFanout|TestFloorHammerFromThreeNodes|TestFleetMovesToTheSurvivingNode|TestClusterMediaLatency)$", "-test.v"))
}

// clusterScale runs internal/cluster's TestClusterScale: three `tenfour serve` processes on PostgreSQL and an
// in-process NATS with 5,000 quiet terminals each (GPS every 10 s), and the CPU of each node over 15 s.
func (r *runner) clusterScale(ctx context.Context) error {
	if r.pgURL == "" {
		r.errs["cluster-scale"] = "no PostgreSQL (run scripts/test-deps.sh or set TENFOUR_TEST_PG)"
		return nil
	}
	return r.benchLines(r.testBin(ctx, "internal/cluster", []string{"TENFOUR_TEST_PG=" + r.pgURL, "TENFOUR_CLUSTER_SCALE=5000",
		"TENFOUR_CLUSTER_WINDOW=15s"}, "-test.run", "^TestClusterScale$", "-test.v", "-test.timeout", "6m"))
}

// clusterRows are the rows of issue 20's cluster.
func (r *runner) clusterRows() []bench.Row {
	return append([]bench.Row{
		r.spreadRow("alarm to 20 consoles spread over 3 nodes (publish on node 3 → frame read by each console)",
			"cluster.alarm", "p99", 250, "deliveries (durable: stored in PostgreSQL, then NATS; one machine for all)"),
		r.measured("group floor re-taken on another node after its node's loss",
			"< 2 s", "", "cluster.floor_retake_s", "cluster", func(v float64) (bench.Status, string) {
				return bench.Verdict(v < 2), fmt.Sprintf("%.2f s (lease TTL 1.5 s)", v)
			}),
		r.measured("failover: terminals of a SIGKILLed node logged in on another (tenfour sim with two URLs)",
			"< 10 s", "", "cluster.failover_s", "cluster", func(v float64) (bench.Status, string) {
				return bench.Verdict(v < 10), fmt.Sprintf("%.2f s for all of them (one run; backoff 1 s × jitter 0.5–1.5, then the next URL)", v)
			}),
		r.measured("3 nodes × 5,000 quiet terminals on this machine (GPS every 10 s; one PostgreSQL, one NATS)",
			"CPU per node stated", "", "cluster.scale_terminals", "cluster-scale", func(n float64) (bench.Status, string) {
				return bench.Info, fmt.Sprintf("%.0f terminals online in %.0f s; node 1 %.0f terminals %.2f cores, node 2 %.0f / %.2f, node 3 %.0f / %.2f; machine %.2f cores busy (fleet, PostgreSQL and NATS on it too)",
					n, r.figs["cluster.scale_login_s"], r.figs["cluster.scale_held_n1"], r.figs["cluster.scale_cpu_n1"],
					r.figs["cluster.scale_held_n2"], r.figs["cluster.scale_cpu_n2"], r.figs["cluster.scale_held_n3"],
					r.figs["cluster.scale_cpu_n3"], r.figs["cluster.scale_machine_busy"])
			}),
	}, r.clusterMediaRows()...)
}

// clusterMediaRows are the rows of voice across nodes (docs/adr/0026, TestClusterMediaLatency).
func (r *runner) clusterMediaRows() []bench.Row {
	return []bench.Row{
		r.spreadRow("cross-node PTT access with 60 ms RTT (talkers on nodes 3 and 2 press in turn: each press takes the group's floor lease from the other node)",
			"cluster.ptt_rtt60", "p95", 150, "presses (floor.request sent → granted read at the talker)"),
		r.measured("server-added delay per node hop (listener on node 2 vs listener on the talker's node 3, same packets)",
			"< 5 ms", "", "cluster.hop_p99_ms", "cluster", func(p99 float64) (bench.Status, string) {
				return bench.Verdict(p99 < 5), fmt.Sprintf("p50 %.2f ms, p99 %.2f ms over %.0f packets (node 3 forwarding incl. the lane p99 %.2f ms, node 2 lane forwarding p99 %.2f ms)",
					r.figs["cluster.hop_p50_ms"], p99, r.figs["cluster.hop_n"], r.figs["cluster.hop_talker_node_p99_ms"],
					r.figs["cluster.hop_lane_p99_ms"])
			}),
	}
}

// spreadRow is the row of a latency of the cluster step whose figures are key_<pct>_ms, key_p50_ms and key_n:
// met when the percentile pct is under limit ms.
func (r *runner) spreadRow(name, key, pct string, limit float64, of string) bench.Row {
	return r.measured(name, fmt.Sprintf("%s < %g ms", pct, limit), "", key+"_"+pct+"_ms", "cluster",
		func(v float64) (bench.Status, string) { return bench.Verdict(v < limit), r.spread(key, pct, v, of) })
}

// spread is a latency row's figure: the median of measurement key (key_p50_ms), its percentile pct at v ms and
// how many were measured (key_n), of what.
func (r *runner) spread(key, pct string, v float64, of string) string {
	p50, _ := r.fig(key + "_p50_ms")
	n, _ := r.fig(key + "_n")
	return fmt.Sprintf("p50 %.1f ms, %s %.1f ms over %.0f %s", p50, pct, v, n, of)
}
