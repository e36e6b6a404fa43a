package main

import (
	"context"
	"testing"

	"tenfour/internal/auth"
)

// TestAdminAccountCommands runs the account commands against a real SQLite store the way an operator does.
func TestAdminAccountCommands(t *testing.T) {
	a := newAdminScript(t)
	a.ok([][]string{
		{"create-customer", "--name", "Acme"},
		{"create-dispatcher", "--customer", "Acme", "--uid", "10000001", "--name", "Boss", "--password", "123456", "--admin", "--email", "boss@example.com"},
		{"create-terminal", "--customer", "Acme", "--uid", "10000101", "--name", "Unit 1", "--type", "PMR", "--password", "654321", "--group", "Field"},
		{"create-terminal", "--customer", "Acme", "--uid", "10000180", "--name", "Desk phone", "--type", "8", "--password", "123456", "--sip"},
		{"reset-password", "--uid", "10000101", "--password", "Unit#pass1"},
		{"reset-password", "--uid", "10000180", "--password", "Phone#pass1"},
		{"link-oauth", "--uid", "10000001", "--platform", "github", "--oauth", "gh-1"},
		{"sip-talk", "--customer", "Acme", "--uid", "10000180", "--talk", "voice"},
	})
	a.refused([]refusal{
		{[]string{"create-customer"}, "--name is required"},
		{[]string{"create-customer", "--name", "Acme"}, "exists"},
		{[]string{"create-dispatcher", "--customer", "Nope", "--uid", "10000002", "--name", "X", "--password", "123456"}, "no customer"},
		{[]string{"create-dispatcher", "--customer", "Acme", "--uid", "1000000", "--name", "X", "--password", "123456"}, "8 digits"},
		{[]string{"create-dispatcher", "--customer", "Acme", "--uid", "10000001", "--name", "X", "--password", "123456"}, "exists"},
		{[]string{"create-dispatcher", "--customer", "Acme", "--uid", "10000002", "--name", "X", "--password", "weak"}, "password"},
		{[]string{"create-terminal", "--customer", "Acme", "--uid", "10000102", "--name", "X", "--type", "20", "--password", "123456"}, "create-dispatcher"},
		{[]string{"create-terminal", "--customer", "Acme", "--uid", "10000102", "--name", "X", "--type", "radio", "--password", "123456"}, "type"},
		{[]string{"reset-password", "--uid", "10000999", "--password", "123456"}, "not found"},
		{[]string{"link-oauth", "--uid", "10000001", "--platform", "github", "--oauth", "gh-1"}, "linked already"},
		{[]string{"create-customer", "--name", "B", "stray"}, "unexpected"},
		{[]string{"sip-talk", "--customer", "Acme", "--uid", "10000180", "--talk", "loud"}, "auto, keys or voice"},
		{[]string{"sip-talk", "--customer", "Acme", "--uid", "10000101", "--talk", "voice"}, "not a SIP account"},
	})

	// The accounts work: check the stored rows through the store.
	ctx := context.Background()
	store := a.store()
	var typ, group, email string
	var hash string
	if err := store.QueryRow(ctx, `SELECT a.type, g.name, a.email, a.password_hash FROM accounts a
		JOIN ptt_groups g ON g.id = a.default_group_id WHERE a.id = '10000101'`).Scan(&typ, &group, &email, &hash); err != nil {
		t.Fatal(err)
	}
	if ok, _ := auth.CheckPassword(hash, "Unit#pass1"); typ != "PMR" || group != "Field" || email != "" || !ok {
		t.Fatalf("terminal row: %s %s %q password ok %v", typ, group, email, ok)
	}
	// --sip: the kind and a digest credential (kept through the reset); other accounts get none.
	var kind string
	var digests int
	if err := store.QueryRow(ctx, `SELECT a.kind, (SELECT COUNT(*) FROM sip_digests d WHERE d.account_id = a.id)
		FROM accounts a WHERE a.id = '10000180'`).Scan(&kind, &digests); err != nil || kind != "sip" || digests != 1 {
		t.Fatalf("SIP account row: kind %q, %d digests, %v", kind, digests, err)
	}
	// sip-talk: the account's talk setting; the terminal that is no SIP account keeps the default.
	var talk, other string
	if err := store.QueryRow(ctx, `SELECT (SELECT sip_talk FROM accounts WHERE id = '10000180'), (SELECT sip_talk FROM accounts WHERE id = '10000101')`).Scan(&talk, &other); err != nil || talk != "voice" || other != "auto" {
		t.Fatalf("talk settings: SIP account %q, terminal %q (%v)", talk, other, err)
	}
	if err := store.QueryRow(ctx, `SELECT COUNT(*) FROM sip_digests WHERE account_id <> '10000180'`).Scan(&digests); err != nil || digests != 0 {
		t.Fatalf("%d digests of accounts that are not SIP accounts (%v)", digests, err)
	}
	if err := store.QueryRow(ctx, `SELECT g.name, a.email FROM accounts a JOIN ptt_groups g ON g.id = a.default_group_id
		WHERE a.id = '10000001' AND a.admin = TRUE`).Scan(&group, &email); err != nil || group != "Default" || email != "boss@example.com" {
		t.Fatalf("dispatcher row: %s %s %v", group, email, err)
	}
}
