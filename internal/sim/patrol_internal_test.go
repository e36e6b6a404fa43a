package sim

import (
	"fmt"
	"testing"
)

// The simulator walks most orders in time, some late and some skipping a point, the same way every run.
func TestDrawWalk(t *testing.T) {
	kinds := map[int]int{}
	for id := int64(1); id <= 2000; id++ {
		w := drawWalk(3, "10000101", id, 5)
		kinds[w.kind]++
		if len(w.method) != 5 || (w.kind == walkSkip && (w.skip < 0 || w.skip >= 5)) ||
			(w.kind == walkLate && (w.lateBy.Minutes() < 3 || w.lateBy.Minutes() > 17)) {
			t.Fatalf("walk %+v", w)
		}
		if again := drawWalk(3, "10000101", id, 5); fmt.Sprint(again) != fmt.Sprint(w) {
			t.Fatalf("order %d walked differently: %+v then %+v", id, w, again)
		}
	}
	for k, share := range map[int]float64{walkOnTime: 0.70, walkLate: lateShare, walkSkip: skipShare} {
		if got := float64(kinds[k]) / 2000; got < share-0.04 || got > share+0.04 {
			t.Errorf("kind %d: share %.3f, want about %.2f", k, got, share)
		}
	}
	// a one-point route is never skipped
	for id := int64(1); id <= 200; id++ {
		if drawWalk(3, "x", id, 1).kind == walkSkip {
			t.Fatal("skipped the only point")
		}
	}
}
