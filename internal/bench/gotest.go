package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Result is one benchmark's result line: iterations, ns/op and its reported metrics by unit.
type Result struct {
	Name    string
	N       int
	NsPerOp float64
	Metrics map[string]float64
}

var (
	benchName   = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?(?:\s+(.*))?$`)
	benchResult = regexp.MustCompile(`^\s*(\d+)\s+([0-9.e+]+) ns/op(.*)$`)
	benchLine   = regexp.MustCompile(`^BENCH (\S+) (-?[0-9.]+(?:e[-+]?\d+)?)\b`)
)

// ParseBenchmarks reads `go test -bench -v` output (benchmark results, possibly with log lines printed between a
// benchmark's name and its figures) and returns the results by name, without the -GOMAXPROCS suffix
// ("BenchmarkForwardDelay/listeners=10").
func ParseBenchmarks(out string) map[string]Result {
	res := map[string]Result{}
	cur := ""
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest := line
		if m := benchName.FindStringSubmatch(line); m != nil {
			cur, rest = m[1], m[2]
		}
		if cur == "" {
			continue
		}
		m := benchResult.FindStringSubmatch(rest)
		if m == nil {
			continue
		}
		r := Result{Name: cur, Metrics: map[string]float64{}}
		r.N, _ = strconv.Atoi(m[1])
		r.NsPerOp, _ = strconv.ParseFloat(m[2], 64)
		for _, f := range strings.Split(m[3], "\t") {
			fs := strings.Fields(f)
			if len(fs) != 2 {
				continue
			}
			if v, err := strconv.ParseFloat(fs[0], 64); err == nil {
				r.Metrics[fs[1]] = v
			}
		}
		res[cur] = r
		cur = ""
	}
	return res
}

// ParseBenchLines returns the `BENCH <key> <number>` lines of this package's tests.
func ParseBenchLines(out string) map[string]float64 {
	res := map[string]float64{}
	for _, line := range strings.Split(out, "\n") {
		if m := benchLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			if v, err := strconv.ParseFloat(m[2], 64); err == nil {
				res[m[1]] = v
			}
		}
	}
	return res
}

// Emit prints a figure in the form ParseBenchLines reads.
func Emit(key string, v float64) { fmt.Printf("BENCH %s %g\n", key, v) }

// EmitMs prints a duration as milliseconds.
func EmitMs(key string, d time.Duration) { Emit(key, float64(d)/float64(time.Millisecond)) }

// Run runs a command bounded by timeout, in its own process group (killed whole on timeout), with extra
// environment, and returns its combined output. The output is also appended to log when it is not nil.
func Run(ctx context.Context, timeout time.Duration, dir string, env []string, log io.Writer, name string, args ...string) (string, error) {
	out, _, err := RunCPU(ctx, timeout, dir, env, log, name, args...)
	return out, err
}

// RunCPU is Run that also returns the CPU time (user + system) the command used, its waited-for children
// included.
func RunCPU(ctx context.Context, timeout time.Duration, dir string, env []string, log io.Writer, name string, args ...string) (string, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var buf bytes.Buffer
	var w io.Writer = &buf
	if log != nil {
		fmt.Fprintf(log, "\n$ %s %s\n", name, strings.Join(args, " "))
		w = io.MultiWriter(&buf, log)
	}
	cmd.Stdout, cmd.Stderr = w, w
	t0 := time.Now()
	err := cmd.Run()
	if log != nil {
		fmt.Fprintf(log, "(took %.1f s)\n", time.Since(t0).Seconds())
	}
	var cpu time.Duration
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	if ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("timed out after %v", timeout)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = fmt.Errorf("exit %d: %s", ee.ExitCode(), failure(buf.String()))
	}
	return buf.String(), cpu, err
}

// failure picks the lines that say why a test binary failed (its t.Error lines), else the output's tail.
func failure(out string) string {
	var picked []string
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "--- FAIL") || strings.Contains(t, "_test.go:") && !strings.Contains(t, "BENCH") {
			picked = append(picked, t)
		}
	}
	if len(picked) > 0 {
		if len(picked) > 4 {
			picked = picked[:4]
		}
		return strings.Join(picked, " / ")
	}
	return lastLines(out, 3)
}

// lastLines is the tail of an output, for error messages.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}
