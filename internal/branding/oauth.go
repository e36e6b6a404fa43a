package branding

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"net/url"
	"regexp"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// OAuthProvider is an OAuth 2.0 provider a host offers on its login page: the console sends the browser to
// AuthorizeURL, the provider sends it back with a code, and the server trades the code at TokenURL and reads the
// identity (IDField of UserInfoURL's answer) that oauth_links maps to an account (docs/api.md "OAuth sign-in").
// Only Platform and Name are public.
type OAuthProvider struct {
	Platform     string `json:"platform"`
	Name         string `json:"name"`
	AuthorizeURL string `json:"-"`
	TokenURL     string `json:"-"`
	UserInfoURL  string `json:"-"`
	ClientID     string `json:"-"`
	ClientSecret string `json:"-"`
	Scope        string `json:"-"`
	// IDField names the user-info field that identifies the user; "sub" (OpenID Connect) when empty.
	IDField string `json:"-"`
}

var platformRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// validate checks a provider before it is stored: a platform name of letters, digits, _ . - (it goes into URLs),
// a display name, http(s) endpoints and a client id.
func (p OAuthProvider) validate() error {
	if !platformRe.MatchString(p.Platform) {
		return httpx.BadParam("platform", "1-64 letters, digits, _ . or -")
	}
	if err := checkText("name", p.Name, 64); err != nil || p.Name == "" {
		return httpx.BadParam("name", "1-64 characters")
	}
	for _, u := range []struct{ n, v string }{{"authorizeUrl", p.AuthorizeURL}, {"tokenUrl", p.TokenURL}, {"userInfoUrl", p.UserInfoURL}} {
		if parsed, err := url.Parse(u.v); err != nil || (parsed.Scheme != "https" && parsed.Scheme != "http") || parsed.Host == "" || len(u.v) > 2048 {
			return httpx.BadParam(u.n, "an http(s) URL")
		}
	}
	if err := checkText("clientId", p.ClientID, 256); err != nil || p.ClientID == "" {
		return httpx.BadParam("clientId", "1-256 characters")
	}
	for _, t := range []struct{ n, v string }{{"clientSecret", p.ClientSecret}, {"scope", p.Scope}, {"idField", p.IDField}} {
		if err := checkText(t.n, t.v, 512); err != nil {
			return err
		}
	}
	return nil
}

const oauthCols = `platform, name, authorize_url, token_url, userinfo_url, client_id, client_secret, scope, id_field`

func scanOAuth(r db.Scanner) (OAuthProvider, error) {
	var p OAuthProvider
	err := r.Scan(&p.Platform, &p.Name, &p.AuthorizeURL, &p.TokenURL, &p.UserInfoURL, &p.ClientID, &p.ClientSecret, &p.Scope, &p.IDField)
	if p.IDField == "" {
		p.IDField = "sub"
	}
	return p, err
}

// SetOAuthProvider creates or replaces a provider of a host (administrators: `tenfour admin oauth-provider`).
func (s *Store) SetOAuthProvider(ctx context.Context, host string, p OAuthProvider) error {
	return s.set(ctx, host, p, `INSERT INTO oauth_providers (hostname, `+oauthCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (hostname, platform) DO UPDATE SET name = excluded.name, authorize_url = excluded.authorize_url,
			token_url = excluded.token_url, userinfo_url = excluded.userinfo_url, client_id = excluded.client_id,
			client_secret = excluded.client_secret, scope = excluded.scope, id_field = excluded.id_field`,
		p.Platform, p.Name, p.AuthorizeURL, p.TokenURL, p.UserInfoURL, p.ClientID, p.ClientSecret, p.Scope, p.IDField)
}

// DeleteOAuthProvider removes a provider of a host (db.ErrNotFound when there is none).
func (s *Store) DeleteOAuthProvider(ctx context.Context, host, platform string) error {
	host, err := NormalizeHost(host)
	if err != nil {
		return err
	}
	return db.OneRow(s.db.Exec(ctx, `DELETE FROM oauth_providers WHERE hostname = ? AND platform = ?`, host, platform))
}

// OAuthProviders lists a host's providers by platform.
func (s *Store) OAuthProviders(ctx context.Context, host string) ([]OAuthProvider, error) {
	host, err := NormalizeHost(host)
	if err != nil {
		return nil, err
	}
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: oauthCols, From: `oauth_providers`,
		Where: new(db.Filter).Eq("hostname", host), Order: `platform`}, scanOAuth)
	return out, err
}

// OAuthProvider is one provider of a host; ok false when the host has none of that platform.
func (s *Store) OAuthProvider(ctx context.Context, host, platform string) (p OAuthProvider, ok bool, err error) {
	host, err = NormalizeHost(host)
	if err != nil {
		return p, false, err
	}
	p, err = scanOAuth(s.db.QueryRow(ctx, `SELECT `+oauthCols+` FROM oauth_providers WHERE hostname = ? AND platform = ?`, host, platform))
	if errors.Is(err, sql.ErrNoRows) {
		return OAuthProvider{}, false, nil
	}
	return p, err == nil, err
}

// oauthProviders is GET /ds/pub/oauthProviders {hostname}: the sign-in buttons of a host's login page.
func (s *Service) oauthProviders(w http.ResponseWriter, r *http.Request) (any, error) {
	host, err := hostParam(r)
	if err != nil {
		return nil, err
	}
	return s.Store.OAuthProviders(r.Context(), host)
}
