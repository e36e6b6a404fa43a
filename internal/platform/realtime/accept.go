package realtime

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"sync"
)

// Buffer sizes of a connection's WebSocket reader and writer. The library keeps the bufio pair it gets from
// the hijacked HTTP connection for the connection's lifetime: the server's are 4 KiB each, 8 KiB per terminal
// that mostly sends and receives frames of a few hundred bytes. A frame larger than the buffer costs one more
// read or write call, nothing else (docs/performance.md, "memory per connection").
const (
	readBufSize  = 512
	writeBufSize = 512
)

// smallBuffers hands websocket.Accept a hijacked connection with small bufio buffers instead of the HTTP
// server's (which then go away with the HTTP request); conn is the connection it handed over.
type smallBuffers struct {
	http.ResponseWriter
	conn *idleConn
}

func (w *smallBuffers) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil { // anything the HTTP server still holds goes out first
		conn.Close()
		return nil, nil, err
	}
	ic := &idleConn{Conn: conn, r: conn}
	// Bytes the client sent right after its upgrade request (its first frame) may already sit in the server's
	// reader: the connection returns them first.
	if n := brw.Reader.Buffered(); n > 0 {
		b, _ := brw.Reader.Peek(n)
		ic.r = io.MultiReader(bytes.NewReader(bytes.Clone(b)), conn)
	}
	ic.br = bufio.NewReaderSize(ic, readBufSize)
	w.conn = ic
	return ic, bufio.NewReadWriter(ic.br, bufio.NewWriterSize(ic, writeBufSize)), nil
}

// idleConn is the socket as the WebSocket library reads it, with one more way in: waitData parks the
// connection's reading goroutine until a byte arrives, a few calls deep instead of at the bottom of the
// library's read path, so that the runtime can shrink the idle goroutine's stack to 4 KiB (it shrinks a stack
// only while less than a quarter of it is in use). Reads are serialised: the library's close handshake may read
// on another goroutine.
type idleConn struct {
	net.Conn
	r   io.Reader     // the socket, after what the HTTP server had buffered
	br  *bufio.Reader // the library's reader over this connection: waitData must not wait while it holds a frame
	mu  sync.Mutex
	b   [1]byte
	has bool // b holds the byte waitData read
	// gate orders the reader's look at br (Conn.waitIdle) and the close handshake, which reads br on another
	// goroutine (Conn.close) once closing is set.
	gate    sync.Mutex
	closing bool
}

func (c *idleConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.has || len(p) == 0 {
		return c.r.Read(p)
	}
	p[0], c.has = c.b[0], false
	if len(p) == 1 {
		return 1, nil
	}
	// A frame is at least two bytes: the rest of this one is on its way.
	n, err := c.r.Read(p[1:])
	return n + 1, err
}

// waitData blocks until the socket has data (or fails).
func (c *idleConn) waitData() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.has {
		return nil
	}
	n, err := c.r.Read(c.b[:])
	if n == 1 {
		c.has = true
		return nil
	}
	return err
}
