package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"tenfour/internal/bench"
)

// The soak's flags (`make soak`, scripts/soak.sh): -soak runs it instead of the bench steps.
var (
	soakMode     = flag.Bool("soak", false, "run the soak instead of the bench steps (make soak; docs/performance.md \"Soak\")")
	soakDuration = flag.Duration("soak-duration", 30*time.Minute, "soak: how long the fleet is held once online")
	soakWindow   = flag.Duration("soak-window", 0, "soak: latency window (default: a tenth of the duration, at least 30 s)")
	soakSample   = flag.Duration("soak-sample", 10*time.Second, "soak: resource sample interval")
	soakTalk     = flag.Duration("soak-talk-every", 60*time.Minute, "soak: mean time between a simulated terminal's talk bursts")
)

// soak builds the binary (unless noBuild), runs the soak, prints its tables and writes them to
// bin/bench/soak.txt; it exits non-zero when a verdict failed.
func soak(root string, terminals int, noBuild bool) int {
	out := filepath.Join(root, "bin", "bench")
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		return 1
	}
	log, err := os.Create(filepath.Join(out, "soak.log"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		return 1
	}
	defer log.Close()
	bin := filepath.Join(out, "tenfour")
	if !noBuild {
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/tenfour")
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = root, append(os.Environ(), "CGO_ENABLED=0"), log, log
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "soak: build:", err, "(bin/bench/soak.log)")
			return 1
		}
	}
	window := *soakWindow
	if window <= 0 {
		window = max(30*time.Second, *soakDuration/10)
	}
	o := bench.SoakOptions{Bin: bin, Dir: filepath.Join(out, "soak"), Terminals: terminals, Consoles: 20,
		Duration: *soakDuration, Window: window, Sample: *soakSample, GPS: 10 * time.Second, TalkEvery: *soakTalk,
		AlarmEvery: 10 * time.Second, MessageEvery: 5 * time.Second, PressEvery: 5 * time.Second, Log: log}
	fmt.Fprintf(os.Stderr, "soak: %d terminals + %d consoles for %s once online (logins take about %s); output in %s\n",
		o.Terminals, o.Consoles, o.Duration, (time.Duration(terminals) * 4 * time.Millisecond).Round(time.Second), out)
	// The logins, the duration, and the time to stop everything.
	ctx, cancel := context.WithTimeout(context.Background(), o.Duration+5*time.Minute)
	defer cancel()
	res, err := bench.RunSoak(ctx, o)
	var b bytes.Buffer
	ok := bench.WriteSoak(&b, o, res)
	if err != nil {
		fmt.Fprintf(&b, "\nThe soak stopped early: %v\n", err)
		ok = false
	}
	fmt.Print(b.String())
	if werr := os.WriteFile(filepath.Join(out, "soak.txt"), b.Bytes(), 0o644); werr != nil {
		fmt.Fprintln(os.Stderr, "soak:", werr)
	}
	fmt.Printf("\nWritten to %s (processes' output: %s).\n", filepath.Join(out, "soak.txt"), filepath.Join(out, "soak.log"))
	if !ok {
		return 1
	}
	return 0
}
