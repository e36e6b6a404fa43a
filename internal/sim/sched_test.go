package sim

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// TestSchedulerOrder: tasks run at their time, in time order, the same-time ones in the order they were
// planned, and tasks planned from tasks run too.
func TestSchedulerOrder(t *testing.T) {
	s := newScheduler(1) // one worker: execution order is the dispatch order
	defer s.close()
	var mu sync.Mutex
	var got []int
	done := make(chan struct{})
	base := time.Now().Add(20 * time.Millisecond)
	add := func(i int, at time.Time) {
		s.at(at, func() {
			mu.Lock()
			got = append(got, i)
			n := len(got)
			mu.Unlock()
			if i == 3 {
				s.after(5*time.Millisecond, func() { mu.Lock(); got = append(got, 99); mu.Unlock(); close(done) })
			}
			_ = n
		})
	}
	add(3, base.Add(30*time.Millisecond))
	add(1, base)
	add(2, base) // same time as 1, planned after it
	add(0, base.Add(-time.Second))
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("tasks did not run")
	}
	mu.Lock()
	defer mu.Unlock()
	want := []int{0, 1, 2, 3, 99}
	if len(got) != len(want) {
		t.Fatalf("ran %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ran %v, want %v", got, want)
		}
	}
}

// TestSchedulerMany: 100,000 timers on one heap and one clock goroutine, all run, none early.
func TestSchedulerMany(t *testing.T) {
	s := newScheduler(4)
	defer s.close()
	const n = 100_000
	var wg sync.WaitGroup
	wg.Add(n)
	var mu sync.Mutex
	early := 0
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	for range n {
		at := start.Add(time.Duration(r.IntN(200)) * time.Millisecond)
		s.at(at, func() {
			if time.Now().Before(at) {
				mu.Lock()
				early++
				mu.Unlock()
			}
			wg.Done()
		})
	}
	wg.Wait()
	if early > 0 {
		t.Fatalf("%d tasks ran early", early)
	}
	if s.pending() != 0 {
		t.Fatalf("%d tasks left", s.pending())
	}
}

// TestSchedulerClose: planned tasks are dropped, later plans are ignored.
func TestSchedulerClose(t *testing.T) {
	s := newScheduler(2)
	ran := make(chan struct{}, 1)
	s.after(time.Hour, func() { ran <- struct{}{} })
	s.close()
	s.after(0, func() { ran <- struct{}{} })
	select {
	case <-ran:
		t.Fatal("a task ran after close")
	case <-time.After(50 * time.Millisecond):
	}
}

// TestSchedulerTellsHowLateTasksStart: a worker held by a slow task makes the next task late, and the
// figure is the most since it was last taken.
func TestSchedulerTellsHowLateTasksStart(t *testing.T) {
	s := newScheduler(1)
	defer s.close()
	done := make(chan struct{})
	now := time.Now()
	s.at(now, func() { time.Sleep(150 * time.Millisecond) }) // holds the one worker
	s.at(now, func() { close(done) })                        // planned for the same time: starts ≥ 150 ms late
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("tasks did not run")
	}
	if late := s.takeLate(); late < 150*time.Millisecond || late > 5*time.Second {
		t.Fatalf("late %v, want at least the 150 ms the first task held the worker", late)
	}
	if late := s.takeLate(); late != 0 {
		t.Fatalf("taken twice: %v", late)
	}
}
