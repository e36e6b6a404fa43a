package sim

import "testing"

// The in-process fleet never runs the accounts people sign in with; it runs every other demo terminal, of
// both demo customers.
func TestFleetLeavesPeopleAccountsFree(t *testing.T) {
	fleet := FleetAccounts()
	if len(fleet) != len(DemoAccounts())-27 {
		t.Fatalf("fleet runs %d of %d demo terminals, want all but 27", len(fleet), len(DemoAccounts()))
	}
	seen := map[string]bool{}
	for _, a := range fleet {
		if a.ID >= "10000150" && a.ID <= "10000176" {
			t.Fatalf("the fleet runs people's account %s", a.ID)
		}
		seen[a.ID[:1]] = true
	}
	if !seen["1"] || !seen["2"] {
		t.Fatalf("the fleet must cover both demo customers, saw %v", seen)
	}
}
