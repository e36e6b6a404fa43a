// Package clock is the settable clock a service reads instead of time.Now, so a test moves time instead of
// sleeping.
package clock

import (
	"sync/atomic"
	"time"
)

// Clock reads time.Now until SetClock installs another clock. A service embeds it (its SetClock and Now are
// then the service's); it is safe to set while the service's background loop reads it. The zero value is
// ready to use.
type Clock struct {
	now atomic.Pointer[func() time.Time]
}

// SetClock replaces the clock (nil = time.Now); tests move time with it.
func (c *Clock) SetClock(now func() time.Time) {
	if now == nil {
		c.now.Store(nil)
		return
	}
	c.now.Store(&now)
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	if now := c.now.Load(); now != nil {
		return (*now)()
	}
	return time.Now()
}
