package testkit

import (
	"os"
	"strconv"
	"time"
)

// EnvInt is the positive integer in the environment variable name, or def when it is unset or not one: how
// `make bench` scales a measurement that the ordinary test run keeps small.
func EnvInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// EnvDuration is EnvInt for a duration ("3s", "2m").
func EnvDuration(name string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
