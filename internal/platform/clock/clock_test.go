package clock

import (
	"testing"
	"time"
)

func TestClockIsSettableAndFallsBackToTheWallClock(t *testing.T) {
	var c Clock
	if d := time.Since(c.Now()); d < 0 || d > time.Minute {
		t.Fatalf("zero clock is %v off the wall clock", d)
	}
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	c.SetClock(func() time.Time { return at })
	if got := c.Now(); !got.Equal(at) {
		t.Fatalf("set clock reads %v, want %v", got, at)
	}
	c.SetClock(nil)
	if d := time.Since(c.Now()); d < 0 || d > time.Minute {
		t.Fatalf("clock reset to nil is %v off the wall clock", d)
	}
}
