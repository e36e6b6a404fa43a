package sim_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/demo"
	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

func newFleet(t *testing.T, seed uint64, accts []sim.Account) *sim.Fleet {
	t.Helper()
	f, err := sim.New(sim.Options{URL: "http://127.0.0.1:1", Accounts: accts, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDeterministicPlan: the same seed gives every terminal the same route and the same schedule of talk,
// SOS, drops and switches — whatever the fleet's size — and another seed a different one.
func TestDeterministicPlan(t *testing.T) {
	accts := sim.DemoAccounts()
	a, b := newFleet(t, 5, accts), newFleet(t, 5, accts)
	small := newFleet(t, 5, accts[:10])
	other := newFleet(t, 6, accts)
	differ := 0
	for i, ta := range a.Terminals() {
		tb := b.Terminals()[i]
		pa, pb := ta.Plan(24*time.Hour), tb.Plan(24*time.Hour)
		if !reflect.DeepEqual(pa, pb) {
			t.Fatalf("%s: two plans with the same seed differ", ta.ID())
		}
		if ta.Type() != "camera" && ta.Type() != "8" && ta.Type() != "20" && len(pa) == 0 {
			t.Errorf("%s (type %s) plans nothing in a day", ta.ID(), ta.Type())
		}
		for _, at := range []time.Duration{0, time.Minute, 37 * time.Minute, 5 * time.Hour} {
			if ta.Route().At(at) != tb.Route().At(at) {
				t.Fatalf("%s: routes with the same seed differ at %v", ta.ID(), at)
			}
		}
		if i < 10 && !reflect.DeepEqual(pa, small.Terminals()[i].Plan(24*time.Hour)) {
			t.Fatalf("%s: its plan depends on the fleet's size", ta.ID())
		}
		if !reflect.DeepEqual(pa, other.Terminals()[i].Plan(24*time.Hour)) {
			differ++
		}
	}
	if differ < len(accts)*9/10 {
		t.Fatalf("only %d of %d plans change with the seed", differ, len(accts))
	}
}

// TestDeterministicReports: two runs with the same seed send the same positions at the same planned times
// (relative to the first), apart from the extra fix sent at each login.
func TestDeterministicReports(t *testing.T) {
	run := func() []string {
		fs := newFakeServer(t)
		ctx, cancel := context.WithCancel(context.Background())
		f, err := sim.New(sim.Options{URL: fs.url, Seed: 9, Rates: sim.Quiet, GPSInterval: 200 * time.Millisecond,
			Accounts: []sim.Account{{ID: "30000007", Password: "123456", Type: "6"}}})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { _ = f.Run(ctx); close(done) }()
		defer func() { cancel(); <-done }()
		fs.conn()
		var out []string
		var first int64
		for len(out) < 6 {
			fr := fs.await(func(f testkit.Frame) bool { return f.Type == "gps.report" }, 5*time.Second)
			var p struct {
				Lat, Lng float64
				Time     int64
			}
			_ = json.Unmarshal(fr.Data, &p)
			if first == 0 {
				first = -1 // the login fix: at the login's moment
				continue
			}
			if first == -1 {
				first = p.Time
			}
			out = append(out, strconv.FormatInt(p.Time-first, 10)+" "+strconv.FormatFloat(p.Lat, 'f', 6, 64)+","+
				strconv.FormatFloat(p.Lng, 'f', 6, 64))
		}
		return out
	}
	a, b := run(), run()
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two runs report differently:\n%v\n%v", a, b)
	}
}

// TestDemoAccountsMatchSeed: the simulator's copy of the demo layout matches what internal/demo seeds (every
// demo terminal and dispatcher position, with its type; the people's dispatchers are not simulated). The SIP
// accounts are not terminals of the fleet: the ones the demo simulates (RunSIPTalkers) are seeded SIP accounts.
func TestDemoAccountsMatchSeed(t *testing.T) {
	d := testkit.OpenStore(t, "sqlite")
	if _, err := demo.Seed(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	for _, p := range demo.SimulatedSIPPhones() {
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE id = ? AND kind = 'sip'`, p.ID); n != 1 {
			t.Errorf("simulated SIP phone %s: %d seeded SIP accounts, want 1", p.ID, n)
		}
	}
	rows, err := d.Query(context.Background(), `SELECT id, type FROM accounts WHERE id NOT IN ('10000001', '20000001')
		AND COALESCE(kind, '') <> 'sip'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seeded := map[string]string{}
	for rows.Next() {
		var id, typ string
		if err := rows.Scan(&id, &typ); err != nil {
			t.Fatal(err)
		}
		seeded[id] = typ
	}
	accts := sim.DemoAccounts()
	if len(accts) != len(seeded) || len(sim.FleetAccounts())+len(sim.DemoSpare()) != len(accts) {
		t.Fatalf("the simulator knows %d demo accounts (%d in fleets, %d spare), the seed has %d", len(accts),
			len(sim.FleetAccounts()), len(sim.DemoSpare()), len(seeded))
	}
	for _, a := range accts {
		if seeded[a.ID] != a.Type {
			t.Errorf("%s: seeded type %q, simulated as %q", a.ID, seeded[a.ID], a.Type)
		}
	}
}
