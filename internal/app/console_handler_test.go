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

// A file the build compressed goes out as the best copy the browser accepts, with its own type, and as it is to a
// browser that accepts neither; index.html's fallback too. Accept-Encoding's qualities and "*" are honoured.
func TestConsoleHandlerSendsTheCompressedCopies(t *testing.T) {
	dist := fstest.MapFS{
		"index.html":         {Data: []byte("console")},
		"index.html.gz":      {Data: []byte("console gz")},
		"assets/ui-1.js":     {Data: []byte("ui")},
		"assets/ui-1.js.br":  {Data: []byte("ui br")},
		"assets/ui-1.js.gz":  {Data: []byte("ui gz")},
		"assets/small-1.css": {Data: []byte("small")}, // under the build's 1 KiB threshold: never compressed
	}
	h := consoleHandler(dist)
	cases := []struct {
		path, accept          string
		body, encoding, ctype string
		vary                  bool
	}{
		{"/assets/ui-1.js", "gzip, deflate, br, zstd", "ui br", "br", "text/javascript; charset=utf-8", true},
		{"/assets/ui-1.js", "gzip", "ui gz", "gzip", "text/javascript; charset=utf-8", true},
		{"/assets/ui-1.js", "br;q=0, gzip;q=0.5", "ui gz", "gzip", "text/javascript; charset=utf-8", true},
		{"/assets/ui-1.js", "BR", "ui br", "br", "text/javascript; charset=utf-8", true},
		{"/assets/ui-1.js", "*", "ui br", "br", "text/javascript; charset=utf-8", true},
		{"/assets/ui-1.js", "*;q=0, identity", "ui", "", "text/javascript; charset=utf-8", true},
		{"/assets/ui-1.js", "br;q=zero", "ui", "", "text/javascript; charset=utf-8", true},
		{"/assets/ui-1.js", "", "ui", "", "text/javascript; charset=utf-8", true},
		{"/assets/small-1.css", "br, gzip", "small", "", "text/css; charset=utf-8", false},
		{"/dispatch", "br, gzip", "console gz", "gzip", "text/html; charset=utf-8", true},
		{"/", "identity", "console", "", "text/html; charset=utf-8", true},
	}
	for _, c := range cases {
		req := httptest.NewRequest(http.MethodGet, c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		hd := rec.Header()
		if rec.Code != 200 || rec.Body.String() != c.body || hd.Get("Content-Encoding") != c.encoding ||
			hd.Get("Content-Type") != c.ctype || (hd.Get("Vary") == "Accept-Encoding") != c.vary {
			t.Errorf("%s with %q: %d %q encoding %q type %q vary %q; want %q encoding %q type %q vary %v", c.path, c.accept,
				rec.Code, rec.Body.String(), hd.Get("Content-Encoding"), hd.Get("Content-Type"), hd.Get("Vary"),
				c.body, c.encoding, c.ctype, c.vary)
		}
	}
	// A range is of the body as sent.
	req := httptest.NewRequest(http.MethodGet, "/assets/ui-1.js", nil)
	req.Header.Set("Accept-Encoding", "br")
	req.Header.Set("Range", "bytes=3-4")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusPartialContent || rec.Body.String() != "br" || rec.Header().Get("Content-Encoding") != "br" {
		t.Errorf("range: %d %q %q", rec.Code, rec.Body.String(), rec.Header().Get("Content-Encoding"))
	}
}
