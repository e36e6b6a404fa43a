package branding_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"tenfour/internal/branding"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

func TestStore(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := branding.NewStore(d)

		t.Run("branding", func(t *testing.T) {
			if _, err := s.Branding(ctx, "example.com"); !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("no record: %v", err)
			}
			b := branding.Branding{SysName: "Fleet One", LogoURL: "/logo.png", MiniLogoURL: "https://cdn.example.com/m.png",
				CSSURL: "/skin.css", ThemeColor: "#d4380d",
				Remark: branding.EncodeRemark(branding.Remark{LogoPageBg: "#fff", LoginFrameColor: "#123456"})}
			if err := s.SetBranding(ctx, "Example.COM:8443", b); err != nil {
				t.Fatal(err)
			}
			got, err := s.Branding(ctx, "example.com")
			b.Hostname = "example.com"
			if err != nil || got != b {
				t.Fatalf("got %+v %v", got, err)
			}
			var r branding.Remark
			if err := json.Unmarshal([]byte(got.Remark), &r); err != nil || r.LoginFrameColor != "#123456" {
				t.Fatalf("remark %q", got.Remark)
			}
			b.ThemeColor = "#000"
			if err := s.SetBranding(ctx, "example.com", b); err != nil { // upsert
				t.Fatal(err)
			}
			if got, _ := s.Branding(ctx, "EXAMPLE.com"); got.ThemeColor != "#000" {
				t.Fatalf("after replace %+v", got)
			}
			for name, bad := range map[string]branding.Branding{
				"colour":       {ThemeColor: "red"},
				"remark":       {Remark: "not json"},
				"remark color": {Remark: `{"loginFrameColor":"javascript:x"}`},
				"url scheme":   {LogoURL: "javascript:alert(1)"},
				"url spaces":   {CSSURL: "/a b.css"},
				"url length":   {LogoURL: "/" + strings.Repeat("a", 3000)},
				"name length":  {SysName: strings.Repeat("n", 65)},
				"name control": {SysName: "a\x00b"},
			} {
				if err := s.SetBranding(ctx, "example.com", bad); err == nil {
					t.Errorf("%s accepted", name)
				}
			}
			if got, _ := s.Branding(ctx, "example.com"); got.ThemeColor != "#000" {
				t.Fatal("a refused record changed the stored one")
			}
			for _, h := range []string{"", "bad host!", "a/b", strings.Repeat("a", 254)} {
				if err := s.SetBranding(ctx, h, b); err == nil {
					t.Errorf("host %q accepted", h)
				}
			}
			if err := s.DeleteBranding(ctx, "example.com"); err != nil {
				t.Fatal(err)
			}
			if err := s.DeleteBranding(ctx, "example.com"); !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("delete again: %v", err)
			}
		})

		t.Run("client config", func(t *testing.T) {
			c, err := s.ClientConfig(ctx, "fleet.example.com")
			if err != nil || c.DateFormat != "MM/dd/yyyy" || c.SpeedUnit != "mph" || c.Version != "1" || c.AutoLoginKeys == nil {
				t.Fatalf("defaults %+v %v", c, err)
			}
			if err := s.SetClientConfig(ctx, "fleet.example.com", branding.ClientConfig{Title: "Fleet", SpeedUnit: "km/h",
				AutoLoginKeys: []string{"k1"}, MapsKey: "abc", Version: "0"}); err != nil {
				t.Fatal(err)
			}
			c, _ = s.ClientConfig(ctx, "fleet.example.com")
			if c.Title != "Fleet" || c.SpeedUnit != "km/h" || c.DateFormat != "MM/dd/yyyy" || c.Version != "0" || c.AutoLoginKeys[0] != "k1" {
				t.Fatalf("stored %+v", c)
			}
			for name, bad := range map[string]branding.ClientConfig{
				"speed unit": {SpeedUnit: "knots"},
				"version":    {Version: "2"},
				"logo":       {Logo: "ftp://x"},
				"empty key":  {AutoLoginKeys: []string{""}},
				"title":      {Title: strings.Repeat("t", 129)},
			} {
				if err := s.SetClientConfig(ctx, "fleet.example.com", bad); err == nil {
					t.Errorf("%s accepted", name)
				}
			}
			if c2, _ := s.ClientConfig(ctx, "fleet.example.com"); c2.Title != "Fleet" {
				t.Fatal("a refused config changed the stored one")
			}
		})

		t.Run("data-source config", func(t *testing.T) {
			cust := testkit.Customer(t, d, "C")
			c, err := s.DSConfig(ctx, cust)
			if err != nil || len(c) != 0 || !c.Enabled("broadcast") {
				t.Fatalf("empty %v %v", c, err)
			}
			if eff := c.Effective(); len(eff) != len(branding.FeatureKeys) || eff["map"] != 1 {
				t.Fatalf("effective %v", eff)
			}
			if err := s.SetDSConfig(ctx, cust, branding.DSConfig{"broadcast": 0, "patrol": 1, "noAllCallDefault": 1}); err != nil {
				t.Fatal(err)
			}
			c, _ = s.DSConfig(ctx, cust)
			if c.Enabled("broadcast") || !c.Enabled("patrol") || !c.Enabled("map") || c.Effective()["broadcast"] != 0 ||
				c.Effective()["noAllCallDefault"] != 1 {
				t.Fatalf("stored %v", c)
			}
			// Stored by hand in other forms, read leniently.
			if _, err := d.Exec(ctx, `UPDATE customers SET ds_config = ? WHERE id = ?`, `{"map":"0","report":false,"logger":true}`, cust); err != nil {
				t.Fatal(err)
			}
			c, err = s.DSConfig(ctx, cust)
			if err != nil || c.Enabled("map") || c.Enabled("report") || !c.Enabled("logger") {
				t.Fatalf("lenient %v %v", c, err)
			}
			for name, bad := range map[string]branding.DSConfig{"negative": {"map": -1}, "bad key": {"a b": 1}} {
				if err := s.SetDSConfig(ctx, cust, bad); err == nil {
					t.Errorf("%s accepted", name)
				}
			}
			if err := s.SetDSConfig(ctx, cust+1000, branding.DSConfig{}); !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("unknown customer: %v", err)
			}
			if _, err := s.DSConfig(ctx, cust+1000); !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("unknown customer read: %v", err)
			}
		})
	})
}

func TestNormalizeHost(t *testing.T) {
	for in, want := range map[string]string{
		"Example.com": "example.com", "127.0.0.2:8080": "127.0.0.2", " host-1.lan ": "host-1.lan", "[::1]:443": "::1", "::1": "::1",
	} {
		if got, err := branding.NormalizeHost(in); err != nil || got != want {
			t.Errorf("NormalizeHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "a b", "-x", "x/y", "<script>"} {
		if _, err := branding.NormalizeHost(in); err == nil {
			t.Errorf("NormalizeHost(%q) accepted", in)
		}
	}
}

func TestAPI(t *testing.T) {
	s := testkit.Start(t)
	ctx := context.Background()
	bs := branding.NewStore(s.DB)
	if err := bs.SetBranding(ctx, "branded.example", branding.Branding{SysName: "Branded", ThemeColor: "#d4380d",
		Remark: branding.EncodeRemark(branding.Remark{LogoPageBg: "#fff2e8", LoginFrameColor: "#d4380d"})}); err != nil {
		t.Fatal(err)
	}
	if err := bs.SetClientConfig(ctx, "branded.example", branding.ClientConfig{Title: "Branded", DateFormat: "dd.MM.yyyy"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		params     map[string]any
		status     int
		code       string
		check      func(t *testing.T, r testkit.Reply)
	}{
		{"theme", "/ds/pub/theme", map[string]any{"hostname": "branded.example"}, 200, "0", func(t *testing.T, r testkit.Reply) {
			var b map[string]string
			r.Into(t, &b)
			for _, k := range []string{"sysName", "logoUrl", "miniLogoUrl", "cssUrl", "themeColor", "remark"} {
				if _, ok := b[k]; !ok {
					t.Fatalf("lacks %s: %s", k, r.Result)
				}
			}
			var rm branding.Remark
			if b["themeColor"] != "#d4380d" || json.Unmarshal([]byte(b["remark"]), &rm) != nil || rm.LogoPageBg != "#fff2e8" {
				t.Fatalf("%s", r.Result)
			}
		}},
		{"theme host with port and case", "/ds/pub/theme", map[string]any{"hostname": "Branded.Example:443"}, 200, "0", func(t *testing.T, r testkit.Reply) {
			if !strings.Contains(string(r.Result), "#d4380d") {
				t.Fatalf("%s", r.Result)
			}
		}},
		{"theme without record", "/ds/pub/theme", map[string]any{"hostname": "plain.example"}, 200, "0", func(t *testing.T, r testkit.Reply) {
			if string(r.Result) != "null" {
				t.Fatalf("result %s, want null", r.Result)
			}
		}},
		{"theme of the request host", "/ds/pub/theme", nil, 200, "0", func(t *testing.T, r testkit.Reply) {
			if string(r.Result) != "null" {
				t.Fatalf("result %s", r.Result)
			}
		}},
		{"theme bad hostname", "/ds/pub/theme", map[string]any{"hostname": "<x>"}, 400, "400", nil},
		{"theme oversized hostname", "/ds/pub/theme", map[string]any{"hostname": strings.Repeat("a", 300)}, 400, "400", nil},
		{"theme repeated hostname", "/ds/pub/theme?hostname=a&hostname=b", nil, 400, "400", nil},
		{"client config", "/ds/pub/clientConfig", map[string]any{"hostname": "branded.example"}, 200, "0", func(t *testing.T, r testkit.Reply) {
			var c branding.ClientConfig
			r.Into(t, &c)
			if c.Title != "Branded" || c.DateFormat != "dd.MM.yyyy" || c.SpeedUnit != "mph" {
				t.Fatalf("%s", r.Result)
			}
		}},
		{"client config defaults", "/ds/pub/clientConfig", map[string]any{"hostname": "plain.example"}, 200, "0", func(t *testing.T, r testkit.Reply) {
			var m map[string]any
			r.Into(t, &m)
			for _, k := range []string{"title", "logo", "topIco", "dateFormat", "mapsKey", "autoLoginKeys", "version", "speedUnit", "moreScreenUrl"} {
				if _, ok := m[k]; !ok {
					t.Fatalf("lacks %s: %s", k, r.Result)
				}
			}
			if m["dateFormat"] != "MM/dd/yyyy" || m["speedUnit"] != "mph" {
				t.Fatalf("%s", r.Result)
			}
		}},
		{"client config bad hostname", "/ds/pub/clientConfig", map[string]any{"hostname": "a b"}, 400, "400", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := s.Do("GET", c.path, "", c.params)
			if r.Status != c.status || r.Code != c.code {
				t.Fatalf("got %d %q (%s), want %d %q", r.Status, r.Code, r.Msg, c.status, c.code)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}

	t.Run("static config", func(t *testing.T) {
		res, err := http.Get(s.URL + "/static/config.json?t=123")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v struct{ Version string }
		if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != 200 || v.Version == "" ||
			res.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("%d %+v %v", res.StatusCode, v, err)
		}
		if v.Version != branding.BuildVersion() {
			t.Fatalf("version %q, want %q", v.Version, branding.BuildVersion())
		}
	})
}

// TestMain: the branding fixture's administrators make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
