package sim_test

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/demo"
	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// TestDispatcherSignsInWhileTheDemoFleetRuns (issue 30): the demo as `make run` starts it — serve --demo on a
// fixed loopback port with its in-process fleet (61 terminals) and speakers, and the sign-in throttle's default
// limits — and the dispatcher signing in from the same machine (127.0.0.1) right after the start and then
// every 4 s for 30 s (the account's own budget, 5 and then one every 6 s, allows that; the test is about the
// address's). Before the fix the fleet and speakers logged in over 127.0.0.1 and spent its budget: the
// dispatcher got "system busy" (101) for the first seconds and then at random.
func TestDispatcherSignsInWhileTheDemoFleetRuns(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Config{Addr: ln.Addr().String(), DataDir: t.TempDir(), ShutdownTimeout: time.Second,
		Demo: true, DemoFleet: len(sim.FleetAccounts()), DemoFleetSOS: -1}
	testkit.LoopbackMedia(&cfg)
	a, base := serveAsMakeRun(t, cfg, ln)

	dispatcher := &http.Client{Timeout: 30 * time.Second} // from 127.0.0.1, as a browser on the machine
	start := time.Now()
	tick := time.NewTicker(4 * time.Second)
	defer tick.Stop()
	n := 0
	for ; time.Since(start) < 30*time.Second; <-tick.C {
		step, code := testkit.SignIn(t, dispatcher, base, demo.Dispatcher, "123456")
		n++
		if code != "0" {
			t.Fatalf("sign-in %d, %.1f s after the start: %s answered %q", n, time.Since(start).Seconds(), step, code)
		}
	}
	// The fleet was running meanwhile (it logs in over the first seconds; Ramp 3 s).
	var cust int64
	if err := a.DB.QueryRow(context.Background(), `SELECT id FROM customers WHERE name = 'Demo Fleet'`).Scan(&cust); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 30*time.Second, "the demo fleet online", func() bool { return len(a.Hub.Accounts(cust)) >= 40 })
	t.Logf("%d sign-ins over %.0f s, every one on the first try", n, time.Since(start).Seconds())
}

// serveAsMakeRun builds and serves the node as serve does, on ln (whose address cfg.Addr names), with the
// limits serve's flags give (no testkit.NoLimits); it returns the node and its base URL.
func serveAsMakeRun(t *testing.T, cfg config.Config, ln net.Listener) (*app.App, string) {
	t.Helper()
	a, err := app.New(cfg, testkit.OpenStore(t, "sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := a.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	srv := a.HTTPServer()
	go srv.Serve(a.Listener(ln))
	a.Start(ctx)
	t.Cleanup(func() {
		a.Stop()
		srv.Close()
		cancel()
		a.Hub.Wait()
		a.Wait()
	})
	return a, "http://" + ln.Addr().String()
}
