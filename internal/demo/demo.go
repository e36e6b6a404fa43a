// Package demo seeds the demo data of `tenfour serve --demo` on an empty database: customer "Demo Fleet"
// (dispatcher 10000001 / 123456, administrator; 7 groups, one level nested; 60 terminals 10000101…10000160
// of every spec §3 type around Istanbul; SIP desk phones and radio gateways 10000180…10000189, sip.go), customer "Second Tenant" (dispatcher 20000001 / 123456, its own
// groups and terminals 20000101…20000112 around Izmir, broadcast switched off in its data-source
// configuration), a branding record for host 127.0.0.2 (theme colour #d4380d) so a browser can prove
// branding applies, and km/h client configurations for the demo's own addresses (DemoHosts). It never seeds a database that already has a customer.
package demo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/branding"
	"tenfour/internal/broadcast"
	"tenfour/internal/directory"
	"tenfour/internal/patrol"
	"tenfour/internal/platform/db"
	"tenfour/internal/secretkey"
	customers "tenfour/internal/tenant"
	"tenfour/internal/video"
)

// Password is the original password of every demo account.
const Password = "123456"

// BrandedHost is the host name whose branding the demo seeds.
const BrandedHost = "127.0.0.2"

// brandedTopIco is BrandedHost's top-bar icon: a disc of its theme colour.
const brandedTopIco = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%2032%2032'%3E" +
	"%3Ccircle%20cx='16'%20cy='16'%20r='14'%20fill='%23d4380d'/%3E%3C/svg%3E"

// BrandedColor is the theme colour of BrandedHost.
const BrandedColor = "#d4380d"

// Prepare runs at start-up: with enabled it seeds an empty database; without it, an empty database gets a
// log line saying how to create the first account.
func Prepare(ctx context.Context, d *db.DB, enabled bool) error {
	empty, err := customers.None(ctx, d)
	if err != nil {
		return err
	}
	switch {
	case !empty && enabled:
		slog.Info("demo: the database has data already; not seeding")
	case empty && !enabled:
		slog.Info("empty database: no customer or account yet. Create a customer and its first dispatcher with " +
			"`tenfour admin` (list the commands with `tenfour admin help`), or start with `tenfour serve --demo` " +
			"for demo data (dispatcher 10000001 / 123456)")
	case empty && enabled:
		seeded, err := Seed(ctx, d)
		if err != nil {
			return fmt.Errorf("demo seed: %w", err)
		}
		if seeded {
			slog.Info("demo data seeded", "dispatcher", "10000001", "password", Password,
				"second_tenant_dispatcher", "20000001", "branded_host", BrandedHost)
		}
	}
	return nil
}

type group struct {
	name, color, parent string
}

type termRange struct {
	from, to     int // last digits: id = base + n
	typ, model   string
	name         string
	groups       []string // first = default and ptt group
	noPosition   bool
	stationary   bool
	mainsPowered bool
}

type tenant struct {
	name       string
	dsConfig   string
	base       int // account ids are base + n
	dispatcher string
	center     [2]float64 // lat, lng
	groups     []group
	terms      []termRange
}

var tenants = []tenant{
	{
		name: "Demo Fleet", dsConfig: `{}`, base: 10000000, dispatcher: "Dispatcher",
		center: [2]float64{41.01, 28.97},
		groups: []group{
			{name: "Operations", color: "#1677ff"},
			{name: "Patrol North", color: "#13c2c2", parent: "Operations"},
			{name: "Patrol South", color: "#52c41a", parent: "Operations"},
			{name: "Maintenance", color: "#fa8c16"},
			{name: "Emergency", color: "#f5222d"},
			{name: "Logistics", color: "#722ed1"},
			{name: "Cameras", color: "#8c8c8c"},
		},
		terms: []termRange{
			{from: 101, to: 106, typ: "6", model: "T320", name: "Patrol N", groups: []string{"Patrol North"}},
			{from: 107, to: 112, typ: "6", model: "T320", name: "Patrol S", groups: []string{"Patrol South"}},
			{from: 113, to: 120, typ: "0", model: "P50", name: "Tech", groups: []string{"Maintenance"}},
			{from: 121, to: 125, typ: "PMR", model: "PMR-446", name: "PMR", groups: []string{"Logistics"}},
			{from: 126, to: 130, typ: "DMR", model: "DMR-X2", name: "DMR", groups: []string{"Logistics", "Maintenance"}},
			{from: 131, to: 133, typ: "8", model: "GW-100", name: "Gateway", groups: []string{"Operations"}, stationary: true, mainsPowered: true},
			{from: 134, to: 137, typ: "505", model: "SOS Tag", name: "SOS", groups: []string{"Emergency"}},
			{from: 138, to: 142, typ: "camera", model: "IPC-720", name: "Camera", groups: []string{"Cameras"}, stationary: true, mainsPowered: true},
			{from: 143, to: 149, typ: "10", model: "Android App", name: "App", groups: []string{"Patrol North", "Patrol South"}},
			{from: 150, to: 157, typ: "10", model: "iOS App", name: "App", groups: []string{"Emergency", "Operations"}},
			{from: 158, to: 160, typ: "20", model: "Console", name: "Console", groups: []string{"Operations", "Emergency"}, noPosition: true},
			{from: 161, to: 176, typ: "10", model: "iOS App", name: "App", groups: []string{"Emergency", "Operations"}},
		},
	},
	{
		name: "Second Tenant", dsConfig: `{"broadcast":0,"multiScreen":0}`, base: 20000000, dispatcher: "Tenant Two Dispatcher",
		center: [2]float64{38.42, 27.14},
		groups: []group{
			{name: "Harbor", color: "#2f54eb"},
			{name: "Cranes", color: "#faad14", parent: "Harbor"},
			{name: "Airport", color: "#eb2f96"},
		},
		terms: []termRange{
			{from: 101, to: 104, typ: "6", model: "T320", name: "Harbor", groups: []string{"Harbor"}},
			{from: 105, to: 106, typ: "DMR", model: "DMR-X2", name: "Crane", groups: []string{"Cranes"}},
			{from: 107, to: 110, typ: "10", model: "Android App", name: "Airport App", groups: []string{"Airport"}},
			{from: 111, to: 111, typ: "505", model: "SOS Tag", name: "Airport SOS", groups: []string{"Airport"}},
			{from: 112, to: 112, typ: "camera", model: "IPC-720", name: "Gate Camera", groups: []string{"Airport"}, stationary: true, mainsPowered: true},
		},
	},
}

// Seed writes the demo data in one transaction unless the database has a customer already; it reports
// whether it seeded.
func Seed(ctx context.Context, d *db.DB) (bool, error) {
	// One hash for every demo account: they share the password, and argon2id per account would make start-up
	// (and every test that seeds) slow for nothing. Real accounts get their own salt (auth.CreateAccount).
	hash, err := auth.HashPassword(Password)
	if err != nil {
		return false, err
	}
	seeded := false
	err = d.InTx(ctx, func(tx *db.Tx) error {
		empty, err := customers.None(ctx, tx)
		if err != nil || !empty {
			return err
		}
		rng := rand.New(rand.NewPCG(10, 4)) // the same demo on every run
		now := time.Now().UnixMilli()
		for _, t := range tenants {
			if err := seedTenant(ctx, tx, t, hash, now, rng); err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
		}
		seeded = true
		return nil
	})
	if err != nil || !seeded {
		return false, err
	}
	bs := branding.NewStore(d)
	if err := bs.SetBranding(ctx, BrandedHost, branding.Branding{
		SysName:    "tenfour Demo Dispatch",
		ThemeColor: BrandedColor,
		Remark:     branding.EncodeRemark(branding.Remark{LogoPageBg: "#fff2e8", LoginFrameColor: BrandedColor}),
	}); err != nil {
		return true, err
	}
	// Its top-bar icon and a multi-screen page (spec §3 topIco, moreScreenUrl): the console's top bar shows the one
	// and its launcher opens the other (tests/e2e/signin.mjs).
	if err := bs.SetClientConfig(ctx, BrandedHost, branding.ClientConfig{Title: "tenfour Demo Dispatch", SpeedUnit: "km/h",
		TopIco: brandedTopIco, MoreScreenUrl: "/os-monitoring-child"}); err != nil {
		return true, err
	}
	// The demo fleet drives around Istanbul and the console shows distances in km: its own addresses get km/h so
	// one screen never shows mph next to km (the spec's default, mph, stays for every other host).
	for _, h := range DemoHosts {
		if err := bs.SetClientConfig(ctx, h, branding.ClientConfig{SpeedUnit: "km/h"}); err != nil {
			return true, err
		}
	}
	if err := seedThemesAndKeys(ctx, d, bs); err != nil {
		return true, err
	}
	// Video (docs/video.md): Demo Fleet bought 10 hours of video calls, 4 at once, 30 minutes each, and records its
	// calls and monitorings (§5); the second tenant keeps the defaults (no credit limit, no recording).
	demoID, err := customers.ByName(ctx, d, "Demo Fleet")
	if err != nil {
		return true, err
	}
	if err := seedSIP(ctx, d, demoID); err != nil { // sip.go: the desk phones and radio gateways
		return true, err
	}
	if err := video.NewStore(d, nil).SetLimits(ctx, demoID, video.Limits{MaxCalls: 4, MaxMonitors: 16, MaxDuration: 1800,
		CreditMs: 10 * 3600 * 1000, Record: true}, time.Now().UnixMilli()); err != nil {
		return true, err
	}
	return true, nil
}

// Dispatcher is the demo customer "Demo Fleet"'s dispatcher.
const Dispatcher = "10000001"

// FleetCustomer is the id of the demo customer "Demo Fleet" (ok false when the database has none: not a demo).
func FleetCustomer(ctx context.Context, d *db.DB) (id int64, ok bool, err error) {
	id, err = customers.ByName(ctx, d, tenants[0].name)
	if errors.Is(err, db.ErrNotFound) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// ThemeHost is a host name of Demo Fleet without a theme: /theme can brand it and a browser open it.
const ThemeHost = "127.0.0.3"

// DemoKeys are Demo Fleet's secret keys, the last one current (spec §5: 32 digits and capital letters).
var DemoKeys = []struct{ Name, Key string }{
	{"Radio net 2025", "K7Q2M9X4DR8T1V6WB3N5ZC0HJF8L2PGA"},
	{"Radio net 2026", "3FJ9T0QW6ZP2XK8M4RB7N1CDV5HL9YSE"},
}

// seedThemesAndKeys gives Demo Fleet its hosts (the demo's addresses, the branded host and ThemeHost: its
// dispatcher may theme them in /theme) and a key ring whose newer key is current (ADR 0021).
func seedThemesAndKeys(ctx context.Context, d *db.DB, bs *branding.Store) error {
	cid, err := customers.ByName(ctx, d, "Demo Fleet")
	if err != nil {
		return err
	}
	for _, h := range append([]string{BrandedHost, ThemeHost}, DemoHosts...) {
		if err := bs.AssignHost(ctx, h, cid); err != nil {
			return err
		}
	}
	ks := secretkey.NewStore(d)
	now := time.Now()
	for i, k := range DemoKeys {
		at := now.AddDate(0, 0, -90*(len(DemoKeys)-i)).UnixMilli()
		if _, err := ks.Add(ctx, cid, k.Name, k.Key, i == len(DemoKeys)-1, "10000001", at); err != nil {
			return err
		}
	}
	return nil
}

// DemoHosts are the addresses the demo is opened at (`make run`: http://127.0.0.1:8080); they get a km/h client
// configuration.
var DemoHosts = []string{"127.0.0.1", "localhost"}

// CustomerNames are the demo customers' names (the demo's simulated cameras are registered for each).
var CustomerNames = []string{"Demo Fleet", "Second Tenant"}

func seedTenant(ctx context.Context, tx *db.Tx, t tenant, hash string, now int64, rng *rand.Rand) error {
	cid, err := customers.Add(ctx, tx, customers.New{Name: t.name, DSConfig: t.dsConfig})
	if err != nil {
		return err
	}
	fleet := directory.Fleet{Customer: directory.CustomerID(cid), Now: now}
	all := make([]string, 0, len(t.groups))
	for _, g := range t.groups {
		fleet.Groups = append(fleet.Groups, directory.FleetGroup{Name: g.name, Parent: g.parent, Color: g.color})
		all = append(all, g.name)
	}
	fleet.Accounts = append(fleet.Accounts, directory.FleetAccount{ID: directory.TerminalID(fmt.Sprint(t.base + 1)),
		Type: "20", Name: t.dispatcher, Model: "Console", Admin: true, PasswordHash: hash, Groups: all})
	for _, r := range t.terms {
		for n := r.from; n <= r.to; n++ {
			st := &directory.Status{Battery: 15 + rng.IntN(86), Signal: 1 + rng.IntN(5)}
			if r.mainsPowered {
				st.Battery, st.Signal = 100, 5
			}
			var fix *directory.Fix
			if !r.noPosition {
				fix = &directory.Fix{Lat: round6(t.center[0] + (rng.Float64()-0.5)*0.12),
					Lng: round6(t.center[1] + (rng.Float64()-0.5)*0.2), Time: now - int64(rng.IntN(600_000))}
				if !r.stationary {
					fix.Speed = float64(rng.IntN(150)) / 10
					fix.Direction = float64(rng.IntN(360))
				}
			}
			fleet.Accounts = append(fleet.Accounts, directory.FleetAccount{ID: directory.TerminalID(fmt.Sprint(t.base + n)),
				Type: r.typ, Name: fmt.Sprintf("%s %d", r.name, n), Model: r.model, PasswordHash: hash, Groups: r.groups,
				Status: st, Fix: fix})
		}
	}
	gids, err := directory.Provision(ctx, tx, fleet)
	if err != nil {
		return err
	}
	if err := seedActivity(ctx, tx, t, cid, gids, now); err != nil { // activity.go: a week of presence and talk
		return err
	}
	// [patrol] Demo Fleet: 2 areas, 13 points, 3 routes, plans running today (internal/patrol demo.go).
	if t.base == 10000000 {
		if err := patrol.SeedDemo(ctx, tx, cid, fmt.Sprint(t.base+1), time.UnixMilli(now)); err != nil {
			return err
		}
	}
	// [broadcast] two organisations with 4 speakers each (the simulated speakers of serve --demo register there)
	return broadcast.SeedDemo(ctx, tx, cid, t.base, now)
}

func round6(v float64) float64 { return float64(int64(v*1e6+0.5)) / 1e6 }
