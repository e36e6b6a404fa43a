// Package safetytest seeds customers, dispatchers and terminals for the safety tests (SOS, lone worker) and
// holds a small socket client that works against any server URL, including a separately started binary.
package safetytest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
)

// Password is every seeded terminal's password.
const Password = "123456"

var (
	hashOnce sync.Once
	hash     string
	nextCust atomic.Int64
)

func pwHash(t testing.TB) string {
	hashOnce.Do(func() {
		var err error
		if hash, err = auth.HashPassword(Password); err != nil {
			t.Fatal(err)
		}
	})
	return hash
}

// Fleet is one seeded customer.
type Fleet struct {
	CustomerID int64
	Dispatcher string   // msId of a dispatcher (type 20)
	Terminals  []string // msIds of terminals
}

// Seed creates a customer with one dispatcher and n terminals of type typ ("10" app when empty); terminal i is
// named "Unit i" and has the last known position lat 41+i/100, lng 29.
func Seed(t testing.TB, d *db.DB, n int, typ string) Fleet {
	t.Helper()
	ctx := context.Background()
	if typ == "" {
		typ = "10"
	}
	k := nextCust.Add(1)
	var f Fleet
	now := time.Now().UnixMilli()
	name := fmt.Sprintf("cust-%d-%d", k, now)
	if err := d.WriteRow(ctx, `INSERT INTO customers (name, created_at) VALUES (?, ?) RETURNING id`, name, now).Scan(&f.CustomerID); err != nil {
		t.Fatal(err)
	}
	prefix := fmt.Sprintf("%d%03d", 1+f.CustomerID%9, k%1000)
	f.Dispatcher = prefix + "9000"
	if _, err := d.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, name, password_hash, created_at) VALUES (?, ?, '20', ?, ?, ?)`,
		f.Dispatcher, f.CustomerID, "Dispatcher "+prefix, pwHash(t), now); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("%s%04d", prefix, i)
		if _, err := d.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, name, password_hash, lat, lng, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, f.CustomerID, typ, fmt.Sprintf("Unit %d", i), pwHash(t), 41+float64(i)/100, 29.0, now); err != nil {
			t.Fatal(err)
		}
		f.Terminals = append(f.Terminals, id)
	}
	return f
}

// Token issues a console session for the fleet's dispatcher, already past its first socket login (so tests may
// connect whenever they like).
func (f Fleet) Token(t testing.TB, d *db.DB) string {
	t.Helper()
	ctx := context.Background()
	tok, err := auth.NewSessions(d, nil).Create(ctx, f.Dispatcher, f.CustomerID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(ctx, `UPDATE sessions SET socket_login_at = created_at WHERE account_id = ? AND socket_login_at = 0`, f.Dispatcher); err != nil {
		t.Fatal(err)
	}
	return tok
}

// Frame is one socket frame.
type Frame struct {
	ID   int64           `json:"id,omitempty"`
	Re   int64           `json:"re,omitempty"`
	Type string          `json:"type"`
	Seq  int64           `json:"seq,omitempty"`
	Code string          `json:"code,omitempty"`
	Msg  string          `json:"msg,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Into decodes the frame's data.
func (f Frame) Into(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(f.Data, v); err != nil {
		t.Fatalf("decode %s data %s: %v", f.Type, f.Data, err)
	}
}

// Client is a socket client whose frames are read by one goroutine into a channel, so a test can wait for
// events with a deadline from any goroutine and timestamps are taken the moment a frame arrives.
type Client struct {
	t      testing.TB
	ws     *websocket.Conn
	nextID atomic.Int64
	in     chan Arrived
	done   chan struct{}
	// Held are frames read while waiting for something else, in order.
	Held []Arrived
}

// Arrived is a frame and when it was read.
type Arrived struct {
	Frame
	At time.Time
}

// Dial connects to base (http://host:port) and starts reading.
func Dial(t testing.TB, base string) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, strings.Replace(base, "http", "ws", 1)+"/ds/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	c := &Client{t: t, ws: ws, in: make(chan Arrived, 4096), done: make(chan struct{})}
	go c.read()
	t.Cleanup(func() { ws.CloseNow() })
	return c
}

func (c *Client) read() {
	defer close(c.done)
	for {
		_, b, err := c.ws.Read(context.Background())
		if err != nil {
			return
		}
		at := time.Now()
		var f Frame
		if json.Unmarshal(b, &f) == nil {
			c.in <- Arrived{Frame: f, At: at}
		}
	}
}

// Closed is closed when the connection has ended.
func (c *Client) Closed() <-chan struct{} { return c.done }

// Close ends the connection normally.
func (c *Client) Close() { c.ws.Close(websocket.StatusNormalClosure, "") }

// Send writes a frame.
func (c *Client) Send(f Frame) {
	c.t.Helper()
	b, _ := json.Marshal(f)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("socket write: %v", err)
	}
}

// Call sends a request and waits for its reply (other frames are held).
func (c *Client) Call(typ string, data any) Frame {
	c.t.Helper()
	id := c.nextID.Add(1)
	raw, _ := json.Marshal(data)
	c.Send(Frame{ID: id, Type: typ, Data: raw})
	return c.Wait(5*time.Second, func(f Frame) bool { return f.Re == id }).Frame
}

// Wait returns the first frame (held or arriving before timeout) that match accepts; the test fails otherwise.
func (c *Client) Wait(timeout time.Duration, match func(Frame) bool) Arrived {
	c.t.Helper()
	a, ok := c.TryWait(timeout, match)
	if !ok {
		c.t.Fatalf("no matching frame within %v (held: %s)", timeout, c.describeHeld())
	}
	return a
}

// TryWait is Wait that reports failure instead of failing.
func (c *Client) TryWait(timeout time.Duration, match func(Frame) bool) (Arrived, bool) {
	for i, a := range c.Held {
		if match(a.Frame) {
			c.Held = append(c.Held[:i], c.Held[i+1:]...)
			return a, true
		}
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case a := <-c.in:
			if match(a.Frame) {
				return a, true
			}
			c.Held = append(c.Held, a)
		case <-timer.C:
			return Arrived{}, false
		}
	}
}

// Event waits for an event (no `re`) of type typ.
func (c *Client) Event(typ string, timeout time.Duration) Arrived {
	c.t.Helper()
	return c.Wait(timeout, func(f Frame) bool { return f.Re == 0 && f.Type == typ })
}

// Drain returns every frame held or already received, without waiting.
func (c *Client) Drain() []Arrived {
	out := c.Held
	c.Held = nil
	for {
		select {
		case a := <-c.in:
			out = append(out, a)
		default:
			return out
		}
	}
}

// Reply answers a server→client request.
func (c *Client) Reply(req Frame, code string, data any) {
	c.t.Helper()
	raw, _ := json.Marshal(data)
	c.Send(Frame{Re: req.ID, Type: req.Type, Code: code, Data: raw})
}

func (c *Client) describeHeld() string {
	var b strings.Builder
	for i, a := range c.Held {
		if i == 8 {
			b.WriteString(" …")
			break
		}
		fmt.Fprintf(&b, " %s(re=%d,seq=%d)", a.Type, a.Re, a.Seq)
	}
	return b.String()
}

// Console connects a console with token.
func Console(t testing.TB, base, token string) *Client {
	t.Helper()
	c := Dial(t, base)
	if f := c.Call("session.login", map[string]any{"token": token, "client": "console"}); f.Code != "0" {
		t.Fatalf("console login: %s %s", f.Code, f.Msg)
	}
	return c
}

// Terminal connects a terminal with the seeded password.
func Terminal(t testing.TB, base, msID string) *Client {
	t.Helper()
	c := Dial(t, base)
	if f := c.Call("session.login", map[string]any{"client": "terminal", "uid": msID, "auth": Password}); f.Code != "0" {
		t.Fatalf("terminal %s login: %s %s", msID, f.Code, f.Msg)
	}
	return c
}

// Reply is a decoded {code, msg, key, result} envelope plus the HTTP status.
type Reply struct {
	Status int
	Code   string          `json:"code"`
	Msg    string          `json:"msg"`
	Key    string          `json:"key"`
	Result json.RawMessage `json:"result"`
}

// Into decodes the result.
func (r Reply) Into(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Result, v); err != nil {
		t.Fatalf("decode result %s: %v", r.Result, err)
	}
}

// Do calls the API of the server at base: GET and DELETE parameters in the query string, others as JSON.
func Do(t testing.TB, base, method, path, token string, params map[string]any) Reply {
	t.Helper()
	u := base + path
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
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("token", token)
	}
	res, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := Reply{Status: res.StatusCode}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s %s: not an envelope (%d): %s", method, path, res.StatusCode, raw)
	}
	return r
}

// testClient bounds every test request: a stalled server fails the test instead of hanging the run.
var testClient = &http.Client{Timeout: 30 * time.Second}
