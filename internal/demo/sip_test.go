package demo_test

import (
	"context"
	"testing"

	"tenfour/internal/demo"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

// The demo's SIP accounts: ten of Demo Fleet, kind sip, each with its digest credential (it can register), the last
// two radio gateways (terminal type 8).
func TestSeedSIPAccounts(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		if _, err := demo.Seed(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		fleet := customer(t, d, "Demo Fleet")
		const in = `id BETWEEN '10000180' AND '10000189'`
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE `+in+` AND customer_id = ? AND kind = 'sip'`, fleet); n != 10 {
			t.Fatalf("%d SIP accounts 10000180…10000189 of Demo Fleet, want 10", n)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM sip_digests WHERE account_`+in); n != 10 {
			t.Fatalf("%d of them have a digest credential, want 10", n)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE `+in+` AND type = '8'`); n != 2 {
			t.Fatalf("%d radio gateways among them, want 2", n)
		}
	})
}
