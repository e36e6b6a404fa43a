package app

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// The console's client routes fall back to index.html; the phone web app owns /app and falls back to app.html.
func TestConsoleHandlerServesPhoneApp(t *testing.T) {
	dist := fstest.MapFS{
		"index.html":               {Data: []byte("console")},
		"app.html":                 {Data: []byte("phone")},
		"app/manifest.webmanifest": {Data: []byte(`{"name":"tenfour PTT"}`)},
		"assets/app-1234.js":       {Data: []byte("js")},
		"app/sw.js":                {Data: []byte("sw")},
	}
	h := consoleHandler(dist)
	cases := []struct {
		path, want string
		code       int
	}{
		{"/home", "console", 200},
		{"/voice-list", "console", 200},
		{"/app/", "phone", 200},
		{"/app/anything/deeper", "phone", 200},
		{"/app/manifest.webmanifest", "tenfour PTT", 200},
		{"/app/sw.js", "sw", 200},
		{"/application", "console", 200},
	}
	for _, c := range cases {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, c.path, nil))
		if rec.Code != c.code || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%s: %d %q, want %d %q", c.path, rec.Code, rec.Body.String(), c.code, c.want)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app?x=1", nil))
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/app/?x=1" {
		t.Errorf("/app: %d to %q, want a redirect to /app/?x=1", rec.Code, rec.Header().Get("Location"))
	}
}
