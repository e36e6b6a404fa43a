package geo

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/directory"
)

// syncRecorder is the directory's SyncLast as the writer sees it: it tells when a sync has begun and, after a
// while, whether the sync's context was still live when it finished.
type syncRecorder struct {
	Directory
	began chan struct{}
	ended chan error
}

func (s *syncRecorder) SyncLast(ctx context.Context, _ []directory.LastReport) error {
	s.began <- struct{}{}
	time.Sleep(100 * time.Millisecond) // a slow database
	s.ended <- ctx.Err()
	return ctx.Err()
}

// TestStopDuringAnAccountSyncLosesNothing: a stop that lands while a sync is writing must not cancel it — the sync
// has taken the dirty rows, and the last round after the stop finds nothing left to write.
func TestStopDuringAnAccountSyncLosesNothing(t *testing.T) {
	rec := &syncRecorder{began: make(chan struct{}, 4), ended: make(chan error, 4)}
	taken := false
	dirty := func() []directory.LastReport {
		if taken {
			return nil
		}
		taken = true
		return []directory.LastReport{{}}
	}
	w := newWriter(nil, rec, Options{FlushEvery: 10 * time.Millisecond, FlushPoints: 10, MaxPending: 10}, dirty)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.run(ctx) }()
	<-rec.began
	stop()
	if err := <-rec.ended; err != nil {
		t.Fatalf("the sync in flight was cut by the stop (%v): its rows are lost", err)
	}
	<-done
}
