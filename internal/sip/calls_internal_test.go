package sip

import (
	"context"
	"testing"
	"time"
)

// An account's call slot: a second call while the first is in progress is busy at once; once the first has hung
// up (its dialog ended) and is being freed, the next waits for it rather than being busy; a dialed phone
// (patient) waits for any call to end; a wait ends with its context; a stopped server admits none.
func TestCallSlots(t *testing.T) {
	const id = "10000180"
	var c calls
	first, stopped := c.begin(context.Background(), id, false)
	if first == nil || stopped {
		t.Fatal("the first call was not admitted")
	}
	start := time.Now()
	if live, _ := c.begin(context.Background(), id, false); live != nil {
		t.Fatal("a second call was admitted beside the first")
	}
	if waited := time.Since(start); waited > time.Second {
		t.Fatalf("a busy answer waited %v", waited)
	}

	first.hungUp()
	endSoon := func(live *accountCall) {
		go func() {
			time.Sleep(100 * time.Millisecond)
			c.end(id, live)
		}()
	}
	endSoon(first)
	second, _ := c.begin(context.Background(), id, false)
	if second == nil {
		t.Fatal("a call after the first hung up was busy while the first was freed")
	}

	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if live, _ := c.begin(short, id, true); live != nil {
		t.Fatal("a dialed phone took the slot of a call in progress")
	}
	endSoon(second)
	third, _ := c.begin(context.Background(), id, true)
	if third == nil {
		t.Fatal("a dialed phone did not get the slot once the call ended")
	}
	c.end(id, third)

	c.stop()
	if live, stopped := c.begin(context.Background(), id, false); live != nil || !stopped {
		t.Fatal("a stopped server admitted a call")
	}
}
