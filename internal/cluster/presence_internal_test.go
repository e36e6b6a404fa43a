package cluster

import "testing"

// A login in progress (connected, its presence row not written yet) is not a swept row: during a wave of logins
// some account lacks its row at every sweep, and the node rejoined every other sweep (15,000 terminals on three
// nodes took minutes to log in). Only an account missing its row at two sweeps in a row makes the node rejoin.
func TestRowsOfLoginsInProgressAreNotSweptRows(t *testing.T) {
	var w rowWatch
	sweeps := []struct {
		missing []string
		rejoin  bool
	}{
		{[]string{"a"}, false},
		{[]string{"b"}, false},      // a's row came; b is another login in progress
		{[]string{"c", "d"}, false}, // and so on, however many
		{nil, false},
		{[]string{"e"}, false},
		{[]string{"e", "f"}, true}, // e connected two sweeps without its row: swept while this node was alive
		{[]string{"e"}, false},     // the rejoin is writing it again: the watch starts over
		{[]string{"e"}, true},
	}
	for i, s := range sweeps {
		missing := map[string]bool{}
		for _, id := range s.missing {
			missing[id] = true
		}
		if got := w.sweptWhileAlive(missing); got != s.rejoin {
			t.Fatalf("sweep %d, missing %v: rejoin %v, want %v", i, s.missing, got, s.rejoin)
		}
	}
}
