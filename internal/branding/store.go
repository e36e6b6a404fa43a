package branding

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/tenant"
)

// Store reads and writes branding records, client configurations and data-source configurations.
type Store struct{ db *db.DB }

// NewStore wraps an open store.
func NewStore(d *db.DB) *Store { return &Store{db: d} }

// Branding returns the record of a host (db.ErrNotFound when there is none).
func (s *Store) Branding(ctx context.Context, host string) (Branding, error) {
	host, err := NormalizeHost(host)
	if err != nil {
		return Branding{}, err
	}
	b := Branding{Hostname: host}
	if err := s.db.QueryRow(ctx, `SELECT `+brandingCols+` FROM host_branding WHERE hostname = ?`, host).Scan(b.fields()...); err != nil {
		return Branding{}, db.NotFound(err)
	}
	return b, nil
}

// SetBranding creates or replaces the record of a host (administrators: `tenfour admin`, the custom-theme
// screens).
func (s *Store) SetBranding(ctx context.Context, host string, b Branding) error {
	return s.set(ctx, host, b, `INSERT INTO host_branding (hostname, `+brandingCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (hostname) DO UPDATE SET sys_name = excluded.sys_name, logo_url = excluded.logo_url,
			mini_logo_url = excluded.mini_logo_url, css_url = excluded.css_url, theme_color = excluded.theme_color,
			remark = excluded.remark, tab_color = excluded.tab_color, sub_theme_color = excluded.sub_theme_color,
			weight_theme_color = excluded.weight_theme_color, calling_color = excluded.calling_color,
			copyright = excluded.copyright`,
		b.SysName, b.LogoURL, b.MiniLogoURL, b.CSSURL, b.ThemeColor, b.Remark, b.TabColor, b.SubThemeColor,
		b.WeightThemeColor, b.CallingColor, b.Copyright)
}

// set stores one record of a host, the way every record of a host is written: the host name normalised, the
// record validated, then upsert run with the host as its first argument.
func (s *Store) set(ctx context.Context, host string, rec interface{ validate() error }, upsert string, args ...any) error {
	host, err := NormalizeHost(host)
	if err != nil {
		return err
	}
	if err := rec.validate(); err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, upsert, append([]any{host}, args...)...)
	return err
}

// brandingCols are the columns of a record after its host name, in the order of Branding.fields.
const brandingCols = `sys_name, logo_url, mini_logo_url, css_url, theme_color, remark, tab_color, sub_theme_color,
	weight_theme_color, calling_color, copyright`

func (b *Branding) fields() []any {
	return []any{&b.SysName, &b.LogoURL, &b.MiniLogoURL, &b.CSSURL, &b.ThemeColor, &b.Remark, &b.TabColor,
		&b.SubThemeColor, &b.WeightThemeColor, &b.CallingColor, &b.Copyright}
}

// DeleteBranding removes the record of a host (db.ErrNotFound when there is none).
func (s *Store) DeleteBranding(ctx context.Context, host string) error {
	host, err := NormalizeHost(host)
	if err != nil {
		return err
	}
	return db.OneRow(s.db.Exec(ctx, `DELETE FROM host_branding WHERE hostname = ?`, host))
}

// ClientConfig returns the configuration of a host with defaults filled in (defaults alone when the host
// has none).
func (s *Store) ClientConfig(ctx context.Context, host string) (ClientConfig, error) {
	host, err := NormalizeHost(host)
	if err != nil {
		return ClientConfig{}, err
	}
	var raw string
	err = s.db.QueryRow(ctx, `SELECT config FROM host_config WHERE hostname = ?`, host).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return ClientConfig{}.withDefaults(), nil
	}
	if err != nil {
		return ClientConfig{}, err
	}
	var c ClientConfig
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		return ClientConfig{}, err
	}
	return c.withDefaults(), nil
}

// SetClientConfig creates or replaces the configuration of a host; empty fields read back as defaults.
func (s *Store) SetClientConfig(ctx context.Context, host string, c ClientConfig) error {
	raw, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return s.set(ctx, host, c, `INSERT INTO host_config (hostname, config) VALUES (?, ?)
		ON CONFLICT (hostname) DO UPDATE SET config = excluded.config`, string(raw))
}

// FeatureKeys are the data-source keys that gate routes (spec §6 "Route gating by data-source key").
var FeatureKeys = []string{"map", "keyManage", "theme", "historyVoice", "sosManage", "indoorLocation", "workAlone",
	"jobTicketing", "broadcast", "mediaManage", "videoMonitor", "report", "logger", "message", "patrol"}

// DSConfig is a customer's data-source configuration: feature key → value; 0 disables, anything else (or
// absence) enables.
type DSConfig map[string]int

// Enabled tells whether a feature is on.
func (c DSConfig) Enabled(key string) bool {
	v, ok := c[key]
	return !ok || v != 0
}

// Effective returns every known feature key with its value (1 when not set) plus any extra keys stored, the
// form the sign-in answer carries as dsConfig.
func (c DSConfig) Effective() DSConfig {
	out := DSConfig{}
	for _, k := range FeatureKeys {
		out[k] = 1
	}
	for k, v := range c {
		out[k] = v
	}
	return out
}

// ParseDSConfig reads stored data-source configuration JSON leniently: numbers, numeric strings and booleans.
func ParseDSConfig(raw string) (DSConfig, error) {
	var m map[string]json.RawMessage
	if raw == "" {
		return DSConfig{}, nil
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return nil, err
	}
	out := make(DSConfig, len(m))
	for k, v := range m {
		var n json.Number
		var s string
		var b bool
		switch {
		case json.Unmarshal(v, &n) == nil:
			i, err := strconv.Atoi(n.String())
			if err != nil {
				return nil, err
			}
			out[k] = i
		case json.Unmarshal(v, &s) == nil:
			i, err := strconv.Atoi(s)
			if err != nil {
				return nil, err
			}
			out[k] = i
		case json.Unmarshal(v, &b) == nil:
			if b {
				out[k] = 1
			} else {
				out[k] = 0
			}
		}
	}
	return out, nil
}

// DSConfig returns a customer's stored data-source configuration (db.ErrNotFound for an unknown customer).
// Use Effective for the full map.
func (s *Store) DSConfig(ctx context.Context, customerID int64) (DSConfig, error) {
	t, err := tenant.Get(ctx, s.db, customerID)
	if err != nil {
		return nil, err
	}
	return ParseDSConfig(t.DSConfig)
}

// SetDSConfig replaces a customer's data-source configuration. Keys are identifiers (known feature keys and
// "no…Default" style overrides alike); values are 0 (off) or positive.
func (s *Store) SetDSConfig(ctx context.Context, customerID int64, c DSConfig) error {
	if len(c) > 200 {
		return httpx.BadParam("dsConfig", "too many keys")
	}
	for k, v := range c {
		if !keyRe.MatchString(k) {
			return httpx.BadParam("dsConfig", "key "+strconv.Quote(k)+" is not an identifier")
		}
		if v < 0 {
			return httpx.BadParam("dsConfig", "values are 0 (off) or positive")
		}
	}
	if c == nil {
		c = DSConfig{}
	}
	raw, _ := json.Marshal(c)
	return tenant.SetDSConfig(ctx, s.db, customerID, string(raw))
}
