package keylock

import (
	"testing"
	"time"
)

// One key is held by one caller at a time; another key is not held up by it.
func TestStriped(t *testing.T) {
	var l Striped
	unlock := l.Lock("10000001")
	got := make(chan string, 2)
	go func() { defer l.Lock("10000001")(); got <- "same" }()
	other := "10000002"
	for l.slot(other) == l.slot("10000001") { // a key on another mutex
		other += "0"
	}
	go func() { defer l.Lock(other)(); got <- "other" }()
	if first := <-got; first != "other" {
		t.Fatalf("%s ran while the key was held", first)
	}
	select {
	case v := <-got:
		t.Fatalf("%s ran while the key was held", v)
	case <-time.After(50 * time.Millisecond):
	}
	unlock()
	if v := <-got; v != "same" {
		t.Fatalf("after unlock: %s", v)
	}
}
