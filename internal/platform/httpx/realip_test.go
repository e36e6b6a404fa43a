package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRealIP(t *testing.T) {
	trusted, err := ParsePrefixes([]string{"127.0.0.1", "10.0.0.0/8", ""})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePrefixes([]string{"10.0.0.0/33"}); err == nil {
		t.Fatal("a bad prefix was accepted")
	}
	var got string
	h := RealIP(trusted, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = ClientIP(r) }))
	cases := []struct {
		name, peer, xff, want string
	}{
		{"no proxy", "203.0.113.9:5000", "", "203.0.113.9"},
		{"untrusted peer cannot claim an address", "203.0.113.9:5000", "198.51.100.1", "203.0.113.9"},
		{"trusted proxy", "127.0.0.1:5000", "198.51.100.1", "198.51.100.1"},
		{"client-forged entries left of the real one are ignored", "127.0.0.1:5000", "1.2.3.4, 198.51.100.1", "198.51.100.1"},
		{"a chain of trusted proxies", "127.0.0.1:5000", "198.51.100.1, 10.1.2.3", "198.51.100.1"},
		{"all trusted: the left-most", "127.0.0.1:5000", "10.9.9.9, 10.1.2.3", "10.9.9.9"},
		{"malformed entry stops the walk", "127.0.0.1:5000", "198.51.100.1, junk", "127.0.0.1"},
		{"trusted proxy without the header", "127.0.0.1:5000", "", "127.0.0.1"},
		{"IPv6 client", "127.0.0.1:5000", "2001:db8::7", "2001:db8::7"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.peer
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		if got != c.want {
			t.Errorf("%s: client %q, want %q", c.name, got, c.want)
		}
	}
	// Without trusted proxies the header is never read.
	plain := RealIP(nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = ClientIP(r) }))
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:1"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	plain.ServeHTTP(httptest.NewRecorder(), r)
	if got != "127.0.0.1" {
		t.Fatalf("no trusted proxies: %q", got)
	}
}
