package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"tenfour/internal/branding"
	"tenfour/internal/platform/httpx"
)

// OAuth sign-in with a host's provider (authorization-code flow, docs/api.md "OAuth sign-in"): oauthStart gives the
// console the provider's authorization address with a fresh state (kept in an HttpOnly cookie), the provider sends
// the browser back to /login?platform=…&code=…&state=…, and getAccountByOauth trades that code (oauthIdentity)
// for the identity oauth_links maps to an account. A platform without a provider on this host keeps the spec's
// plain form: oauth is the linked identity itself.

// oauthStateCookie carries "<platform>.<state>" from oauthStart to getAccountByOauth.
const oauthStateCookie = "oauth_state"

// oauthStateTTL is how long a started sign-in may take at the provider.
const oauthStateTTL = 10 * time.Minute

// oauthTimeout bounds each call to the provider; oauthMaxBody its answers.
const (
	oauthTimeout = 10 * time.Second
	oauthMaxBody = 1 << 20
)

// oauthClient calls providers (tests point it at their own).
var oauthClient = &http.Client{Timeout: oauthTimeout}

// oauthProvider is platform's provider on the host r came to (ok false: none, the spec's plain form).
func (s *Service) oauthProvider(ctx context.Context, r *http.Request, platform string) (branding.OAuthProvider, bool, error) {
	return branding.NewStore(s.db).OAuthProvider(ctx, r.Host, platform)
}

// oauthRedirect is where the provider sends the browser back: the console's login page, which finishes.
func (s *Service) oauthRedirect(r *http.Request, platform string) string {
	return s.baseURL(r) + "/login?platform=" + url.QueryEscape(platform)
}

// oauthStart is GET /ds/pub/oauthStart {platform} → {"url": …}: the provider's authorization address for this
// host's platform, with a fresh state that only this browser holds (cookie). 404 when the host has no such provider.
func (s *Service) oauthStart(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		Platform string `json:"platform"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	if err := firstErr(httpx.Required("platform", req.Platform), paramLen("platform", req.Platform, maxShortParam)); err != nil {
		return nil, err
	}
	p, ok, err := s.oauthProvider(r.Context(), r, req.Platform)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, httpx.ErrNotFound
	}
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	state := hex.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: oauthStateCookie, Value: req.Platform + "." + state, Path: "/ds/user/getAccountByOauth",
		MaxAge: int(oauthStateTTL / time.Second), HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r)})
	return map[string]string{"url": s.oauthConfig(r, p).AuthCodeURL(state)}, nil
}

// oauthConfig is the host's provider as golang.org/x/oauth2 takes it: the client's id and secret sent as form
// parameters (what every provider accepts), the scope as its space-separated list.
func (s *Service) oauthConfig(r *http.Request, p branding.OAuthProvider) *oauth2.Config {
	return &oauth2.Config{ClientID: p.ClientID, ClientSecret: p.ClientSecret, RedirectURL: s.oauthRedirect(r, p.Platform),
		Scopes:   strings.Fields(p.Scope),
		Endpoint: oauth2.Endpoint{AuthURL: p.AuthorizeURL, TokenURL: p.TokenURL, AuthStyle: oauth2.AuthStyleInParams}}
}

// errOAuth is why a code was not taken (logged; the caller sees 102 whatever the reason).
var errOAuth = errors.New("oauth")

// oauthIdentity checks the state against this browser's cookie (used up either way), trades code at the
// provider's token endpoint and reads the identity from its user-info endpoint.
func (s *Service) oauthIdentity(w http.ResponseWriter, r *http.Request, p branding.OAuthProvider, code, state string) (string, error) {
	http.SetCookie(w, &http.Cookie{Name: oauthStateCookie, Value: "", Path: "/ds/user/getAccountByOauth", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r)})
	c, err := r.Cookie(oauthStateCookie)
	if err != nil || state == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(p.Platform+"."+state)) != 1 {
		return "", fmt.Errorf("%w: state does not match this browser's", errOAuth)
	}
	ctx := context.WithValue(r.Context(), oauth2.HTTPClient, oauthClient)
	tok, err := s.oauthConfig(r, p).Exchange(ctx, code)
	if err != nil {
		return "", fmt.Errorf("%w: token: %w", errOAuth, err)
	}
	var info map[string]any
	if err := oauthUserInfo(ctx, p.UserInfoURL, tok.AccessToken, &info); err != nil {
		return "", fmt.Errorf("%w: user info: %w", errOAuth, err)
	}
	var id string
	switch v := info[p.IDField].(type) {
	case string:
		id = v
	case json.Number:
		id = v.String()
	}
	if id == "" || len(id) > maxOAuthParam {
		return "", fmt.Errorf("%w: user info has no %q", errOAuth, p.IDField)
	}
	return id, nil
}

// oauthUserInfo reads the provider's user-info answer with the access token.
func oauthUserInfo(ctx context.Context, endpoint, accessToken string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+accessToken)
	res, err := oauthClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", endpoint, res.Status)
	}
	dec := json.NewDecoder(io.LimitReader(res.Body, oauthMaxBody))
	dec.UseNumber()
	return dec.Decode(out)
}

// oauthCode turns getAccountByOauth's oauth into the identity to look up: through the provider when this host has
// one for the platform (then oauth is its code, and a failure is 102), else as is.
func (s *Service) oauthCode(w http.ResponseWriter, r *http.Request, platform, oauth, state string) (string, error) {
	p, ok, err := s.oauthProvider(r.Context(), r, platform)
	if err != nil || !ok {
		return oauth, err
	}
	id, err := s.oauthIdentity(w, r, p, oauth, state)
	if err != nil {
		slog.WarnContext(r.Context(), "OAuth sign-in refused", "platform", platform, "err", err)
		return "", ErrAuthFailed
	}
	return id, nil
}
