package branding

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image/png"
	"net/http"
	"strings"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/text"
	"tenfour/internal/tenant"
)

// Custom themes (spec §3 "Skin/theme", §5 logo rules, §6 custom theme: account type "1" only, §7 customTheme,
// findTheme, deleteTheme, getClientHostList). A theme is the branding record of one of the customer's hosts, so
// what a dispatcher saves is what GET /ds/pub/theme serves to that host's login page. Host names are assigned to
// customers by the operator (`tenfour admin host-assign`); docs/adr/0021 says why.

// Logo rules (spec §5).
const (
	MaxLogoBytes = 50 << 10 // "logos at most 50 KB"
	// DefaultTabColor is the tab colour of a theme that does not choose one (spec §3 "tabColor default dark teal").
	DefaultTabColor = "#00474f"
	pngDataURL      = "data:image/png;base64,"
)

// Errors of the custom theme (codes 145–148; 140–144 are the secret keys').
var (
	ErrLogoType     = httpx.E(http.StatusUnsupportedMediaType, "145", "errors.theme.logoType", "a logo is a PNG image (data:image/png;base64,…)")
	ErrLogoTooLarge = httpx.E(http.StatusRequestEntityTooLarge, "146", "errors.theme.logoTooLarge", "a logo is at most 50 KB")
	ErrMiniNotSq    = httpx.E(http.StatusBadRequest, "147", "errors.theme.miniLogoSquare", "the mini logo must be square")
	ErrNotYourHost  = httpx.E(http.StatusForbidden, "148", "errors.theme.host", "this host name is not one of the customer's")
	// ErrThemeChars: the system name and copyright are names the login page shows (text.Name): no controls,
	// bidirectional overrides or zero-width characters.
	ErrThemeChars = httpx.E(http.StatusBadRequest, "10", "errors.client.10", "invalid characters")
)

// Theme is a custom theme as the editor reads and writes it: every skin field of spec §3, flat.
type Theme struct {
	Hostname         string `json:"hostname"`
	SysName          string `json:"sysName"`
	ThemeColor       string `json:"themeColor"`
	TabColor         string `json:"tabColor"`
	SubThemeColor    string `json:"subThemeColor"`
	WeightThemeColor string `json:"weightThemeColor"`
	CallingColor     string `json:"callingColor"`
	LoginFrameColor  string `json:"loginFrameColor"`
	MiniLogoURL      string `json:"miniLogoUrl"`
	LogoURL          string `json:"logoUrl"`
	Copyright        string `json:"copyright"`
}

// ThemeOf flattens a branding record.
func ThemeOf(b Branding) Theme {
	r := b.remark()
	return Theme{Hostname: b.Hostname, SysName: b.SysName, ThemeColor: b.ThemeColor, TabColor: b.TabColor,
		SubThemeColor: b.SubThemeColor, WeightThemeColor: b.WeightThemeColor, CallingColor: b.CallingColor,
		LoginFrameColor: r.LoginFrameColor, MiniLogoURL: b.MiniLogoURL, LogoURL: b.LogoURL, Copyright: b.Copyright}
}

// apply writes the theme's fields over a record, keeping what a customer does not edit (the style sheet and the
// login background an operator may have set).
func (t Theme) apply(b Branding) Branding {
	r := b.remark()
	r.LoginFrameColor = t.LoginFrameColor
	b.SysName, b.ThemeColor, b.TabColor, b.SubThemeColor = t.SysName, t.ThemeColor, t.TabColor, t.SubThemeColor
	b.WeightThemeColor, b.CallingColor, b.MiniLogoURL, b.LogoURL, b.Copyright = t.WeightThemeColor, t.CallingColor, t.MiniLogoURL, t.LogoURL, t.Copyright
	if b.TabColor == "" {
		b.TabColor = DefaultTabColor
	}
	b.Remark = EncodeRemark(r)
	return b
}

// CheckLogo applies spec §5 to an uploaded logo: a PNG (sent as a data:image/png;base64 URL), at most 50 KB,
// square when it is the mini logo. An empty value (no logo) and the value already stored pass.
func CheckLogo(v, stored string, square bool) error {
	v = strings.TrimSpace(v)
	if v == "" || v == stored {
		return nil
	}
	if !strings.HasPrefix(v, pngDataURL) {
		return ErrLogoType
	}
	enc := v[len(pngDataURL):]
	if base64.StdEncoding.DecodedLen(len(enc)) > MaxLogoBytes+3 {
		return ErrLogoTooLarge
	}
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return ErrLogoType
	}
	if len(raw) > MaxLogoBytes {
		return ErrLogoTooLarge
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return ErrLogoType
	}
	if square && cfg.Width != cfg.Height {
		return ErrMiniNotSq
	}
	return nil
}

// HostEntry is a host name of a customer and whether it has a theme.
type HostEntry struct {
	Hostname string `json:"hostname"`
	HasTheme bool   `json:"hasTheme"`
}

// Hosts returns the host names assigned to a customer, in order.
func (s *Store) Hosts(ctx context.Context, customerID int64) ([]HostEntry, error) {
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: `h.hostname, b.hostname IS NOT NULL`,
		From:  `customer_hosts h LEFT JOIN host_branding b ON b.hostname = h.hostname`,
		Where: db.Scope("h.customer_id", customerID), Order: `h.hostname`},
		func(r db.Scanner) (HostEntry, error) {
			var e HostEntry
			err := r.Scan(&e.Hostname, &e.HasTheme)
			return e, err
		})
	return out, err
}

// HostOwner returns the customer a host name is assigned to (db.ErrNotFound: none).
func (s *Store) HostOwner(ctx context.Context, host string) (int64, error) {
	host, err := NormalizeHost(host)
	if err != nil {
		return 0, err
	}
	var c int64
	err = s.db.QueryRow(ctx, `SELECT customer_id FROM customer_hosts WHERE hostname = ?`, host).Scan(&c)
	return c, db.NotFound(err)
}

// AssignHost gives a host name to a customer (the operator: `tenfour admin host-assign`), taking it from any
// other customer; the host's branding record stays.
func (s *Store) AssignHost(ctx context.Context, host string, customerID int64) error {
	host, err := NormalizeHost(host)
	if err != nil {
		return err
	}
	if err := tenant.Exists(ctx, s.db, customerID); err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO customer_hosts (hostname, customer_id, created_at) VALUES (?, ?, ?)
		ON CONFLICT (hostname) DO UPDATE SET customer_id = excluded.customer_id`, host, customerID, time.Now().UnixMilli())
	return err
}

// UnassignHost takes a host name from its customer (db.ErrNotFound: it had none).
func (s *Store) UnassignHost(ctx context.Context, host string) error {
	host, err := NormalizeHost(host)
	if err != nil {
		return err
	}
	return db.OneRow(s.db.Exec(ctx, `DELETE FROM customer_hosts WHERE hostname = ?`, host))
}

// Themes returns the themes of a customer's hosts (only host, when not empty).
func (s *Store) Themes(ctx context.Context, customerID int64, host string) ([]Theme, error) {
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: `b.hostname, ` + prefixed("b.", brandingCols),
		From:  `host_branding b JOIN customer_hosts h ON h.hostname = b.hostname`,
		Where: db.Scope("h.customer_id", customerID).If(host != "", "b.hostname = ?", host), Order: `b.hostname`},
		func(r db.Scanner) (Theme, error) {
			var b Branding
			err := r.Scan(append([]any{&b.Hostname}, b.fields()...)...)
			return ThemeOf(b), err
		})
	return out, err
}

func prefixed(p, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// themeHost resolves the hostname parameter (optional: the host the request came to, spec §5 "skin host name
// optional") and checks that it is one of the caller's customer's hosts.
func (s *Service) themeHost(ctx context.Context, p identity.Principal, r *http.Request, host string) (string, error) {
	if strings.TrimSpace(host) == "" {
		host = r.Host
	}
	host, err := NormalizeHost(host)
	if err != nil {
		return "", err
	}
	owner, err := s.Store.HostOwner(ctx, host)
	if errors.Is(err, db.ErrNotFound) || (err == nil && owner != p.CustomerID) {
		return "", ErrNotYourHost
	}
	return host, err
}

// themed is the shape of the custom-theme endpoints: the caller is a dispatcher of account type "1" (spec §6:
// custom theme is for "1" only; others get 107 before their request is read), the request decodes into Req,
// and fn gets the request too (a blank host name is the host the console is open at: themeHost).
func themed[Req any](fn func(r *http.Request, p identity.Principal, req Req) (any, error)) httpx.Handler {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		p := identity.Must(r.Context())
		if p.AcctType != "1" {
			return nil, httpx.ErrPermission
		}
		var req Req
		if err := httpx.Decode(r, &req); err != nil {
			return nil, err
		}
		return fn(r, p, req)
	}
}

// hostReq names one of the customer's hosts.
type hostReq struct {
	Hostname string `json:"hostname"`
}

// POST /ds/custom/customTheme {hostname?, sysName, themeColor, tabColor, subThemeColor, weightThemeColor,
// callingColor, loginFrameColor, miniLogoUrl, logoUrl, copyright} → Theme (creates or replaces the host's)
func (s *Service) customTheme(r *http.Request, p identity.Principal, t Theme) (any, error) {
	ctx := r.Context()
	host, err := s.themeHost(ctx, p, r, t.Hostname)
	if err != nil {
		return nil, err
	}
	old, err := s.Store.Branding(ctx, host)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return nil, err
	}
	t.LogoURL, t.MiniLogoURL = strings.TrimSpace(t.LogoURL), strings.TrimSpace(t.MiniLogoURL)
	if err := CheckLogo(t.LogoURL, old.LogoURL, false); err != nil {
		return nil, err
	}
	if err := CheckLogo(t.MiniLogoURL, old.MiniLogoURL, true); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		v    *string
		max  int
	}{{"sysName", &t.SysName, 64}, {"copyright", &t.Copyright, 128}} {
		v, ok := text.Name(*f.v)
		if !ok {
			return nil, ErrThemeChars
		}
		if *f.v, err = httpx.Text(f.name, v, f.max); err != nil {
			return nil, err
		}
	}
	b := t.apply(old)
	if err := s.Store.SetBranding(ctx, host, b); err != nil {
		return nil, err
	}
	saved, err := s.Store.Branding(ctx, host)
	if err != nil {
		return nil, err
	}
	s.themeChanged(p.CustomerID, host)
	return ThemeOf(saved), nil
}

// GET /ds/custom/findTheme {hostname?} → {total, list}: the themes of the customer's hosts (one host's when
// hostname is given).
func (s *Service) findTheme(r *http.Request, p identity.Principal, req hostReq) (any, error) {
	host := ""
	if strings.TrimSpace(req.Hostname) != "" {
		var err error
		if host, err = s.themeHost(r.Context(), p, r, req.Hostname); err != nil {
			return nil, err
		}
	}
	list, err := s.Store.Themes(r.Context(), p.CustomerID, host)
	if err != nil {
		return nil, err
	}
	return httpx.All(list), nil
}

// DELETE /ds/custom/deleteTheme {hostname} → {hostname}: the host's login page goes back to the default look.
func (s *Service) deleteTheme(r *http.Request, p identity.Principal, req hostReq) (any, error) {
	host, err := s.themeHost(r.Context(), p, r, req.Hostname)
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteBranding(r.Context(), host); err != nil {
		return nil, err
	}
	s.themeChanged(p.CustomerID, host)
	return map[string]string{"hostname": host}, nil
}

// GET /ds/custom/getClientHostList → {total, list: [{hostname, hasTheme}]}: the customer's host names.
func (s *Service) getClientHostList(r *http.Request, p identity.Principal, _ struct{}) (any, error) {
	list, err := s.Store.Hosts(r.Context(), p.CustomerID)
	if err != nil {
		return nil, err
	}
	return httpx.All(list), nil
}
