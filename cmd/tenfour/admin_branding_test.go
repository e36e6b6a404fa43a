package main

import (
	"context"
	"testing"

	"tenfour/internal/branding"
)

// TestAdminBrandingCommands runs the branding, client-config, ds-config, account-type and host commands against
// a real SQLite store the way an operator does, then reads what they stored through the owning packages.
func TestAdminBrandingCommands(t *testing.T) {
	a := newAdminScript(t)
	a.ok([][]string{
		{"create-customer", "--name", "Acme"},
		{"create-dispatcher", "--customer", "Acme", "--uid", "10000001", "--name", "Boss", "--password", "123456"},
		{"branding", "--host", "Fleet.Example:8443", "--sys-name", "Acme Dispatch", "--theme-color", "#136f63", "--tab-color", "#00474f",
			"--login-frame-color", "#ffffff", "--login-bg", "#f0f0f0", "--copyright", "© Acme"},
		{"branding", "--host", "fleet.example", "--calling-color", "#16a34a"}, // changes only what is given
		{"branding", "--host", "fleet.example"},                               // shows
		{"branding", "--host", "old.example", "--sys-name", "Old"},
		{"branding", "--host", "old.example", "--delete"},
		{"client-config", "--host", "fleet.example", "--title", "Acme", "--speed-unit", "km/h", "--auto-login-keys", "k1, k2"},
		{"client-config", "--host", "fleet.example", "--date-format", "dd.MM.yyyy"},
		{"ds-config", "--customer", "Acme", "--set", "broadcast=0,patrol=1,noAllCallDefault=1"},
		{"ds-config", "--customer", "Acme", "--unset", "patrol"},
		{"account-type", "--uid", "10000001", "--type", "-2"},
		{"host-assign", "--host", "fleet.example", "--customer", "Acme"},
		{"host-assign", "--host", "spare.example", "--customer", "Acme"},
		{"host-unassign", "--host", "spare.example"},
		{"oauth-provider", "--host", "fleet.example", "--platform", "corp", "--name", "Corp SSO", "--authorize-url", "https://sso.example/authorize",
			"--token-url", "https://sso.example/token", "--userinfo-url", "https://sso.example/userinfo", "--client-id", "tenfour", "--client-secret", "s3cret"},
		{"oauth-provider", "--host", "fleet.example", "--platform", "old", "--name", "Old", "--authorize-url", "https://old.example/a",
			"--token-url", "https://old.example/t", "--userinfo-url", "https://old.example/u", "--client-id", "x"},
		{"oauth-provider", "--host", "fleet.example", "--platform", "old", "--delete"},
	})
	a.refused([]refusal{
		{[]string{"branding"}, "--host is required"},
		{[]string{"branding", "--host", "nobody.example"}, "no branding record"},
		{[]string{"branding", "--host", "old.example", "--delete"}, "not found"},
		{[]string{"branding", "--host", "fleet.example", "--theme-color", "teal"}, "themeColor"},
		{[]string{"branding", "--host", "a b", "--sys-name", "x"}, "hostname"},
		{[]string{"client-config", "--host", "fleet.example", "--speed-unit", "knots"}, "speedUnit"},
		{[]string{"client-config", "--host", "fleet.example", "--version", "2"}, "version"},
		{[]string{"ds-config", "--customer", "Nope"}, "no customer"},
		{[]string{"ds-config", "--customer", "Acme", "--set", "map"}, "key=number"},
		{[]string{"ds-config", "--customer", "Acme", "--set", "map=-1"}, "values"},
		{[]string{"account-type", "--uid", "10000001", "--type", "2"}, "account type"},
		{[]string{"account-type", "--uid", "10000999", "--type", "1"}, "not found"},
		{[]string{"host-assign", "--host", "x.example"}, "--customer is required"},
		{[]string{"host-assign", "--host", "x.example", "--customer", "Nope"}, "no customer"},
		{[]string{"host-unassign", "--host", "never.example"}, "not found"},
		{[]string{"oauth-provider", "--host", "fleet.example", "--platform", "corp", "--name", "Corp", "--authorize-url", "ftp://x",
			"--token-url", "https://sso.example/token", "--userinfo-url", "https://sso.example/userinfo", "--client-id", "tenfour"}, "authorizeUrl"},
		{[]string{"oauth-provider", "--host", "fleet.example", "--platform", "never", "--delete"}, "not found"},
	})

	ctx := context.Background()
	store := a.store()
	bs := branding.NewStore(store)
	b, err := bs.Branding(ctx, "fleet.example")
	if err != nil || b.SysName != "Acme Dispatch" || b.ThemeColor != "#136f63" || b.TabColor != "#00474f" || b.CallingColor != "#16a34a" ||
		b.Copyright != "© Acme" || b.Remark != branding.EncodeRemark(branding.Remark{LogoPageBg: "#f0f0f0", LoginFrameColor: "#ffffff"}) {
		t.Fatalf("branding %+v %v", b, err)
	}
	if _, err := bs.Branding(ctx, "old.example"); err == nil {
		t.Fatal("deleted branding still there")
	}
	if ps, err := bs.OAuthProviders(ctx, "fleet.example"); err != nil || len(ps) != 1 || ps[0].Platform != "corp" || ps[0].ClientSecret != "s3cret" ||
		ps[0].IDField != "sub" || ps[0].UserInfoURL != "https://sso.example/userinfo" {
		t.Fatalf("OAuth providers %+v %v", ps, err)
	}
	c, err := bs.ClientConfig(ctx, "fleet.example")
	if err != nil || c.Title != "Acme" || c.SpeedUnit != "km/h" || c.DateFormat != "dd.MM.yyyy" || len(c.AutoLoginKeys) != 2 || c.AutoLoginKeys[1] != "k2" {
		t.Fatalf("client config %+v %v", c, err)
	}
	cid := a.customer(store, "Acme")
	ds, err := bs.DSConfig(ctx, cid)
	if err != nil || ds.Enabled("broadcast") || ds["noAllCallDefault"] != 1 || len(ds) != 2 {
		t.Fatalf("ds config %v %v", ds, err)
	}
	var acct string
	if err := store.QueryRow(ctx, `SELECT acct_type FROM accounts WHERE id = '10000001'`).Scan(&acct); err != nil || acct != "-2" {
		t.Fatalf("account type %q %v", acct, err)
	}
	hosts, err := bs.Hosts(ctx, cid)
	if err != nil || len(hosts) != 1 || hosts[0].Hostname != "fleet.example" || !hosts[0].HasTheme {
		t.Fatalf("hosts %+v %v", hosts, err)
	}
}
