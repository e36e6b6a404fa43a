// Package wsclient is the one Go client of the server's socket framing (docs/console-socket.md,
// docs/terminal-protocol.md): frames, requests matched to replies by id, server events and server→client
// requests. The terminal client (termclient), the fleet simulator, the benchmarks and the test kit all build on
// it. It imports nothing of the server, so the realtime package's own tests can use it too.
//
// One goroutine reads each connection. A reply goes to whoever sent its request; every other frame goes to
// Options.Handle when it is set (the simulator: nothing kept, so 10,000 connections stay cheap) or else into
// the connection's Inbox, from which a caller takes frames with a deadline.
package wsclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Frame is one socket message, on both ends: the server's hub uses this type too (realtime.Frame).
type Frame struct {
	ID   int64           `json:"id,omitempty"`
	Re   int64           `json:"re,omitempty"`
	Type string          `json:"type"`
	Seq  int64           `json:"seq,omitempty"`
	Code string          `json:"code,omitempty"`
	Msg  string          `json:"msg,omitempty"`
	Key  string          `json:"key,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
	// At is when the frame was read (zero on frames being sent).
	At time.Time `json:"-"`
}

// OK tells a successful reply (code "0" or none).
func (f Frame) OK() bool { return f.Code == "" || f.Code == "0" }

// Decode decodes the frame's data into v.
func (f Frame) Decode(v any) error { return json.Unmarshal(f.Data, v) }

// Fataler is the part of testing.TB that Into needs (this package does not import testing).
type Fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Into decodes the frame's data into v, failing the test otherwise.
func (f Frame) Into(t Fataler, v any) {
	t.Helper()
	if err := json.Unmarshal(f.Data, v); err != nil {
		t.Fatalf("decode %s data %s: %v", f.Type, f.Data, err)
	}
}

// CodeError is a refused request: the server's code, message and i18n key.
type CodeError struct {
	Type string
	Code string
	Msg  string
	Key  string
}

func (e *CodeError) Error() string { return e.Type + ": code " + e.Code + ": " + e.Msg }

// Code returns the code of a refused request ("" for nil, "?" for other errors).
func Code(err error) string {
	if err == nil {
		return ""
	}
	var ce *CodeError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return "?"
}

// ErrClosed is returned for requests on a connection that has ended.
var ErrClosed = errors.New("wsclient: connection closed")

// codeClosed is the code of the frame a pending request's callback gets when the connection ends first.
const codeClosed = "closed"

// URL turns a server's base URL (http://host:port or https://…) into its socket URL.
func URL(base string) string {
	u := strings.TrimSuffix(base, "/")
	return "ws" + strings.TrimPrefix(u, "http") + "/ds/ws"
}

// Options tune a connection.
type Options struct {
	// HTTPClient makes the upgrade request (nil: the default client).
	HTTPClient *http.Client
	// Header is sent with the upgrade request (Origin, for tests of the origin check).
	Header http.Header
	// ReadLimit is the largest message read (default 1 MiB).
	ReadLimit int64
	// Handle receives every frame that is not the reply to a request of this connection, on the reading
	// goroutine, in order. nil keeps them in the Inbox.
	Handle func(*Conn, Frame)
	// Done runs once, on the reading goroutine, when the connection ends (after pending requests learnt it).
	Done func(error)
}

// Conn is one socket connection.
type Conn struct {
	ws     *websocket.Conn
	nextID atomic.Int64
	closed chan struct{}
	inbox  Inbox

	mu      sync.Mutex
	pending map[int64]func(Frame)
	err     error
}

// Dial opens the socket at url (a ws:// or wss:// URL; see URL) and starts reading.
func Dial(ctx context.Context, url string, o Options) (*Conn, error) {
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: o.HTTPClient, HTTPHeader: o.Header})
	if err != nil {
		return nil, err
	}
	if o.ReadLimit == 0 {
		o.ReadLimit = 1 << 20
	}
	ws.SetReadLimit(o.ReadLimit)
	c := &Conn{ws: ws, closed: make(chan struct{}), pending: map[int64]func(Frame){}}
	go c.readLoop(o.Handle, o.Done)
	return c, nil
}

func (c *Conn) readLoop(handle func(*Conn, Frame), done func(error)) {
	var err error
	defer func() {
		c.mu.Lock()
		c.err = err
		pending := c.pending
		c.pending = nil
		c.mu.Unlock()
		close(c.closed)
		c.inbox.end(err)
		// Callbacks of requests that will never be answered learn it.
		for _, cb := range pending {
			cb(Frame{Code: codeClosed, Msg: "connection closed"})
		}
		if done != nil {
			done(err)
		}
	}()
	for {
		var b []byte
		_, b, err = c.ws.Read(context.Background())
		if err != nil {
			return
		}
		var f Frame
		if json.Unmarshal(b, &f) != nil {
			continue
		}
		f.At = time.Now()
		if f.Re != 0 {
			c.mu.Lock()
			cb := c.pending[f.Re]
			delete(c.pending, f.Re)
			c.mu.Unlock()
			if cb != nil {
				cb(f)
				continue
			}
		}
		if handle != nil {
			handle(c, f)
		} else {
			c.inbox.Put(f)
		}
	}
}

// Inbox holds the frames no request and no Handle took.
func (c *Conn) Inbox() *Inbox { return &c.inbox }

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.closed }

// Err is why the connection ended (nil while it is open); websocket.CloseStatus tells the close code.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the connection with a normal closure.
func (c *Conn) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "") }

// CloseGoingAway closes with 1001, as a browser does when the page unloads (a reload, a closed tab).
func (c *Conn) CloseGoingAway() error { return c.ws.Close(websocket.StatusGoingAway, "page unloaded") }

// CloseNow drops the connection without the closing handshake (a terminal losing its network).
func (c *Conn) CloseNow() error { return c.ws.CloseNow() }

// WriteRaw sends one text message as it is (tests of malformed frames).
func (c *Conn) WriteRaw(b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Write sends a frame (the WebSocket serialises concurrent writers).
func (c *Conn) Write(f Frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return c.WriteRaw(b)
}

// Request sends a request and returns its id; cb (may be nil) gets the reply on the reading goroutine, or a
// frame for which Closed is true if the connection ends first.
func (c *Conn) Request(typ string, data any, cb func(Frame)) (int64, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return 0, err
	}
	id := c.nextID.Add(1)
	if cb != nil {
		c.mu.Lock()
		if c.pending == nil {
			c.mu.Unlock()
			return 0, ErrClosed
		}
		c.pending[id] = cb
		c.mu.Unlock()
	}
	if err := c.Write(Frame{ID: id, Type: typ, Data: raw}); err != nil {
		c.forget(id)
		return 0, err
	}
	return id, nil
}

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Closed tells the frame a request's callback gets when the connection ended before the reply.
func Closed(f Frame) bool { return f.Code == codeClosed && f.Re == 0 }

// Exchange sends a request and returns its reply, whatever its code.
func (c *Conn) Exchange(ctx context.Context, typ string, data any) (Frame, error) {
	ch := make(chan Frame, 1)
	id, err := c.Request(typ, data, func(f Frame) { ch <- f })
	if err != nil {
		return Frame{}, err
	}
	select {
	case f := <-ch:
		if Closed(f) {
			return Frame{}, fmt.Errorf("%s: %w", typ, ErrClosed)
		}
		return f, nil
	case <-ctx.Done():
		c.forget(id)
		return Frame{}, fmt.Errorf("%s: %w", typ, ctx.Err())
	}
}

// Call sends a request and waits for its reply; out (may be nil) receives the reply data. A refusal is a
// *CodeError.
func (c *Conn) Call(ctx context.Context, typ string, data any, out any) error {
	f, err := c.Exchange(ctx, typ, data)
	if err != nil {
		return err
	}
	if !f.OK() {
		return &CodeError{Type: typ, Code: f.Code, Msg: f.Msg, Key: f.Key}
	}
	if out != nil && len(f.Data) > 0 {
		return json.Unmarshal(f.Data, out)
	}
	return nil
}

// Reply answers a server→client request; data nil sends no data.
func (c *Conn) Reply(req Frame, code string, data any) error {
	var raw json.RawMessage
	if data != nil {
		var err error
		if raw, err = json.Marshal(data); err != nil {
			return err
		}
	}
	return c.Write(Frame{Re: req.ID, Type: req.Type, Code: code, Data: raw})
}

// Inbox is an unbounded queue of received frames that callers take from with a deadline.
type Inbox struct {
	mu      sync.Mutex
	frames  []Frame
	changed chan struct{}
	ended   bool
	err     error
}

// Put adds a frame and wakes whoever waits.
func (q *Inbox) Put(f Frame) {
	q.mu.Lock()
	q.frames = append(q.frames, f)
	q.notifyLocked()
	q.mu.Unlock()
}

func (q *Inbox) end(err error) {
	q.mu.Lock()
	q.ended, q.err = true, err
	q.notifyLocked()
	q.mu.Unlock()
}

func (q *Inbox) notifyLocked() {
	if q.changed != nil {
		close(q.changed)
		q.changed = nil
	}
}

// List returns the frames held, oldest first, without taking them.
func (q *Inbox) List() []Frame {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]Frame(nil), q.frames...)
}

// Drain takes every frame held.
func (q *Inbox) Drain() []Frame {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.frames
	q.frames = nil
	return out
}

// Take removes and returns the oldest frame for which match is true (nil matches any), waiting for one until
// ctx ends or the connection has ended and every held frame was looked at.
func (q *Inbox) Take(ctx context.Context, match func(Frame) bool) (Frame, error) {
	for {
		q.mu.Lock()
		for i, f := range q.frames {
			if match == nil || match(f) {
				q.frames = append(q.frames[:i], q.frames[i+1:]...)
				q.mu.Unlock()
				return f, nil
			}
		}
		if q.ended {
			err := q.err
			q.mu.Unlock()
			return Frame{}, fmt.Errorf("%w (%w)", ErrClosed, err)
		}
		if q.changed == nil {
			q.changed = make(chan struct{})
		}
		ch := q.changed
		q.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return Frame{}, ctx.Err()
		}
	}
}

// SignIn is the console sign-in (docs/api.md `/ds/user`) of the server at base; it returns the session token a
// console logs its socket in with. A refusal is a *CodeError.
func SignIn(ctx context.Context, hc *http.Client, base, uid, pw string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/ds/user", nil)
	if err != nil {
		return "", err
	}
	req.URL.RawQuery = url.Values{"uid": {uid}, "auth": {pw}}.Encode()
	res, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var env struct {
		Code   string `json:"code"`
		Msg    string `json:"msg"`
		Result struct {
			Token string `json:"token"`
		} `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
		return "", fmt.Errorf("sign-in %s: %w", uid, err)
	}
	if env.Code != "0" {
		return "", &CodeError{Type: "sign-in", Code: env.Code, Msg: env.Msg}
	}
	if env.Result.Token == "" {
		return "", fmt.Errorf("sign-in %s: no token", uid)
	}
	return env.Result.Token, nil
}
