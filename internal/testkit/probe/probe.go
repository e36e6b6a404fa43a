// Package probe is the part of the test kit that needs nothing of the server: the WebSocket test client and
// polling with a deadline. It imports no server package, so every package's tests can use it — the realtime
// hub's own tests too, which cannot import testkit (testkit starts the whole app, and the app imports the hub).
// testkit re-exports it; tests elsewhere use testkit.
package probe

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/platform/wsclient"
)

// Eventually polls cond until it holds, failing the test with what after within.
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	pause := time.Millisecond
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", within, what)
		}
		time.Sleep(pause)
		pause = min(2*pause, 10*time.Millisecond)
	}
}

// Frame is one socket frame; At is when it was read.
type Frame = wsclient.Frame

// Socket is a test's WebSocket client speaking the socket framing. Frames are read as they arrive (so At is
// the moment they came) and taken in order by the calls below; whatever a call reads while waiting for
// something else is kept in Events, where later waits look first. Use it from one goroutine at a time.
type Socket struct {
	t       testing.TB
	conn    *wsclient.Conn
	stalled atomic.Bool
	resume  chan struct{}
	// Events holds frames read while waiting for something else, in order.
	Events []Frame
}

// Options tune Dial.
type Options struct {
	Header    http.Header // sent with the upgrade (Origin)
	ReadLimit int64       // default 1 MiB
}

// Dial opens a socket at url (ws://…; wsclient.URL makes it from a server's base URL), closed when the test
// ends.
func Dial(t testing.TB, url string, o Options) *Socket {
	t.Helper()
	s, err := TryDial(t, url, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TryDial is Dial that returns the upgrade's error.
func TryDial(t testing.TB, url string, o Options) (*Socket, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s := &Socket{t: t, resume: make(chan struct{})}
	conn, err := wsclient.Dial(ctx, url, wsclient.Options{Header: o.Header, ReadLimit: o.ReadLimit, Handle: s.arrive})
	if err != nil {
		return nil, err
	}
	s.conn = conn
	t.Cleanup(func() { s.Resume(); conn.CloseNow() })
	return s, nil
}

// arrive keeps a frame read, first waiting while the socket is stalled.
func (c *Socket) arrive(conn *wsclient.Conn, f Frame) {
	if c.stalled.Load() {
		<-c.resume
	}
	conn.Inbox().Put(f)
}

// Stall stops reading (after at most one more frame), as a client that does not keep up: the server's sends
// back up. Resume reads on.
func (c *Socket) Stall() { c.stalled.Store(true) }

// Resume ends Stall.
func (c *Socket) Resume() {
	if c.stalled.CompareAndSwap(true, false) {
		close(c.resume)
	}
}

// Login dials and logs in with data (session.login), failing the test unless the server accepts.
func Login(t testing.TB, url string, data map[string]any) *Socket {
	t.Helper()
	s := Dial(t, url, Options{})
	if f := s.Call("session.login", data); f.Code != "0" {
		t.Fatalf("login %v: code %s %s", data, f.Code, f.Msg)
	}
	return s
}

// Send writes a frame.
func (c *Socket) Send(f Frame) {
	c.t.Helper()
	if err := c.conn.Write(f); err != nil {
		c.t.Fatalf("socket write: %v", err)
	}
}

// TrySend writes a frame and returns the error (the server may have closed the connection already).
func (c *Socket) TrySend(f Frame) error { return c.conn.Write(f) }

// SendRaw writes one text message as it is.
func (c *Socket) SendRaw(b []byte) {
	c.t.Helper()
	if err := c.conn.WriteRaw(b); err != nil {
		c.t.Fatalf("socket write: %v", err)
	}
}

// Request sends a request and returns its id without waiting.
func (c *Socket) Request(typ string, data any) int64 {
	c.t.Helper()
	id, err := c.conn.Request(typ, data, nil)
	if err != nil {
		c.t.Fatalf("socket write: %v", err)
	}
	return id
}

// Call sends a request and returns its reply, whatever its code; frames read meanwhile are kept in Events.
func (c *Socket) Call(typ string, data any) Frame {
	c.t.Helper()
	return c.ReplyTo(c.Request(typ, data))
}

// ReplyTo waits up to 5 s for the reply to request id.
func (c *Socket) ReplyTo(id int64) Frame {
	c.t.Helper()
	return c.Wait(5*time.Second, func(f Frame) bool { return f.Re == id })
}

// Read returns the next frame not yet read, or fails the test after timeout.
func (c *Socket) Read(timeout time.Duration) Frame {
	c.t.Helper()
	f, err := c.TryRead(timeout)
	if err != nil {
		c.t.Fatalf("socket read: %v", err)
	}
	return f
}

// TryRead returns the next frame not yet read, or an error (timeout, or the connection ended: then
// websocket.CloseStatus(err) is its close code).
func (c *Socket) TryRead(timeout time.Duration) (Frame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return c.conn.Inbox().Take(ctx, nil)
}

// Wait returns the first frame (kept in Events, or arriving within timeout) that match accepts; the test fails
// otherwise.
func (c *Socket) Wait(timeout time.Duration, match func(Frame) bool) Frame {
	c.t.Helper()
	f, err := c.tryWait(timeout, match)
	if err != nil {
		c.t.Fatalf("no matching frame within %v: %v (kept:%s)", timeout, err, c.describe())
	}
	return f
}

// TryWait is Wait that reports failure instead of failing.
func (c *Socket) TryWait(timeout time.Duration, match func(Frame) bool) (Frame, bool) {
	f, err := c.tryWait(timeout, match)
	return f, err == nil
}

func (c *Socket) tryWait(timeout time.Duration, match func(Frame) bool) (Frame, error) {
	for i, f := range c.Events {
		if match(f) {
			c.Events = append(c.Events[:i], c.Events[i+1:]...)
			return f, nil
		}
	}
	deadline := time.Now().Add(timeout)
	for {
		f, err := c.TryRead(time.Until(deadline))
		if err != nil {
			return Frame{}, err
		}
		if match(f) {
			return f, nil
		}
		c.Events = append(c.Events, f)
	}
}

// WaitEvent returns the first event (a frame without `re`) of type typ, kept or arriving within timeout, for
// which match returns true (nil matches any).
func (c *Socket) WaitEvent(typ string, timeout time.Duration, match func(Frame) bool) Frame {
	c.t.Helper()
	f, err := c.tryWait(timeout, func(f Frame) bool { return f.Type == typ && f.Re == 0 && (match == nil || match(f)) })
	if err != nil {
		c.t.Fatalf("no %s event within %v: %v (kept:%s)", typ, timeout, err, c.describe())
	}
	return f
}

// Drain returns every frame kept or already read, without waiting.
func (c *Socket) Drain() []Frame {
	out := append(c.Events, c.conn.Inbox().Drain()...)
	c.Events = nil
	return out
}

// Reply answers a server→client request.
func (c *Socket) Reply(req Frame, code string, data any) {
	c.t.Helper()
	if err := c.conn.Reply(req, code, data); err != nil {
		c.t.Fatalf("socket write: %v", err)
	}
}

// Closed is closed when the connection has ended.
func (c *Socket) Closed() <-chan struct{} { return c.conn.Done() }

// CloseStatus waits up to timeout for the server to end the connection and returns its close code; frames read
// meanwhile stay readable.
func (c *Socket) CloseStatus(timeout time.Duration) websocket.StatusCode {
	c.t.Helper()
	select {
	case <-c.conn.Done():
		return websocket.CloseStatus(c.conn.Err())
	case <-time.After(timeout):
		c.t.Fatalf("connection still open after %v", timeout)
		return 0
	}
}

// Close closes the socket normally.
func (c *Socket) Close() { c.conn.Close() }

// CloseGoingAway closes as a browser page that unloads does (1001).
func (c *Socket) CloseGoingAway() { c.conn.CloseGoingAway() }

// CloseNow drops the connection without the closing handshake.
func (c *Socket) CloseNow() { c.conn.CloseNow() }

func (c *Socket) describe() string {
	var b strings.Builder
	for i, f := range c.Events {
		if i == 8 {
			b.WriteString(" …")
			break
		}
		fmt.Fprintf(&b, " %s(re=%d,seq=%d)", f.Type, f.Re, f.Seq)
	}
	return b.String()
}

// IsTimeout tells a read that ended because its deadline passed (not because the connection ended).
func IsTimeout(err error) bool { return errors.Is(err, context.DeadlineExceeded) }
