// Package afterlock runs a service's locked section, then the work the section left for after the lock is
// released: publishing, writing rows and logs may block or call back into the service, so none of it runs
// under the service's one lock (voice calls and video sessions, docs/adr/0032).
package afterlock

import "sync"

// Later collects the work a locked section leaves for after unlocking.
type Later struct{ work []func() }

// Then queues fn to run once the lock is released, in the order queued.
func (l *Later) Then(fn func()) { l.work = append(l.work, fn) }

// Run runs fn with mu held, then, unlocked, the work it left. Once *closed (read under mu) the service is shut:
// Run runs nothing and returns refused.
func Run(mu *sync.Mutex, closed *bool, refused error, fn func(later *Later) error) error {
	later := &Later{}
	mu.Lock()
	if *closed {
		mu.Unlock()
		return refused
	}
	err := fn(later)
	mu.Unlock()
	for _, w := range later.work {
		w()
	}
	return err
}
