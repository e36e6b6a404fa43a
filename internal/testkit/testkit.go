// Package testkit starts real tenfour servers for tests: a real store (SQLite in t.TempDir(), or PostgreSQL
// when TENFOUR_TEST_PG is set), the real handler behind httptest, and small HTTP and WebSocket clients.
package testkit

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/platform/db"
)

var pgSchemas atomic.Int64

// Engines lists the store engines to run contract tests on: SQLite always, PostgreSQL when TENFOUR_TEST_PG is
// a postgres:// URL of a database the tests may create schemas in.
func Engines() []string {
	if os.Getenv("TENFOUR_TEST_PG") != "" {
		return []string{"sqlite", "postgres"}
	}
	return []string{"sqlite"}
}

// OpenStore opens a fresh, migrated store of the given engine, closed when the test ends. PostgreSQL tests
// each get their own schema.
func OpenStore(t testing.TB, engine string) *db.DB {
	t.Helper()
	ctx := context.Background()
	var cfg config.Config
	switch engine {
	case "sqlite":
		cfg.DataDir = t.TempDir()
	case "postgres":
		base := os.Getenv("TENFOUR_TEST_PG")
		if base == "" {
			t.Skip("TENFOUR_TEST_PG not set")
		}
		schema := fmt.Sprintf("t%d_%d", os.Getpid(), pgSchemas.Add(1))
		admin, err := sql.Open("pgx", base)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); admin.Close() })
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		cfg.DB = u.String()
	default:
		t.Fatalf("unknown engine %q", engine)
	}
	store, err := app.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// Server is a running tenfour node for a test.
type Server struct {
	*app.App
	URL string
	t   testing.TB
}

// Start builds and starts a node on a fresh SQLite store. Options adjust the config first.
func Start(t testing.TB, opts ...func(*config.Config)) *Server {
	return StartOn(t, "sqlite", opts...)
}

// StartOn is Start on a chosen engine.
func StartOn(t testing.TB, engine string, opts ...func(*config.Config)) *Server {
	t.Helper()
	store := OpenStore(t, engine)
	cfg := config.Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), ShutdownTimeout: time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	a, err := app.New(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := a.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(a.Handler())
	a.Start(ctx)
	t.Cleanup(func() {
		a.Stop()
		hs.Close()
		cancel()
		a.Hub.Wait()
		a.Wait() // background loops finish writing before the test's temp directories go
		if u := a.Hub.Undeclared(); len(u) > 0 {
			t.Errorf("the server sent socket types its services do not declare (realtime.Event/Ask in Verbs): %q", u)
		}
	})
	return &Server{App: a, URL: hs.URL, t: t}
}

// Reply is a decoded {code, msg, key, result} envelope plus the HTTP status.
type Reply struct {
	Status int
	Code   string          `json:"code"`
	Msg    string          `json:"msg"`
	Key    string          `json:"key"`
	Result json.RawMessage `json:"result"`
	Header http.Header     `json:"-"`
}

// Into decodes the result into v.
func (r Reply) Into(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Result, v); err != nil {
		t.Fatalf("decode result %s: %v", r.Result, err)
	}
}

// Do calls the API. For GET and DELETE params go in the query string; otherwise as a JSON body.
// token may be empty.
func (s *Server) Do(method, path, token string, params map[string]any) Reply {
	s.t.Helper()
	u := s.URL + path
	var body io.Reader
	if method == http.MethodGet || method == http.MethodDelete {
		q := url.Values{}
		for k, v := range params {
			q.Set(k, fmt.Sprint(v))
		}
		if len(q) > 0 {
			u += "?" + q.Encode()
		}
	} else if params != nil {
		b, _ := json.Marshal(params)
		body = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("token", token)
	}
	res, err := testClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := Reply{Status: res.StatusCode, Header: res.Header}
	if err := json.Unmarshal(raw, &r); err != nil {
		s.t.Fatalf("%s %s: not an envelope (%d): %s", method, path, res.StatusCode, raw)
	}
	return r
}

// Socket is a test WebSocket client speaking docs/console-socket.md framing.
type Socket struct {
	t      testing.TB
	ws     *websocket.Conn
	nextID int64
	// Events holds server events (frames without `re`) received while waiting for replies.
	Events []Frame
}

// Frame mirrors realtime.Frame for tests.
type Frame struct {
	ID   int64           `json:"id,omitempty"`
	Re   int64           `json:"re,omitempty"`
	Type string          `json:"type"`
	Seq  int64           `json:"seq,omitempty"`
	Code string          `json:"code,omitempty"`
	Msg  string          `json:"msg,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Dial opens the socket (not logged in yet).
func (s *Server) Dial() *Socket {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, strings.Replace(s.URL, "http", "ws", 1)+"/ds/ws", nil)
	if err != nil {
		s.t.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	s.t.Cleanup(func() { ws.CloseNow() })
	return &Socket{t: s.t, ws: ws}
}

// Send writes a raw frame.
func (c *Socket) Send(f Frame) {
	c.t.Helper()
	b, _ := json.Marshal(f)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.t.Fatal(err)
	}
}

// Call sends a request and returns its reply, keeping events that arrive meanwhile in Events.
func (c *Socket) Call(typ string, data any) Frame {
	c.t.Helper()
	c.nextID++
	raw, _ := json.Marshal(data)
	c.Send(Frame{ID: c.nextID, Type: typ, Data: raw})
	for {
		f := c.Read(5 * time.Second)
		if f.Re == c.nextID {
			return f
		}
		c.Events = append(c.Events, f)
	}
}

// Read returns the next frame or fails the test after timeout.
func (c *Socket) Read(timeout time.Duration) Frame {
	c.t.Helper()
	f, err := c.TryRead(timeout)
	if err != nil {
		c.t.Fatalf("socket read: %v", err)
	}
	return f
}

// TryRead returns the next frame or an error (timeout, closed).
func (c *Socket) TryRead(timeout time.Duration) (Frame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return Frame{}, err
	}
	var f Frame
	err = json.Unmarshal(b, &f)
	return f, err
}

// WaitEvent returns the first event of type typ (already received or arriving within timeout) for which
// match returns true (nil matches any).
func (c *Socket) WaitEvent(typ string, timeout time.Duration, match func(Frame) bool) Frame {
	c.t.Helper()
	for i, f := range c.Events {
		if f.Type == typ && f.Re == 0 && (match == nil || match(f)) {
			c.Events = append(c.Events[:i], c.Events[i+1:]...)
			return f
		}
	}
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			c.t.Fatalf("no %s event within %v", typ, timeout)
		}
		f, err := c.TryRead(left)
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", typ, err)
		}
		if f.Type == typ && f.Re == 0 && (match == nil || match(f)) {
			return f
		}
		c.Events = append(c.Events, f)
	}
}

// Reply answers a server→client request (terminal acknowledgements).
func (c *Socket) Reply(req Frame, code string, data any) {
	c.t.Helper()
	raw, _ := json.Marshal(data)
	c.Send(Frame{Re: req.ID, Type: req.Type, Code: code, Data: raw})
}

// Close closes the socket normally.
func (c *Socket) Close() { c.ws.Close(websocket.StatusNormalClosure, "") }

// testClient bounds every test request: a stalled server fails the test instead of hanging the run.
var testClient = &http.Client{Timeout: 30 * time.Second}
