//go:build !linux

package media

import "time"

func threadCPU() time.Duration { return 0 }

const threadCPUSupported = false
