// Package cputime is the CPU time processes have used, for the benchmarks' costs: unlike wall time, CPU time does
// not grow with other work on the machine. It is the one place getrusage (this process's, or a thread's) and a
// process's /proc/<pid>/stat are read.
package cputime

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// UserHZ is the unit of the times in /proc's files: 100 a second on every Linux this runs on.
const UserHZ = 100

// Self is the CPU time (user + system) this process has used so far.
func Self() time.Duration { return rusage(syscall.RUSAGE_SELF) }

// Children is the CPU time of this process's children that ended and were waited for.
func Children() time.Duration { return rusage(syscall.RUSAGE_CHILDREN) }

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(who, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Of is the user + system CPU time a running process has used (its own threads; children it waited for are not
// counted), from Linux's /proc/<pid>/stat.
func Of(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces: fields start after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("bad /proc/%d/stat", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	// After ')': state(0) ppid(1) … utime(11) stime(12).
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad times in /proc/%d/stat", pid)
	}
	return time.Duration(ut+st) * time.Second / UserHZ, nil
}
