// Package realtime is the WebSocket hub shared by consoles and terminals: login, request/reply dispatch to
// domain handlers, per-customer fan-out through bounded ordered per-connection queues, server→client requests
// awaiting an acknowledgement, and durable events replayed by sequence number.
package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// Kind tells a console connection from a terminal connection.
type Kind string

const (
	Console  Kind = "console"
	Terminal Kind = "terminal"
)

const (
	// MaxMessage is the largest frame a client may send.
	MaxMessage = 64 << 10
	// QueueLen bounds each connection's outbound queue; a client that falls this far behind is dropped.
	QueueLen = 256
	// LoginTimeout closes connections that have not logged in.
	LoginTimeout = 15 * time.Second
	// CloseSlow is the close code for a slow consumer (it should reconnect and resync).
	CloseSlow websocket.StatusCode = 4008
	// CloseReplaced is the close code when the same account logged in elsewhere (log type 7).
	CloseReplaced websocket.StatusCode = 4007
	pingEvery                          = 20 * time.Second
	writeTimeout                       = 10 * time.Second
)

// Frame is one message on the wire (see docs/console-socket.md).
type Frame struct {
	ID   int64           `json:"id,omitempty"`
	Re   int64           `json:"re,omitempty"`
	Type string          `json:"type"`
	Seq  int64           `json:"seq,omitempty"`
	Code string          `json:"code,omitempty"`
	Msg  string          `json:"msg,omitempty"`
	Key  string          `json:"key,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Handler answers one request type. The returned value is the reply's data; an error becomes its code.
type Handler func(ctx context.Context, c *Conn, data json.RawMessage) (any, error)

// Authenticator turns a session.login request into a principal and a connection kind.
type Authenticator interface {
	SocketLogin(ctx context.Context, data json.RawMessage) (identity.Principal, Kind, error)
}

// Hooks are called after a login and after a logged-in connection closes (presence, logs 5/6/7).
type Hooks struct {
	OnLogin  func(ctx context.Context, c *Conn, replaced bool)
	OnLogout func(ctx context.Context, c *Conn, replaced bool)
}

var (
	mConns       = promauto.NewGauge(prometheus.GaugeOpts{Name: "tenfour_socket_connections", Help: "Open logged-in socket connections."})
	mSlow        = promauto.NewCounter(prometheus.CounterOpts{Name: "tenfour_socket_slow_disconnects_total", Help: "Connections dropped for a full outbound queue."})
	mFanout      = promauto.NewCounter(prometheus.CounterOpts{Name: "tenfour_socket_frames_out_total", Help: "Frames queued to connections."})
	ErrNoSocket  = httpx.E(http.StatusConflict, "no socket", "errors.noSocket", "no socket")
	ErrNotOnline = httpx.E(http.StatusConflict, "4", "errors.notOnline", "not online")
	ErrTimeout   = httpx.E(http.StatusGatewayTimeout, "408", "errors.timeout", "no acknowledgement in time")
	ErrUnknown   = httpx.E(http.StatusBadRequest, "400", "errors.unknownType", "unknown message type")
	ErrNotLogged = httpx.E(http.StatusUnauthorized, "105", "errors.token", "log in first")
)

// Hub owns every connection of this node.
type Hub struct {
	db       *db.DB
	authn    Authenticator
	hooks    Hooks
	origins  []string
	handlers map[string]Handler

	mu         sync.RWMutex
	byCustomer map[int64]map[*Conn]struct{}
	byAccount  map[string]*Conn

	nextID atomic.Int64
	wg     sync.WaitGroup
}

// NewHub builds a hub; originPatterns are extra allowed browser origins (host patterns, see websocket.AcceptOptions).
func NewHub(d *db.DB, originPatterns []string) *Hub {
	return &Hub{
		db: d, origins: originPatterns,
		handlers:   map[string]Handler{},
		byCustomer: map[int64]map[*Conn]struct{}{},
		byAccount:  map[string]*Conn{},
	}
}

// SetAuthenticator installs the login check; call before serving.
func (h *Hub) SetAuthenticator(a Authenticator) { h.authn = a }

// SetHooks installs the login/logout hooks; call before serving.
func (h *Hub) SetHooks(k Hooks) { h.hooks = k }

// Handle registers the handler of a request type; call before serving.
func (h *Hub) Handle(typ string, fn Handler) {
	if _, dup := h.handlers[typ]; dup {
		panic("realtime: duplicate handler " + typ)
	}
	h.handlers[typ] = fn
}

// ServeHTTP upgrades to a WebSocket and runs the connection until it closes.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: h.origins})
	if err != nil {
		return // Accept already answered (403 for a foreign origin)
	}
	ws.SetReadLimit(MaxMessage)
	c := newConn(h, ws, r.URL.Query().Get("token"))
	h.wg.Add(1)
	defer h.wg.Done()
	c.run(r.Context())
}

// Wait blocks until every connection goroutine has ended (after the server stopped accepting).
func (h *Hub) Wait() { h.wg.Wait() }

// CloseAll closes every connection (graceful shutdown).
func (h *Hub) CloseAll() {
	h.mu.RLock()
	conns := make([]*Conn, 0, len(h.byAccount))
	for _, set := range h.byCustomer {
		for c := range set {
			conns = append(conns, c)
		}
	}
	h.mu.RUnlock()
	for _, c := range conns {
		c.close(websocket.StatusGoingAway, "server shutting down")
	}
}

// register makes a logged-in connection reachable; it returns the connection it replaced, if any.
func (h *Hub) register(c *Conn) *Conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	old := h.byAccount[c.p.AccountID]
	if old != nil {
		delete(h.byCustomer[old.p.CustomerID], old)
	}
	h.byAccount[c.p.AccountID] = c
	set := h.byCustomer[c.p.CustomerID]
	if set == nil {
		set = map[*Conn]struct{}{}
		h.byCustomer[c.p.CustomerID] = set
	}
	set[c] = struct{}{}
	mConns.Inc()
	return old
}

// unregister removes c; it reports whether c was still the account's current connection.
func (h *Hub) unregister(c *Conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.byCustomer[c.p.CustomerID]
	if _, ok := set[c]; ok {
		delete(set, c)
		mConns.Dec()
	}
	if h.byAccount[c.p.AccountID] == c {
		delete(h.byAccount, c.p.AccountID)
		return true
	}
	return false
}

// Online tells whether an account has a logged-in connection on this node.
func (h *Hub) Online(accountID string) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.byAccount[accountID] != nil
}

// Conn returns the account's connection, or nil.
func (h *Hub) Conn(accountID string) *Conn {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.byAccount[accountID]
}

// Publish sends an event to every connection of a customer for which allow returns true (nil = all).
// The frame is encoded once; each connection gets it through its bounded queue.
func (h *Hub) Publish(customerID int64, typ string, data any, allow func(*Conn) bool) {
	h.publish(customerID, Frame{Type: typ}, data, allow)
}

func (h *Hub) publish(customerID int64, f Frame, data any, allow func(*Conn) bool) {
	raw, err := json.Marshal(data)
	if err != nil {
		slog.Error("realtime: encode event", "type", f.Type, "err", err)
		return
	}
	f.Data = raw
	msg, _ := json.Marshal(f)
	h.mu.RLock()
	targets := make([]*Conn, 0, len(h.byCustomer[customerID]))
	for c := range h.byCustomer[customerID] {
		if allow == nil || allow(c) {
			targets = append(targets, c)
		}
	}
	h.mu.RUnlock()
	for _, c := range targets {
		c.enqueue(msg)
	}
}

// PublishDurable stores an event first, then publishes it with its sequence number, so a client that was away
// receives it on `sync`. It returns the sequence number.
func (h *Hub) PublishDurable(ctx context.Context, customerID int64, typ string, data any, allow func(*Conn) bool) (int64, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return 0, err
	}
	var seq int64
	if err := h.db.WriteRow(ctx, `INSERT INTO events (customer_id, type, data, at) VALUES (?, ?, ?, ?) RETURNING seq`,
		customerID, typ, string(raw), time.Now().UnixMilli()).Scan(&seq); err != nil {
		return 0, err
	}
	h.publish(customerID, Frame{Type: typ, Seq: seq}, json.RawMessage(raw), allow)
	return seq, nil
}

// Replay returns the customer's durable events after seq (at most limit), oldest first.
func (h *Hub) Replay(ctx context.Context, customerID, after int64, limit int) ([]Frame, error) {
	rows, err := h.db.Query(ctx, `SELECT seq, type, data FROM events WHERE customer_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
		customerID, after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Frame
	for rows.Next() {
		var f Frame
		var data string
		if err := rows.Scan(&f.Seq, &f.Type, &data); err != nil {
			return nil, err
		}
		f.Data = json.RawMessage(data)
		out = append(out, f)
	}
	return out, rows.Err()
}

// SendTo queues an event to one account's connection; false if it is not connected here.
func (h *Hub) SendTo(accountID, typ string, data any) bool {
	c := h.Conn(accountID)
	if c == nil {
		return false
	}
	return c.Send(typ, data) == nil
}

// Request sends a server→client request to an account and waits for its reply (the terminal's
// acknowledgement). Errors: ErrNotOnline when the account has no connection, ErrTimeout, or the client's code.
func (h *Hub) Request(ctx context.Context, accountID, typ string, data any) (json.RawMessage, error) {
	c := h.Conn(accountID)
	if c == nil {
		return nil, ErrNotOnline
	}
	return c.Request(ctx, typ, data)
}

// Accounts returns the accounts with a connection for a customer (consoles and terminals).
func (h *Hub) Accounts(customerID int64) []string {
	h.mu.RLock()
	defer h.mu.RUnlock()
	out := make([]string, 0, len(h.byCustomer[customerID]))
	for c := range h.byCustomer[customerID] {
		out = append(out, c.p.AccountID)
	}
	return out
}

// Consoles is an allow filter for Publish: console connections only.
func Consoles(c *Conn) bool { return c.kind == Console }

var errClosed = errors.New("connection closed")
