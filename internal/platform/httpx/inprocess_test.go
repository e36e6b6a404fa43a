package httpx_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"tenfour/internal/platform/httpx"
)

// The in-process address is what the sign-in throttle exempts (docs/adr/0008): only a connection made through
// the in-process listener has it — not a TCP peer on loopback, not a client naming it through a trusted proxy.
func TestInProcessAddressCannotBeClaimed(t *testing.T) {
	proxy := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	h := httpx.RealIP(proxy, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, httpx.ClientIP(r))
	}))
	ln := httpx.NewInProcessListener()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	tcp := httptest.NewServer(h)
	defer tcp.Close()

	get := func(c *http.Client, url string, hdr map[string]string) string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	in := ln.Client(10 * time.Second)
	// An https URL goes in-process over plain HTTP too (a server with TLS runs its demo fleet so).
	for _, u := range []string{"http://127.0.0.1:8080/x", "https://dispatch.example/x"} {
		if got := get(in, u, nil); got != httpx.InProcessAddr {
			t.Fatalf("in-process request to %s: client address %q, want %q", u, got, httpx.InProcessAddr)
		}
	}
	forged := map[string]string{"X-Forwarded-For": httpx.InProcessAddr}
	for name, hdr := range map[string]map[string]string{"plain": nil, "forged X-Forwarded-For": forged} {
		if got := get(http.DefaultClient, tcp.URL+"/x", hdr); got == httpx.InProcessAddr {
			t.Fatalf("a TCP client on loopback (%s) has the in-process address", name)
		}
	}
}
