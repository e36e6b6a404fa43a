package sim_test

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"

	"tenfour/internal/indoor/radio"
	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// Two simulated terminals walk through the demo building reporting noisy beacon scans (indoor.report); the
// dispatcher's console receives their positions live (indoor.position), on the storey where the simulator has them
// and close to where they are: the server's estimate of the simulator's truth, over the real socket.
func TestIndoorWalkersReachTheConsole(t *testing.T) {
	s, con := demoConsole(t)
	accts := accountsWhere(sim.DemoSpare(), func(id string) bool { return slices.Contains(sim.DemoWalkers, id) })
	if len(accts) != 2 {
		t.Fatalf("walker accounts %+v", accts)
	}
	f := testkit.RunFleet(t, sim.Options{URL: s.URL, Accounts: accts, Seed: 5, Loopback: true, Passive: true,
		Indoor: sim.DemoWalkers, IndoorInterval: 250 * time.Millisecond, Ramp: 10 * time.Millisecond})
	levels := map[int64]int{}
	rows, err := s.DB.Query(context.Background(), `SELECT id, level FROM indoor_floors`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var level int
		if err := rows.Scan(&id, &level); err != nil {
			t.Fatal(err)
		}
		levels[id] = level
	}
	rows.Close()
	if len(levels) != 2 {
		t.Fatalf("demo floors %v", levels)
	}
	type pos struct {
		MsID     string  `json:"msId"`
		FloorID  int64   `json:"floorId"`
		X        float64 `json:"x"`
		Y        float64 `json:"y"`
		Accuracy float64 `json:"accuracy"`
	}
	got := map[string]int{}
	floors := map[int64]bool{}
	worst := 0.0
	until(t, con, 60*time.Second, "positions of both walkers", func(fr testkit.Frame) bool {
		if fr.Type != "indoor.position" {
			return false
		}
		var p pos
		if err := json.Unmarshal(fr.Data, &p); err != nil {
			t.Fatal(err)
		}
		truth, ok := f.Terminal(p.MsID).IndoorAt(time.Now())
		if !ok {
			t.Fatalf("a position of %s, not a walker", p.MsID)
		}
		floors[p.FloorID] = true
		got[p.MsID]++
		// The position left the terminal a moment ago and the walker moves 1.2 m/s: compare loosely, and only on
		// the same storey well away from the stairs.
		if got[p.MsID] > 3 && truth.X < radio.DemoStairsX-4 {
			if levels[p.FloorID] != radio.Demo().Storeys[truth.Storey].Level {
				t.Errorf("%s on floor %d (level %d), the walker is on storey %d", p.MsID, p.FloorID, levels[p.FloorID], truth.Storey)
			}
			worst = math.Max(worst, math.Hypot(p.X*radio.DemoScale-truth.X, p.Y*radio.DemoScale-truth.Y))
		}
		return got[sim.DemoWalkers[0]] >= 20 && got[sim.DemoWalkers[1]] >= 20
	})
	t.Logf("positions %v on %d floor(s), worst distance to the walker %.2f m; stats %s", got, len(floors), worst, f.Stats().String())
	if worst > 5 {
		t.Fatalf("a position %.2f m from its walker", worst)
	}
	// Every position the console saw was computed from a scan the simulator sent.
	if sent, seen := f.Stats().IndoorReports.Load(), int64(got[sim.DemoWalkers[0]]+got[sim.DemoWalkers[1]]); sent < seen {
		t.Fatalf("%d scans sent, %d positions seen", sent, seen)
	}
}
