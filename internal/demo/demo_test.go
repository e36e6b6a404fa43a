package demo_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"testing"

	"tenfour/internal/auth"
	"tenfour/internal/broadcast"
	"tenfour/internal/config"
	"tenfour/internal/demo"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

func customer(t *testing.T, d *db.DB, name string) int64 {
	t.Helper()
	var id int64
	if err := d.QueryRow(context.Background(), `SELECT id FROM customers WHERE name = ?`, name).Scan(&id); err != nil {
		t.Fatalf("customer %s: %v", name, err)
	}
	return id
}

func TestSeed(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		seeded, err := demo.Seed(ctx, d)
		if err != nil || !seeded {
			t.Fatalf("seed: %v %v", seeded, err)
		}
		fleet, second := customer(t, d, "Demo Fleet"), customer(t, d, "Second Tenant")
		store := directory.NewStore(d)

		// [broadcast] each customer: at least 8 speakers in 2 organisations, registrable with the demo password
		for _, c := range []int64{fleet, second} {
			if n := testkit.Count(t, d, `SELECT COUNT(DISTINCT org_id) FROM bc_devices WHERE customer_id = ?`, c); n != 2 {
				t.Errorf("customer %d: speakers in %d organisations, want 2", c, n)
			}
			if n := testkit.Count(t, d, `SELECT COUNT(*) FROM bc_devices WHERE customer_id = ?`, c); n < 8 {
				t.Errorf("customer %d: %d speakers, want at least 8", c, n)
			}
		}
		logins, err := broadcast.New(d, auth.NewService(d, auth.NewSessions(d, nil), nil), nil, broadcast.Options{}).DemoSpeakers(ctx)
		if err != nil || len(logins) < 16 {
			t.Errorf("demo speakers: %d (%v), want 16", len(logins), err)
		}

		// Groups: at least 6, one nested.
		tree, err := store.Tree(ctx, fleet, false)
		if err != nil {
			t.Fatal(err)
		}
		groups, nested := 0, 0
		var walk func([]*directory.Group)
		walk = func(gs []*directory.Group) {
			for _, g := range gs {
				groups++
				if g.Deep > 1 {
					nested++
				}
				walk(g.Children)
			}
		}
		walk(tree)
		if groups < 6 || nested == 0 {
			t.Fatalf("groups %d nested %d", groups, nested)
		}

		// 76 terminals 10000101…10000176 of every type, around Istanbul, with battery and signal (the SIP
		// accounts after them).
		list, total, err := store.Terminals(ctx, fleet, directory.FindTerminals{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if total != 87 {
			t.Fatalf("accounts %d, want the dispatcher, 76 terminals and 10 SIP accounts", total)
		}
		// The SIP accounts 10000180…10000189 (sip.go): kind sip, each with its digest credential (it can
		// register), the last two radio gateways (type 8).
		const sipIDs = `id BETWEEN '10000180' AND '10000189'`
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE `+sipIDs+` AND customer_id = ? AND kind = 'sip'`, fleet); n != 10 {
			t.Fatalf("%d SIP accounts 10000180…10000189 of Demo Fleet, want 10", n)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM sip_digests WHERE account_`+sipIDs); n != 10 {
			t.Fatalf("%d of them have a digest credential, want 10", n)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE `+sipIDs+` AND type = '8'`); n != 2 {
			t.Fatalf("%d radio gateways among them, want 2", n)
		}
		types := map[string]bool{}
		for i, term := range list[1:77] {
			if want := fmt.Sprint(10000101 + i); term.CID != want {
				t.Fatalf("terminal %d is %s, want %s", i, term.CID, want)
			}
			types[term.Type] = true
			if term.Battery < 0 || term.Battery > 100 || term.Signal < 0 || term.Signal > 5 {
				t.Errorf("%s battery %d signal %d", term.CID, term.Battery, term.Signal)
			}
			if term.Type != "20" {
				if term.Lat == nil || math.Abs(*term.Lat-41.01) > 0.1 || math.Abs(*term.Lng-28.97) > 0.15 || term.LastGps == 0 {
					t.Errorf("%s is not around Istanbul: %v %v", term.CID, term.Lat, term.Lng)
				}
			}
			if term.Grp == "" {
				t.Errorf("%s has no group", term.CID)
			}
		}
		for _, typ := range []string{"20", "10", "8", "6", "0", "PMR", "DMR", "505", "camera"} {
			if !types[typ] {
				t.Errorf("no terminal of type %s", typ)
			}
		}
		if app, _ := store.Terminal(ctx, fleet, "10000150"); app.Type != "10" {
			t.Errorf("10000150 is type %q, want 10 (App)", app.Type)
		}

		// Dispatchers: administrators with a default group, and the shared password.
		for _, id := range []string{"10000001", "20000001"} {
			if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE id = ? AND type = '20' AND admin = TRUE
				AND default_group_id IS NOT NULL`, id); n != 1 {
				t.Errorf("dispatcher %s", id)
			}
		}
		// The second tenant owns its own groups and 2000xxxx terminals, broadcast off.
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE customer_id = ? AND id NOT LIKE '2000%'`, second); n != 0 {
			t.Errorf("%d second-tenant accounts outside 2000xxxx", n)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts WHERE customer_id = ? AND type <> '20'`, second); n < 5 {
			t.Errorf("second tenant has %d terminals", n)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM group_members m JOIN ptt_groups g ON g.id = m.group_id
			JOIN accounts a ON a.id = m.account_id WHERE g.customer_id <> a.customer_id`); n != 0 {
			t.Errorf("%d memberships cross customers", n)
		}
		if n := testkit.Count(t, d, `SELECT COUNT(*) FROM host_branding WHERE hostname = ? AND theme_color = ?`,
			demo.BrandedHost, demo.BrandedColor); n != 1 {
			t.Error("no branding for the demo host")
		}

		// Idempotent: never seeds again.
		before := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts`)
		if seeded, err := demo.Seed(ctx, d); err != nil || seeded {
			t.Fatalf("second seed: %v %v", seeded, err)
		}
		if err := demo.Prepare(ctx, d, true); err != nil {
			t.Fatal(err)
		}
		if after := testkit.Count(t, d, `SELECT COUNT(*) FROM accounts`); after != before {
			t.Fatalf("re-seeded: %d → %d accounts", before, after)
		}
	})
}

func TestPrepareWithoutDemo(t *testing.T) {
	d := testkit.OpenStore(t, "sqlite")
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(old)
	if err := demo.Prepare(context.Background(), d, false); err != nil {
		t.Fatal(err)
	}
	if n := testkit.Count(t, d, `SELECT COUNT(*) FROM customers`); n != 0 {
		t.Fatalf("seeded without --demo: %d customers", n)
	}
	if !strings.Contains(buf.String(), "tenfour admin") {
		t.Fatalf("no hint on how to create the first account: %q", buf.String())
	}
}

// The demo as a user meets it: `serve --demo`, sign in as 10000001 / 123456, see the fleet; the second
// tenant sees only its own.
func TestDemoServer(t *testing.T) {
	s := testkit.Start(t, func(c *config.Config) { c.Demo = true })
	signIn := func(uid string) string {
		t.Helper()
		r := s.Do("GET", "/ds/user", "", map[string]any{"uid": uid, "auth": demo.Password})
		var res struct{ Token string }
		r.Into(t, &res)
		if r.Code != "0" || res.Token == "" {
			t.Fatalf("sign in %s: %+v", uid, r)
		}
		return res.Token
	}
	ids := func(tok string) []string {
		t.Helper()
		r := s.Do("GET", "/ds/nms/getTerminalByClient", tok, map[string]any{"pageSize": 1000})
		var res struct {
			List []directory.Terminal `json:"list"`
		}
		r.Into(t, &res)
		var out []string
		for _, term := range res.List {
			out = append(out, term.CID)
		}
		return out
	}
	fleet := ids(signIn("10000001"))
	if len(fleet) != 87 || !slices.Contains(fleet, "10000189") || slices.ContainsFunc(fleet, func(id string) bool { return strings.HasPrefix(id, "2000") }) {
		t.Fatalf("Demo Fleet sees %v", fleet)
	}
	second := ids(signIn("20000001"))
	if len(second) < 6 || slices.ContainsFunc(second, func(id string) bool { return strings.HasPrefix(id, "1000") }) {
		t.Fatalf("Second Tenant sees %v", second)
	}
	// A demo terminal logs in over the socket with the demo password.
	c := s.Dial()
	if r := c.Call("session.login", map[string]any{"client": "terminal", "uid": "10000150", "auth": demo.Password}); r.Code != "0" {
		t.Fatalf("terminal login %+v", r)
	}
	if r := s.Do("GET", "/ds/pub/theme", "", map[string]any{"hostname": demo.BrandedHost}); !strings.Contains(string(r.Result), demo.BrandedColor) {
		t.Fatalf("branding %s", r.Result)
	}
	// Istanbul in km: the demo's addresses show km/h next to km; another host keeps the spec's default, mph.
	for host, want := range map[string]string{"127.0.0.1": "km/h", "localhost": "km/h", "127.0.0.9": "mph"} {
		var cfg struct {
			SpeedUnit string `json:"speedUnit"`
		}
		s.Do("GET", "/ds/pub/clientConfig", "", map[string]any{"hostname": host}).Into(t, &cfg)
		if cfg.SpeedUnit != want {
			t.Fatalf("%s: speed unit %q, want %q", host, cfg.SpeedUnit, want)
		}
	}
}

// TestMain: the demo's accounts and SIP phones make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
