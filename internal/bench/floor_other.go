//go:build !linux

package bench

import (
	"context"
	"errors"
	"time"
)

var errFloorOS = errors.New("the kernel's floor is measured on Linux only (getrusage RUSAGE_THREAD, sendmmsg)")

// FanoutFloor is Linux's (floor.go).
func FanoutFloor(context.Context, int, int) (time.Duration, error) { return 0, errFloorOS }

// AudioFloor is Linux's (floor.go).
func AudioFloor(context.Context, int, time.Duration) (float64, error) { return 0, errFloorOS }
