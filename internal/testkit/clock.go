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

// RecentRange is a search range "around now" that spec §5's month rule accepts at any hour: the last hour up to a
// minute ahead, clipped to this calendar month in UTC (the seeded customers' zone). Ten minutes into the 1st of a
// month, "the last hour" would cross into the month before and the search would answer "95".
func RecentRange() (from, to int64) {
	now := time.Now().UTC()
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	from = max(now.Add(-time.Hour).UnixMilli(), month.UnixMilli())
	to = min(now.Add(time.Minute).UnixMilli(), month.AddDate(0, 1, 0).UnixMilli())
	return from, to
}
