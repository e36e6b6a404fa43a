package indoor_test

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"tenfour/internal/indoor"
	"tenfour/internal/indoor/radio"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/testkit"
)

// A terminal walks the demo building reporting the simulator's noisy scans over the socket, one a second (on the
// service's clock): each reply and each console event is its position, on its storey, none beyond 5 m of where it
// is and the median within 2 m (the estimator's own test measures the distribution); then the
// last-position and history calls answer what was stored, with their refusals. Both engines.
func TestReportToConsoleAndHistory(t *testing.T) { eachEnv(t, reportToConsole) }

func reportToConsole(t *testing.T, e *env) {
	s := e.S
	ctx := context.Background()
	// 10:00 UTC today: the seeded customers' zone is UTC, so a history of the next hour is one day.
	clk := testkit.NewClock(time.Now().UTC().Truncate(24 * time.Hour).Add(10 * time.Hour))
	s.Indoor.SetClock(clk.Now)
	start := clk.Now().UnixMilli()
	if ok, err := s.Indoor.SeedDemo(ctx, e.F.CustomerID, e.F.Dispatcher); err != nil || !ok {
		t.Fatalf("seed demo: %v %v", ok, err)
	}
	if ok, err := s.Indoor.SeedDemo(ctx, e.F.CustomerID, e.F.Dispatcher); err != nil || ok {
		t.Fatalf("seeding twice: %v %v", ok, err)
	}
	var list httpx.Page[indoor.Building]
	s.Do("GET", "/ds/indoor/building/list", e.Tok, nil).Into(t, &list)
	if list.Total != 1 || len(list.List[0].Floors) != 2 || len(list.List[0].Floors[0].Beacons) != radio.DemoBeacons || len(list.List[0].Floors[1].Beacons) != radio.DemoBeacons {
		t.Fatalf("demo building %+v", list)
	}
	floors := map[int]indoor.FloorID{}
	for _, f := range list.List[0].Floors {
		floors[f.Level] = f.ID
		if f.Width != 960 || f.Height != 480 || f.Scale != radio.DemoScale {
			t.Fatalf("floor %+v", f)
		}
	}

	me := e.F.Terminals[0]
	term := testkit.Terminal(t, s.URL, me, testkit.Password)
	bd := radio.Demo()
	walk := radio.NewWalk(radio.DemoRoute(), 1.2, 8)
	rng := rand.New(rand.NewPCG(3, 4))
	const steps = 90
	var errs []float64
	var last int64
	for i := range steps {
		r := term.Call(indoor.ReqReport, map[string]any{"readings": radio.DemoChannel.Scan(rng, bd, walk.At(float64(i)))})
		if !r.OK() {
			t.Fatalf("report %d: %s %s", i, r.Code, r.Msg)
		}
		var pos indoor.Position
		r.Into(t, &pos)
		// The demo floors have walkable areas: the position is the fixed-lag smoother's, of a scan at most
		// FixedLag scans back, never older than the one before (docs/adr/0023).
		now := clk.Now().UnixMilli()
		if pos.Time > now || pos.Time < now-int64(indoor.FixedLag)*1000 || pos.Time < last {
			t.Fatalf("report %d at %d: position of %d, the one before of %d", i, now, pos.Time, last)
		}
		last = pos.Time
		truth := walk.At(float64(pos.Time-start) / 1000)
		if pos.MsID != me || pos.FloorID != floors[bd.Storeys[truth.Storey].Level] {
			t.Fatalf("report %d: %+v (truth %+v)", i, pos, truth)
		}
		d := math.Hypot(pos.X*radio.DemoScale-truth.X, pos.Y*radio.DemoScale-truth.Y)
		errs = append(errs, d)
		if d > 5 || (d > 3 && !pos.Uncertain) {
			t.Errorf("report %d: %.2f m from the truth (uncertain %v)", i, d, pos.Uncertain)
		}
		if i == 0 && !pos.Uncertain {
			t.Errorf("the first position of a track is not marked uncertain: %+v", pos)
		}
		ev := e.con.WaitEvent(indoor.EventPosition, wait, func(f testkit.Frame) bool {
			var got indoor.Position
			return json.Unmarshal(f.Data, &got) == nil && got == pos
		})
		var got indoor.Position
		ev.Into(t, &got)
		if got != pos {
			t.Fatalf("event %+v, reply %+v", got, pos)
		}
		clk.Add(time.Second)
	}
	slices.Sort(errs)
	t.Logf("%d reports over the socket: median error %.2f m, worst %.2f m", steps, errs[steps/2], errs[steps-1])
	if errs[steps/2] > 2 {
		t.Errorf("median error %.2f m", errs[steps/2])
	}

	// Refusals of the socket verb.
	for _, c := range []struct {
		name string
		data any
		code string
	}{
		{"no readings", map[string]any{"readings": []any{}}, "400"},
		{"bad mac", map[string]any{"readings": []any{map[string]any{"mac": "zz", "rssi": -60}}}, "400"},
		{"rssi above 0", map[string]any{"readings": []any{map[string]any{"mac": radio.DemoMAC(0, 0), "rssi": 5}}}, "400"},
		{"rssi missing", map[string]any{"readings": []any{map[string]any{"mac": radio.DemoMAC(0, 0)}}}, "400"},
		{"too many readings", map[string]any{"readings": make([]map[string]any, 65)}, "400"},
		{"only unknown beacons", map[string]any{"readings": []any{map[string]any{"mac": "AA:BB:CC:DD:EE:FF", "rssi": -60}}}, "159"},
	} {
		if r := term.Call(indoor.ReqReport, c.data); r.Code != c.code {
			t.Errorf("%s: %s %s, want %s", c.name, r.Code, r.Msg, c.code)
		}
	}
	if r := e.con.Call(indoor.ReqReport, map[string]any{"readings": radio.DemoChannel.Scan(rng, bd, walk.At(0))}); r.Code != "107" {
		t.Errorf("a console's report: %s", r.Code)
	}
	// The other customer's terminals do not know our beacons.
	other := testkit.Terminal(t, s.URL, e.Other.Terminals[0], testkit.Password)
	if r := other.Call(indoor.ReqReport, map[string]any{"readings": radio.DemoChannel.Scan(rng, bd, walk.At(0))}); r.Code != "159" {
		t.Errorf("other customer's report: %s", r.Code)
	}

	end := clk.Now().UnixMilli()
	testkit.APITest{Server: s, Token: e.token, State: state}.Run(t, []testkit.Scenario{
		{Name: "last positions", Method: "GET", Path: "/ds/indoor/position/last", Token: "A", Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var p httpx.Page[indoor.Position]
				r.Into(t, &p)
				if p.Total != 1 || p.List[0].MsID != me || p.List[0].Time != last || p.List[0].Name != "Unit 1" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "last positions in the building", Method: "GET", Path: "/ds/indoor/position/last", Token: "A",
			Params: map[string]any{"buildingId": list.List[0].ID}, Code: "0", Contains: []string{`"total":1`}},
		{Name: "last positions since after the last", Method: "GET", Path: "/ds/indoor/position/last", Token: "A",
			Params: map[string]any{"since": end}, Code: "0", Contains: []string{`"total":0`}},
		{Name: "last positions of another customer's building", Method: "GET", Path: "/ds/indoor/position/last", Token: "B",
			Params: map[string]any{"buildingId": list.List[0].ID}, Code: "404"},
		{Name: "other customer sees no positions", Method: "GET", Path: "/ds/indoor/position/last", Token: "B", Code: "0", Contains: []string{`"total":0`}},
		{Name: "last positions bad since", Method: "GET", Path: "/ds/indoor/position/last", Token: "A", Params: map[string]any{"since": "soon"}, Code: "400"},
		{Name: "history", Method: "GET", Path: "/ds/indoor/position/history", Token: "A",
			Params: map[string]any{"msId": me, "sTime": start, "eTime": end}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var p indoor.History
				r.Into(t, &p)
				if p.Total != steps || p.List[0].Time != start || p.List[steps-1].Time != last || p.Truncated {
					t.Fatalf("total %d truncated %v", p.Total, p.Truncated)
				}
				if !p.List[0].Uncertain || p.List[steps-1].Uncertain {
					t.Fatalf("uncertain as stored: first %+v, last %+v", p.List[0], p.List[steps-1])
				}
			}},
		{Name: "history on one floor", Method: "GET", Path: "/ds/indoor/position/history", Token: "A",
			Params: map[string]any{"msId": me, "sTime": start, "eTime": end, "floorId": floors[1]}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var p indoor.History
				r.Into(t, &p)
				for _, q := range p.List {
					if q.FloorID != floors[1] {
						t.Fatalf("%+v", q)
					}
				}
			}},
		{Name: "history needs a terminal", Method: "GET", Path: "/ds/indoor/position/history", Token: "A",
			Params: map[string]any{"sTime": start, "eTime": end}, Code: "400"},
		{Name: "history of another customer's terminal", Method: "GET", Path: "/ds/indoor/position/history", Token: "B",
			Params: map[string]any{"msId": me, "sTime": start, "eTime": end}, Code: "404"},
		{Name: "history of a dispatcher", Method: "GET", Path: "/ds/indoor/position/history", Token: "A",
			Params: map[string]any{"msId": e.F.Dispatcher, "sTime": start, "eTime": end}, Code: "404"},
		{Name: "history on another customer's floor", Method: "GET", Path: "/ds/indoor/position/history", Token: "B",
			Params: map[string]any{"msId": e.Other.Terminals[0], "sTime": start, "eTime": end, "floorId": floors[0]}, Code: "404"},
		{Name: "history start after end", Method: "GET", Path: "/ds/indoor/position/history", Token: "A",
			Params: map[string]any{"msId": me, "sTime": end, "eTime": start}, Code: "93"},
		{Name: "history longer than a day", Method: "GET", Path: "/ds/indoor/position/history", Token: "A",
			Params: map[string]any{"msId": me, "sTime": ms(2024, 3, 1, 0), "eTime": ms(2024, 3, 3, 0)}, Code: "94"},
		{Name: "history across months", Method: "GET", Path: "/ds/indoor/position/history", Token: "A",
			Params: map[string]any{"msId": me, "sTime": ms(2024, 2, 29, 12), "eTime": ms(2024, 3, 1, 1)}, Code: "95"},
		{Name: "history without start", Method: "GET", Path: "/ds/indoor/position/history", Token: "A",
			Params: map[string]any{"msId": me, "eTime": end}, Code: "400"},
		{Name: "history by a terminal's token", Method: "GET", Path: "/ds/indoor/position/history", Token: s.Token(me, e.F.CustomerID),
			Params: map[string]any{"msId": me, "sTime": start, "eTime": end}, Code: "107"},
	})

	// Deleting the building takes its positions with it.
	if r := s.Do("DELETE", "/ds/indoor/building/delete", e.Tok, map[string]any{"id": list.List[0].ID}); r.Code != "0" {
		t.Fatal(r.Code, r.Msg)
	}
	var n int
	if err := s.DB.QueryRow(ctx, `SELECT COUNT(*) FROM indoor_positions WHERE customer_id = ?`, e.F.CustomerID).Scan(&n); err != nil || n != 0 {
		t.Fatalf("positions left: %d %v", n, err)
	}
	// …and the terminal's next report knows no beacon.
	if r := term.Call(indoor.ReqReport, map[string]any{"readings": radio.DemoChannel.Scan(rng, bd, walk.At(0))}); r.Code != "159" {
		t.Errorf("report after the building was deleted: %s", r.Code)
	}
}

func ms(y int, m time.Month, d, h int) int64 {
	return time.Date(y, m, d, h, 0, 0, 0, time.UTC).UnixMilli()
}
