package testkit

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// RawSocket is a WebSocket without the socket framing: it writes whatever bytes a test likes and reads each
// message as it comes, for tests of what a server does with malformed, oversized or too many messages (Socket
// speaks only well-formed frames).
type RawSocket struct {
	ws *websocket.Conn
}

// DialRaw opens a raw socket at url (ws://…; wsclient.URL makes the socket URL of a server's base URL), dropped
// when the test ends.
func DialRaw(t testing.TB, url string) *RawSocket {
	t.Helper()
	r := DialRawKept(t, url)
	t.Cleanup(r.CloseNow)
	return r
}

// DialRawKept is DialRaw for a connection that outlives the test (a fuzz run's, kept across its inputs): its
// owner drops it.
func DialRawKept(t testing.TB, url string) *RawSocket {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	return &RawSocket{ws: ws}
}

// Send writes one message of a type (websocket.MessageText or MessageBinary) as it is, within 5 s; the error is
// the test's to judge (the server may have closed the connection).
func (r *RawSocket) Send(typ websocket.MessageType, b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return r.ws.Write(ctx, typ, b)
}

// Read reads the next message within timeout; after the server closes the connection, websocket.CloseStatus of
// the error is its close code.
func (r *RawSocket) Read(timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, b, err := r.ws.Read(ctx)
	return b, err
}

// CloseNow drops the connection without the closing handshake.
func (r *RawSocket) CloseNow() { r.ws.CloseNow() }
