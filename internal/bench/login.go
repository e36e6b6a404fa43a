package bench

import (
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/cputime"
)

// HashCost is the CPU time one terminal login's password check (argon2id) takes on this machine: process CPU
// time, so other load on the machine does not inflate it (as it would wall time).
func HashCost() (time.Duration, error) {
	h, err := auth.HashPassword("123456")
	if err != nil {
		return 0, err
	}
	const n = 5
	t0 := cputime.Self()
	for range n {
		if _, err := auth.CheckPassword(h, "123456"); err != nil {
			return 0, err
		}
	}
	return (cputime.Self() - t0) / n, nil
}
