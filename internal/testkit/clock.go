package testkit

import (
	"sync"
	"time"
)

// Clock is a clock a test moves by hand; a service reads it through SetClock(c.Now). The service's
// background loop may read it while the test moves it.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock is a clock standing at at.
func NewClock(at time.Time) *Clock { return &Clock{now: at} }

// Noon is noon today, UTC (the seeded customers' zone): a plan an hour or three ahead stays on the same day
// whatever the hour the suite runs at (CI once ran at 23:02 and a plan "in an hour" fell on tomorrow).
func Noon() time.Time { return time.Now().UTC().Truncate(24 * time.Hour).Add(12 * time.Hour) }

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// Set puts the clock at t.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }
