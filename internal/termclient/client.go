// Package termclient is a Go client of the tenfour socket and media protocol (docs/voice.md): it logs in as a
// terminal (or, for tests, as a console with a session token), negotiates one WebRTC PeerConnection, requests
// and releases the floor, plays Ogg Opus files as its microphone and keeps what it receives. The tests of the
// voice service use it, and the fleet simulator builds on it.
package termclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/pion/webrtc/v4"
)

// Options say where and who to log in.
type Options struct {
	// URL is the server's base URL (http://host:port or https://…); the socket is URL + "/ds/ws".
	URL string
	// UID and Password log in a terminal; with Resume (a previous login's Client.Resume) instead of the password.
	UID, Password, Resume string
	// Token logs in a console instead (a dispatcher's session token).
	Token string
	// Media tunes the WebRTC side.
	Media MediaOptions
	// OnRequest answers server→client requests (monitor.start, call.set…); nil acknowledges each with "0".
	// A non-empty code other than "0" refuses (e.g. "486" busy).
	OnRequest func(typ string, data json.RawMessage) (code string, reply any)
}

// Event is a server event (a frame without `re`).
type Event struct {
	Type string
	Seq  int64
	Data json.RawMessage
}

// Decode decodes the event's data into v.
func (e Event) Decode(v any) error { return json.Unmarshal(e.Data, v) }

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

type frame struct {
	ID   int64           `json:"id,omitempty"`
	Re   int64           `json:"re,omitempty"`
	Type string          `json:"type"`
	Seq  int64           `json:"seq,omitempty"`
	Code string          `json:"code,omitempty"`
	Msg  string          `json:"msg,omitempty"`
	Key  string          `json:"key,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Client is one logged-in socket connection, and its media once Connect ran.
type Client struct {
	*Media
	MsID       string
	CustomerID int64
	// Resume is the token this login's reply carried: Options.Resume for the next login of the terminal.
	Resume string

	opts   Options
	ws     *websocket.Conn
	nextID atomic.Int64
	closed chan struct{}
	err    error

	mu      sync.Mutex
	pending map[int64]chan frame
	events  []Event
	changed chan struct{}
}

// Dial connects and logs in.
func Dial(ctx context.Context, opts Options) (*Client, error) {
	u := strings.TrimSuffix(opts.URL, "/")
	u = "ws" + strings.TrimPrefix(u, "http") + "/ds/ws"
	ws, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 20)
	c := &Client{opts: opts, ws: ws, closed: make(chan struct{}), pending: map[int64]chan frame{},
		changed: make(chan struct{})}
	go c.readLoop()
	login := map[string]any{"client": "terminal", "uid": opts.UID, "auth": opts.Password}
	if opts.Resume != "" {
		login = map[string]any{"client": "terminal", "uid": opts.UID, "resume": opts.Resume}
	}
	if opts.Token != "" {
		login = map[string]any{"client": "console", "token": opts.Token}
	}
	var reply struct {
		MsID       string `json:"msId"`
		CustomerID int64  `json:"customerId"`
		Resume     string `json:"resume"`
	}
	if err := c.Call(ctx, "session.login", login, &reply); err != nil {
		c.Close()
		return nil, err
	}
	c.MsID, c.CustomerID, c.Resume = reply.MsID, reply.CustomerID, reply.Resume
	return c, nil
}

// Close ends the media and the socket.
func (c *Client) Close() error {
	if c.Media != nil {
		_ = c.Media.Close()
	}
	return c.ws.Close(websocket.StatusNormalClosure, "")
}

// Done is closed when the socket ends.
func (c *Client) Done() <-chan struct{} { return c.closed }

func (c *Client) readLoop() {
	defer close(c.closed)
	for {
		_, b, err := c.ws.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.notifyLocked()
			c.mu.Unlock()
			return
		}
		var f frame
		if json.Unmarshal(b, &f) != nil {
			continue
		}
		switch {
		case f.Re != 0:
			c.mu.Lock()
			ch := c.pending[f.Re]
			delete(c.pending, f.Re)
			c.mu.Unlock()
			if ch != nil {
				ch <- f
			}
		case f.ID != 0:
			go c.answer(f)
		default:
			c.mu.Lock()
			c.events = append(c.events, Event{Type: f.Type, Seq: f.Seq, Data: f.Data})
			c.notifyLocked()
			c.mu.Unlock()
		}
	}
}

func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// answer replies to a server→client request.
func (c *Client) answer(f frame) {
	code, reply := "0", any(struct{}{})
	if c.opts.OnRequest != nil {
		code, reply = c.opts.OnRequest(f.Type, f.Data)
		if code == "" {
			code = "0"
		}
	}
	c.mu.Lock()
	c.events = append(c.events, Event{Type: "request:" + f.Type, Data: f.Data})
	c.notifyLocked()
	c.mu.Unlock()
	raw, _ := json.Marshal(reply)
	_ = c.write(frame{Re: f.ID, Type: f.Type, Code: code, Data: raw})
}

func (c *Client) write(f frame) error {
	b, _ := json.Marshal(f)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Call sends a request and waits for its reply; out (may be nil) receives the reply data. A refusal is a
// *CodeError.
func (c *Client) Call(ctx context.Context, typ string, data any, out any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	id := c.nextID.Add(1)
	ch := make(chan frame, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() { c.mu.Lock(); delete(c.pending, id); c.mu.Unlock() }()
	if err := c.write(frame{ID: id, Type: typ, Data: raw}); err != nil {
		return err
	}
	select {
	case f := <-ch:
		if f.Code != "" && f.Code != "0" {
			return &CodeError{Type: typ, Code: f.Code, Msg: f.Msg, Key: f.Key}
		}
		if out != nil && len(f.Data) > 0 {
			return json.Unmarshal(f.Data, out)
		}
		return nil
	case <-c.closed:
		return fmt.Errorf("termclient: %s: connection closed", typ)
	case <-ctx.Done():
		return fmt.Errorf("termclient: %s: %w", typ, ctx.Err())
	}
}

// WaitEvent returns the first not yet consumed event of type typ for which match is true (nil matches all),
// waiting for it until ctx ends; it consumes it. Server→client requests appear as "request:<type>".
func (c *Client) WaitEvent(ctx context.Context, typ string, match func(Event) bool) (Event, error) {
	for {
		c.mu.Lock()
		for i := 0; i < len(c.events); i++ {
			e := c.events[i]
			if e.Type == typ && (match == nil || match(e)) {
				c.events = append(c.events[:i], c.events[i+1:]...)
				c.mu.Unlock()
				return e, nil
			}
		}
		ch, err := c.changed, c.err
		c.mu.Unlock()
		if err != nil {
			return Event{}, fmt.Errorf("termclient: waiting for %s: %w", typ, err)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return Event{}, fmt.Errorf("termclient: no %s event: %w", typ, ctx.Err())
		}
	}
}

// Events returns the events received and not consumed, oldest first.
func (c *Client) Events() []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Event(nil), c.events...)
}

// Connect negotiates the client's PeerConnection over the socket (rtc.config, rtc.offer, trickled
// rtc.candidate) and waits until the server reports it can carry media (`rtc.state` connected).
func (c *Client) Connect(ctx context.Context) error {
	var cfg struct {
		ICEServers []webrtc.ICEServer `json:"iceServers"`
	}
	if err := c.Call(ctx, "rtc.config", nil, &cfg); err != nil {
		return err
	}
	mo := c.opts.Media
	if mo.ICEServers == nil {
		mo.ICEServers = cfg.ICEServers
	}
	m, err := NewMedia(mo)
	if err != nil {
		return err
	}
	c.Media = m
	offer, err := m.Offer()
	if err != nil {
		return err
	}
	var answer struct {
		SDP string `json:"sdp"`
	}
	if err := c.Call(ctx, "rtc.offer", map[string]string{"type": "offer", "sdp": offer}, &answer); err != nil {
		return err
	}
	m.OnCandidate(func(ci webrtc.ICECandidateInit) {
		go func() {
			cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = c.Call(cctx, "rtc.candidate", ci, nil)
		}()
	})
	if err := m.Accept(answer.SDP); err != nil {
		return err
	}
	if err := m.WaitConnected(ctx); err != nil {
		return err
	}
	_, err = c.WaitEvent(ctx, "rtc.state", func(e Event) bool { return strings.Contains(string(e.Data), `"connected"`) })
	return err
}

// FloorReply is the answer to a floor request.
type FloorReply struct {
	CallID         string `json:"callId"`
	Status         string `json:"status"`
	Position       int    `json:"position"`
	MaxTalkMs      int64  `json:"maxTalkMs"`
	PressToGrantUs int64  `json:"pressToGrantUs"`
}

// RequestFloor asks for the floor: of the call callID, or of group gid, or (both empty) of the client's current
// call or ptt group. queue waits in line instead of being denied.
func (c *Client) RequestFloor(ctx context.Context, callID, gid string, queue bool) (FloorReply, error) {
	var r FloorReply
	err := c.Call(ctx, "floor.request", map[string]any{"callId": callID, "gid": gid, "queue": queue}, &r)
	return r, err
}

// ReleaseFloor releases the floor of a call ("" = every call).
func (c *Client) ReleaseFloor(ctx context.Context, callID string) error {
	return c.Call(ctx, "floor.release", map[string]any{"callId": callID}, nil)
}

// Talk takes the floor, sends the payloads paced by interval, and releases the floor.
func (c *Client) Talk(ctx context.Context, callID, gid string, payloads [][]byte, interval time.Duration) (FloorReply, error) {
	r, err := c.RequestFloor(ctx, callID, gid, false)
	if err != nil {
		return r, err
	}
	if err := c.Send(ctx, payloads, interval); err != nil {
		return r, err
	}
	return r, c.ReleaseFloor(ctx, r.CallID)
}
