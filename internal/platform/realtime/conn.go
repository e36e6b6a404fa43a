package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// Conn is one socket client. Only its writer goroutine writes to the WebSocket, in queue order.
type Conn struct {
	hub      *Hub
	ws       *websocket.Conn
	out      chan []byte   // live frames in order; a nil entry asks the writer to close after what precedes it
	replay   chan []byte   // unbuffered: `sync` replays, paced by the writer so they never overflow `out`
	done     chan struct{} // closed once the connection is closing: nothing more is queued or written
	ready    chan struct{} // closed once the login reply is queued
	once     sync.Once
	limiter  *rate.Limiter
	inflight chan struct{} // semaphore of running request handlers
	closing  atomic.Bool   // a close after flush is under way: nothing more is read or answered
	wentAway atomic.Bool   // the client closed with 1001 (its page unloaded): see Hub.deferLogout
	urlToken string

	// A console may fall behind for a moment (a login storm sends every console a presence frame per
	// terminal): what does not fit in out spills here, up to ConsoleSpill frames, and the writer sends it
	// after out. While spilling, new frames join the spill, so order is kept. Terminals never spill.
	console  atomic.Bool
	spilling atomic.Bool
	spillMu  sync.Mutex
	spill    [][]byte
	spillB   int           // bytes in spill
	kick     chan struct{} // wakes the writer for spilled frames

	mu          sync.Mutex
	p           identity.Principal
	kind        Kind
	logged      bool
	replaced    bool
	pending     map[int64]chan Frame
	flushCode   websocket.StatusCode
	flushReason string
}

func newConn(h *Hub, ws *websocket.Conn, urlToken string) *Conn {
	return &Conn{
		hub: h, ws: ws, urlToken: urlToken,
		out:      make(chan []byte, QueueLen),
		replay:   make(chan []byte),
		kick:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		ready:    make(chan struct{}),
		limiter:  rate.NewLimiter(RatePerSecond, RateBurst),
		inflight: make(chan struct{}, MaxInflight),
		pending:  map[int64]chan Frame{},
	}
}

// Principal is the logged-in account.
func (c *Conn) Principal() identity.Principal { c.mu.Lock(); defer c.mu.Unlock(); return c.p }

// Kind tells a console from a terminal.
func (c *Conn) Kind() Kind { c.mu.Lock(); defer c.mu.Unlock(); return c.kind }

// Done is closed when the connection ends.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Ready is closed once the login reply is queued: what a login hook sends after waiting on it reaches the
// client after that reply (login hooks themselves run before it).
func (c *Conn) Ready() <-chan struct{} { return c.ready }

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
	c.hub.sent(typ, ServerEvent, c.Kind().bit())
	return nil
}

// Request sends a server→client request and waits for the reply frame (`re` = its id) until ctx ends.
func (c *Conn) Request(ctx context.Context, typ string, data any) (json.RawMessage, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	id := c.hub.nextID.Add(1)
	ch := make(chan Frame, 1) // the read loop is its only sender, once: it removes the entry as it delivers
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() { c.mu.Lock(); delete(c.pending, id); c.mu.Unlock() }()
	msg, _ := json.Marshal(Frame{ID: id, Type: typ, Data: raw})
	if !c.enqueue(msg) {
		return nil, ErrNotOnline
	}
	c.hub.sent(typ, ServerRequest, c.Kind().bit())
	select {
	case f := <-ch:
		if f.Code != "" && f.Code != "0" {
			code := f.Code
			if len(code) > 16 {
				code = code[:16]
			}
			return f.Data, httpx.E(http.StatusConflict, code, f.Key, "client refused: "+f.Msg)
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
	if !c.spilling.Load() {
		select {
		case c.out <- msg:
			return true
		default:
		}
	}
	if c.console.Load() && c.spillFrame(msg) {
		return true
	}
	mSlow.Inc()
	c.close(CloseSlow, "slow consumer")
	return false
}

// spillFrame appends msg to the spill (or to out, if the writer emptied the spill meanwhile); false when the
// spill is full.
func (c *Conn) spillFrame(msg []byte) bool {
	c.spillMu.Lock()
	defer c.spillMu.Unlock()
	if !c.spilling.Load() {
		select {
		case c.out <- msg:
			return true
		default:
		}
	}
	if len(c.spill) >= ConsoleSpill || c.spillB+len(msg) > ConsoleSpillBytes {
		return false
	}
	c.spill = append(c.spill, msg)
	c.spillB += len(msg)
	c.spilling.Store(true)
	select {
	case c.kick <- struct{}{}:
	default:
	}
	return true
}

// takeSpill hands the writer the spilled frames once out is empty (they are newer than everything in out);
// it ends spilling when there is nothing left.
func (c *Conn) takeSpill() [][]byte {
	if !c.spilling.Load() || len(c.out) > 0 {
		return nil
	}
	c.spillMu.Lock()
	defer c.spillMu.Unlock()
	batch := c.spill
	c.spill, c.spillB = nil, 0
	if len(batch) == 0 {
		c.spilling.Store(false)
	}
	return batch
}

// close ends the connection now: queued frames are dropped and the close handshake runs in the background.
func (c *Conn) close(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		close(c.done)
		go func() { _ = c.ws.Close(code, reason) }()
	})
}

// closeAfterFlush closes the connection once the writer has sent everything queued before this call.
func (c *Conn) closeAfterFlush(code websocket.StatusCode, reason string) {
	c.mu.Lock()
	if c.flushCode != 0 {
		c.mu.Unlock()
		return
	}
	c.flushCode, c.flushReason = code, reason
	c.mu.Unlock()
	c.closing.Store(true)
	if c.spilling.Load() {
		c.spillMu.Lock()
		if c.spilling.Load() {
			c.spill = append(c.spill, nil) // after the spilled frames
			c.spillMu.Unlock()
			select {
			case c.kick <- struct{}{}:
			default:
			}
			return
		}
		c.spillMu.Unlock()
	}
	select {
	case <-c.done:
	case c.out <- nil:
	default:
		c.close(code, reason) // queue full: nothing would get through anyway
	}
}

func (c *Conn) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go c.writeLoop(ctx)
	loginDeadline := time.AfterFunc(c.hub.loginTimeout, func() {
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
			c.wentAway.Store(websocket.CloseStatus(err) == websocket.StatusGoingAway)
			c.close(websocket.StatusNormalClosure, "")
			return
		}
		if c.closing.Load() {
			continue // e.g. more login attempts after a refused one
		}
		f, err := DecodeFrame(msg)
		if err != nil {
			if c.limiter.Allow() {
				c.reply(Frame{ID: f.ID, Type: "error"}, nil, err)
			}
			continue
		}
		if f.Re != 0 { // a reply to a server→client request
			c.mu.Lock()
			ch := c.pending[f.Re]
			delete(c.pending, f.Re)
			c.mu.Unlock()
			if ch != nil {
				ch <- f
			} else {
				c.limiter.Allow() // stray replies count against the rate limit but get no answer
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
		c.handleLogin(ctx, f)
		return
	}
	c.mu.Lock()
	logged := c.logged
	c.mu.Unlock()
	if !logged {
		c.reply(f, nil, ErrNotLogged)
		return
	}
	h := c.hub.handlers[f.Type]
	if h == nil && f.Type != "sync" {
		c.reply(f, nil, ErrUnknown)
		return
	}
	select {
	case c.inflight <- struct{}{}:
	default:
		c.reply(f, nil, httpx.ErrTooFast)
		return
	}
	// Handlers may wait on a terminal's acknowledgement (seconds); they run off the read loop so the connection
	// keeps reading replies meanwhile. At most MaxInflight per connection, and the rate limit bounds them further.
	c.hub.wg.Add(1)
	go func() {
		defer c.hub.wg.Done()
		defer func() { <-c.inflight }()
		hctx, cancel := context.WithTimeout(identity.With(context.WithoutCancel(ctx), c.Principal()), HandlerTimeout)
		defer cancel()
		if f.Type == "sync" {
			res, err := c.sync(hctx, f.Data)
			c.replyVia(f, res, err, true)
			return
		}
		res, err := c.call(hctx, h, f)
		c.reply(f, res, err)
	}()
}

// call runs a handler; a panic becomes a "500" reply instead of taking the server down.
func (c *Conn) call(ctx context.Context, h Handler, f Frame) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			slog.Error("socket handler panicked", "type", f.Type, "panic", r, "stack", string(debug.Stack()))
			res, err = nil, httpx.ErrInternal
		}
	}()
	return h(ctx, c, f.Data)
}

func (c *Conn) reply(req Frame, res any, err error) { c.replyVia(req, res, err, false) }

// replyVia answers req; viaReplay sends the answer behind the frames a `sync` is replaying.
func (c *Conn) replyVia(req Frame, res any, err error, viaReplay bool) {
	out := Frame{Re: req.ID, Type: req.Type, Code: "0"}
	if req.Type == "pong" {
		out = Frame{Type: "pong", Re: req.ID}
	}
	if err != nil {
		e, known := httpx.AsError(err)
		if !known && !errors.Is(err, errClosed) {
			slog.Error("socket handler failed", "type", req.Type, "err", err)
		}
		out.Code, out.Msg, out.Key = e.Code, e.Msg, e.Key
	} else if res != nil {
		raw, mErr := json.Marshal(res)
		if mErr != nil {
			out.Code, out.Msg = "500", "encode reply"
		} else {
			out.Data = raw
		}
	}
	if req.ID == 0 && err == nil && req.Type != "pong" {
		return // fire-and-forget request
	}
	msg, _ := json.Marshal(out)
	if viaReplay {
		select {
		case c.replay <- msg:
		case <-c.done:
		}
		return
	}
	c.enqueue(msg)
}

type loginReply struct {
	MsID       string `json:"msId"`
	CustomerID int64  `json:"customerId"`
	Kind       Kind   `json:"kind"`
	ServerTime int64  `json:"serverTime"`
	Protocol   int    `json:"protocol"`
	// LastSeq is the customer's newest durable event at login: a client that has seen none starts its
	// `sync` mark here, so events raised while it is away later are replayed even if it saw no event before.
	LastSeq int64 `json:"lastSeq"`
	// Resume is a terminal's token for its next login instead of the password (docs/terminal-protocol.md).
	Resume string `json:"resume,omitempty"`
}

var errAlreadyLogged = httpx.BadParam("session", "already logged in")

// handleLogin runs on the read loop, so a connection never has two logins in flight.
func (c *Conn) handleLogin(ctx context.Context, f Frame) {
	c.mu.Lock()
	already := c.logged
	c.mu.Unlock()
	if already {
		c.reply(f, nil, errAlreadyLogged)
		return
	}
	p, kind, err := c.hub.authn.SocketLogin(ctx, injectToken(f.Data, c.urlToken))
	if err != nil {
		// The refusal's code must reach the client before the close (spec §8: the console rejects with it).
		c.reply(f, nil, err)
		c.closeAfterFlush(websocket.StatusPolicyViolation, "login refused")
		return
	}
	select {
	case <-c.done: // closed meanwhile (login timeout, shutdown): never register a dead connection
		return
	default:
	}
	c.mu.Lock()
	c.p, c.kind, c.logged = p, kind, true
	c.console.Store(kind == Console)
	c.mu.Unlock()
	replaced, joined, tookOver := c.hub.register(c)
	// Hooks run before the reply, so a client that logs in again right after its reply finds them done, and
	// before the replaced connections close, so this login's hooks (e.g. "signed in on another device") always
	// come before their logout hooks (their close runs on their own goroutines and could otherwise win).
	if !joined {
		hctx := identity.With(context.WithoutCancel(ctx), p)
		for _, fn := range c.hub.onLogin {
			fn(hctx, c, tookOver)
		}
	}
	for _, old := range replaced {
		_ = old.Send(EventReplaced, map[string]string{"msId": p.AccountID})
		old.closeAfterFlush(CloseReplaced, "logged in elsewhere")
	}
	last, err := c.hub.LastSeq(ctx, p.CustomerID)
	if err != nil {
		slog.Error("realtime: last event seq", "err", err)
	}
	reply := loginReply{MsID: p.AccountID, CustomerID: p.CustomerID, Kind: kind, ServerTime: time.Now().UnixMilli(),
		Protocol: 1, LastSeq: last}
	if kind == Terminal {
		reply.Resume = p.Token
	}
	c.reply(f, reply, nil)
	close(c.ready)
}

// sync replays durable events after `after` through the replay channel: the writer takes them one by one,
// so a long backlog is paced by the client's reading speed instead of overflowing the live queue.
func (c *Conn) sync(ctx context.Context, data json.RawMessage) (any, error) {
	if c.Kind() != Console {
		return nil, ErrConsoleOnly // every durable event is a console event: a terminal must not read them
	}
	var req struct {
		After *int64 `json:"after"`
	}
	if err := json.Unmarshal(data, &req); err != nil || req.After == nil || *req.After < 0 {
		return nil, httpx.BadParam("after", "a sequence number")
	}
	p := c.Principal()
	last, sent := *req.After, 0
	for sent < MaxReplay {
		frames, err := c.hub.Replay(ctx, p.CustomerID, last, min(200, MaxReplay-sent))
		if err != nil {
			return nil, err
		}
		for _, f := range frames {
			msg, _ := json.Marshal(f)
			select {
			case c.replay <- msg:
			case <-c.done:
				return nil, errClosed
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			last = f.Seq
			sent++
		}
		if len(frames) < 200 {
			return map[string]any{"last": last, "more": false}, nil
		}
	}
	more, err := c.hub.Replay(ctx, p.CustomerID, last, 1)
	if err != nil {
		return nil, err
	}
	return map[string]any{"last": last, "more": len(more) > 0}, nil
}

func (c *Conn) finish() {
	c.close(websocket.StatusNormalClosure, "")
	c.mu.Lock()
	logged, replaced := c.logged, c.replaced
	c.mu.Unlock()
	if !logged {
		return
	}
	stillOnline := c.hub.unregister(c)
	if stillOnline && !replaced {
		return // another window of the same sign-in is still open
	}
	if !replaced && c.Kind() == Console && c.wentAway.Load() && c.hub.deferLogout(c) {
		return // the page went away (a reload?): logout after ReloadGrace unless it comes back
	}
	c.runLogout(replaced)
}

func (c *Conn) runLogout(replaced bool) {
	ctx := identity.With(context.Background(), c.Principal())
	for _, fn := range c.hub.onLogout {
		fn(ctx, c, replaced)
	}
}

func (c *Conn) writeLoop(ctx context.Context) {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		// A closing connection writes nothing more, even if frames are still queued.
		select {
		case <-c.done:
			return
		default:
		}
		select {
		case msg := <-c.out:
			if !c.writeLive(ctx, msg) || !c.writeSpill(ctx) {
				return
			}
		case <-c.kick:
			if !c.writeSpill(ctx) {
				return
			}
		case msg := <-c.replay:
			if !c.write(ctx, msg) {
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

// writeLive writes a queued frame; nil is the close-after-flush mark.
func (c *Conn) writeLive(ctx context.Context, msg []byte) bool {
	if msg == nil {
		c.mu.Lock()
		code, reason := c.flushCode, c.flushReason
		c.mu.Unlock()
		c.close(code, reason)
		return false
	}
	return c.write(ctx, msg)
}

// writeSpill writes spilled frames once out is empty, until the spill is empty too.
func (c *Conn) writeSpill(ctx context.Context) bool {
	for batch := c.takeSpill(); batch != nil; batch = c.takeSpill() {
		for _, msg := range batch {
			if !c.writeLive(ctx, msg) {
				return false
			}
		}
	}
	return true
}

func (c *Conn) write(ctx context.Context, msg []byte) bool {
	wctx, cancel := context.WithTimeout(ctx, writeTimeout)
	err := c.ws.Write(wctx, websocket.MessageText, msg)
	cancel()
	if err != nil {
		c.close(websocket.StatusInternalError, "write failed")
		return false
	}
	mFanout.Inc()
	return true
}

// injectToken adds the connection's token (?token= or the token cookie) to a login payload that has none.
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
