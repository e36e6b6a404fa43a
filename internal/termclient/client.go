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
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/platform/failover"
	"tenfour/internal/platform/wsclient"
)

// Options say where and who to log in.
type Options struct {
	// URL is the server's base URL (http://host:port or https://…); the socket is URL + "/ds/ws".
	URL string
	// URLs are the other nodes of a cluster (docs/operations.md "Clients"): Failover moves the client to the
	// next of URL and URLs when its node dies (internal/platform/failover, the simulator's rules); the nodes its
	// login reply lists are added.
	URLs []string
	// UID and Password log in a terminal; with Resume (a previous login's Client.Resume) instead of the password.
	UID, Password, Resume string
	// Token logs in a console instead (a dispatcher's session token).
	Token string
	// Media tunes the WebRTC side.
	Media MediaOptions
	// HTTPClient carries the socket's upgrade (nil: the default client); a client inside the server passes
	// the in-process listener's (the SIP bridge, internal/sip).
	HTTPClient *http.Client
	// OnEvent, if set, sees each event first (server→client requests too, as "request:<type>"); only those it
	// returns true for are kept for WaitEvent and Events (Connect waits for `rtc.state`), so a long-lived client
	// inside the server (the SIP bridge) does not keep every event of a long call.
	OnEvent func(Event) (keep bool)
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
type CodeError = wsclient.CodeError

// Code returns the code of a refused request ("" for nil, "?" for other errors).
func Code(err error) string { return wsclient.Code(err) }

// Client is one logged-in socket connection, and its media once Connect ran.
type Client struct {
	*Media
	MsID       string
	CustomerID int64
	// Resume is the token this login's reply carried: Options.Resume for the next login of the terminal.
	Resume string

	opts  Options
	nodes failover.Nodes
	conn  *wsclient.Conn
}

// Dial connects and logs in.
func Dial(ctx context.Context, opts Options) (*Client, error) {
	return dial(ctx, opts, failover.Nodes{URLs: append([]string{opts.URL}, opts.URLs...)})
}

// Failover logs the terminal in again on another node once its connection ended (its node died, or dropped
// it): the next node of Options.URL and URLs in turn, with the resume token of the last login, after a
// jittered backoff before each attempt (failover.Backoff: about 1 s doubling to 30 s), until one accepts or ctx
// ends. A resume token the server refuses falls back to the password once, when there is one. The media is
// not carried over: Connect again on the new client.
func (c *Client) Failover(ctx context.Context) (*Client, error) {
	opts, nodes := c.opts, c.nodes
	if c.Resume != "" {
		opts.Resume = c.Resume
	}
	for failures := 1; ; failures++ {
		select {
		case <-time.After(failover.Backoff(failures, rand.Float64())):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		opts.URL = nodes.Next()
		nc, err := dial(ctx, opts, nodes)
		if err == nil {
			return nc, nil
		}
		var ce *CodeError
		if errors.As(err, &ce) { // the node answered: a refusal, not a dead node
			if opts.Resume == "" || opts.Password == "" {
				return nil, err
			}
			opts.Resume = "" // the password once more
		}
	}
}

func dial(ctx context.Context, opts Options, nodes failover.Nodes) (*Client, error) {
	c := &Client{opts: opts, nodes: nodes}
	conn, err := wsclient.Dial(ctx, wsclient.URL(opts.URL), wsclient.Options{HTTPClient: opts.HTTPClient, Handle: c.handle})
	if err != nil {
		return nil, err
	}
	c.conn = conn
	login := map[string]any{"client": "terminal", "uid": opts.UID, "auth": opts.Password}
	if opts.Resume != "" {
		login = map[string]any{"client": "terminal", "uid": opts.UID, "resume": opts.Resume}
	}
	if opts.Token != "" {
		login = map[string]any{"client": "console", "token": opts.Token}
	}
	var reply struct {
		MsID       string   `json:"msId"`
		CustomerID int64    `json:"customerId"`
		Resume     string   `json:"resume"`
		Nodes      []string `json:"nodes"` // a cluster's live nodes (Failover's list)
	}
	if err := c.Call(ctx, "session.login", login, &reply); err != nil {
		c.Close()
		return nil, err
	}
	c.MsID, c.CustomerID, c.Resume = reply.MsID, reply.CustomerID, reply.Resume
	c.nodes.Learn(reply.Nodes)
	return c, nil
}

// Close ends the media and the socket.
func (c *Client) Close() error {
	if c.Media != nil {
		_ = c.Media.Close()
	}
	return c.conn.Close()
}

// Done is closed when the socket ends.
func (c *Client) Done() <-chan struct{} { return c.conn.Done() }

// handle keeps events and answers server→client requests (late replies to abandoned requests are dropped).
func (c *Client) handle(_ *wsclient.Conn, f wsclient.Frame) {
	switch {
	case f.Re != 0:
	case f.ID != 0:
		go c.answer(f)
	default:
		c.keep(f)
	}
}

// keep keeps an event for WaitEvent, unless Options.OnEvent says not to.
func (c *Client) keep(f wsclient.Frame) {
	if c.opts.OnEvent == nil || c.opts.OnEvent(event(f)) {
		c.conn.Inbox().Put(f)
	}
}

// answer replies to a server→client request; the request is kept as the event "request:<type>".
func (c *Client) answer(f wsclient.Frame) {
	code, reply := "0", any(struct{}{})
	if c.opts.OnRequest != nil {
		code, reply = c.opts.OnRequest(f.Type, f.Data)
		if code == "" {
			code = "0"
		}
	}
	c.keep(f)
	_ = c.conn.Reply(f, code, reply)
}

// Call sends a request and waits for its reply; out (may be nil) receives the reply data. A refusal is a
// *CodeError.
func (c *Client) Call(ctx context.Context, typ string, data any, out any) error {
	return c.conn.Call(ctx, typ, data, out)
}

// event turns a kept frame into an Event; server→client requests are "request:<type>".
func event(f wsclient.Frame) Event {
	e := Event{Type: f.Type, Seq: f.Seq, Data: f.Data}
	if f.ID != 0 {
		e.Type = "request:" + f.Type
	}
	return e
}

// WaitEvent returns the first not yet consumed event of type typ for which match is true (nil matches all),
// waiting for it until ctx ends; it consumes it. Server→client requests appear as "request:<type>".
func (c *Client) WaitEvent(ctx context.Context, typ string, match func(Event) bool) (Event, error) {
	f, err := c.conn.Inbox().Take(ctx, func(f wsclient.Frame) bool {
		e := event(f)
		return e.Type == typ && (match == nil || match(e))
	})
	if err != nil {
		return Event{}, fmt.Errorf("termclient: no %s event: %w", typ, err)
	}
	return event(f), nil
}

// Events returns the events received and not consumed, oldest first.
func (c *Client) Events() []Event {
	var out []Event
	for _, f := range c.conn.Inbox().List() {
		out = append(out, event(f))
	}
	return out
}

// Connect negotiates the client's PeerConnection over the socket (rtc.config, rtc.offer, trickled
// rtc.candidate) — or binds its in-process media (rtc.local, MediaOptions.Local) — and waits until the server
// reports it can carry media (`rtc.state` connected).
func (c *Client) Connect(ctx context.Context) error {
	if t := c.opts.Media.Local; t != "" {
		if err := c.Call(ctx, "rtc.local", map[string]string{"ticket": t}, nil); err != nil {
			return err
		}
		return c.waitConnected(ctx)
	}
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
	return c.waitConnected(ctx)
}

// waitConnected waits for the server's `rtc.state` connected.
func (c *Client) waitConnected(ctx context.Context) error {
	_, err := c.WaitEvent(ctx, "rtc.state", func(e Event) bool { return strings.Contains(string(e.Data), `"connected"`) })
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

// Begin sends a request without waiting for its reply: it returns once the request is written, so a request sent
// after it reaches the server after it. The reply comes on the channel (a frame wsclient.Closed tells when the
// connection ended first).
func (c *Client) Begin(typ string, data any) (<-chan wsclient.Frame, error) {
	ch := make(chan wsclient.Frame, 1)
	_, err := c.conn.Request(typ, data, func(f wsclient.Frame) { ch <- f })
	return ch, err
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
