package branding_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/branding"
	"tenfour/internal/testkit"
)

// pngURL is a w×h PNG as a data URL; noisy pixels make it large (they do not compress).
func pngURL(t *testing.T, w, h int, noisy bool) string {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			c := color.NRGBA{R: 0x13, G: 0x6f, B: 0x63, A: uint8(x * 255 / w)}
			if noisy {
				c = color.NRGBA{R: uint8(r.IntN(256)), G: uint8(r.IntN(256)), B: uint8(r.IntN(256)), A: uint8(r.IntN(256))}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

func jpegBytes(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 16, 16)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type theme = branding.Theme

func TestCustomThemeScenarios(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		s := testkit.StartOn(t, engine)
		ctx := context.Background()
		a, b := testkit.NewFleet(t, s.DB, "1", 1, 1), testkit.NewFleet(t, s.DB, "2", 0, 1)
		bs := branding.NewStore(s.DB)
		for host, cust := range map[string]int64{"a.example": a.Customer, "A2.example:8443": a.Customer, "127.0.0.1": a.Customer,
			"b.example": b.Customer} {
			if err := bs.AssignHost(ctx, host, cust); err != nil {
				t.Fatal(err)
			}
		}
		// An operator's style sheet and login background on a2.example: a customer's theme keeps them.
		if err := bs.SetBranding(ctx, "a2.example", branding.Branding{CSSURL: "/skins/a2.css",
			Remark: branding.EncodeRemark(branding.Remark{LogoPageBg: "#fafafa", LoginFrameColor: "#111111"})}); err != nil {
			t.Fatal(err)
		}
		// A dispatcher of account type "-2" in A: custom themes are for "1" only.
		testkit.Account(t, s.DB, auth.NewAccount{CustomerID: a.Customer, ID: "10000002", Type: auth.DispatcherType, Name: "Minus Two", GroupID: a.Groups[0]})
		if err := auth.SetAccountType(ctx, s.DB, "10000002", "-2"); err != nil {
			t.Fatal(err)
		}
		toks := map[string]string{"A": a.Token, "B": b.Token,
			"minus2": s.Token("10000002", a.Customer), "terminal": s.Token(a.Terminals[0], a.Customer)}

		logo, mini := pngURL(t, 160, 48, false), pngURL(t, 32, 32, false)
		big := pngURL(t, 160, 160, true)
		if n, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(big, "data:image/png;base64,")); len(n) <= branding.MaxLogoBytes {
			t.Fatalf("the large logo is only %d bytes", len(n))
		}
		full := map[string]any{"hostname": "a.example", "sysName": "Harbour Dispatch", "themeColor": "#136f63",
			"tabColor": "#0b3d3a", "subThemeColor": "#e0f2f1", "weightThemeColor": "#f59e0b", "callingColor": "#16a34a",
			"loginFrameColor": "#ffffff", "logoUrl": logo, "miniLogoUrl": mini, "copyright": "© 2026 Harbour Authority"}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for key, val := range full {
				m[key] = val
			}
			m[k] = v
			return m
		}
		served := func(t *testing.T, host string) *branding.Branding {
			t.Helper()
			var out *branding.Branding
			s.Do("GET", "/ds/pub/theme", "", map[string]any{"hostname": host}).Into(t, &out)
			return out
		}
		hosts := func(t *testing.T, tok string) map[string]bool {
			t.Helper()
			var l struct {
				List []branding.HostEntry
			}
			s.Do("GET", "/ds/custom/getClientHostList", tok, nil).Into(t, &l)
			out := map[string]bool{}
			for _, h := range l.List {
				out[h.Hostname] = h.HasTheme
			}
			return out
		}

		consoleA, consoleB := testkit.Console(t, s.URL, toks["A"]), testkit.Console(t, s.URL, toks["B"])
		api := testkit.APITest{Server: s, State: []string{"host_branding", "customer_hosts"}, Socket: consoleA,
			Token: func(alias string) string { return toks[alias] }}
		api.Run(t, []testkit.Scenario{
			{Name: "the customer's hosts", Method: "GET", Path: "/ds/custom/getClientHostList", Token: "A", Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					if h := hosts(t, toks["A"]); len(h) != 3 || h["a.example"] || !h["a2.example"] || h["127.0.0.1"] {
						t.Fatalf("%v", h)
					}
				}},
			{Name: "save every skin field", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: full, Code: "0",
				Events: []string{branding.EventThemeChanged}, Check: func(t *testing.T, r testkit.Reply) {
					var got theme
					r.Into(t, &got)
					want := theme{Hostname: "a.example", SysName: "Harbour Dispatch", ThemeColor: "#136f63", TabColor: "#0b3d3a",
						SubThemeColor: "#e0f2f1", WeightThemeColor: "#f59e0b", CallingColor: "#16a34a", LoginFrameColor: "#ffffff",
						LogoURL: logo, MiniLogoURL: mini, Copyright: "© 2026 Harbour Authority"}
					if got != want {
						t.Fatalf("saved %+v", got)
					}
					// What the host's login page reads.
					b := served(t, "a.example")
					var rm branding.Remark
					if b == nil || b.SysName != "Harbour Dispatch" || b.LogoURL != logo || b.MiniLogoURL != mini || b.TabColor != "#0b3d3a" ||
						b.CallingColor != "#16a34a" || b.Copyright != want.Copyright || json.Unmarshal([]byte(b.Remark), &rm) != nil || rm.LoginFrameColor != "#ffffff" {
						t.Fatalf("served %+v", b)
					}
					if served(t, "b.example") != nil {
						t.Fatal("another host changed")
					}
				}},
			{Name: "the host name as typed (case, port)", Method: "POST", Path: "/ds/custom/customTheme", Token: "A",
				Params: with("hostname", "A.Example:443"), Code: "0"},
			{Name: "no tab colour: dark teal", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("tabColor", ""), Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					if b := served(t, "a.example"); b.TabColor != branding.DefaultTabColor {
						t.Fatalf("tab colour %q", b.TabColor)
					}
				}},
			{Name: "no host name: the host the request came to", Method: "POST", Path: "/ds/custom/customTheme", Token: "A",
				Params: with("hostname", ""), Code: "0", Check: func(t *testing.T, r testkit.Reply) {
					if b := served(t, "127.0.0.1"); b == nil || b.SysName != "Harbour Dispatch" {
						t.Fatalf("served %+v", b)
					}
				}},
			{Name: "an operator's style sheet and login background stay", Method: "POST", Path: "/ds/custom/customTheme", Token: "A",
				Params: with("hostname", "a2.example"), Code: "0", Check: func(t *testing.T, r testkit.Reply) {
					b := served(t, "a2.example")
					var rm branding.Remark
					if b.CSSURL != "/skins/a2.css" || json.Unmarshal([]byte(b.Remark), &rm) != nil || rm.LogoPageBg != "#fafafa" || rm.LoginFrameColor != "#ffffff" {
						t.Fatalf("served %+v", b)
					}
				}},
			{Name: "the stored logo sent back unchanged", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("sysName", "Harbour 2"), Code: "0"},
			{Name: "no logos", Method: "POST", Path: "/ds/custom/customTheme", Token: "A",
				Params: with("hostname", "127.0.0.1"), Code: "0", Check: func(t *testing.T, r testkit.Reply) {
					p := with("logoUrl", "")
					p["miniLogoUrl"], p["hostname"] = "", "127.0.0.1"
					if r := s.Do("POST", "/ds/custom/customTheme", toks["A"], p); r.Code != "0" {
						t.Fatal(r)
					}
					if b := served(t, "127.0.0.1"); b.LogoURL != "" || b.MiniLogoURL != "" {
						t.Fatalf("%+v", b)
					}
				}},
			{Name: "another customer's host", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("hostname", "b.example"), Code: "148", Status: http.StatusForbidden},
			{Name: "a host of nobody", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("hostname", "free.example"), Code: "148"},
			{Name: "not a host name", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("hostname", "a b"), Code: "400"},
			{Name: "a logo that is no PNG", Method: "POST", Path: "/ds/custom/customTheme", Token: "A",
				Params: with("logoUrl", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(jpegBytes(t))), Code: "145", Status: http.StatusUnsupportedMediaType},
			{Name: "a JPEG data URL", Method: "POST", Path: "/ds/custom/customTheme", Token: "A",
				Params: with("logoUrl", "data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(jpegBytes(t))), Code: "145"},
			{Name: "a logo by URL", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("logoUrl", "https://cdn.example/logo.png"), Code: "145"},
			{Name: "broken base64", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("logoUrl", "data:image/png;base64,@@@@"), Code: "145"},
			{Name: "a logo above 50 KB", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("logoUrl", big), Code: "146", Status: http.StatusRequestEntityTooLarge},
			{Name: "a mini logo above 50 KB", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("miniLogoUrl", big), Code: "146"},
			{Name: "a mini logo that is not square", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("miniLogoUrl", logo), Code: "147"},
			{Name: "a colour that is no colour", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("callingColor", "green"), Code: "400"},
			{Name: "a bad login frame colour", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("loginFrameColor", "url(x)"), Code: "400"},
			{Name: "a system name too long", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("sysName", strings.Repeat("s", 65)), Code: "400"},
			{Name: "a copyright too long", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("copyright", strings.Repeat("c", 129)), Code: "400"},
			{Name: "a system name with a right-to-left override", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("sysName", "Harbour \u202eHCTAPSID"), Code: "10", Status: http.StatusBadRequest},
			{Name: "a system name with a zero-width space", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("sysName", "Harb\u200bour"), Code: "10"},
			{Name: "a system name with a line feed", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("sysName", "Harbour\nDispatch"), Code: "10"},
			{Name: "a copyright with a bidi isolate", Method: "POST", Path: "/ds/custom/customTheme", Token: "A", Params: with("copyright", "\u2067© 2026"), Code: "10"},
			{Name: "account type -2", Method: "POST", Path: "/ds/custom/customTheme", Token: "minus2", Params: full, Code: "107"},
			{Name: "account type -2 lists no hosts", Method: "GET", Path: "/ds/custom/getClientHostList", Token: "minus2", Code: "107"},
			{Name: "a terminal's token", Method: "POST", Path: "/ds/custom/customTheme", Token: "terminal", Params: full, Code: "107"},
			{Name: "without a token", Method: "POST", Path: "/ds/custom/customTheme", Params: full, Code: "105"},
			{Name: "find the customer's themes", Method: "GET", Path: "/ds/custom/findTheme", Token: "A", Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					var l struct {
						Total int
						List  []theme
					}
					r.Into(t, &l)
					if l.Total != 3 || l.List[0].Hostname != "127.0.0.1" || l.List[1].Hostname != "a.example" || l.List[1].SysName != "Harbour 2" ||
						l.List[1].LogoURL != logo || l.List[2].Hostname != "a2.example" {
						t.Fatalf("%+v", l)
					}
				}},
			{Name: "find one host's theme", Method: "GET", Path: "/ds/custom/findTheme", Token: "A", Params: map[string]any{"hostname": "a2.example"}, Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					var l struct{ List []theme }
					r.Into(t, &l)
					if len(l.List) != 1 || l.List[0].Hostname != "a2.example" {
						t.Fatalf("%+v", l)
					}
				}},
			{Name: "find another customer's theme", Method: "GET", Path: "/ds/custom/findTheme", Token: "B", Params: map[string]any{"hostname": "a.example"}, Code: "148"},
			{Name: "another customer finds none of them", Method: "GET", Path: "/ds/custom/findTheme", Token: "B", Code: "0", Contains: []string{`"total":0`}},
			{Name: "delete another customer's theme", Method: "DELETE", Path: "/ds/custom/deleteTheme", Token: "B", Params: map[string]any{"hostname": "a.example"}, Code: "148"},
			{Name: "delete with account type -2", Method: "DELETE", Path: "/ds/custom/deleteTheme", Token: "minus2", Params: map[string]any{"hostname": "a.example"}, Code: "107"},
			{Name: "delete a theme", Method: "DELETE", Path: "/ds/custom/deleteTheme", Token: "A", Params: map[string]any{"hostname": "a.example"}, Code: "0",
				Events: []string{branding.EventThemeChanged}, Check: func(t *testing.T, r testkit.Reply) {
					// Only the host's customer is told.
					if f, ok := consoleB.TryWait(200*time.Millisecond, func(f testkit.Frame) bool { return f.Type == branding.EventThemeChanged }); ok {
						t.Fatalf("another customer's console got %s", f.Data)
					}
					if served(t, "a.example") != nil {
						t.Fatal("the login page still gets the theme")
					}
					if h := hosts(t, toks["A"]); h["a.example"] || !h["a2.example"] {
						t.Fatalf("%v", h)
					}
				}},
			{Name: "delete it again", Method: "DELETE", Path: "/ds/custom/deleteTheme", Token: "A", Params: map[string]any{"hostname": "a.example"}, Code: "404"},
		})
	})
}

func TestCheckLogo(t *testing.T) {
	sq, wide := pngURL(t, 20, 20, false), pngURL(t, 40, 20, false)
	for _, c := range []struct {
		v, stored string
		square    bool
		want      error
	}{
		{"", "", true, nil},
		{sq, "", true, nil},
		{wide, "", false, nil},
		{wide, "", true, branding.ErrMiniNotSq},
		{"/logo.png", "/logo.png", true, nil}, // what an operator stored stays
		{"/logo.png", "", false, branding.ErrLogoType},
		{"data:image/png;base64,", "", false, branding.ErrLogoType},
		{"data:image/png;base64," + strings.Repeat("A", 80<<10), "", false, branding.ErrLogoTooLarge},
	} {
		if got := branding.CheckLogo(c.v, c.stored, c.square); got != c.want {
			t.Errorf("CheckLogo(%.40q, square %v) = %v, want %v", c.v, c.square, got, c.want)
		}
	}
}
