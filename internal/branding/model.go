// Package branding owns what a console learns before sign-in and what shapes it after: the host branding
// record (spec §3 "Host branding record"), the per-host client configuration, the build version the console
// reloads on, and the per-customer data-source configuration (spec §6 feature keys; value 0 disables).
package branding

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"unicode"

	"tenfour/internal/platform/httpx"
	"tenfour/web"
)

// Branding is a host branding record.
type Branding struct {
	Hostname    string `json:"hostname"`
	SysName     string `json:"sysName"`
	LogoURL     string `json:"logoUrl"`
	MiniLogoURL string `json:"miniLogoUrl"`
	CSSURL      string `json:"cssUrl"`
	ThemeColor  string `json:"themeColor"`
	// The other skin colours of spec §3 (custom themes, docs/adr/0021): the main tab bar, the secondary and the
	// emphasis colours, and the colour of a call in progress. Empty: the console's own.
	TabColor         string `json:"tabColor"`
	SubThemeColor    string `json:"subThemeColor"`
	WeightThemeColor string `json:"weightThemeColor"`
	CallingColor     string `json:"callingColor"`
	Copyright        string `json:"copyright"`
	// Remark is a JSON string (spec §3): {"logoPageBg": "…", "loginFrameColor": "…"}; see EncodeRemark.
	Remark string `json:"remark"`
}

// Remark is the decoded form of Branding.Remark.
type Remark struct {
	LogoPageBg      string `json:"logoPageBg"`
	LoginFrameColor string `json:"loginFrameColor"`
}

// remark decodes the record's Remark; one that is not JSON reads as empty (validate refuses it on a write).
func (b Branding) remark() Remark {
	var r Remark
	if b.Remark != "" {
		_ = json.Unmarshal([]byte(b.Remark), &r)
	}
	return r
}

// EncodeRemark turns a Remark into the JSON string the record carries.
func EncodeRemark(r Remark) string {
	b, _ := json.Marshal(r)
	return string(b)
}

// ClientConfig is the per-host client configuration (spec §3 "Per-host client config").
type ClientConfig struct {
	Title         string   `json:"title"`
	Logo          string   `json:"logo"`
	TopIco        string   `json:"topIco"`
	DateFormat    string   `json:"dateFormat"`
	MapsKey       string   `json:"mapsKey"`
	AutoLoginKeys []string `json:"autoLoginKeys"`
	// Version is the product version "0" or "1" served on this host (spec §6 feature gating).
	Version       string `json:"version"`
	SpeedUnit     string `json:"speedUnit"` // km/h, mph or m/s
	MoreScreenUrl string `json:"moreScreenUrl"`
}

// Defaults of the client configuration (spec §3, §9).
const (
	DefaultDateFormat = "MM/dd/yyyy"
	DefaultSpeedUnit  = "mph"
	DefaultVersion    = "1"
	DefaultTitle      = "tenfour"
)

// withDefaults fills empty fields.
func (c ClientConfig) withDefaults() ClientConfig {
	if c.Title == "" {
		c.Title = DefaultTitle
	}
	if c.DateFormat == "" {
		c.DateFormat = DefaultDateFormat
	}
	if c.SpeedUnit == "" {
		c.SpeedUnit = DefaultSpeedUnit
	}
	if c.Version == "" {
		c.Version = DefaultVersion
	}
	if c.AutoLoginKeys == nil {
		c.AutoLoginKeys = []string{}
	}
	return c
}

var (
	colorRe   = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$`)
	hostRe    = regexp.MustCompile(`^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$`)
	keyRe     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,63}$`)
	ErrBadURL = httpx.BadParam("url", "a path, an http(s) URL or a data:image URL of at most 100 KB")
)

// NormalizeHost lowercases a host name and drops a port; it fails on anything that is not a host name or
// an IP address.
func NormalizeHost(h string) (string, error) {
	h = strings.ToLower(strings.TrimSpace(h))
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if h == "" {
		return "", httpx.BadParam("hostname", "required")
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.String(), nil
	}
	if len(h) > 253 || !hostRe.MatchString(h) {
		return "", httpx.BadParam("hostname", "not a host name")
	}
	return h, nil
}

func checkColor(name, v string) error {
	if v != "" && !colorRe.MatchString(v) {
		return httpx.BadParam(name, "a #rgb or #rrggbb colour")
	}
	return nil
}

func checkURL(name, v string) error {
	if v == "" {
		return nil
	}
	limit := 2048
	if strings.HasPrefix(v, "data:image/") {
		limit = 100 << 10 // logos are at most 50 KB (spec §5), base64 makes them a third larger
	} else if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "http://") {
		return httpx.BadParam(name, "a path, an http(s) URL or a data:image URL")
	}
	if len(v) > limit {
		return httpx.BadParam(name, "too long")
	}
	for _, r := range v {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return httpx.BadParam(name, "contains spaces or control characters")
		}
	}
	return nil
}

func checkText(name, v string, max int) error {
	if len([]rune(v)) > max {
		return httpx.BadParam(name, "too long")
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return httpx.BadParam(name, "contains control characters")
		}
	}
	return nil
}

// validate checks a branding record before it is stored.
func (b Branding) validate() error {
	if err := checkText("sysName", b.SysName, 64); err != nil {
		return err
	}
	for _, u := range []struct{ n, v string }{{"logoUrl", b.LogoURL}, {"miniLogoUrl", b.MiniLogoURL}, {"cssUrl", b.CSSURL}} {
		if err := checkURL(u.n, u.v); err != nil {
			return err
		}
	}
	for _, c := range []struct{ n, v string }{{"themeColor", b.ThemeColor}, {"tabColor", b.TabColor},
		{"subThemeColor", b.SubThemeColor}, {"weightThemeColor", b.WeightThemeColor}, {"callingColor", b.CallingColor}} {
		if err := checkColor(c.n, c.v); err != nil {
			return err
		}
	}
	if err := checkText("copyright", b.Copyright, 128); err != nil {
		return err
	}
	if b.Remark != "" {
		var r Remark
		if err := json.Unmarshal([]byte(b.Remark), &r); err != nil {
			return httpx.BadParam("remark", "a JSON object {logoPageBg, loginFrameColor}")
		}
		if err := checkColor("loginFrameColor", r.LoginFrameColor); err != nil {
			return err
		}
		if len(r.LogoPageBg) > 100<<10 {
			return httpx.BadParam("logoPageBg", "too long")
		}
	}
	return nil
}

// validate checks a client configuration before it is stored.
func (c ClientConfig) validate() error {
	for _, t := range []struct{ n, v string }{{"title", c.Title}, {"dateFormat", c.DateFormat}, {"mapsKey", c.MapsKey}} {
		if err := checkText(t.n, t.v, 128); err != nil {
			return err
		}
	}
	for _, u := range []struct{ n, v string }{{"logo", c.Logo}, {"topIco", c.TopIco}, {"moreScreenUrl", c.MoreScreenUrl}} {
		if err := checkURL(u.n, u.v); err != nil {
			return err
		}
	}
	switch c.Version {
	case "", "0", "1":
	default:
		return httpx.BadParam("version", `"0" or "1"`)
	}
	switch c.SpeedUnit {
	case "", "km/h", "mph", "m/s":
	default:
		return httpx.BadParam("speedUnit", "km/h, mph or m/s")
	}
	if len(c.AutoLoginKeys) > 100 {
		return httpx.BadParam("autoLoginKeys", "too many")
	}
	for _, k := range c.AutoLoginKeys {
		if err := checkText("autoLoginKeys", k, 128); err != nil || k == "" {
			return httpx.BadParam("autoLoginKeys", "non-empty keys of at most 128 characters")
		}
	}
	return nil
}

// Version is the build version the console reloads on (GET /static/config.json). Set it at build time with
// -ldflags "-X tenfour/internal/branding.Version=…"; otherwise it comes from the VCS stamp of the build.
var Version = ""

// BuildVersion returns Version, or the VCS revision of the binary, or a digest of the embedded console's
// index.html (it names the hashed asset files, so it changes with every console build), or "dev".
var BuildVersion = sync.OnceValue(func() string {
	if Version != "" {
		return Version
	}
	if v := vcsVersion(); v != "" {
		return v
	}
	if index, err := fs.ReadFile(web.Dist(), "index.html"); err == nil {
		sum := sha256.Sum256(index)
		return "web-" + hex.EncodeToString(sum[:6])
	}
	return "dev"
})

func vcsVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}
