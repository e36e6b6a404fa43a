package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// StartupFirstUse measures the console's first use in Chromium (issue 32): a fresh demo server whose quiet fleet is
// online, and tests/e2e/startup-bench.mjs against it — three fresh browser contexts (cold caches), each timing
// /login until usable, the sign-in click until the first terminal row and until voice is connected, the requests
// after the click, and a reload of the dispatch screen until voice is connected again. It returns the script's
// BENCH figures (startup_login_ms, startup_row_ms, startup_voice_ms, startup_reload_voice_ms, startup_requests,
// startup_twice, startup_page_loads, startup_console_messages, …), medians of the three.
func StartupFirstUse(ctx context.Context, root, bin string, log io.Writer) (map[string]float64, error) {
	// Each context signs in from its own loopback address; the account's burst covers the settle check and the runs.
	return browserBench(ctx, root, bin, log, "startup-bench.mjs", "--demo-fleet-quiet", "--signin-burst-per-account", "100")
}

// browserBench runs one of tests/e2e's bench scripts in Chromium against a fresh demo server (serve --demo with
// serveArgs, on a temporary data directory and a free port) and returns the BENCH figures the script printed.
func browserBench(ctx context.Context, root, bin string, log io.Writer, script string, serveArgs ...string) (map[string]float64, error) {
	dir, err := os.MkdirTemp("", "tenfour-browser-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	args := append([]string{"serve", "--demo", "--data", filepath.Join(dir, "data"), "--addr", "127.0.0.1:" + strconv.Itoa(port),
		"--media-udp-port", "0", "--log-level", "warn"}, serveArgs...)
	serve, err := start(log, bin, args...)
	if err != nil {
		return nil, err
	}
	defer stop(serve)
	if err := waitHTTP(ctx, base+"/healthz", 60*time.Second); err != nil {
		return nil, fmt.Errorf("server did not start: %w", err)
	}
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Dir = filepath.Join(root, "tests", "e2e")
	cmd.Env = append(os.Environ(), "TENFOUR_URL="+base)
	out, err := cmd.CombinedOutput()
	fmt.Fprintf(log, "%s\n", out)
	figs := ParseBenchLines(string(out))
	if err != nil {
		return figs, fmt.Errorf("%s: %v", script, err)
	}
	return figs, nil
}
