package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"tenfour/internal/auth"
	"tenfour/internal/branding"
	"tenfour/internal/platform/db"
)

// The operator's commands for what shapes a console (issue 19): a host's branding record and client
// configuration, which customer a host name belongs to (custom themes), a customer's data-source feature switches
// and an account's type. Each changes only the fields whose flags are given and prints the result as JSON.

// fieldFlags are string flags that each set one field of a stored record (branding, client-config): declared
// with their help, copied into the record's fields only when given, so a command changes only what it is told.
type fieldFlags map[string]*string

func newFieldFlags(fs *flag.FlagSet, help [][2]string) fieldFlags {
	f := fieldFlags{}
	for _, h := range help {
		f[h[0]] = fs.String(h[0], "", h[1])
	}
	return f
}

// apply copies each flag given on the command line into its field (dst, by flag name) and reports whether any was.
func (f fieldFlags) apply(fs *flag.FlagSet, dst map[string]*string) bool {
	set, changed := setFlags(fs), false
	for name, p := range dst {
		if set[name] {
			*p, changed = *f[name], true
		}
	}
	return changed
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

func printJSON(v any) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

var adminBranding = storeCommand("branding", []string{"host"}, func(fs *flag.FlagSet) storeRun {
	host := fs.String("host", "", "host name the console is opened at")
	del := fs.Bool("delete", false, "remove the host's branding record")
	fields := newFieldFlags(fs, [][2]string{
		{"sys-name", "system name"}, {"logo-url", "logo (path, http(s) URL or data:image URL)"},
		{"mini-logo-url", "small icon"}, {"css-url", "style file"}, {"theme-color", "theme colour #rrggbb"},
		{"tab-color", "tab colour"}, {"sub-theme-color", "secondary colour"}, {"weight-theme-color", "emphasis colour"},
		{"calling-color", "colour of a call in progress"}, {"login-frame-color", "login frame colour"},
		{"login-bg", "login page background (colour or image URL)"}, {"copyright", "copyright line"},
	})
	return func(ctx context.Context, store *db.DB) error {
		bs := branding.NewStore(store)
		if *del {
			if err := bs.DeleteBranding(ctx, *host); err != nil {
				return fmt.Errorf("branding of %s: %w", *host, err)
			}
			fmt.Printf("branding of %s removed\n", *host)
			return nil
		}
		b, err := bs.Branding(ctx, *host)
		missing := errors.Is(err, db.ErrNotFound)
		if err != nil && !missing {
			return err
		}
		var rm branding.Remark
		if b.Remark != "" {
			if err := json.Unmarshal([]byte(b.Remark), &rm); err != nil {
				return fmt.Errorf("stored remark: %w", err)
			}
		}
		changed := fields.apply(fs, map[string]*string{"sys-name": &b.SysName, "logo-url": &b.LogoURL, "mini-logo-url": &b.MiniLogoURL,
			"css-url": &b.CSSURL, "theme-color": &b.ThemeColor, "tab-color": &b.TabColor, "sub-theme-color": &b.SubThemeColor,
			"weight-theme-color": &b.WeightThemeColor, "calling-color": &b.CallingColor, "copyright": &b.Copyright,
			"login-frame-color": &rm.LoginFrameColor, "login-bg": &rm.LogoPageBg})
		if !changed && missing {
			return fmt.Errorf("host %s has no branding record (give fields to create one)", *host)
		}
		if changed {
			b.Remark = branding.EncodeRemark(rm)
			if err := bs.SetBranding(ctx, *host, b); err != nil {
				return err
			}
		}
		saved, err := bs.Branding(ctx, *host)
		if err != nil {
			return err
		}
		return printJSON(saved)
	}
})

var adminClientConfig = storeCommand("client-config", []string{"host"}, func(fs *flag.FlagSet) storeRun {
	host := fs.String("host", "", "host name the console is opened at")
	fields := newFieldFlags(fs, [][2]string{
		{"title", "title"}, {"logo", "logo"}, {"top-ico", "top icon"}, {"date-format", "date format (default MM/dd/yyyy)"},
		{"maps-key", "maps key"}, {"version", `product version "0" or "1"`}, {"speed-unit", "km/h, mph or m/s (default mph)"},
		{"more-screen-url", "more-screen URL"},
	})
	autoLogin := fs.String("auto-login-keys", "", "comma-separated auto-login keys (empty: none)")
	return func(ctx context.Context, store *db.DB) error {
		bs := branding.NewStore(store)
		c, err := bs.ClientConfig(ctx, *host)
		if err != nil {
			return err
		}
		changed := fields.apply(fs, map[string]*string{"title": &c.Title, "logo": &c.Logo, "top-ico": &c.TopIco,
			"date-format": &c.DateFormat, "maps-key": &c.MapsKey, "version": &c.Version, "speed-unit": &c.SpeedUnit,
			"more-screen-url": &c.MoreScreenUrl})
		if setFlags(fs)["auto-login-keys"] {
			c.AutoLoginKeys, changed = []string{}, true
			for _, k := range strings.Split(*autoLogin, ",") {
				if k = strings.TrimSpace(k); k != "" {
					c.AutoLoginKeys = append(c.AutoLoginKeys, k)
				}
			}
		}
		if changed {
			if err := bs.SetClientConfig(ctx, *host, c); err != nil {
				return err
			}
			if c, err = bs.ClientConfig(ctx, *host); err != nil {
				return err
			}
		}
		return printJSON(c)
	}
})

var adminOAuthProvider = storeCommand("oauth-provider", []string{"host", "platform"}, func(fs *flag.FlagSet) storeRun {
	host := fs.String("host", "", "host name the console is opened at")
	var p branding.OAuthProvider
	fs.StringVar(&p.Platform, "platform", "", "the provider's name in getAccountByOauth and link-oauth")
	fs.StringVar(&p.Name, "name", "", "the name on the login page's button")
	fs.StringVar(&p.AuthorizeURL, "authorize-url", "", "the provider's authorization address")
	fs.StringVar(&p.TokenURL, "token-url", "", "the provider's token address")
	fs.StringVar(&p.UserInfoURL, "userinfo-url", "", "the provider's user-info address")
	fs.StringVar(&p.ClientID, "client-id", "", "this server's client id at the provider")
	fs.StringVar(&p.ClientSecret, "client-secret", "", "this server's client secret at the provider")
	fs.StringVar(&p.Scope, "scope", "", "scopes to ask for, e.g. \"openid profile\"")
	fs.StringVar(&p.IDField, "id-field", "sub", "the user-info field that names the user (link-oauth --oauth takes its value)")
	del := fs.Bool("delete", false, "remove the provider")
	return func(ctx context.Context, store *db.DB) error {
		bs := branding.NewStore(store)
		var err error
		if *del {
			err = bs.DeleteOAuthProvider(ctx, *host, p.Platform)
		} else {
			err = bs.SetOAuthProvider(ctx, *host, p)
		}
		if err != nil {
			return err
		}
		list, err := bs.OAuthProviders(ctx, *host)
		if err != nil {
			return err
		}
		return printJSON(list)
	}
})

var adminDSConfig = customerCommand("ds-config", nil, func(fs *flag.FlagSet) customerRun {
	setList := fs.String("set", "", "comma-separated key=value switches (0 disables), e.g. broadcast=0,patrol=1")
	unset := fs.String("unset", "", "comma-separated keys to remove (back to enabled)")
	return func(ctx context.Context, store *db.DB, cid int64, _ string) error {
		bs := branding.NewStore(store)
		c, err := bs.DSConfig(ctx, cid)
		if err != nil {
			return err
		}
		changed := false
		for _, kv := range strings.Split(*setList, ",") {
			if kv = strings.TrimSpace(kv); kv == "" {
				continue
			}
			k, v, ok := strings.Cut(kv, "=")
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if !ok || err != nil {
				return fmt.Errorf("--set %q: want key=number", kv)
			}
			c[strings.TrimSpace(k)], changed = n, true
		}
		for _, k := range strings.Split(*unset, ",") {
			if k = strings.TrimSpace(k); k != "" {
				delete(c, k)
				changed = true
			}
		}
		if changed {
			if err := bs.SetDSConfig(ctx, cid, c); err != nil {
				return err
			}
		}
		return printJSON(c.Effective())
	}
})

var adminAccountType = storeCommand("account-type", []string{"uid", "type"}, func(fs *flag.FlagSet) storeRun {
	uid := fs.String("uid", "", "account number")
	code := fs.String("type", "", `feature access code: "1" or "-2"`)
	return func(ctx context.Context, store *db.DB) error {
		if err := auth.SetAccountType(ctx, store, *uid, *code); err != nil {
			return err
		}
		fmt.Printf("account %s has account type %s\n", *uid, *code)
		return nil
	}
})

var adminHostAssign = customerCommand("host-assign", []string{"host"}, func(fs *flag.FlagSet) customerRun {
	host := fs.String("host", "", "host name")
	return func(ctx context.Context, store *db.DB, cid int64, customer string) error {
		if err := branding.NewStore(store).AssignHost(ctx, *host, cid); err != nil {
			return err
		}
		fmt.Printf("host %s belongs to customer %q: its dispatchers of account type 1 may theme it\n", *host, customer)
		return nil
	}
})

var adminHostUnassign = storeCommand("host-unassign", []string{"host"}, func(fs *flag.FlagSet) storeRun {
	host := fs.String("host", "", "host name")
	return func(ctx context.Context, store *db.DB) error {
		if err := branding.NewStore(store).UnassignHost(ctx, *host); err != nil {
			return fmt.Errorf("host %s: %w", *host, err)
		}
		fmt.Printf("host %s belongs to no customer\n", *host)
		return nil
	}
})
