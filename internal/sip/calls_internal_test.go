package sip

import (
	"context"
	"testing"
	"time"
)

// An account's call slot: a second call while the first is in progress is busy at once; once the first has hung
// up (its dialog ended) and is being freed, the next waits for it rather than being busy; a dialed phone
// (patient) waits for any call to end but one into a group; a wait ends with its context; a stopped server admits
// none.
func TestCallSlots(t *testing.T) {
	const id = "10000180"
	var c calls
	// begin in the background: its result comes on the channel
	beginning := func(patient bool) <-chan *accountCall {
		out := make(chan *accountCall, 1)
		go func() {
			live, _ := c.begin(context.Background(), id, patient)
			out <- live
		}()
		return out
	}
	// waits tells whether begin waited out a short context rather than answering at once, and was not admitted
	waits := func(patient bool) bool {
		const wait = 50 * time.Millisecond
		start := time.Now() // before the context: its deadline is counted from its making
		short, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		live, _ := c.begin(short, id, patient)
		return live == nil && time.Since(start) >= wait
	}

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
	if !waits(false) {
		t.Fatal("a call after the first hung up did not wait for it to be freed")
	}
	next := beginning(false)
	c.end(id, first)
	second := <-next
	if second == nil {
		t.Fatal("a call after the first hung up was busy once the first was freed")
	}

	if !waits(true) {
		t.Fatal("a dialed phone did not wait for the call in progress")
	}
	next = beginning(true)
	c.end(id, second)
	third := <-next
	if third == nil {
		t.Fatal("a dialed phone did not get the slot once the call ended")
	}
	third.group.Store(true) // a call into a group: a dialed phone is busy at once
	start = time.Now()
	if live, _ := c.begin(context.Background(), id, true); live != nil || time.Since(start) > time.Second {
		t.Fatalf("a dialed phone in a group call: admitted %v after %v, want busy at once", live != nil, time.Since(start))
	}
	c.end(id, third)

	c.stop()
	if live, stopped := c.begin(context.Background(), id, false); live != nil || !stopped {
		t.Fatal("a stopped server admitted a call")
	}
}
