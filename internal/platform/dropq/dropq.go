// Package dropq is the bounded queue between a real-time path (a read loop forwarding media) and a slower
// writer (a recording's goroutine feeding a file or a child process). Push never blocks: a full queue drops
// the item and counts it, because the live listeners must not wait for a disk. Close ends the writer's range
// and may race a late Push from the read loop, which then takes nothing instead of sending on a closed
// channel (a panic).
package dropq

import (
	"sync"
	"sync/atomic"
)

// Queue holds up to its size of items for one writer.
type Queue[T any] struct {
	mu      sync.Mutex
	closed  bool
	ch      chan T
	dropped atomic.Uint64
}

// New makes a queue of size items.
func New[T any](size int) *Queue[T] { return &Queue[T]{ch: make(chan T, size)} }

// Push queues v without blocking; it reports false when the queue was full and v was dropped. After Close it
// ignores v (the writer has finished: nothing it would still write is lost) and reports true.
func (q *Queue[T]) Push(v T) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return true
	}
	select {
	case q.ch <- v:
		return true
	default:
		q.dropped.Add(1)
		return false
	}
}

// C is what the writer reads, in order; Close closes it once the queued items are read.
func (q *Queue[T]) C() <-chan T { return q.ch }

// Close ends the queue; later calls do nothing.
func (q *Queue[T]) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.ch)
	}
}

// Closed tells whether Close has run.
func (q *Queue[T]) Closed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.closed
}

// Dropped counts the items Push dropped for a full queue.
func (q *Queue[T]) Dropped() uint64 { return q.dropped.Load() }
