package cluster_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/auth"
	"tenfour/internal/bench"
	"tenfour/internal/config"
	"tenfour/internal/platform/cputime"
	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// TestClusterScale: three `tenfour serve` processes on one PostgreSQL and one NATS, and a quiet simulated fleet
// spread over them (N terminals per node: TENFOUR_CLUSTER_SCALE, 20 by default; make bench runs 5,000), each
// terminal reporting GPS every 10 s. It asserts that every terminal logs in and that each node holds its third
// (cluster_presence), then measures the CPU of each node over a window (TENFOUR_CLUSTER_WINDOW, default 3 s)
// and prints BENCH lines (internal/bench/cmd cluster.go).
func TestClusterScale(t *testing.T) {
	per := testkit.EnvInt("TENFOUR_CLUSTER_SCALE", 20)
	window := testkit.EnvDuration("TENFOUR_CLUSTER_WINDOW", 3*time.Second)
	const first, disp, pw = 40000001, "40000000", "123456"
	total := 3 * per
	c := newCluster(t)
	ctx := context.Background()
	store, err := app.Open(ctx, config.Config{DB: c.dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	// a cheap hash of the same password: the logins' cost is not what this measures (as the scale row)
	hash, err := auth.HashPasswordAt(pw, auth.HashCost{Passes: 1, MemoryKiB: 1024})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.Provision(ctx, store, sim.ProvisionOptions{Customer: "Cluster Fleet", First: first, Count: total,
		Password: pw, PasswordHash: hash, GroupSize: 50, Dispatcher: disp})
	if err != nil {
		t.Fatal(err)
	}
	bin := testkit.Binary(t)
	var nodes []*testkit.Process
	var urls []string
	for i := 1; i <= 3; i++ {
		p := testkit.Serve(t, bin, t.TempDir(), "--db", c.dsn, "--nats", c.nats.URL(), "--node-id", "n"+strconv.Itoa(i),
			"--node-timeout", nodeTimeout.String(), "--media-interfaces", "lo", "--conns-per-ip", "0",
			"--signin-burst-per-address", strconv.Itoa(total+100), "--signin-interval-per-address", "1ms")
		nodes = append(nodes, p)
		urls = append(urls, p.URL)
	}
	accts, err := sim.RangeAccounts(first, total, pw)
	if err != nil {
		t.Fatal(err)
	}
	ramp := time.Duration(total) * time.Millisecond // 1 ms per login: 15 s for 15,000
	fl, err := sim.New(sim.Options{URL: urls[0], URLs: urls[1:], Accounts: accts, Seed: 7, GPSInterval: 10 * time.Second,
		Ramp: ramp, Loopback: true, Dialers: 48,
		Rates: sim.Rates{TalkEvery: -time.Second, SOSEvery: -time.Second, DropEvery: -time.Second, SwitchEvery: -time.Second,
			ForgetCheckin: -1, JobPace: -time.Second, UploadEvery: -time.Second, PatrolEvery: -time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); _ = fl.Run(fctx) }()
	t.Cleanup(func() { cancel(); <-done })
	for last := time.Now(); fl.Stats().Online.Load() < int64(total); time.Sleep(100 * time.Millisecond) {
		if time.Since(start) > ramp+4*time.Minute {
			t.Fatalf("%d of %d terminals online after %v", fl.Stats().Online.Load(), total, time.Since(start))
		}
		if time.Since(last) > 10*time.Second {
			last = time.Now()
			t.Logf("%v: %d of %d terminals online", time.Since(start).Round(time.Second), fl.Stats().Online.Load(), total)
		}
	}
	login := time.Since(start)
	rows, err := store.Query(ctx, `SELECT node_id, COUNT(*) FROM cluster_presence WHERE kind = 'terminal' GROUP BY node_id ORDER BY node_id`)
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]int{}
	for rows.Next() {
		var node string
		var n int
		if err := rows.Scan(&node, &n); err != nil {
			t.Fatal(err)
		}
		held[node] = n
	}
	rows.Close()
	// terminal i starts on node i mod 3; one whose first login fails (busy) moves on to the next node
	sum := 0
	for i := 1; i <= 3; i++ {
		n := held["n"+strconv.Itoa(i)]
		if n < per/2 {
			t.Fatalf("terminals per node %v: node n%d holds fewer than half its share %d", held, i, per)
		}
		sum += n
		fmt.Printf("BENCH cluster.scale_held_n%d %d\n", i, n)
	}
	if sum != total {
		t.Fatalf("terminals per node %v: %d in all, want %d", held, sum, total)
	}
	time.Sleep(2 * time.Second) // the last logins' work settles
	cpu0 := make([]time.Duration, 3)
	for i, p := range nodes {
		cpu0[i], _ = cputime.Of(p.Pid())
	}
	busy0, _ := bench.MachineCPU()
	gps0 := fl.Stats().GPSPoints.Load()
	w0 := time.Now()
	time.Sleep(window)
	w := time.Since(w0)
	busy1, _ := bench.MachineCPU()
	for i, p := range nodes {
		c1, _ := cputime.Of(p.Pid())
		cores := float64(c1-cpu0[i]) / float64(w)
		t.Logf("node %d: %d terminals, %.3f cores", i+1, held["n"+strconv.Itoa(i+1)], cores)
		fmt.Printf("BENCH cluster.scale_cpu_n%d %.4f\n", i+1, cores)
	}
	gps := float64(fl.Stats().GPSPoints.Load()-gps0) / w.Seconds()
	if online := fl.Stats().Online.Load(); online != int64(total) {
		t.Fatalf("%d of %d terminals online at the end of the window", online, total)
	}
	machine := float64(busy1-busy0) / float64(w) // cores busy on the whole machine (nodes, fleet, PostgreSQL, NATS)
	t.Logf("%d terminals on 3 nodes: logged in within %v, %.0f GPS points/s, machine %.2f cores busy", total, login, gps, machine)
	fmt.Printf("BENCH cluster.scale_terminals %d\nBENCH cluster.scale_login_s %.2f\nBENCH cluster.scale_gps_per_s %.1f\nBENCH cluster.scale_machine_busy %.3f\nBENCH cluster.scale_window_s %.1f\n",
		total, login.Seconds(), gps, machine, w.Seconds())
}
