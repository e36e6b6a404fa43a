// Package ticker runs the background loops of the services: work every interval until the context ends.
package ticker

import (
	"context"
	"time"
)

// Every calls fn every d until ctx is done (the first call after d). It returns when ctx is done.
func Every(ctx context.Context, d time.Duration, fn func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}

// NowAndEvery calls fn at once and then every d until ctx is done (retention and pruning loops).
func NowAndEvery(ctx context.Context, d time.Duration, fn func()) {
	fn()
	Every(ctx, d, fn)
}
