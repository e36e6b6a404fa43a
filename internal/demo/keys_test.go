package demo_test

import (
	"context"
	"testing"

	"tenfour/internal/branding"
	"tenfour/internal/demo"
	"tenfour/internal/platform/db"
	"tenfour/internal/secretkey"
	"tenfour/internal/testkit"
)

// TestSeedThemesAndKeys: Demo Fleet owns the demo's host names (ThemeHost unthemed, ready for /theme) and a key
// ring of two valid keys whose newer one is current; Second Tenant owns no host and no key.
func TestSeedThemesAndKeys(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if seeded, err := demo.Seed(ctx, d); err != nil || !seeded {
			t.Fatalf("seed: %v %v", seeded, err)
		}
		fleet, second := customer(t, d, "Demo Fleet"), customer(t, d, "Second Tenant")
		hosts, err := branding.NewStore(d).Hosts(ctx, fleet)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, h := range hosts {
			got[h.Hostname] = h.HasTheme
		}
		if themed, ok := got[demo.ThemeHost]; !ok || themed || !got[demo.BrandedHost] || len(got) != 2+len(demo.DemoHosts) {
			t.Fatalf("hosts %v", got)
		}
		keys, err := secretkey.NewStore(d).List(ctx, fleet)
		if err != nil || len(keys) != len(demo.DemoKeys) {
			t.Fatalf("keys %+v %v", keys, err)
		}
		last := demo.DemoKeys[len(demo.DemoKeys)-1]
		if !keys[0].Current || keys[0].SecretKey != last.Key || keys[1].Current || keys[0].RotateTime == 0 {
			t.Fatalf("current key %+v", keys)
		}
		for _, k := range keys {
			if !secretkey.ValidKey(k.SecretKey) {
				t.Fatalf("demo key %q breaks spec §5", k.SecretKey)
			}
		}
		if n, _ := branding.NewStore(d).Hosts(ctx, second); len(n) != 0 {
			t.Fatalf("Second Tenant's hosts %v", n)
		}
		if l, _ := secretkey.NewStore(d).List(ctx, second); len(l) != 0 {
			t.Fatalf("Second Tenant's keys %v", l)
		}
	})
}
