package main

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"tenfour/internal/directory"
	sipside "tenfour/internal/sip"
)

// An operator adds a customer's SIP trunk with its numbers, lists it and removes it; a number into a group the
// trunk's account is not in, to an account that is not a dispatcher or written wrong, a second trunk of the same
// name and removing one that does not exist are refused.
func TestAdminSIPTrunk(t *testing.T) {
	a := newAdminScript(t)
	a.ok([][]string{
		{"create-customer", "--name", "Acme"},
		{"create-terminal", "--customer", "Acme", "--uid", "10000180", "--name", "Trunk", "--type", "8", "--password", "123456", "--sip", "--group", "Ops"},
		{"create-dispatcher", "--customer", "Acme", "--uid", "10000001", "--name", "Desk", "--password", "123456", "--group", ""},
	})
	store := a.store()
	customer := a.customer(store, "Acme")
	var gid int64
	if err := store.QueryRow(context.Background(), `SELECT id FROM ptt_groups WHERE customer_id = ? AND name = 'Ops'`, customer).Scan(&gid); err != nil {
		t.Fatal(err)
	}
	add := []string{"sip-trunk", "add", "--customer", "Acme", "--name", "pbx", "--registrar", "pbx.example:5060", "--user", "tenfour",
		"--password", "pw", "--account", "10000180"}
	a.refused([]refusal{
		{slices.Concat(add, []string{"--number", "100=group:999999"}), "not a member"},
		{slices.Concat(add, []string{"--number", "100=dispatcher:10000180"}), "not a dispatcher"},
		{slices.Concat(add, []string{"--number", "100=elsewhere"}), "NUMBER=group:GID"},
		{[]string{"sip-trunk", "rename"}, "add|list|remove"},
	})
	a.ok([][]string{
		slices.Concat(add, []string{"--number", "5551234=group:" + strconv.FormatInt(gid, 10), "--number", "5550000=dispatcher:10000001"}),
		{"sip-trunk", "list", "--customer", "Acme"},
	})
	a.refused([]refusal{
		{add, "a trunk of that name"},
		{[]string{"sip-trunk", "remove", "--customer", "Acme", "--name", "nope"}, "no trunk"},
	})
	list, err := sipside.NewTrunkStore(store).List(context.Background(), customer)
	if err != nil || len(list) != 1 {
		t.Fatalf("trunks %+v %v, want pbx", list, err)
	}
	want := []sipside.TrunkNumber{{Number: "5550000", Dispatcher: "10000001"}, {Number: "5551234", Group: directory.GroupID(gid)}}
	if tr := list[0]; tr.Registrar != "pbx.example:5060" || tr.Username != "tenfour" || tr.AccountID != "10000180" || !slices.Equal(tr.Numbers, want) {
		t.Fatalf("trunk %+v", tr)
	}
	a.ok([][]string{{"sip-trunk", "remove", "--customer", "Acme", "--name", "pbx"}})
	if list, err := sipside.NewTrunkStore(store).List(context.Background(), customer); err != nil || len(list) != 0 {
		t.Fatalf("after remove: %+v %v", list, err)
	}
}
