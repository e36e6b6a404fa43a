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

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/testkit/probe"
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

func (r *rig) dial() *probe.Socket {
	r.t.Helper()
	return probe.Dial(r.t, r.url, probe.Options{ReadLimit: 1 << 22})
}

// login dials and logs in; kind is Console or Terminal.
func (r *rig) login(uid string, customer int64, kind Kind, token string) *probe.Socket {
	r.t.Helper()
	c := r.dial()
	f := c.Call("session.login", map[string]any{"uid": uid, "customer": customer, "kind": kind, "token": token})
	if f.Code != "0" {
		r.t.Fatalf("login %s: %+v", uid, f)
	}
	return c
}

// wait is how long the tests wait for a frame or a condition.
const wait = 5 * time.Second

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
