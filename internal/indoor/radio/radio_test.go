package radio

import (
	"math"
	"testing"
)

// The demo walk stays in the demo building's walkable areas and passes walls only through doors: every 5 cm of
// every leg on one storey is in an area (a wall is 30 cm thick, so a leg through one would have points in it).
func TestDemoRouteStaysInTheWalkableAreas(t *testing.T) {
	route := DemoRoute()
	for i := range route {
		a, b := route[i], route[(i+1)%len(route)]
		if a.Storey != b.Storey {
			continue
		}
		n := int(math.Ceil(math.Hypot(b.X-a.X, b.Y-a.Y) / 0.05))
		for k := 0; k <= n; k++ {
			f := float64(k) / float64(max(n, 1))
			x, y := a.X+(b.X-a.X)*f, a.Y+(b.Y-a.Y)*f
			if !InAreas(DemoAreas(a.Storey), x, y) {
				t.Fatalf("leg %d (%+v → %+v) leaves the walkable areas at (%.2f, %.2f)", i, a, b, x, y)
			}
		}
	}
	// and a wall is not walkable: the corridor's north wall away from a door, a partition
	if InAreas(DemoAreas(0), 7, DemoCorridorY-DemoCorridorHalf) || InAreas(DemoAreas(0), 19, 5) {
		t.Fatal("a wall is walkable")
	}
}
