package indoor_test

import (
	"context"
	"testing"

	"tenfour/internal/indoor"
	"tenfour/internal/platform/httpx"
)

// The demo building is seeded with its walkable areas; one seeded before areas existed (its areas gone) gets them
// and new plans when the demo seeds again, and one with areas is left alone. Both engines.
func TestDemoBuildingGetsItsAreas(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *env) {
		s := e.S
		ctx := context.Background()
		if ok, err := s.Indoor.SeedDemo(ctx, e.F.CustomerID, e.F.Dispatcher); err != nil || !ok {
			t.Fatalf("seed demo: %v %v", ok, err)
		}
		floors := func() []indoor.Floor {
			var list httpx.Page[indoor.Building]
			s.Do("GET", "/ds/indoor/building/list", e.Tok, nil).Into(t, &list)
			return list.List[0].Floors
		}
		before := floors()
		want := len(indoor.DemoAreaPolygons(0))
		if len(before) != 2 || len(before[0].Areas) != want || len(before[1].Areas) != len(indoor.DemoAreaPolygons(1)) {
			t.Fatalf("demo floors' areas: %d, %d (want %d)", len(before[0].Areas), len(before[1].Areas), want)
		}
		// Seeding again with areas in place changes nothing.
		if ok, err := s.Indoor.SeedDemo(ctx, e.F.CustomerID, e.F.Dispatcher); err != nil || ok {
			t.Fatalf("seeding twice: %v %v", ok, err)
		}
		if again := floors(); len(again[0].Areas) != want || again[0].FileID != before[0].FileID {
			t.Fatalf("a demo building with areas was changed: %d areas, plan %s → %s", len(again[0].Areas), before[0].FileID, again[0].FileID)
		}
		// As seeded before walkable areas: none on any floor.
		for _, f := range before {
			for _, a := range f.Areas {
				if r := s.Do("DELETE", "/ds/indoor/area/delete", e.Tok, map[string]any{"id": a.ID}); r.Code != "0" {
					t.Fatal(r.Code, r.Msg)
				}
			}
		}
		if ok, err := s.Indoor.SeedDemo(ctx, e.F.CustomerID, e.F.Dispatcher); err != nil || ok {
			t.Fatalf("upgrade: %v %v", ok, err)
		}
		after := floors()
		for i, f := range after {
			if len(f.Areas) != len(indoor.DemoAreaPolygons(i)) || f.FileID == before[i].FileID || len(f.Beacons) != len(before[i].Beacons) {
				t.Fatalf("floor %d after the upgrade: %d areas, plan %s (was %s), %d beacons", i, len(f.Areas), f.FileID, before[i].FileID, len(f.Beacons))
			}
		}
	})
}
