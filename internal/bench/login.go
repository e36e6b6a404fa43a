package bench

import (
	"syscall"
	"time"

	"tenfour/internal/auth"
)

// HashCost is the CPU time one terminal login's password check (argon2id) takes on this machine: process CPU
// time, so other load on the machine does not inflate it (as it would wall time).
func HashCost() (time.Duration, error) {
	h, err := auth.HashPassword("123456")
	if err != nil {
		return 0, err
	}
	const n = 5
	t0 := selfCPU()
	for range n {
		if _, err := auth.CheckPassword(h, "123456"); err != nil {
			return 0, err
		}
	}
	return (selfCPU() - t0) / n, nil
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
