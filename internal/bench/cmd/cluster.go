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
	out, err := r.testBin(ctx, "internal/cluster", []string{"TENFOUR_TEST_PG=" + r.pgURL, "TENFOUR_CLUSTER_ALARMS=200",
		"TENFOUR_CLUSTER_PRESSES=100", "TENFOUR_CLUSTER_PACKETS=250"},
		"-test.run", "^(TestClusterAlarmFanout|TestFloorHammerFromThreeNodes|TestFleetMovesToTheSurvivingNode|TestClusterMediaLatency)$", "-test.v")
	for k, v := range bench.ParseBenchLines(out) {
		r.figs[k] = v
	}
	return err
}

// clusterScale runs internal/cluster's TestClusterScale: three `tenfour serve` processes on PostgreSQL and an
// in-process NATS with 5,000 quiet terminals each (GPS every 10 s), and the CPU of each node over 15 s.
func (r *runner) clusterScale(ctx context.Context) error {
	if r.pgURL == "" {
		r.errs["cluster-scale"] = "no PostgreSQL (run scripts/test-deps.sh or set TENFOUR_TEST_PG)"
		return nil
	}
	out, err := r.testBin(ctx, "internal/cluster", []string{"TENFOUR_TEST_PG=" + r.pgURL, "TENFOUR_CLUSTER_SCALE=5000",
		"TENFOUR_CLUSTER_WINDOW=15s"}, "-test.run", "^TestClusterScale$", "-test.v", "-test.timeout", "6m")
	for k, v := range bench.ParseBenchLines(out) {
		r.figs[k] = v
	}
	return err
}

// clusterRows are the rows of issue 20's cluster.
func (r *runner) clusterRows() []bench.Row {
	var rows []bench.Row
	const alarm, alarmTarget = "alarm to 20 consoles spread over 3 nodes (publish on node 3 → frame read by each console)", "p99 < 250 ms"
	if p99, ok := r.fig("cluster.alarm_p99_ms"); ok {
		p50, _ := r.fig("cluster.alarm_p50_ms")
		n, _ := r.fig("cluster.alarm_n")
		rows = append(rows, bench.Row{Name: alarm, Target: alarmTarget, Status: bench.Verdict(p99 < 250),
			Figure: fmt.Sprintf("p50 %.1f ms, p99 %.1f ms over %.0f deliveries (durable: stored in PostgreSQL, then NATS; one machine for all)", p50, p99, n)})
	} else {
		rows = append(rows, row(alarm, alarmTarget, "", r.missing("cluster")))
	}
	const retake, retakeTarget = "group floor re-taken on another node after its node's loss", "< 2 s"
	if v, ok := r.fig("cluster.floor_retake_s"); ok {
		rows = append(rows, bench.Row{Name: retake, Target: retakeTarget, Status: bench.Verdict(v < 2),
			Figure: fmt.Sprintf("%.2f s (lease TTL 1.5 s)", v)})
	} else {
		rows = append(rows, row(retake, retakeTarget, "", r.missing("cluster")))
	}
	const fail, failTarget = "failover: terminals of a SIGKILLed node logged in on another (tenfour sim with two URLs)", "< 10 s"
	if v, ok := r.fig("cluster.failover_s"); ok {
		rows = append(rows, bench.Row{Name: fail, Target: failTarget, Status: bench.Verdict(v < 10),
			Figure: fmt.Sprintf("%.2f s for all of them (one run; backoff 1 s × jitter 0.5–1.5, then the next URL)", v)})
	} else {
		rows = append(rows, row(fail, failTarget, "", r.missing("cluster")))
	}
	const scale, scaleTarget = "3 nodes × 5,000 quiet terminals on this machine (GPS every 10 s; one PostgreSQL, one NATS)", "CPU per node stated"
	if n, ok := r.fig("cluster.scale_terminals"); ok {
		c1, _ := r.fig("cluster.scale_cpu_n1")
		c2, _ := r.fig("cluster.scale_cpu_n2")
		c3, _ := r.fig("cluster.scale_cpu_n3")
		h1, _ := r.fig("cluster.scale_held_n1")
		h2, _ := r.fig("cluster.scale_held_n2")
		h3, _ := r.fig("cluster.scale_held_n3")
		login, _ := r.fig("cluster.scale_login_s")
		busy, _ := r.fig("cluster.scale_machine_busy")
		rows = append(rows, bench.Row{Name: scale, Target: scaleTarget, Status: bench.Info,
			Figure: fmt.Sprintf("%.0f terminals online in %.0f s; node 1 %.0f terminals %.2f cores, node 2 %.0f / %.2f, node 3 %.0f / %.2f; machine %.2f cores busy (fleet, PostgreSQL and NATS on it too)",
				n, login, h1, c1, h2, c2, h3, c3, busy)})
	} else {
		rows = append(rows, row(scale, scaleTarget, "", r.missing("cluster-scale")))
	}
	rows = append(rows, r.clusterMediaRows()...)
	return rows
}

// clusterMediaRows are the rows of voice across nodes (docs/adr/0026, TestClusterMediaLatency).
func (r *runner) clusterMediaRows() []bench.Row {
	var rows []bench.Row
	const access, accessTarget = "cross-node PTT access with 60 ms RTT (talkers on nodes 3 and 2 press in turn: each press takes the group's floor lease from the other node)", "p95 < 150 ms"
	if p95, ok := r.fig("cluster.ptt_rtt60_p95_ms"); ok {
		p50, _ := r.fig("cluster.ptt_rtt60_p50_ms")
		n, _ := r.fig("cluster.ptt_rtt60_n")
		rows = append(rows, bench.Row{Name: access, Target: accessTarget, Status: bench.Verdict(p95 < 150),
			Figure: fmt.Sprintf("p50 %.1f ms, p95 %.1f ms over %.0f presses (floor.request sent → granted read at the talker)", p50, p95, n)})
	} else {
		rows = append(rows, row(access, accessTarget, "", r.missing("cluster")))
	}
	const hop, hopTarget = "server-added delay per node hop (listener on node 2 vs listener on the talker's node 3, same packets)", "< 5 ms"
	if p99, ok := r.fig("cluster.hop_p99_ms"); ok {
		p50, _ := r.fig("cluster.hop_p50_ms")
		n, _ := r.fig("cluster.hop_n")
		talkerNode, _ := r.fig("cluster.hop_talker_node_p99_ms")
		lane, _ := r.fig("cluster.hop_lane_p99_ms")
		rows = append(rows, bench.Row{Name: hop, Target: hopTarget, Status: bench.Verdict(p99 < 5),
			Figure: fmt.Sprintf("p50 %.2f ms, p99 %.2f ms over %.0f packets (node 3 forwarding incl. the lane p99 %.2f ms, node 2 lane forwarding p99 %.2f ms)",
				p50, p99, n, talkerNode, lane)})
	} else {
		rows = append(rows, row(hop, hopTarget, "", r.missing("cluster")))
	}
	return rows
}
