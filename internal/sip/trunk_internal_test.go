package sip

import "testing"

// A trunk whose row changed only in its registration's status is the same trunk (it keeps registering); any
// other change — a number's target included — makes it a new one (SyncTrunks un-REGISTERs and starts it again).
func TestSameTrunk(t *testing.T) {
	base := TrunkConfig{ID: 1, CustomerID: 2, Name: "pbx", Registrar: "pbx.example:5060", Username: "u", Password: "p",
		AccountID: "10000180", Numbers: []TrunkNumber{{Number: "100", Group: 7}}}
	status := base
	status.Status, status.StatusAt = "registered", 1700000000000
	if !sameTrunk(base, status) {
		t.Error("a new status made another trunk")
	}
	moved := base
	moved.Numbers = []TrunkNumber{{Number: "100", Group: 8}}
	password := base
	password.Password = "q"
	for name, c := range map[string]TrunkConfig{"a number's group": moved, "the password": password} {
		if sameTrunk(base, c) {
			t.Errorf("%s changed, the trunk is the same", name)
		}
	}
}
