package bench

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/platform/cputime"
)

// ProcMem returns a process's resident set (VmRSS) and its peak (VmHWM), in bytes.
func ProcMem(pid int) (rss, peak int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fs := strings.Fields(v)
		if len(fs) == 0 {
			continue
		}
		n, _ := strconv.ParseInt(fs[0], 10, 64)
		switch k {
		case "VmRSS":
			rss = n * 1024
		case "VmHWM":
			peak = n * 1024
		}
	}
	return rss, peak, nil
}

// LoadAvg is the machine's 1-minute load average ("" if unknown).
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// MachineCPU is the machine's busy and total CPU time so far (all cores, from /proc/stat), to tell how busy
// the machine was during a step (including other people's work).
func MachineCPU() (busy, total time.Duration) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0
	}
	var sum, idle int64
	for i, s := range f[1:] {
		n, _ := strconv.ParseInt(s, 10, 64)
		if i >= 7 { // guest times are already in user
			break
		}
		sum += n
		if i == 3 || i == 4 { // idle, iowait
			idle += n
		}
	}
	return time.Duration(sum-idle) * time.Second / cputime.UserHZ, time.Duration(sum) * time.Second / cputime.UserHZ
}

// OwnCPU is the CPU time this process and its waited-for children have used.
func OwnCPU() time.Duration { return cputime.Self() + cputime.Children() }

// Perf is a `perf record -g` of a running process: a profiling aid, which no measurement depends on.
type Perf struct{ *proc }

// PerfRecord starts `perf record -g` on pid at hz samples a second into out. With then (a command for perf to
// run after "--", such as `sleep 3`) the recording ends when that command does; else when Stop ends it. The
// error says perf is not installed or did not start; a caller that only wants a profile if it can ignores it.
func PerfRecord(log io.Writer, pid, hz int, out string, then ...string) (*Perf, error) {
	bin, err := exec.LookPath("perf")
	if err != nil {
		return nil, err
	}
	args := []string{"record", "-q", "-F", strconv.Itoa(hz), "-g", "-p", strconv.Itoa(pid), "-o", out}
	if len(then) > 0 {
		args = append(append(args, "--"), then...)
	}
	p, err := start(log, bin, args...)
	if err != nil {
		return nil, err
	}
	return &Perf{p}, nil
}

// Stop ends the recording (perf writes its file on SIGINT) once grace has passed, if it has not ended by itself
// by then, and waits for it. A nil Perf (none started) does nothing.
func (f *Perf) Stop(grace time.Duration) {
	if f == nil {
		return
	}
	select {
	case <-f.done:
	case <-time.After(grace):
		stop(f.proc)
	}
}
