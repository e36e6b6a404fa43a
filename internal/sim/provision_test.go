package sim_test

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/testkit"

	"tenfour/internal/sim"
)

// TestProvision creates a fleet's accounts in a running server's store; its terminals — and a dispatcher
// position signing in like a console — then log in.
func TestProvision(t *testing.T) {
	s := demoServer(t)
	ctx := context.Background()
	o := sim.ProvisionOptions{Customer: "Load", First: 30000001, Count: 120, Password: "123456", GroupSize: 50,
		Dispatcher: "30000000"}
	res, err := sim.Provision(ctx, s.DB, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Created != 120 || res.Groups != 3 {
		t.Fatalf("provisioned %+v", res)
	}
	if again, err := sim.Provision(ctx, s.DB, o); err != nil || again.Created != 0 || again.CustomerID != res.CustomerID {
		t.Fatalf("provisioning again: %+v, %v", again, err)
	}
	overlap := o
	overlap.First, overlap.Dispatcher = 30000100, ""
	if _, err := sim.Provision(ctx, s.DB, overlap); err == nil {
		t.Fatal("a range overlapping existing accounts was provisioned")
	}
	weak := o
	weak.First, weak.Password = 31000001, "abc"
	if _, err := sim.Provision(ctx, s.DB, weak); err == nil {
		t.Fatal("a weak password was accepted")
	}
	// The last PhoneApps terminals talk (type 10) whatever the mix gives them; the others keep the mix.
	apps := o
	apps.First, apps.Count, apps.Dispatcher, apps.PhoneApps = 32000001, 6, "", 3
	if _, err := sim.Provision(ctx, s.DB, apps); err != nil {
		t.Fatal(err)
	}
	list, err := directory.NewStore(s.DB).Accounts(ctx, directory.CustomerID(res.CustomerID),
		[]directory.TerminalID{"32000001", "32000002", "32000003", "32000004", "32000005", "32000006"})
	if err != nil || len(list) != 6 {
		t.Fatalf("phone-app fleet %+v %v", list, err)
	}
	for i, a := range list {
		want := sim.MixType(i)
		if i >= 3 {
			want = "10"
		}
		if a.Type != want {
			t.Fatalf("%s is of type %s, want %s", a.ID, a.Type, want)
		}
	}
	var n int
	if err := s.DB.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE customer_id = ? AND type = ?`, res.CustomerID,
		sim.MixType(0)).Scan(&n); err != nil || n == 0 {
		t.Fatalf("%d accounts of type %s, %v", n, sim.MixType(0), err)
	}

	accts, err := sim.RangeAccounts(30000001, 6, "123456")
	if err != nil {
		t.Fatal(err)
	}
	accts = append(accts, sim.Account{ID: "30000000", Password: "123456", Type: "20"})
	f := testkit.RunFleet(t, sim.Options{URL: s.URL, Accounts: accts, Seed: 1, Rates: sim.Quiet, Loopback: true})
	testkit.Eventually(t, 20*time.Second, "the provisioned terminals and the dispatcher position online", func() bool {
		for _, term := range f.Terminals() {
			if !term.Online() {
				return false
			}
		}
		return true
	})
	if f.Terminal("30000000").PttGroup() == "" {
		testkit.Eventually(t, 5*time.Second, "the dispatcher position's group", func() bool { return f.Terminal("30000000").PttGroup() != "" })
	}
}
