package tenant_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/tenant"
	"tenfour/internal/testkit"
)

func TestCustomers(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()

		if none, err := tenant.None(ctx, d); err != nil || !none {
			t.Fatalf("a new store: none %v %v", none, err)
		}
		acme, err := tenant.Create(ctx, d, "  Acme ")
		if err != nil {
			t.Fatal(err)
		}
		if none, err := tenant.None(ctx, d); err != nil || none {
			t.Fatalf("with a customer: none %v %v", none, err)
		}
		if _, err := tenant.Create(ctx, d, "Acme"); !errors.Is(err, tenant.ErrExists) {
			t.Fatalf("duplicate customer: %v", err)
		}
		for _, bad := range []string{"", "   ", strings.Repeat("n", tenant.MaxName+1), "Acme\u202e"} {
			if _, err := tenant.Create(ctx, d, bad); err == nil || strings.HasPrefix(err.Error(), "400") {
				t.Fatalf("customer name %q: %v, want a shell error", bad, err)
			}
		}
		if id, err := tenant.ByName(ctx, d, "Acme "); err != nil || id != acme {
			t.Fatalf("ByName: %d %v", id, err)
		}
		if _, err := tenant.ByName(ctx, d, "Nope"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown customer: %v", err)
		}
		unknown := acme + 1000
		if err := tenant.Exists(ctx, d, acme); err != nil {
			t.Fatal(err)
		}
		if err := tenant.Exists(ctx, d, unknown); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("Exists of an unknown id: %v", err)
		}

		want := tenant.Settings{DSConfig: "{}", Version: "1", TimeZone: "0", Language: "en-US"}
		if got, err := tenant.Get(ctx, d, acme); err != nil || got != want {
			t.Fatalf("Get = %+v %v, want %+v", got, err, want)
		}
		if err := tenant.SetDSConfig(ctx, d, acme, `{"map":0}`); err != nil {
			t.Fatal(err)
		}
		if got, _ := tenant.Get(ctx, d, acme); got.DSConfig != `{"map":0}` {
			t.Fatalf("ds_config after SetDSConfig %q", got.DSConfig)
		}
		if err := tenant.SetDSConfig(ctx, d, unknown, `{}`); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("SetDSConfig of an unknown id: %v", err)
		}
		if _, err := tenant.Get(ctx, d, unknown); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("Get of an unknown id: %v", err)
		}

		seeded, err := seed(ctx, d, tenant.New{Name: "Seeded", DSConfig: `{"patrol":1}`})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := tenant.Get(ctx, d, seeded); got.DSConfig != `{"patrol":1}` {
			t.Fatalf("seeded ds_config %q", got.DSConfig)
		}

		// The zone: the stored hours through ZoneOf; an unreadable value is UTC, an unknown customer an error.
		for tz, want := range map[string]int{"-3.5": -3*3600 - 1800, "junk": 0, "8": 8 * 3600} {
			if _, err := d.Exec(ctx, `UPDATE customers SET time_zone = ? WHERE id = ?`, tz, acme); err != nil {
				t.Fatal(err)
			}
			loc, err := tenant.TimeZone(ctx, d, acme)
			if err != nil {
				t.Fatal(err)
			}
			if _, off := time.Unix(0, 0).In(loc).Zone(); off != want {
				t.Errorf("time_zone %q: offset %d, want %d", tz, off, want)
			}
		}
		if _, err := tenant.TimeZone(ctx, d, unknown); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("TimeZone of an unknown customer: %v", err)
		}
	})
}

// seed adds a customer inside a transaction, as the demo and the simulator do.
func seed(ctx context.Context, d *db.DB, c tenant.New) (id int64, err error) {
	err = d.InTx(ctx, func(tx *db.Tx) error {
		id, err = tenant.Add(ctx, tx, c)
		return err
	})
	return id, err
}

func TestZoneOf(t *testing.T) {
	for in, want := range map[string]int{
		"8": 8 * 3600, "-3.5": -3*3600 - 1800, "5.75": 5*3600 + 45*60, " 14 ": 14 * 3600,
		"0": 0, "": 0, "x": 0, "99": 0, "-14.5": 0, "NaN": 0,
	} {
		_, off := time.Unix(0, 0).In(tenant.ZoneOf(in)).Zone()
		if off != want {
			t.Errorf("ZoneOf(%q) offset %d, want %d", in, off, want)
		}
	}
}
