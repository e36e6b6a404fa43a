package ticker

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

func TestEveryStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	done := make(chan struct{})
	go func() { NowAndEvery(ctx, time.Millisecond, func() { n.Add(1) }); close(done) }()
	for n.Load() < 3 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the loop did not end with its context")
	}
	after := n.Load()
	time.Sleep(10 * time.Millisecond)
	if n.Load() != after {
		t.Fatal("fn ran after the loop ended")
	}
}

func TestNowAndEveryRunsAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	NowAndEvery(ctx, time.Hour, func() { ran = true })
	if !ran {
		t.Fatal("NowAndEvery did not run before the first interval")
	}
}
