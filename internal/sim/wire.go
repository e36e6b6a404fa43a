package sim

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// wire is the simulator's socket connection (docs/terminal-protocol.md framing). It differs from
// termclient.Client on purpose: replies go to callbacks instead of a waiting goroutine, and events and
// server→client requests go to one handler instead of a growing list, so 10,000 of them stay cheap (one
// reader goroutine each, nothing kept).
type wire struct {
	ws     *websocket.Conn
	nextID atomic.Int64
	closed chan struct{}

	mu      sync.Mutex
	pending map[int64]func(frame)
	err     error
}

// frame is one socket message.
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

// ok tells a successful reply.
func (f frame) ok() bool { return f.Code == "" || f.Code == "0" }

// codeError is a refused request.
type codeError struct {
	typ, code, msg string
}

func (e *codeError) Error() string { return e.typ + ": code " + e.code + ": " + e.msg }

// errCode returns the server's code of a refused request, "" for nil and "?" for other errors.
func errCode(err error) string {
	if err == nil {
		return ""
	}
	var ce *codeError
	if errors.As(err, &ce) {
		return ce.code
	}
	return "?"
}

var errWireClosed = errors.New("sim: connection closed")

// wsURL turns a server base URL into its socket URL.
func wsURL(base string) string {
	u := strings.TrimSuffix(base, "/")
	return "ws" + strings.TrimPrefix(u, "http") + "/ds/ws"
}

// httpClient is the client used for the socket upgrade and the console sign-in; insecure accepts any
// certificate (a self-signed server on this machine).
func httpClient(insecure bool) *http.Client {
	if !insecure {
		return &http.Client{Timeout: 30 * time.Second}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // opt-in, for self-signed servers
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// dialWire opens the socket; handle receives every event and server→client request, on the reader goroutine,
// in order. done runs once when the connection ends.
func dialWire(ctx context.Context, base string, hc *http.Client, handle func(*wire, frame), done func(error)) (*wire, error) {
	ws, _, err := websocket.Dial(ctx, wsURL(base), &websocket.DialOptions{HTTPClient: hc,
		CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 20)
	w := &wire{ws: ws, closed: make(chan struct{}), pending: map[int64]func(frame){}}
	go w.readLoop(handle, done)
	return w, nil
}

func (w *wire) readLoop(handle func(*wire, frame), done func(error)) {
	var err error
	defer func() {
		w.mu.Lock()
		w.err = err
		pending := w.pending
		w.pending = map[int64]func(frame){}
		w.mu.Unlock()
		close(w.closed)
		// Callbacks of requests that will never be answered learn it (code "closed").
		for _, cb := range pending {
			cb(frame{Code: "closed", Msg: "connection closed"})
		}
		if done != nil {
			done(err)
		}
	}()
	for {
		var b []byte
		_, b, err = w.ws.Read(context.Background())
		if err != nil {
			return
		}
		var f frame
		if json.Unmarshal(b, &f) != nil {
			continue
		}
		if f.Re != 0 {
			w.mu.Lock()
			cb := w.pending[f.Re]
			delete(w.pending, f.Re)
			w.mu.Unlock()
			if cb != nil {
				cb(f)
			}
			continue
		}
		handle(w, f)
	}
}

// write sends a frame (the WebSocket serialises concurrent writers).
func (w *wire) write(f frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return w.ws.Write(ctx, websocket.MessageText, b)
}

// request sends a request; cb (may be nil) gets its reply, or a frame with code "closed" if the connection
// ends first.
func (w *wire) request(typ string, data any, cb func(frame)) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	id := w.nextID.Add(1)
	if cb != nil {
		w.mu.Lock()
		if w.pending == nil || isClosed(w.closed) {
			w.mu.Unlock()
			return errWireClosed
		}
		w.pending[id] = cb
		w.mu.Unlock()
	}
	if err := w.write(frame{ID: id, Type: typ, Data: raw}); err != nil {
		w.mu.Lock()
		delete(w.pending, id)
		w.mu.Unlock()
		return err
	}
	return nil
}

// call sends a request and waits for its reply; out (may be nil) gets the reply data.
func (w *wire) call(ctx context.Context, typ string, data any, out any) error {
	ch := make(chan frame, 1)
	if err := w.request(typ, data, func(f frame) { ch <- f }); err != nil {
		return err
	}
	select {
	case f := <-ch:
		if f.Code == "closed" {
			return errWireClosed
		}
		if !f.ok() {
			return &codeError{typ: typ, code: f.Code, msg: f.Msg}
		}
		if out != nil && len(f.Data) > 0 {
			return json.Unmarshal(f.Data, out)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("sim: %s: %w", typ, ctx.Err())
	}
}

// reply answers a server→client request.
func (w *wire) reply(req frame, code string, data any) error {
	var raw json.RawMessage
	if data != nil {
		raw, _ = json.Marshal(data)
	}
	return w.write(frame{Re: req.ID, Type: req.Type, Code: code, Data: raw})
}

// close ends the connection (normal closure).
func (w *wire) close() { _ = w.ws.Close(websocket.StatusNormalClosure, "") }

// closeNow drops the connection without the closing handshake (a terminal losing its network).
func (w *wire) closeNow() { _ = w.ws.CloseNow() }

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
