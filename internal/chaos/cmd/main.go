// Command cmd is `make chaos` (docs/reliability.md): it starts the chaos lab (root; network namespaces), runs every
// fault of internal/chaos alone under the seeded workload, checks each phase, prints the table and the violations,
// and exits non-zero when a rule was broken or the lab failed.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"tenfour/internal/chaos"
)

func main() {
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()%1e6), "workload seed (printed; the same seed repeats the same choices)")
	short := flag.Bool("short", false, "the ≤3-minute run: fewer terminals, shorter phases")
	bin := flag.String("bin", "bin/tenfour", "the tenfour binary the nodes run")
	dir := flag.String("dir", "bin/chaos", "data, logs and the phases' histories (JSONL); emptied first")
	only := flag.String("only", "", "run only the faults whose name contains this")
	skip := flag.Bool("skip-unusable", false, "where the lab cannot run (not root, no network namespaces), say why and exit 0 (`make test`)")
	flag.Parse()

	if err := chaos.Usable(context.Background()); err != nil {
		if *skip {
			fmt.Printf("chaos: skipped, the lab cannot run here: %v\n", err)
			return
		}
		fail(err)
	}

	abs, err := filepath.Abs(*bin)
	if err != nil {
		fail(err)
	}
	out, err := filepath.Abs(*dir)
	if err != nil {
		fail(err)
	}
	_ = os.RemoveAll(out)
	o := chaos.RunOptions{Dir: out, Bin: abs, Seed: *seed, Bounds: chaos.DefaultBounds, Only: *only}
	if *short {
		o = chaos.Short(o)
	} else {
		o = chaos.Full(o)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	slog.Info("chaos: start", "seed", o.Seed, "short", *short, "terminals", o.Terminals, "dir", out)
	start := time.Now()
	phases, err := chaos.Run(ctx, o)
	if err != nil {
		fail(err)
	}
	fmt.Printf("\nseed %d, %d terminals, %s, %v\n\n", o.Seed, o.Terminals, map[bool]string{true: "short", false: "full"}[*short],
		time.Since(start).Round(time.Second))
	chaos.WriteTable(os.Stdout, phases)
	bad, sum := false, chaos.Sum(phases)
	for _, p := range phases {
		if p.Err != nil {
			bad = true
		}
		for _, v := range p.Result.Violations {
			bad = true
			fmt.Printf("- %s: %s\n", p.Fault, v)
		}
	}
	verdict := "ok"
	if bad {
		verdict = "FAILED"
	}
	fmt.Printf("\nchaos: %s, seed %d: %d phases (%d failed to run), %d operations, %d acknowledged, %d lost, %d stored or shown twice, "+
		"%d floor violations, %d bursts heard, %v — %s\n", map[bool]string{true: "short run", false: "full run"}[*short], o.Seed, len(phases),
		sum.Failed, sum.Ops, sum.Acked, sum.Lost, sum.Duplicates, sum.FloorViolations, sum.Heard, time.Since(start).Round(time.Second), verdict)
	if bad {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "chaos:", err)
	os.Exit(2)
}
