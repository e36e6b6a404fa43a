package chaos_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"tenfour/internal/chaos"
)

// Mixed phases overlap two or three faults that act on nothing in common (one's heal must not undo another's
// injection), and the same seed mixes the same ones.
func TestMixedFaultsShareNothingAndRepeatBySeed(t *testing.T) {
	names := func(seed uint64) []string {
		var out []string
		for _, f := range chaos.Mixed(chaos.Faults(time.Second, seed), 20, rand.New(rand.NewPCG(seed, 38))) {
			out = append(out, f.Name)
			parts := strings.Split(strings.TrimPrefix(f.Name, "mixed: "), " + ")
			if len(parts) < 2 || len(parts) > 3 {
				t.Errorf("%q: %d faults", f.Name, len(parts))
			}
			uses := slices.Clone(f.Uses)
			slices.Sort(uses)
			if len(slices.Compact(uses)) != len(f.Uses) {
				t.Errorf("%q: faults that act on the same thing: %v", f.Name, f.Uses)
			}
		}
		return out
	}
	if a, b := names(35), names(35); !slices.Equal(a, b) {
		t.Errorf("seed 35 mixed %v, then %v", a, b)
	}
	if a, b := names(35), names(36); slices.Equal(a, b) {
		t.Errorf("seeds 35 and 36 mixed the same: %v", a)
	}
}
