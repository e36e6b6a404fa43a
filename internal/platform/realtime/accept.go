package realtime

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
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
	ic := &idleConn{Conn: conn, r: conn, raw: rawConnOf(conn)}
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

// idleConn is the socket as the WebSocket library reads and writes it, with two more ways in:
//   - waitData parks the connection's reading goroutine until a byte arrives, a few calls deep instead of at the
//     bottom of the library's read path, so that the runtime can shrink the idle goroutine's stack to 4 KiB (it
//     shrinks a stack only while less than a quarter of it is in use). Reads are serialised: the library's close
//     handshake may read on another goroutine.
//   - tryWrite writes a whole frame without waiting, from the goroutine that queued it (Conn.writeDirect): what
//     the socket does not take at once is kept, and goes out before any other byte, the library's included.
type idleConn struct {
	net.Conn
	r   io.Reader     // the socket, after what the HTTP server had buffered
	br  *bufio.Reader // the library's reader over this connection: waitData must not wait while it holds a frame
	mu  sync.Mutex
	b   [1]byte
	has bool // b holds the byte waitData read

	raw  syscall.RawConn // the socket's descriptor for tryWrite; nil when there is none (TLS): no direct writes
	wmu  sync.Mutex      // one write at a time: tryWrite, flushRest and the library's (control frames, the close)
	rest []byte          // the end of a frame tryWrite could not finish (wmu)
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

// Write is the library's: the rest of a frame tryWrite began goes first.
func (c *idleConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.flushRestLocked(); err != nil {
		return 0, err
	}
	return c.Conn.Write(p)
}

// tryWrite writes the frame b if the socket takes it without waiting; all is false when some of it is left for
// flushRest (b is not kept: its rest is copied).
func (c *idleConn) tryWrite(b []byte) (all bool, err error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	n := 0
	if len(c.rest) == 0 {
		if n, err = writeNow(c.raw, b); err != nil {
			return false, err
		}
		if n == len(b) {
			return true, nil
		}
	}
	c.rest = append(c.rest, b[n:]...)
	return false, nil
}

// flushRest writes what tryWrite left, waiting at most d for the client to read it.
func (c *idleConn) flushRest(d time.Duration) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if len(c.rest) == 0 {
		return nil
	}
	_ = c.Conn.SetWriteDeadline(time.Now().Add(d))
	err := c.flushRestLocked()
	_ = c.Conn.SetWriteDeadline(time.Time{})
	return err
}

func (c *idleConn) flushRestLocked() error {
	if len(c.rest) == 0 {
		return nil
	}
	_, err := c.Conn.Write(c.rest)
	c.rest = nil
	return err
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
