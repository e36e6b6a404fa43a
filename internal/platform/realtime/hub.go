// Package realtime is the WebSocket hub shared by consoles and terminals: login, request/reply dispatch to
// domain handlers, per-customer fan-out through bounded ordered per-connection queues, server→client requests
// awaiting an acknowledgement, and durable events replayed by sequence number.
package realtime

import (
	"context"
	"database/sql"
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
	"tenfour/internal/platform/wsclient"
)

// Kind tells a console connection from a terminal connection.
type Kind string

const (
	Console  Kind = "console"
	Terminal Kind = "terminal"
)

// EventReplaced goes to a connection that a login of the same account from another sign-in or device
// replaces, just before it is closed (4007). Its data is a Replaced.
const EventReplaced = "session.replaced"

// Replaced is session.replaced's data: which account, and where and when the login that replaced the session
// came from, so the console can tell its dispatcher why they are signed out (docs/console-socket.md).
type Replaced struct {
	MsID string `json:"msId"`
	IP   string `json:"ip,omitempty"` // the new login's client address (on any node of a cluster)
	Time int64  `json:"time"`         // unix ms
}

const (
	// MaxMessage is the largest frame a client may send; a larger one closes the connection with 1009.
	MaxMessage = 64 << 10
	// QueueLen bounds each connection's outbound queue; a client that falls this far behind is dropped.
	QueueLen = 256
	// ConsoleSpill is how many more frames a console may fall behind by before it is dropped (see Conn.spill).
	ConsoleSpill      = 8192
	ConsoleSpillBytes = 8 << 20
	// LoginTimeout closes connections that have not logged in.
	LoginTimeout = 15 * time.Second
	// AckTimeout is how long a domain waits for a terminal's acknowledgement by default: the spec's 5 s send
	// timeout (§9) is the console's whole budget, so the server gives up a little earlier and its coded reply
	// still reaches the console in time.
	AckTimeout = 4500 * time.Millisecond
	// HandlerTimeout bounds one request's handler (the spec's HTTP timeout, §9).
	HandlerTimeout = 30 * time.Second
	// MaxInflight bounds the requests of one connection being handled at once; more are answered "429".
	MaxInflight = 32
	// MaxReplay bounds the durable events one `sync` replays; the reply says `more` when there are others.
	MaxReplay = 5000
	// RatePerSecond and RateBurst limit the frames a client may send.
	RatePerSecond = 50
	RateBurst     = 100
	// CloseSlow is the close code for a slow consumer (it should reconnect and resync).
	CloseSlow websocket.StatusCode = 4008
	// CloseReplaced is the close code when the same account logged in elsewhere (log type 7).
	CloseReplaced websocket.StatusCode = 4007
	// CloseSessionEnded is the close code when the session the connection logged in with ended (sign-out,
	// password change, expiry): a reconnect with the same token is refused ("105").
	CloseSessionEnded websocket.StatusCode = 4001
	pingEvery                              = 20 * time.Second
	writeTimeout                           = 10 * time.Second
)

// Frame is one message on the wire (see docs/console-socket.md). Its fields are declared once, by the Go
// client of the socket (wsclient imports nothing of the server), so the hub and every client read and write
// the same frame; the client's read time (At) is not on the wire.
type Frame = wsclient.Frame

// Handler answers one request type. The returned value is the reply's data; an error becomes its code.
// The context carries the caller (identity.From) and is not cancelled when the connection closes, so a
// handler that already relayed something can still record the outcome; it ends after HandlerTimeout.
type Handler func(ctx context.Context, c *Conn, data json.RawMessage) (any, error)

// Authenticator turns a session.login request into a principal and a connection kind.
type Authenticator interface {
	SocketLogin(ctx context.Context, data json.RawMessage) (identity.Principal, Kind, error)
}

// LoginHook runs when an account came online on this node, before its login reply is queued (wait on
// Conn.Ready in a goroutine to send something after it). replaced is true when the login disconnected the
// account's connection on another device (log type 7).
type LoginHook func(ctx context.Context, c *Conn, replaced bool)

// LogoutHook runs after an account's connection closed. replaced is true when that connection was replaced
// by a login elsewhere, so the account is still online and presence must not go offline.
type LogoutHook func(ctx context.Context, c *Conn, replaced bool)

// Hooks are called after a login and after a logged-in connection closes (presence, logs 5/6/7). They are per
// account, not per connection: a second console window of the same sign-in (same token) neither fires OnLogin
// nor, while another window stays open, OnLogout.
type Hooks struct {
	OnLogin  LoginHook
	OnLogout LogoutHook
}

var (
	mConns       = promauto.NewGauge(prometheus.GaugeOpts{Name: "tenfour_socket_connections", Help: "Open logged-in socket connections."})
	mSlow        = promauto.NewCounter(prometheus.CounterOpts{Name: "tenfour_socket_slow_disconnects_total", Help: "Connections dropped for a full outbound queue."})
	mFanout      = promauto.NewCounter(prometheus.CounterOpts{Name: "tenfour_socket_frames_out_total", Help: "Frames written to connections."})
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
	origins  []string
	handlers map[string]Handler
	verbs    map[verbKey]Role // the index: Register's client requests and declared server messages
	onLogin  []LoginHook
	onLogout []LogoutHook
	watchers []Watcher
	bus      Bus // the cluster's event bus (bus.go); nil on a node alone

	holdMu sync.Mutex
	holds  map[string]int // accounts kept online by something other than a socket (Hold)

	loginTimeout time.Duration
	ackTimeout   atomic.Int64 // nanoseconds

	reloadGrace time.Duration // see ReloadGrace

	mu         sync.RWMutex
	closing    bool
	reloading  map[string]*reload   // consoles whose page went away, by account: their logout waits ReloadGrace
	all        map[*Conn]struct{}   // every connection, logged in or not (CloseAll)
	byCustomer map[int64]*custConns // logged-in connections per customer, by kind (fan-out)
	byAccount  map[string][]*Conn   // an account's connections, latest last

	nextID atomic.Int64
	wg     sync.WaitGroup

	undeclaredMu sync.Mutex
	undeclared   map[string]bool // server messages sent without a declaration (Undeclared)
}

// NewHub builds a hub; originPatterns are extra allowed browser origins (host patterns, see websocket.AcceptOptions).
func NewHub(d *db.DB, originPatterns []string) *Hub {
	h := &Hub{
		db: d, origins: originPatterns,
		handlers:     map[string]Handler{},
		verbs:        map[verbKey]Role{},
		undeclared:   map[string]bool{},
		loginTimeout: LoginTimeout,
		all:          map[*Conn]struct{}{},
		byCustomer:   map[int64]*custConns{},
		byAccount:    map[string][]*Conn{},
		reloading:    map[string]*reload{},
		reloadGrace:  ReloadGrace,
	}
	h.ackTimeout.Store(int64(AckTimeout))
	h.Register(Event(EventReplaced, Anyone))
	return h
}

// SetAuthenticator installs the login check; call before serving.
func (h *Hub) SetAuthenticator(a Authenticator) { h.authn = a }

// Watcher learns of every event published on this node (type and customer), synchronously and before the
// event is queued; it must be quick and must not call the Hub. Services use it to invalidate what they
// cache from other domains' data (e.g. voice re-reads an account after a directory event).
type Watcher func(customerID int64, typ string)

// Watch adds a Watcher; call before serving.
func (h *Hub) Watch(w Watcher) { h.watchers = append(h.watchers, w) }

// SetHooks adds login/logout hooks (it does not replace earlier ones); call before serving.
func (h *Hub) SetHooks(k Hooks) {
	if k.OnLogin != nil {
		h.OnLogin(k.OnLogin)
	}
	if k.OnLogout != nil {
		h.OnLogout(k.OnLogout)
	}
}

// OnLogin adds a login hook; hooks run in the order they were added, on the connection's read loop, so they
// must not wait on the network (start a goroutine for that). Call before serving.
func (h *Hub) OnLogin(fn LoginHook) { h.onLogin = append(h.onLogin, fn) }

// OnLogout adds a logout hook; see OnLogin. Call before serving.
func (h *Hub) OnLogout(fn LogoutHook) { h.onLogout = append(h.onLogout, fn) }

// AckTimeout is how long domains wait for a client's acknowledgement of a server→client request.
func (h *Hub) AckTimeout() time.Duration { return time.Duration(h.ackTimeout.Load()) }

// SetAckTimeout changes AckTimeout (tests shorten it).
func (h *Hub) SetAckTimeout(d time.Duration) { h.ackTimeout.Store(int64(d)) }

// Handle registers the handler of a request type; call before serving.
func (h *Hub) Handle(typ string, fn Handler) {
	if _, dup := h.handlers[typ]; dup {
		panic("realtime: duplicate handler " + typ)
	}
	if typ == "session.login" || typ == "ping" || typ == "sync" || !typeRe.MatchString(typ) {
		panic("realtime: reserved or malformed type " + typ)
	}
	h.handlers[typ] = fn
}

// ServeHTTP upgrades to a WebSocket and runs the connection until it closes.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.RLock()
	closing := h.closing
	h.mu.RUnlock()
	if closing {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	sb := &smallBuffers{ResponseWriter: w}
	ws, err := websocket.Accept(sb, r, &websocket.AcceptOptions{OriginPatterns: h.originPatterns()})
	if err != nil {
		return // Accept already answered (403 for a foreign origin)
	}
	ws.SetReadLimit(MaxMessage)
	tok := r.URL.Query().Get("token")
	if ck, err := r.Cookie("token"); tok == "" && err == nil {
		tok = ck.Value
	}
	c := newConn(h, ws, tok)
	c.idle = sb.conn
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		_ = ws.Close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	h.all[c] = struct{}{}
	h.wg.Add(1)
	h.mu.Unlock()
	// The connection runs on a goroutine of its own and the HTTP handler returns, so the HTTP server's request,
	// buffers and deep stack go away (the connection is hijacked). Its context is a new one with the caller's
	// address: the login throttle counts per address (internal/auth).
	ctx := httpx.WithClientIP(context.Background(), r)
	go func() {
		defer h.wg.Done()
		defer func() { h.mu.Lock(); delete(h.all, c); h.mu.Unlock() }()
		c.run(ctx)
	}()
}

// Wait blocks until every connection and request handler has ended (after CloseAll).
func (h *Hub) Wait() { h.wg.Wait() }

// CloseAll closes every connection, logged in or not, and refuses new ones (graceful shutdown).
func (h *Hub) CloseAll() {
	h.mu.Lock()
	h.closing = true
	conns := make([]*Conn, 0, len(h.all))
	for c := range h.all {
		conns = append(conns, c)
	}
	var gone []*Conn
	for id, r := range h.reloading {
		if r.timer.Stop() {
			gone = append(gone, r.conn)
		}
		delete(h.reloading, id)
	}
	h.mu.Unlock()
	for _, c := range gone {
		c.runLogout(false) // the pages that went away are not coming back to this server
	}
	for _, c := range conns {
		c.close(websocket.StatusGoingAway, "server shutting down")
	}
}

// CloseSessions closes every logged-in connection whose principal match selects, at once, and returns how
// many. The session owner (auth) calls it when a session is revoked or expires: the hub knows connections,
// not sessions, so the owner says which principals are no longer valid. match runs under the hub's read lock
// and must not call the Hub.
func (h *Hub) CloseSessions(match func(identity.Principal) bool) int {
	var hit []*Conn
	h.mu.RLock()
	for _, list := range h.byAccount {
		for _, c := range list {
			if match(c.Principal()) {
				hit = append(hit, c)
			}
		}
	}
	h.mu.RUnlock()
	for _, c := range hit {
		c.close(CloseSessionEnded, "session ended")
	}
	return len(hit)
}

// ReloadGrace is how long a console whose page went away (close 1001: a reload, including the one after
// sign-in that the spec asks for, or a closed tab) stays online for the hooks: a login of the same sign-in within
// it continues the session — no offline and online logged, no presence flicker on the other consoles.
const ReloadGrace = 10 * time.Second

// reload is a console's last connection that went away; its logout hooks run when the timer fires.
type reload struct {
	conn  *Conn
	timer *time.Timer
}

// SetReloadGrace changes ReloadGrace (tests); 0 runs logout hooks at once.
func (h *Hub) SetReloadGrace(d time.Duration) {
	h.mu.Lock()
	h.reloadGrace = d
	h.mu.Unlock()
}

// deferLogout holds back the logout hooks of a console's last connection that went away, for ReloadGrace.
// It reports false when they should run now (no grace, or the hub is closing).
func (h *Hub) deferLogout(c *Conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.reloadGrace <= 0 || h.closing {
		return false
	}
	id := c.p.AccountID
	r := &reload{conn: c}
	r.timer = time.AfterFunc(h.reloadGrace, func() {
		h.mu.Lock()
		due := h.reloading[id] == r
		if due {
			delete(h.reloading, id)
		}
		h.mu.Unlock()
		if due {
			c.runLogout(false)
		}
	})
	if old := h.reloading[id]; old != nil {
		old.timer.Stop()
	}
	h.reloading[id] = r
	return true
}

// register makes a logged-in connection reachable. A terminal, or a console of another sign-in, replaces the
// account's connections (returned); a console of the same sign-in (same token: another window) joins them.
func (h *Hub) register(c *Conn) (replaced []*Conn, joined, tookOver bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := c.p.AccountID
	var kept []*Conn
	for _, o := range h.byAccount[id] {
		if c.kind == Console && o.kind == Console && c.p.Token != "" && o.p.Token == c.p.Token {
			kept = append(kept, o)
			continue
		}
		replaced = append(replaced, o)
		h.dropReplaced(o)
	}
	// A console page that went away and whose logout still waits (ReloadGrace): the same sign-in coming back
	// continues its session as if it had never left; anyone else's login replaces it as it would the open page.
	resumed := false
	if r := h.reloading[id]; r != nil && r.timer.Stop() {
		delete(h.reloading, id)
		resumed = c.kind == Console && c.p.Token != "" && r.conn.p.Token == c.p.Token
		if !resumed {
			tookOver = true
		}
	}
	h.byAccount[id] = append(kept, c)
	cc := h.byCustomer[c.p.CustomerID]
	if cc == nil {
		cc = &custConns{consoles: map[*Conn]struct{}{}, terminals: map[*Conn]struct{}{}}
		h.byCustomer[c.p.CustomerID] = cc
	}
	cc.set(c.kind)[c] = struct{}{}
	mConns.Inc()
	return replaced, len(kept) > 0 || resumed, tookOver || len(replaced) > 0
}

// unregister removes c; it reports whether the account still has another connection here.
func (h *Hub) unregister(c *Conn) (stillOnline bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if cc := h.byCustomer[c.p.CustomerID]; cc != nil {
		if cc.remove(c) {
			mConns.Dec()
		}
		if len(cc.consoles)+len(cc.terminals) == 0 {
			delete(h.byCustomer, c.p.CustomerID)
		}
	}
	list := h.byAccount[c.p.AccountID]
	for i, o := range list {
		if o == c {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(h.byAccount, c.p.AccountID)
		return false
	}
	h.byAccount[c.p.AccountID] = list
	return true
}

// Online tells whether an account has a logged-in connection on this node or, in a cluster, on another one.
func (h *Hub) Online(accountID string) bool {
	return h.LocalOnline(accountID) || (h.bus != nil && h.bus.Online(accountID))
}

// Hold keeps accountID online through its sockets' logouts while something other than a socket holds it (a SIP
// phone's registration): a socket of the account that closes meanwhile logs out as one replaced, so the logout
// hooks leave its presence, intervals and logs alone. The returned function lets go (once).
func (h *Hub) Hold(accountID string) (release func()) {
	h.holdMu.Lock()
	if h.holds == nil {
		h.holds = map[string]int{}
	}
	h.holds[accountID]++
	h.holdMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.holdMu.Lock()
			defer h.holdMu.Unlock()
			if h.holds[accountID]--; h.holds[accountID] <= 0 {
				delete(h.holds, accountID)
			}
		})
	}
}

// Held says whether Hold keeps accountID online.
func (h *Hub) Held(accountID string) bool {
	h.holdMu.Lock()
	defer h.holdMu.Unlock()
	return h.holds[accountID] > 0
}

// Conn returns the account's latest connection, or nil.
func (h *Hub) Conn(accountID string) *Conn {
	h.mu.RLock()
	defer h.mu.RUnlock()
	list := h.byAccount[accountID]
	if len(list) == 0 {
		return nil
	}
	return list[len(list)-1]
}

// TerminalConn returns the connection of a customer's terminal, or nil when it has none here (or the account
// is another customer's, or a dispatcher's): where a domain sends a terminal a request or an event.
func (h *Hub) TerminalConn(customerID int64, accountID string) *Conn {
	c := h.Conn(accountID)
	if c == nil || c.Kind() != Terminal || c.Principal().CustomerID != customerID {
		return nil
	}
	return c
}

// Publish sends an event to a customer's connections chosen by to (Consoles, Terminals, Everyone,
// ConsolesAnd, Where). The frame is encoded once; each connection gets it through its bounded queue, and a
// connection whose queue is full is closed (CloseSlow) instead of making the publisher wait.
func (h *Hub) Publish(customerID int64, typ string, data any, to Audience) {
	h.publish(customerID, Frame{Type: typ}, data, to)
}

func (h *Hub) publish(customerID int64, f Frame, data any, to Audience) {
	raw, err := json.Marshal(data)
	if err != nil {
		slog.Error("realtime: encode event", "type", f.Type, "err", err)
		return
	}
	f.Data = raw
	msg, _ := json.Marshal(f)
	if h.bus != nil { // in a cluster every node, this one included, delivers it from the bus (bus.go)
		if w, ok := to.Wire(); ok && h.bus.Publish(customerID, f.Type, msg, w) {
			return
		}
	}
	h.fanout(customerID, f.Type, msg, to)
}

// fanout runs the watchers and queues an encoded event to this node's connections chosen by to.
func (h *Hub) fanout(customerID int64, typ string, msg []byte, to Audience) {
	for _, w := range h.watchers {
		w(customerID, typ)
	}
	// queue never blocks and takes no hub lock, so queuing under the read lock is safe. The connections that
	// had no writer are written to after the lock is let go (startWriters). Console events (most of them) visit
	// the customer's consoles only, however many terminals are online; an audience's terminals are reached
	// through their accounts.
	starts := startLists.Get().(*[]*Conn)
	defer startWriters(starts) // also if a filter panics: a connection queued to must not wait for a writer
	queue := func(c *Conn) {
		if _, start := c.queue(msg); start {
			*starts = append(*starts, c)
		}
	}
	var reached uint8 // the kinds of connection the event went to
	func() {
		h.mu.RLock()
		defer h.mu.RUnlock() // an audience's filter runs under it
		cc := h.byCustomer[customerID]
		if cc == nil {
			return
		}
		if to.kinds&kindConsole != 0 {
			for c := range cc.consoles {
				if to.allow == nil || to.allow(c) {
					queue(c)
					reached |= kindConsole
				}
			}
		}
		if to.kinds&kindTerminal != 0 {
			for c := range cc.terminals {
				if to.allow == nil || to.allow(c) {
					queue(c)
					reached |= kindTerminal
				}
			}
		}
		for id := range to.accounts {
			for _, c := range h.byAccount[id] {
				if c.p.CustomerID != customerID || to.kinds&c.kind.bit() != 0 {
					continue // another customer's account, or already reached above
				}
				queue(c)
				reached |= c.kind.bit()
			}
		}
	}()
	if reached != 0 {
		h.sent(typ, ServerEvent, reached)
	}
}

// PublishDurable stores an event first, then publishes it with its sequence number, so a client that was away
// receives it on `sync`. It returns the sequence number.
//
// An event that cannot be stored (the database went away between the caller's row and its event, as in a
// PostgreSQL restart) is still published, live and without a sequence number, and the error returned: the
// caller's own row is the record, and what it acknowledged must reach the clients connected now (the chaos lab's
// findings 3 and 5, docs/reliability.md). A client away at that moment finds the row through its domain's list.
func (h *Hub) PublishDurable(ctx context.Context, customerID int64, typ string, data any, to Audience) (int64, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return 0, err
	}
	seq, err := h.storeAndPublish(ctx, customerID, typ, raw, to)
	if err != nil && !errors.Is(err, ErrPublishedNotStored) {
		h.publish(customerID, Frame{Type: typ}, json.RawMessage(raw), to)
	}
	return seq, err
}

// ErrPublishedNotStored is a durable event that went out with its sequence number but whose storing failed
// after (a cluster's transaction that could not commit): it is not published again.
var ErrPublishedNotStored = errors.New("realtime: durable event published, not stored")

func (h *Hub) storeAndPublish(ctx context.Context, customerID int64, typ string, raw json.RawMessage, to Audience) (int64, error) {
	if h.bus != nil {
		if w, ok := to.Wire(); ok {
			return h.bus.Durable(ctx, customerID, typ, raw, w)
		}
	}
	var seq int64
	if err := h.db.WriteRow(ctx, `INSERT INTO events (customer_id, type, data, at) VALUES (?, ?, ?, ?) RETURNING seq`,
		customerID, typ, string(raw), time.Now().UnixMilli()).Scan(&seq); err != nil {
		return 0, err
	}
	h.publish(customerID, Frame{Type: typ, Seq: seq}, raw, to)
	return seq, nil
}

// LastSeq is the customer's newest durable event sequence number (0 when there is none).
func (h *Hub) LastSeq(ctx context.Context, customerID int64) (int64, error) {
	var last sql.NullInt64
	err := h.db.QueryRow(ctx, `SELECT MAX(seq) FROM events WHERE customer_id = ?`, customerID).Scan(&last)
	return last.Int64, err
}

// Replay returns the customer's durable events after seq (at most limit), oldest first.
func (h *Hub) Replay(ctx context.Context, customerID, after int64, limit int) ([]Frame, error) {
	rows, err := h.db.Query(ctx, `SELECT seq, type, data FROM events WHERE customer_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
		customerID, after, limit)
	return db.Collect(rows, err, func(sc db.Scanner) (Frame, error) {
		var f Frame
		var data string
		err := sc.Scan(&f.Seq, &f.Type, &data)
		f.Data = json.RawMessage(data)
		return f, err
	})
}

// SendTo queues an event to every connection of an account (all windows of a console) on this node and, in a
// cluster, on the other nodes holding it (peer.go); false if it has none anywhere.
func (h *Hub) SendTo(accountID, typ string, data any) bool {
	raw, err := json.Marshal(data)
	if err != nil {
		slog.Error("realtime: encode event", "type", typ, "err", err)
		return false
	}
	msg, _ := json.Marshal(Frame{Type: typ, Data: raw})
	here := h.localSend(accountID, typ, msg)
	if h.bus != nil && h.bus.Online(accountID) {
		return h.bus.Send(accountID, msg) || here
	}
	return here
}

// Request sends a server→client request to an account's latest connection and waits for its reply (the
// terminal's acknowledgement) until ctx ends. Errors: ErrNotOnline when the account has no connection or it
// closes meanwhile, ErrTimeout when ctx's deadline passes, or the client's own code.
func (h *Hub) Request(ctx context.Context, accountID, typ string, data any) (json.RawMessage, error) {
	c := h.Conn(accountID)
	if c == nil && h.bus != nil && h.bus.Online(accountID) { // on another node of the cluster (bus.go)
		raw, err := json.Marshal(data)
		if err != nil {
			return nil, err
		}
		return h.bus.Request(ctx, accountID, typ, raw)
	}
	if c == nil {
		return nil, ErrNotOnline
	}
	return c.Request(ctx, typ, data)
}

// Accounts returns the accounts with a connection for a customer (consoles and terminals), each once.
func (h *Hub) Accounts(customerID int64) []string {
	h.mu.RLock()
	defer h.mu.RUnlock()
	cc := h.byCustomer[customerID]
	if cc == nil {
		return []string{}
	}
	out := make([]string, 0, len(cc.consoles)+len(cc.terminals))
	seen := make(map[string]bool, len(cc.consoles)+len(cc.terminals))
	for _, set := range []map[*Conn]struct{}{cc.consoles, cc.terminals} {
		for c := range set {
			if !seen[c.p.AccountID] {
				seen[c.p.AccountID] = true
				out = append(out, c.p.AccountID)
			}
		}
	}
	return out
}

// custConns is one customer's logged-in connections, kept apart by kind so that console events (the bulk of
// them) never walk the terminals.
type custConns struct {
	consoles, terminals map[*Conn]struct{}
}

func (cc *custConns) set(k Kind) map[*Conn]struct{} {
	if k == Console {
		return cc.consoles
	}
	return cc.terminals
}

func (cc *custConns) remove(c *Conn) bool {
	set := cc.set(c.kind)
	if _, ok := set[c]; !ok {
		return false
	}
	delete(set, c)
	return true
}

const (
	kindConsole uint8 = 1 << iota
	kindTerminal
)

func (k Kind) bit() uint8 {
	if k == Console {
		return kindConsole
	}
	return kindTerminal
}

// Audience chooses which of a customer's connections receive a published event.
type Audience struct {
	kinds    uint8            // connection kinds visited in full
	accounts map[string]bool  // plus every connection of these accounts
	allow    func(*Conn) bool // optional test on the kinds visited in full (not on accounts)
}

var (
	// Consoles: every console connection of the customer.
	Consoles = Audience{kinds: kindConsole}
	// Terminals: every terminal connection of the customer.
	Terminals = Audience{kinds: kindTerminal}
	// Everyone: every connection of the customer.
	Everyone = Audience{kinds: kindConsole | kindTerminal}
)

// ConsolesAnd is every console plus the connections of the given accounts (a call's audience): the cost is
// the number of consoles plus the number of accounts, not the number of connections online.
func ConsolesAnd(accounts map[string]bool) Audience {
	return Audience{kinds: kindConsole, accounts: accounts}
}

// Where is every connection for which allow returns true. allow runs under the hub's read lock: it may use
// the Conn's methods but must not call the Hub.
func Where(allow func(*Conn) bool) Audience {
	return Audience{kinds: kindConsole | kindTerminal, allow: allow}
}

var errClosed = errors.New("connection closed")

// dropReplaced takes a connection another login replaced out of its customer's connections and marks it
// replaced (its close tells the logout hooks so). The caller holds h.mu.
func (h *Hub) dropReplaced(o *Conn) {
	if cc := h.byCustomer[o.p.CustomerID]; cc != nil && cc.remove(o) {
		mConns.Dec()
	}
	o.mu.Lock()
	o.replaced = true
	o.mu.Unlock()
}
