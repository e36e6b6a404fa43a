package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// Conn is one socket client. Its outbound queue is written by one goroutine in order; nothing else writes
// to the WebSocket.
type Conn struct {
	hub      *Hub
	ws       *websocket.Conn
	out      chan []byte
	done     chan struct{}
	once     sync.Once
	limiter  *rate.Limiter
	urlToken string

	mu      sync.Mutex
	p       identity.Principal
	kind    Kind
	logged  bool
	pending map[int64]chan Frame
}

func newConn(h *Hub, ws *websocket.Conn, urlToken string) *Conn {
	return &Conn{
		hub: h, ws: ws, urlToken: urlToken,
		out:     make(chan []byte, QueueLen),
		done:    make(chan struct{}),
		limiter: rate.NewLimiter(50, 100),
		pending: map[int64]chan Frame{},
	}
}

// Principal is the logged-in account.
func (c *Conn) Principal() identity.Principal { c.mu.Lock(); defer c.mu.Unlock(); return c.p }

// Kind tells a console from a terminal.
func (c *Conn) Kind() Kind { c.mu.Lock(); defer c.mu.Unlock(); return c.kind }

// Done is closed when the connection ends.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Send queues an event to this connection.
func (c *Conn) Send(typ string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	msg, _ := json.Marshal(Frame{Type: typ, Data: raw})
	if !c.enqueue(msg) {
		return errClosed
	}
	return nil
}

// Request sends a server→client request and waits for the reply frame (`re` = its id).
func (c *Conn) Request(ctx context.Context, typ string, data any) (json.RawMessage, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	id := c.hub.nextID.Add(1)
	ch := make(chan Frame, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() { c.mu.Lock(); delete(c.pending, id); c.mu.Unlock() }()
	msg, _ := json.Marshal(Frame{ID: id, Type: typ, Data: raw})
	if !c.enqueue(msg) {
		return nil, ErrNotOnline
	}
	select {
	case f := <-ch:
		if f.Code != "" && f.Code != "0" {
			return f.Data, httpx.E(http.StatusConflict, f.Code, f.Key, f.Msg)
		}
		return f.Data, nil
	case <-c.done:
		return nil, ErrNotOnline
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, ErrTimeout
		}
		return nil, ctx.Err()
	}
}

// enqueue never blocks: a full queue means the client is too slow, and it is disconnected to resync.
func (c *Conn) enqueue(msg []byte) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	select {
	case c.out <- msg:
		mFanout.Inc()
		return true
	default:
		mSlow.Inc()
		c.close(CloseSlow, "slow consumer")
		return false
	}
}

func (c *Conn) close(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		close(c.done)
		go func() { _ = c.ws.Close(code, reason) }()
	})
}

func (c *Conn) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go c.writeLoop(ctx)
	loginDeadline := time.AfterFunc(LoginTimeout, func() {
		c.mu.Lock()
		logged := c.logged
		c.mu.Unlock()
		if !logged {
			c.close(websocket.StatusPolicyViolation, "login timeout")
		}
	})
	defer loginDeadline.Stop()
	defer c.finish()
	for {
		_, msg, err := c.ws.Read(ctx)
		if err != nil {
			c.close(websocket.StatusNormalClosure, "")
			return
		}
		f, err := DecodeFrame(msg)
		if err != nil {
			c.reply(Frame{Type: "error"}, nil, err)
			continue
		}
		if f.Re != 0 { // a reply to a server→client request
			c.mu.Lock()
			ch := c.pending[f.Re]
			c.mu.Unlock()
			if ch != nil {
				ch <- f
			}
			continue
		}
		if !c.limiter.Allow() {
			c.reply(f, nil, httpx.ErrTooFast)
			continue
		}
		c.dispatch(ctx, f)
	}
}

func (c *Conn) dispatch(ctx context.Context, f Frame) {
	switch f.Type {
	case "ping":
		c.reply(Frame{Type: "pong", ID: f.ID}, nil, nil)
		return
	case "session.login":
		res, err := c.login(ctx, f.Data)
		c.reply(f, res, err)
		if err != nil {
			c.close(websocket.StatusPolicyViolation, "login refused")
		}
		return
	}
	c.mu.Lock()
	logged := c.logged
	c.mu.Unlock()
	if !logged {
		c.reply(f, nil, ErrNotLogged)
		return
	}
	if f.Type == "sync" {
		res, err := c.sync(ctx, f.Data)
		c.reply(f, res, err)
		return
	}
	h := c.hub.handlers[f.Type]
	if h == nil {
		c.reply(f, nil, ErrUnknown)
		return
	}
	// Handlers may wait on a terminal's acknowledgement (up to seconds); they run off the read loop so the
	// connection keeps reading replies meanwhile. Each request is one bounded goroutine, not one per fan-out.
	go func() {
		res, err := h(ctx, c, f.Data)
		c.reply(f, res, err)
	}()
}

func (c *Conn) reply(req Frame, res any, err error) {
	out := Frame{Re: req.ID, Type: req.Type, Code: "0"}
	if req.Type == "pong" {
		out = Frame{Type: "pong", Re: req.ID}
	}
	if err != nil {
		e, known := httpx.AsError(err)
		if !known {
			slog.Error("socket handler failed", "type", req.Type, "err", err)
		}
		out.Code, out.Msg, out.Key = e.Code, e.Msg, e.Key
	} else if res != nil {
		raw, mErr := json.Marshal(res)
		if mErr != nil {
			out.Code, out.Msg = "500", "encode reply"
		}
		out.Data = raw
	}
	if req.ID == 0 && err == nil && req.Type != "pong" {
		return // fire-and-forget request
	}
	msg, _ := json.Marshal(out)
	c.enqueue(msg)
}

type loginReply struct {
	MsID       string `json:"msId"`
	CustomerID int64  `json:"customerId"`
	ServerTime int64  `json:"serverTime"`
	Protocol   int    `json:"protocol"`
}

func (c *Conn) login(ctx context.Context, data json.RawMessage) (any, error) {
	c.mu.Lock()
	already := c.logged
	c.mu.Unlock()
	if already {
		return nil, httpx.BadParam("session", "already logged in")
	}
	data = injectToken(data, c.urlToken)
	p, kind, err := c.hub.authn.SocketLogin(ctx, data)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.p, c.kind, c.logged = p, kind, true
	c.mu.Unlock()
	old := c.hub.register(c)
	if old != nil {
		_ = old.Send("session.replaced", map[string]string{"msId": p.AccountID})
		old.closeAfterFlush(CloseReplaced, "logged in elsewhere")
	}
	if c.hub.hooks.OnLogin != nil {
		c.hub.hooks.OnLogin(context.WithoutCancel(ctx), c, old != nil)
	}
	return loginReply{MsID: p.AccountID, CustomerID: p.CustomerID, ServerTime: time.Now().UnixMilli(), Protocol: 1}, nil
}

// closeAfterFlush lets the writer send what is queued, then closes.
func (c *Conn) closeAfterFlush(code websocket.StatusCode, reason string) {
	go func() {
		deadline := time.Now().Add(2 * time.Second)
		for len(c.out) > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		c.close(code, reason)
	}()
}

func (c *Conn) sync(ctx context.Context, data json.RawMessage) (any, error) {
	var req struct {
		After int64 `json:"after"`
	}
	if err := json.Unmarshal(data, &req); err != nil || req.After < 0 {
		return nil, httpx.BadParam("after", "a sequence number")
	}
	p := c.Principal()
	last := req.After
	for {
		frames, err := c.hub.Replay(ctx, p.CustomerID, last, 200)
		if err != nil {
			return nil, err
		}
		for _, f := range frames {
			msg, _ := json.Marshal(f)
			if !c.enqueue(msg) {
				return nil, errClosed
			}
			last = f.Seq
		}
		if len(frames) < 200 {
			return map[string]int64{"last": last}, nil
		}
	}
}

func (c *Conn) finish() {
	c.mu.Lock()
	logged := c.logged
	c.mu.Unlock()
	if !logged {
		return
	}
	current := c.hub.unregister(c)
	if c.hub.hooks.OnLogout != nil {
		c.hub.hooks.OnLogout(context.Background(), c, !current)
	}
}

func (c *Conn) writeLoop(ctx context.Context) {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case msg := <-c.out:
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.ws.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				c.close(websocket.StatusInternalError, "write failed")
				return
			}
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.ws.Ping(pctx)
			cancel()
			if err != nil {
				c.close(websocket.StatusGoingAway, "ping timeout")
				return
			}
		case <-c.done:
			return
		case <-ctx.Done():
			return
		}
	}
}

// injectToken adds the ?token= of the upgrade URL to a login payload that has none.
func injectToken(data json.RawMessage, tok string) json.RawMessage {
	if tok == "" {
		return data
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil || m == nil {
		m = map[string]any{}
	}
	if v, _ := m["token"].(string); v == "" {
		m["token"] = tok
	}
	out, _ := json.Marshal(m)
	return out
}
