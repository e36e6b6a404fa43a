package realtime

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// fakeAuth logs in whoever asks: {"uid", "customer", "kind", "token"}; "fail" makes it refuse with that code.
type fakeAuth struct{}

func (fakeAuth) SocketLogin(_ context.Context, data json.RawMessage) (identity.Principal, Kind, error) {
	var req struct {
		UID      string `json:"uid"`
		Customer int64  `json:"customer"`
		Kind     Kind   `json:"kind"`
		Token    string `json:"token"`
		Fail     string `json:"fail"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return identity.Principal{}, "", httpx.BadParam("data", "malformed login")
	}
	if req.Fail != "" {
		return identity.Principal{}, "", httpx.E(http.StatusUnauthorized, req.Fail, "errors.test", "refused")
	}
	if req.Kind == "" {
		req.Kind = Console
	}
	typ := identity.DispatcherType
	if req.Kind == Terminal {
		typ = "10"
	}
	return identity.Principal{AccountID: req.UID, CustomerID: req.Customer, Type: typ, Token: req.Token, Name: "n" + req.UID}, req.Kind, nil
}

// rig is a hub on a real SQLite store behind an httptest server.
type rig struct {
	t   *testing.T
	hub *Hub
	db  *db.DB
	srv *httptest.Server
	url string
}

func newRig(t *testing.T, origins ...string) *rig {
	t.Helper()
	d, err := db.OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{1, 2} {
		if _, err := d.Exec(context.Background(), `INSERT INTO customers (id, name, created_at) VALUES (?, ?, 0)`, id, "c"+string(rune('0'+id))); err != nil {
			t.Fatal(err)
		}
	}
	h := NewHub(d, origins)
	h.SetAuthenticator(fakeAuth{})
	srv := httptest.NewServer(h)
	r := &rig{t: t, hub: h, db: d, srv: srv, url: strings.Replace(srv.URL, "http", "ws", 1)}
	t.Cleanup(func() {
		h.CloseAll()
		srv.Close()
		h.Wait()
		d.Close()
	})
	return r
}

// client is a raw WebSocket client speaking the frame protocol.
type client struct {
	t      *testing.T
	ws     *websocket.Conn
	nextID int64
	events []Frame
}

func (r *rig) dial() *client {
	r.t.Helper()
	ws, err := r.tryDial(nil)
	if err != nil {
		r.t.Fatal(err)
	}
	return &client{t: r.t, ws: ws}
}

func (r *rig) tryDial(h http.Header) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, r.url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 22)
	r.t.Cleanup(func() { ws.CloseNow() })
	return ws, nil
}

// login dials and logs in; kind is Console or Terminal.
func (r *rig) login(uid string, customer int64, kind Kind, token string) *client {
	r.t.Helper()
	c := r.dial()
	f := c.call("session.login", map[string]any{"uid": uid, "customer": customer, "kind": kind, "token": token})
	if f.Code != "0" {
		r.t.Fatalf("login %s: %+v", uid, f)
	}
	return c
}

func (c *client) sendRaw(b []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) send(f Frame) {
	c.t.Helper()
	b, _ := json.Marshal(f)
	c.sendRaw(b)
}

// call sends a request and returns its reply; events meanwhile are kept.
func (c *client) call(typ string, data any) Frame {
	c.t.Helper()
	c.nextID++
	raw, _ := json.Marshal(data)
	c.send(Frame{ID: c.nextID, Type: typ, Data: raw})
	return c.replyTo(c.nextID)
}

func (c *client) replyTo(id int64) Frame {
	c.t.Helper()
	for {
		f := c.read(5 * time.Second)
		if f.Re == id {
			return f
		}
		c.events = append(c.events, f)
	}
}

func (c *client) read(timeout time.Duration) Frame {
	c.t.Helper()
	f, err := c.tryRead(timeout)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return f
}

func (c *client) tryRead(timeout time.Duration) (Frame, error) {
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

// event returns the next event of type typ (kept or arriving within 5 s).
func (c *client) event(typ string) Frame {
	c.t.Helper()
	for i, f := range c.events {
		if f.Type == typ && f.Re == 0 {
			c.events = append(c.events[:i], c.events[i+1:]...)
			return f
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		f, err := c.tryRead(time.Until(deadline))
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", typ, err)
		}
		if f.Type == typ && f.Re == 0 {
			return f
		}
		c.events = append(c.events, f)
	}
}

// closeStatus reads until the connection ends and returns its close code; frames read meanwhile are kept.
func (c *client) closeStatus() websocket.StatusCode {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		_, b, err := c.ws.Read(ctx)
		cancel()
		if err != nil {
			return websocket.CloseStatus(err)
		}
		var f Frame
		_ = json.Unmarshal(b, &f)
		c.events = append(c.events, f)
	}
	c.t.Fatal("connection still open")
	return 0
}

// eventually polls cond until it holds or fails the test after 5 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// hookLog records hook calls.
type hookLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *hookLog) add(s string) { l.mu.Lock(); l.calls = append(l.calls, s); l.mu.Unlock() }
func (l *hookLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.calls...)
}
