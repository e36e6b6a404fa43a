package realtime

import (
	"bytes"
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

// Conn is one socket client. Frames to it wait in a small queue that grows only as far as it is filled, and one
// writer at a time writes them to the WebSocket, in queue order (docs/performance.md, "memory per connection").
// The writer is first the goroutine that queued a frame to an idle connection: it writes what the socket takes
// at once (writeDirect), without a goroutine of its own. A connection whose client does not read fast enough
// gets a writer goroutine that waits for the socket (writeLoop) until its queue is empty. Pings run on a timer
// of their own.
type Conn struct {
	hub      *Hub
	ws       *websocket.Conn
	idle     *idleConn     // the socket under ws (nil in tests without one)
	done     chan struct{} // closed once the connection is closing: nothing more is queued or written
	ready    chan struct{} // closed once the login reply is queued
	once     sync.Once
	limiter  *rate.Limiter
	inflight atomic.Int32  // running request handlers (at most MaxInflight)
	arrived  atomic.Uint64 // requests read so far: the next one's Arrival
	closing  atomic.Bool   // a close after flush is under way: nothing more is read or answered
	wentAway atomic.Bool   // the client closed with 1001 (its page unloaded): see Hub.deferLogout
	console  atomic.Bool
	urlToken string
	ping     *time.Timer // the next keep-alive ping (pingEvery after the last one answered)

	// The outbound queue: q[qhead:] are the frames not yet taken by the writer (a nil entry asks the writer to
	// close after what precedes it), qbytes their size. A terminal that falls QueueLen frames behind is dropped
	// as a slow consumer (4008). A console may fall further behind for a moment (a login storm sends every
	// console a presence frame per terminal): up to QueueLen+ConsoleSpill frames, as long as the queue holds
	// at most ConsoleSpillBytes once it is past QueueLen. `sync` replays join the queue only while it is less
	// than half full (enqueuePaced), so a long backlog is paced by the client's reading speed.
	qmu     sync.Mutex
	q       [][]byte
	qhead   int
	qbytes  int
	writing bool          // a writer runs (writeDirect or writeLoop)
	room    chan struct{} // closed by the writer when the queue is below half again (a paced sender waits on it)
	onClose []func()      // AfterClose's functions (c.qmu)

	mu          sync.Mutex
	p           identity.Principal
	kind        Kind
	logged      bool
	replaced    bool
	pending     map[int64]chan Frame // made by the first server→client request
	flushCode   websocket.StatusCode
	flushReason string
}

func newConn(h *Hub, ws *websocket.Conn, urlToken string) *Conn {
	c := &Conn{
		hub: h, ws: ws, urlToken: urlToken,
		done:    make(chan struct{}),
		ready:   make(chan struct{}),
		limiter: rate.NewLimiter(RatePerSecond, RateBurst),
	}
	if ws != nil {
		c.ping = time.AfterFunc(pingEvery, c.keepAlive)
	}
	return c
}

// AfterClose runs fn on a goroutine of its own once the connection is closing (at once if it is already): a
// domain's clean-up for a connection, without a goroutine of its own waiting on Done for the connection's whole
// life (a connection's memory is mostly its goroutines' stacks: docs/performance.md).
func (c *Conn) AfterClose(fn func()) {
	c.qmu.Lock()
	select {
	case <-c.done:
		c.qmu.Unlock()
		go fn()
		return
	default:
	}
	c.onClose = append(c.onClose, fn)
	c.qmu.Unlock()
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
	if c.pending == nil {
		c.pending = map[int64]chan Frame{}
	}
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

// enqueue never blocks: a full queue means the client is too slow, and it is disconnected to resync. A frame to
// an idle connection is written before it returns, if the socket takes it at once.
func (c *Conn) enqueue(msg []byte) bool {
	ok, start := c.queue(msg)
	if start {
		c.startWriter(nil)
	}
	return ok
}

// queue is enqueue without starting the writer: start says the caller must (startWriter, or Hub.startWriters
// for many).
func (c *Conn) queue(msg []byte) (ok, start bool) {
	c.qmu.Lock()
	select {
	case <-c.done:
		c.qmu.Unlock()
		return false, false
	default:
	}
	if n := len(c.q) - c.qhead; n >= QueueLen && (!c.console.Load() || n >= QueueLen+ConsoleSpill ||
		c.qbytes+len(msg) > ConsoleSpillBytes) {
		c.qmu.Unlock()
		mSlow.Inc()
		c.close(CloseSlow, "slow consumer")
		return false, false
	}
	start = c.push(msg)
	c.qmu.Unlock()
	return true, start
}

// enqueuePaced queues msg once the queue is less than half full (a `sync` replay and its reply): it waits
// for the writer rather than filling the queue the live frames need.
func (c *Conn) enqueuePaced(ctx context.Context, msg []byte) error {
	for {
		c.qmu.Lock()
		select {
		case <-c.done:
			c.qmu.Unlock()
			return errClosed
		default:
		}
		if len(c.q)-c.qhead < QueueLen/2 {
			start := c.push(msg)
			c.qmu.Unlock()
			if start {
				c.startWriter(nil)
			}
			return nil
		}
		if c.room == nil {
			c.room = make(chan struct{})
		}
		room := c.room
		c.qmu.Unlock()
		select {
		case <-room:
		case <-c.done:
			return errClosed
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// push appends to the queue; c.qmu is held. start is true when no writer runs: the caller starts one once it has
// let go of c.qmu (startWriter).
func (c *Conn) push(msg []byte) (start bool) {
	if c.qhead > 0 && len(c.q) == cap(c.q) { // reuse the slots already written instead of growing
		n := copy(c.q, c.q[c.qhead:])
		clear(c.q[n:])
		c.q, c.qhead = c.q[:n], 0
	}
	c.q = append(c.q, msg)
	c.qbytes += len(msg)
	if !c.writing {
		c.writing = true
		return true
	}
	return false
}

// startWriter writes the queue: from this goroutine while the socket takes each frame at once, else on a writer
// goroutine. buf is scratch space for a frame (nil: one from the pool).
func (c *Conn) startWriter(buf *[]byte) {
	if c.idle == nil || c.idle.raw == nil {
		go c.writeLoop()
		return
	}
	if buf == nil {
		buf = frameBufs.Get().(*[]byte)
		defer frameBufs.Put(buf)
	}
	c.writeDirect(buf)
}

// next takes the writer's next frame; ok is false when the queue is empty, and the writer then ends (the
// queue's memory goes back unless it is small).
func (c *Conn) next() (msg []byte, ok bool) {
	c.qmu.Lock()
	defer c.qmu.Unlock()
	if c.qhead == len(c.q) {
		c.writing = false
		if cap(c.q) > keepQueue {
			c.q = nil
		} else {
			c.q = c.q[:0]
		}
		c.qhead = 0
		return nil, false
	}
	msg = c.q[c.qhead]
	c.q[c.qhead] = nil
	c.qhead++
	c.qbytes -= len(msg)
	if c.room != nil && len(c.q)-c.qhead < QueueLen/2 {
		close(c.room)
		c.room = nil
	}
	return msg, true
}

// keepQueue is the queue capacity a connection keeps between bursts; a larger one is let go when it drains.
const keepQueue = 8

// close ends the connection now: queued frames are dropped and the close handshake runs in the background.
func (c *Conn) close(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		c.qmu.Lock()
		close(c.done)
		clear(c.q) // queued frames are dropped: let them go now
		fns := c.onClose
		c.onClose = nil
		c.qmu.Unlock()
		if c.ping != nil {
			c.ping.Stop()
		}
		if len(fns) > 0 {
			go func() {
				for _, fn := range fns {
					fn()
				}
			}()
		}
		go func() {
			if ic := c.idle; ic != nil { // after the reader's look at the library's buffer (waitIdle)
				ic.gate.Lock()
				ic.closing = true
				ic.gate.Unlock()
			}
			_ = c.ws.Close(code, reason)
		}()
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
	c.qmu.Lock()
	start := false
	select {
	case <-c.done:
	default:
		start = c.push(nil) // the close mark: one entry past the bound at most (flushCode is set once)
	}
	c.qmu.Unlock()
	if start {
		c.startWriter(nil)
	}
}

// run is the connection's reading goroutine, its only long-lived one. Its stack is most of what an idle
// connection costs, so it stays short: the goroutine waits for the next frame at the bottom of a few calls
// (idleConn.waitData, not deep in the WebSocket library), reads the frame into a pooled buffer, and handles it on
// a goroutine of its own while it waits (decoding, the login and its hooks need a deep stack for a moment; the
// reader's would keep it). ctx carries no cancellation: every way a connection ends closes the WebSocket,
// which ends the read.
func (c *Conn) run(ctx context.Context) {
	loginDeadline := time.AfterFunc(c.hub.loginTimeout, func() {
		c.mu.Lock()
		logged := c.logged
		c.mu.Unlock()
		if !logged {
			c.close(websocket.StatusPolicyViolation, "login timeout")
		}
	})
	defer func() {
		if loginDeadline != nil {
			loginDeadline.Stop()
		}
	}()
	defer c.finish()
	done := make(chan struct{}, 1)
	for {
		if loginDeadline != nil && c.Kind() != "" { // logged in: the timer goes
			loginDeadline.Stop()
			loginDeadline = nil
		}
		c.waitIdle()
		buf, ok := c.readFrame(ctx)
		if !ok {
			return
		}
		go func() {
			c.handle(ctx, buf.Bytes())
			if buf.Cap() <= 2*MaxMessage {
				readBufs.Put(buf)
			}
			done <- struct{}{}
		}()
		<-done
	}
}

// waitIdle parks the reader until the next frame's first byte arrives, unless the library's reader holds
// one already (frames sent back to back) or the connection is closing.
func (c *Conn) waitIdle() {
	ic := c.idle
	if ic == nil {
		return
	}
	ic.gate.Lock()
	if ic.closing {
		ic.gate.Unlock()
		return
	}
	buffered := ic.br.Buffered() > 0
	ic.gate.Unlock()
	if !buffered {
		_ = ic.waitData() // an error is the library's to report, with the close status
	}
}

// readBufs hold a frame while it is read and handled; a connection keeps none between frames.
var readBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readFrame reads the next frame's bytes; ok is false once the connection is gone.
//
//go:noinline
func (c *Conn) readFrame(ctx context.Context) (*bytes.Buffer, bool) {
	_, r, err := c.ws.Reader(ctx)
	if err == nil {
		buf := readBufs.Get().(*bytes.Buffer)
		buf.Reset()
		if _, err = buf.ReadFrom(r); err == nil {
			return buf, true
		}
		readBufs.Put(buf)
	}
	c.wentAway.Store(websocket.CloseStatus(err) == websocket.StatusGoingAway)
	c.close(websocket.StatusNormalClosure, "")
	return nil, false
}

// handle decodes and answers one frame (on a goroutine of its own: see run).
func (c *Conn) handle(ctx context.Context, msg []byte) {
	if c.closing.Load() {
		return // e.g. more login attempts after a refused one
	}
	f, err := DecodeFrame(msg) // copies what it keeps
	if err != nil {
		if c.limiter.Allow() {
			c.reply(Frame{ID: f.ID, Type: "error"}, nil, err)
		}
		return
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
		return
	}
	if !c.limiter.Allow() {
		c.reply(f, nil, httpx.ErrTooFast)
		return
	}
	c.dispatch(ctx, f)
}

type requestKey struct{}

// request is what a handler's context knows of the socket request it runs for: its place among its connection's
// requests (Arrival) and its reply, written once — by Answer, or when the handler returns.
type request struct {
	c       *Conn
	f       Frame
	arrival uint64
	sent    atomic.Bool
}

// Answer writes the reply of the request the handler of ctx runs for now, instead of when the handler returns
// (what it then returns is not sent). A handler whose reply must reach the client before an event that may follow
// at once writes it while it holds the lock those events are sent under: the floor answers a press "granted"
// under the lock its revocations are sent under, so no revocation of that grant overtakes it (internal/call).
// False outside a socket handler (the caller's return is then the reply) or when the request was answered already.
func Answer(ctx context.Context, res any, err error) bool {
	r, _ := ctx.Value(requestKey{}).(*request)
	if r == nil || r.sent.Swap(true) {
		return false
	}
	r.c.reply(r.f, res, err)
	return true
}

// Arrival is the place of the request a handler runs for among its connection's requests, in the order they
// were read (1, 2, …; 0 outside a socket handler). A connection's handlers run concurrently: a request read after
// another may be handled first (the floor: a release that crossed its press, internal/call).
func Arrival(ctx context.Context) uint64 {
	if r, _ := ctx.Value(requestKey{}).(*request); r != nil {
		return r.arrival
	}
	return 0
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
	if c.inflight.Add(1) > MaxInflight {
		c.inflight.Add(-1)
		c.reply(f, nil, httpx.ErrTooFast)
		return
	}
	// Handlers may wait on a terminal's acknowledgement (seconds); they run off the read loop so the connection
	// keeps reading replies meanwhile. At most MaxInflight per connection, and the rate limit bounds them further.
	// They may so finish in another order than their requests came: Arrival tells the order.
	arrival := c.arrived.Add(1)
	c.hub.wg.Add(1)
	go func() {
		defer c.hub.wg.Done()
		defer c.inflight.Add(-1)
		req := &request{c: c, f: f, arrival: arrival}
		hctx, cancel := context.WithTimeout(context.WithValue(identity.With(context.WithoutCancel(ctx), c.Principal()),
			requestKey{}, req), HandlerTimeout)
		defer cancel()
		if f.Type == "sync" {
			res, err := c.sync(hctx, f.Data)
			c.replyVia(hctx, f, res, err, true)
			return
		}
		res, err := c.call(hctx, h, f)
		if !req.sent.Swap(true) { // not answered early (Answer)
			c.reply(f, res, err)
		}
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

func (c *Conn) reply(req Frame, res any, err error) {
	c.replyVia(context.Background(), req, res, err, false)
}

// replyVia answers req; viaReplay sends the answer behind the frames a `sync` is replaying, paced as they are.
func (c *Conn) replyVia(ctx context.Context, req Frame, res any, err error, viaReplay bool) {
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
		_ = c.enqueuePaced(ctx, msg)
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
	// Nodes are the public base URLs of a cluster's live nodes, this one first (absent on a node alone): the
	// client moves to the next of them when its node stops answering (docs/terminal-protocol.md "Login").
	Nodes []string `json:"nodes,omitempty"`
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
	by := Replaced{MsID: p.AccountID, IP: httpx.ClientIPFrom(ctx), Time: time.Now().UnixMilli()}
	for _, old := range replaced {
		_ = old.Send(EventReplaced, by)
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
	if c.hub.bus != nil {
		reply.Nodes = c.hub.bus.Nodes()
	}
	c.reply(f, reply, nil)
	close(c.ready)
}

// sync replays durable events after `after` through enqueuePaced, so a long backlog is paced by the client's
// reading speed instead of overflowing the live queue.
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
			if err := c.enqueuePaced(ctx, msg); err != nil {
				return nil, err
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
	replaced = replaced || c.hub.Held(c.Principal().AccountID) // held online by another way in (Hub.Hold)
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

// writeDirect writes the queued frames in order, each with one write(2) that does not wait; the first one the
// socket does not take whole (the client is behind) goes, with the rest of the queue, to writeLoop.
func (c *Conn) writeDirect(buf *[]byte) {
	for {
		msg, ok := c.take()
		if !ok {
			return
		}
		*buf = appendTextFrame((*buf)[:0], msg)
		all, err := c.idle.tryWrite(*buf)
		if cap(*buf) > maxFrameBuf {
			*buf = nil
		}
		if err != nil {
			c.close(websocket.StatusInternalError, "write failed")
			continue
		}
		mFanout.Inc()
		if !all {
			waitedWrites.Add(1)
			go c.writeLoop()
			return
		}
	}
}

// writeLoop writes the queued frames in order, waiting for the socket, and ends when the queue is empty. It
// first finishes the frame writeDirect began.
func (c *Conn) writeLoop() {
	if c.idle != nil {
		if err := c.idle.flushRest(writeTimeout); err != nil {
			c.close(websocket.StatusInternalError, "write failed")
		}
	}
	for {
		msg, ok := c.take()
		if !ok {
			return
		}
		c.write(msg) // a failed write closes the connection: the next take ends the writer
	}
}

// take is a writer's next frame; ok is false when the writer ends: the queue is empty, or the connection is
// closing (nothing more is written, even if frames are still queued). The close-after-flush mark closes the
// connection here, once everything queued before it has been written.
func (c *Conn) take() (msg []byte, ok bool) {
	for {
		select {
		case <-c.done:
			c.qmu.Lock()
			c.writing = false
			c.qmu.Unlock()
			return nil, false
		default:
		}
		if msg, ok = c.next(); !ok || msg != nil {
			return msg, ok
		}
		c.mu.Lock()
		code, reason := c.flushCode, c.flushReason
		c.mu.Unlock()
		c.close(code, reason)
	}
}

// write writes one frame through the library, waiting for the socket at most writeTimeout; a failed write closes
// the connection.
func (c *Conn) write(msg []byte) {
	wctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	err := c.ws.Write(wctx, websocket.MessageText, msg)
	cancel()
	if err != nil {
		c.close(websocket.StatusInternalError, "write failed")
		return
	}
	mFanout.Inc()
}

// keepAlive pings the client (on the ping timer's own goroutine; the reader takes the pong) and arms the next
// ping; a client that does not answer within writeTimeout is closed.
func (c *Conn) keepAlive() {
	pctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	err := c.ws.Ping(pctx)
	cancel()
	select {
	case <-c.done:
		return
	default:
	}
	if err != nil {
		c.close(websocket.StatusGoingAway, "ping timeout")
		return
	}
	c.ping.Reset(pingEvery)
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
