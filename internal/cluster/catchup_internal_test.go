package cluster

import "testing"

// After a NATS outage the catch-up starts where the connection was lost, even when events arrived through NATS
// after the reconnect and before the catch-up ran: they moved the mark past what was missed, and a chaos run lost
// 96 events on a node's consoles ("partition n1 from NATS + restart NATS + restart PostgreSQL", seed 35).
func TestCatchUpStartsWhereNATSWasLost(t *testing.T) {
	n := &Node{seen: map[int64]*seqWindow{}, startSeq: 10}
	n.markLive(1, 20)
	n.noteGap()       // the connection is lost at seq 20
	n.noteGap()       // and again before the catch-up: the first loss's mark stays
	n.markLive(1, 30) // back: a new event arrives through NATS before the catch-up reads the store
	if got := n.catchUpFrom(1); got != 20 {
		t.Fatalf("catch-up from %d, want 20 (where NATS was lost): 21…29 would never reach this node", got)
	}
	n.caughtUp(1)
	if got := n.catchUpFrom(1); got != 30 {
		t.Fatalf("after the catch-up, the next starts from %d, want 30", got)
	}
	if got := n.catchUpFrom(2); got != 10 { // a customer nothing was received for: from the join
		t.Fatalf("a customer without events: from %d, want 10", got)
	}
}
