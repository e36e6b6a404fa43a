package sim

import (
	"container/heap"
	"sync"
	"sync/atomic"
	"time"
)

// scheduler runs every terminal's timed work from one heap and one goroutine: a fleet of 10,000 terminals has
// tens of thousands of pending timers (GPS, status, heartbeat, the next talk, SOS or drop…), and one runtime
// timer or goroutine each would cost more than the work itself. Due tasks go to a small pool of workers, so a
// task that writes to a slow socket never holds up the clock.
type scheduler struct {
	mu    sync.Mutex
	items taskHeap
	seq   uint64
	wake  chan struct{}
	work  chan task
	now   func() time.Time
	late  atomic.Int64 // the most a task started after its time (ns), since takeLate
	stop  chan struct{}
	wg    sync.WaitGroup
	ended bool
}

type task struct {
	at  int64 // UnixNano
	seq uint64
	fn  func()
}

type taskHeap []task

func (h taskHeap) Len() int { return len(h) }
func (h taskHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq // FIFO among equal times: the order tasks were planned in
}
func (h taskHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *taskHeap) Push(x any)   { *h = append(*h, x.(task)) }
func (h *taskHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = task{}
	*h = old[:len(old)-1]
	return t
}

func newScheduler(workers int) *scheduler {
	s := &scheduler{wake: make(chan struct{}, 1), work: make(chan task, 4*workers), now: time.Now,
		stop: make(chan struct{})}
	for range workers {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for t := range s.work {
				late := s.now().UnixNano() - t.at
				for cur := s.late.Load(); late > cur && !s.late.CompareAndSwap(cur, late); cur = s.late.Load() {
				}
				t.fn()
			}
		}()
	}
	s.wg.Add(1)
	go s.loop()
	return s
}

// at runs fn at (or soon after) t on a worker. Tasks are never cancelled: a task checks when it runs whether
// it is still wanted (terminals keep a generation number per kind of work).
func (s *scheduler) at(t time.Time, fn func()) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.seq++
	heap.Push(&s.items, task{at: t.UnixNano(), seq: s.seq, fn: fn})
	first := s.items[0].seq == s.seq
	s.mu.Unlock()
	if first {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// after runs fn after d.
func (s *scheduler) after(d time.Duration, fn func()) { s.at(s.now().Add(d), fn) }

// takeLate is the most a task started after its planned time since the last call: how far the workers (a
// task blocked on a slow server, a starved process) fall behind.
func (s *scheduler) takeLate() time.Duration { return time.Duration(s.late.Swap(0)) }

// pending is the number of tasks waiting.
func (s *scheduler) pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.items)
}

func (s *scheduler) loop() {
	defer s.wg.Done()
	defer close(s.work)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := s.now().UnixNano()
		var due []task
		s.mu.Lock()
		for len(s.items) > 0 && s.items[0].at <= now && len(due) < 256 {
			due = append(due, heap.Pop(&s.items).(task))
		}
		wait := time.Hour
		if len(s.items) > 0 {
			wait = time.Duration(s.items[0].at - now)
		}
		s.mu.Unlock()
		for _, t := range due {
			select {
			case s.work <- t:
			case <-s.stop:
				return
			}
		}
		if len(due) == 256 {
			continue // more may be due
		}
		timer.Reset(max(wait, 0))
		select {
		case <-timer.C:
		case <-s.wake:
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		case <-s.stop:
			return
		}
	}
}

// close stops the clock and waits for running tasks; tasks still planned are dropped.
func (s *scheduler) close() {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.ended = true
	s.items = nil
	s.mu.Unlock()
	close(s.stop)
	s.wg.Wait()
}
