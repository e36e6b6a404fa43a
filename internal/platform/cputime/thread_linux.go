package cputime

import (
	"time"

	"golang.org/x/sys/unix"
)

// Thread is the CPU time (user + system) the calling OS thread has used so far (getrusage RUSAGE_THREAD): the
// caller locks its goroutine to the thread (runtime.LockOSThread) for the figure to be its own.
func Thread() time.Duration {
	var ru unix.Rusage
	_ = unix.Getrusage(unix.RUSAGE_THREAD, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
