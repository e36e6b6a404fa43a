package dropq_test

import (
	"slices"
	"sync"
	"testing"

	"tenfour/internal/platform/dropq"
)

// A full queue drops and counts without blocking; the writer reads what was queued, in order, and its range
// ends at Close; a Push after Close (or racing it) neither panics nor counts as a drop.
func TestPushNeverBlocksAndCloseEndsTheWriter(t *testing.T) {
	q := dropq.New[int](2)
	for i := range 4 {
		if ok := q.Push(i); ok != (i < 2) {
			t.Fatalf("push %d: %v", i, ok)
		}
	}
	if q.Dropped() != 2 || q.Closed() {
		t.Fatalf("dropped %d, closed %v", q.Dropped(), q.Closed())
	}
	var wg sync.WaitGroup
	for range 8 { // late pushes from read loops while the queue closes (go test -race)
		wg.Go(func() { q.Push(9) })
	}
	q.Close()
	q.Close()
	wg.Wait()
	var got []int
	for v := range q.C() {
		got = append(got, v)
	}
	// the late pushes met a full queue (dropped) or a closed one (ignored): never a third item
	if !slices.Equal(got, []int{0, 1}) || !q.Closed() || !q.Push(5) || q.Dropped() < 2 || q.Dropped() > 2+8 {
		t.Fatalf("read %v, closed %v, dropped %d", got, q.Closed(), q.Dropped())
	}
}
