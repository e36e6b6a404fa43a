package auth_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"tenfour/internal/auth"
	"tenfour/internal/branding"
	"tenfour/internal/testkit"
)

// oauthPeer is a small OAuth 2.0 provider: its token endpoint trades goodCode (sent with the client's id, secret
// and the registered redirect address) for an access token, whose user info names the user "alice-7".
type oauthPeer struct {
	*httptest.Server
	redirect string // the redirect address the client registered (set once the server under test runs)
}

const (
	goodCode     = "code-for-alice"
	oauthSecret  = "s3cret"
	oauthToken   = "at-alice"
	oauthSubject = "alice-7"
)

func newOAuthPeer(t *testing.T) *oauthPeer {
	p := &oauthPeer{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		if r.ParseForm() != nil || r.PostForm.Get("grant_type") != "authorization_code" || r.PostForm.Get("client_id") != "tenfour" ||
			r.PostForm.Get("client_secret") != oauthSecret || r.PostForm.Get("redirect_uri") != p.redirect || r.PostForm.Get("code") != goodCode {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json") // as providers answer (RFC 6749 §5.1)
		_, _ = w.Write([]byte(`{"access_token":"` + oauthToken + `","token_type":"Bearer"}`))
	})
	mux.HandleFunc("GET /userinfo", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+oauthToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"sub":"` + oauthSubject + `","name":"Alice"}`))
	})
	p.Server = httptest.NewServer(mux)
	t.Cleanup(p.Close)
	return p
}

// TestOAuthProviderSignIn: a host's OAuth provider signs a dispatcher in by the authorization-code flow — the
// login page's buttons, the provider's address with a state only this browser holds, the code traded at the
// provider for the identity linked to the account — and refuses a wrong state, a refused code, another browser, a
// used state and the bare identity.
func TestOAuthProviderSignIn(t *testing.T) {
	peer := newOAuthPeer(t)
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		ctx := context.Background()
		peer.redirect = f.URL + "/login?platform=corp"
		if err := branding.NewStore(f.DB).SetOAuthProvider(ctx, "127.0.0.1", branding.OAuthProvider{Platform: "corp", Name: "Corp SSO",
			AuthorizeURL: peer.URL + "/authorize", TokenURL: peer.URL + "/token", UserInfoURL: peer.URL + "/userinfo",
			ClientID: "tenfour", ClientSecret: oauthSecret, Scope: "openid profile"}); err != nil {
			t.Fatal(err)
		}
		if err := auth.LinkOAuth(ctx, f.DB, adminA, "corp", oauthSubject); err != nil {
			t.Fatal(err)
		}

		// The login page's buttons: platform and name, nothing of the client's secret.
		r := f.Do("GET", "/ds/pub/oauthProviders", "", nil)
		var list []map[string]string
		r.Into(t, &list)
		if len(list) != 1 || list[0]["platform"] != "corp" || list[0]["name"] != "Corp SSO" || len(list[0]) != 2 || strings.Contains(string(r.Body), oauthSecret) {
			t.Fatalf("providers %s", r.Body)
		}
		if r := f.Do("GET", "/ds/pub/oauthProviders", "", map[string]any{"hostname": "other.example"}); string(r.Result) != "[]" {
			t.Fatalf("another host's providers %s", r.Result)
		}

		jar, _ := cookiejar.New(nil)
		browser := &http.Client{Jar: jar}
		// start is the button: the provider's address, whose state this browser now holds.
		start := func(hc *http.Client) string {
			t.Helper()
			r := testkit.DoFrom(t, hc, f.URL, "GET", "/ds/pub/oauthStart", "", map[string]any{"platform": "corp"})
			var res struct {
				URL string `json:"url"`
			}
			r.Into(t, &res)
			u, err := url.Parse(res.URL)
			if err != nil || !strings.HasPrefix(res.URL, peer.URL+"/authorize?") {
				t.Fatalf("authorization address %q", res.URL)
			}
			q := u.Query()
			if q.Get("response_type") != "code" || q.Get("client_id") != "tenfour" || q.Get("redirect_uri") != peer.redirect ||
				q.Get("scope") != "openid profile" || len(q.Get("state")) < 32 {
				t.Fatalf("authorization parameters %v", q)
			}
			return q.Get("state")
		}
		back := func(hc *http.Client, code, state string) testkit.Reply {
			t.Helper()
			return testkit.DoFrom(t, hc, f.URL, "GET", "/ds/user/getAccountByOauth", "", map[string]any{"platform": "corp", "oauth": code, "state": state})
		}
		before := f.state()
		for _, c := range []struct {
			name  string
			hc    *http.Client
			code  string
			state func(string) string
		}{
			{"wrong state", browser, goodCode, func(string) string { return "not-the-state" }},
			{"code refused by the provider", browser, "stolen-code", func(s string) string { return s }},
			{"the bare identity", browser, oauthSubject, func(s string) string { return s }},
			{"another browser", &http.Client{}, goodCode, func(s string) string { return s }},
		} {
			if r := back(c.hc, c.code, c.state(start(browser))); r.Status != http.StatusUnauthorized || r.Code != "102" {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Code)
			}
		}
		if after := f.state(); after != before {
			t.Errorf("refused sign-ins changed the state:\n%s\n%s", before, after)
		}

		state := start(browser)
		r = back(browser, goodCode, state)
		var a sessionAnswer
		r.Into(t, &a)
		if a.UserInfo.MsID != adminA || a.Token == "" {
			t.Fatalf("signed in %+v", a)
		}
		checkCookie(t, r.Header, a.Token)
		if r := back(browser, goodCode, state); r.Code != "102" {
			t.Errorf("a used state: %+v", r)
		}
		if r := f.Do("GET", "/ds/pub/oauthStart", "", map[string]any{"platform": "github"}); r.Status != http.StatusNotFound || r.Code != "404" {
			t.Errorf("a platform without a provider: %d %s", r.Status, r.Code)
		}
		if r := f.Do("GET", "/ds/pub/oauthStart", "", nil); r.Code != "400" {
			t.Errorf("no platform: %+v", r)
		}
	})
}
