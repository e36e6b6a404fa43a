package realtime

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
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
// server's (which then go away with the HTTP request).
type smallBuffers struct{ http.ResponseWriter }

func (w smallBuffers) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil { // anything the HTTP server still holds goes out first
		conn.Close()
		return nil, nil, err
	}
	// Bytes the client sent right after its upgrade request (its first frame) may already sit in the server's
	// reader: the connection returns them first.
	if n := brw.Reader.Buffered(); n > 0 {
		b, _ := brw.Reader.Peek(n)
		conn = &prefixConn{Conn: conn, r: io.MultiReader(bytes.NewReader(bytes.Clone(b)), conn)}
	}
	return conn, bufio.NewReadWriter(bufio.NewReaderSize(conn, readBufSize), bufio.NewWriterSize(conn, writeBufSize)), nil
}

// prefixConn reads what the HTTP server had buffered before the connection itself.
type prefixConn struct {
	net.Conn
	r io.Reader
}

func (c *prefixConn) Read(p []byte) (int, error) { return c.r.Read(p) }
