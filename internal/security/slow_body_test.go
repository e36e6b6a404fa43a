package security

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/testkit"
)

// slowHost is the server's host:port.
func slowHost(t *testing.T, s *testkit.Server) string {
	t.Helper()
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// trickle sends a request's headers announcing a 1000-byte body, then one byte every 100 ms, until the server
// closes the connection. It returns how long the server kept it and what it answered (the status line), or
// an error when the connection was still open after within.
func trickle(t *testing.T, host, method, path, contentType, token string, within time.Duration) (time.Duration, string, error) {
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: 1000\r\n", method, path, host, contentType)
	if token != "" {
		head += "token: " + token + "\r\n"
	}
	start := time.Now()
	if _, err := io.WriteString(c, head+"\r\n{"); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := c.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	_ = c.SetReadDeadline(start.Add(within))
	var status string
	br := bufio.NewReader(c)
	for {
		line, err := br.ReadString('\n')
		if status == "" && line != "" {
			status = strings.TrimSpace(line)
		}
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return time.Since(start), status, fmt.Errorf("%s %s: connection still open after %v (answered %q)", method, path, within, status)
			}
			return time.Since(start), status, nil // closed by the server
		}
	}
}

// TestSlowBody replays M5's slow bodies: a body trickled a byte at a time held its connection forever — on
// the unauthenticated sign-in, on upload and on any endpoint. Now each is cut once its read deadline
// (--body-timeout, 1 s here) passes (answered 408, or 400 where the endpoint reads the body itself); an upgraded socket older than that deadline keeps working,
// and a body that keeps up the minimum rate may take longer than the deadline.
func TestSlowBody(t *testing.T) {
	s := testkit.Start(t, func(c *config.Config) { c.HTTP.BodyTimeout = time.Second })
	cust := testkit.Customer(t, s.DB, "slow")
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: cust, ID: "33000001", Name: "Dispatcher", Type: "20", Group: "All"})
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: cust, ID: "33000101", Name: "Radio", Type: "10", Group: "All"})
	tok := s.Token("33000001", cust)
	host := slowHost(t, s)

	// A terminal's socket, open before any trickle starts: it must outlive every body deadline below.
	term := testkit.Terminal(t, s.URL, "33000101", testkit.Password)

	var wg sync.WaitGroup
	for _, c := range []struct{ method, path, ct, token string }{
		{"POST", "/ds/user", "application/x-www-form-urlencoded", ""},
		{"POST", "/filews/upload/media", "multipart/form-data; boundary=x", ""},
		{"PUT", "/ds/nms/updateGroupName", "application/json", tok},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			held, status, err := trickle(t, host, c.method, c.path, c.ct, c.token, 10*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			if held > 8*time.Second {
				t.Errorf("%s %s: held %v with a 1 s body deadline", c.method, c.path, held)
			}
			if strings.Contains(status, " 200 ") {
				t.Errorf("%s %s: answered %q, want a refusal (408, or the endpoint's 400 for a cut body) or a plain close", c.method, c.path, status)
			}
			t.Logf("%s %s: closed after %v, answered %q", c.method, c.path, held.Round(time.Millisecond), status)
		}()
	}
	wg.Wait()

	// Every deadline has passed: the socket opened before them still answers.
	if r := term.Call("status.report", map[string]any{"battery": 50}); r.Code != "0" {
		t.Errorf("terminal socket after the body deadlines: %s %q", r.Code, r.Msg)
	}

	// A 24 KiB body sent at 12 KiB/s takes about 2 s, beyond the 1 s grace, and keeps above the 4 KiB/s minimum.
	body := `{"gid":"1","name":"x"` + strings.Repeat(" ", 24<<10) + `}`
	req, _ := http.NewRequest("PUT", s.URL+"/ds/nms/updateGroupName", &pacedReader{r: strings.NewReader(body), chunk: 1200, every: 100 * time.Millisecond})
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("token", tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("paced body: %v", err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode == http.StatusRequestTimeout || strings.Contains(string(raw), `"408"`) {
		t.Errorf("a body at 12 KiB/s was cut: %d %s", res.StatusCode, raw)
	}
}

// pacedReader yields chunk bytes every interval.
type pacedReader struct {
	r     io.Reader
	chunk int
	every time.Duration
	last  time.Time
}

func (p *pacedReader) Read(b []byte) (int, error) {
	if !p.last.IsZero() {
		time.Sleep(time.Until(p.last.Add(p.every)))
	}
	p.last = time.Now()
	return p.r.Read(b[:min(len(b), p.chunk)])
}

// TestConnsPerIP replays M5's second half: 300 connections from one address all stayed open. With
// --conns-per-ip 8 the ninth is closed as soon as it is accepted, and a slot freed by a closed connection is
// taken again.
func TestConnsPerIP(t *testing.T) {
	s := testkit.Start(t, func(c *config.Config) { c.HTTP.ConnsPerIP = 8 })
	host := slowHost(t, s)
	dial := func() net.Conn {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// answers tells whether a request on c gets a response (the connection was accepted and served).
	answers := func(c net.Conn) bool {
		_ = c.SetDeadline(time.Now().Add(3 * time.Second))
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			return false
		}
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return false
		}
		res.Body.Close()
		return true
	}
	held := make([]net.Conn, 8)
	for i := range held {
		held[i] = dial()
	}
	if !answers(held[0]) {
		t.Fatal("the first connection is not served")
	}
	extra := make([]net.Conn, 4)
	for i := range extra {
		extra[i] = dial()
	}
	for i, c := range extra {
		if answers(c) {
			t.Errorf("connection %d beyond the cap of 8 was served", 9+i)
		}
	}
	held[1].Close()
	testkit.Eventually(t, 5*time.Second, "a freed slot is taken again", func() bool { return answers(dial()) })
}
