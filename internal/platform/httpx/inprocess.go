package httpx

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// InProcessAddr is the client address (ClientIP, ClientIPFrom) of every request that came through an
// InProcessListener. It is not an IP address, so no peer on the network can have it and no proxy header can
// claim it (RealIP only accepts parsed addresses): the sign-in throttle may trust it (docs/adr/0008).
const InProcessAddr = "in-process"

// InProcessListener is a listener that only this process can connect to: it has no port and no path, its
// connections are socket pairs handed over in memory. Clients that run inside the server — serve --demo's
// fleet and speakers — reach the node's handler through it (Client), and the handler sees them as
// InProcessAddr instead of 127.0.0.1, which any local process could be.
type InProcessListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// NewInProcessListener makes a listener; serve it with an http.Server and close it when done.
func NewInProcessListener() *InProcessListener {
	return &InProcessListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept waits for the next in-process connection.
func (l *InProcessListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept and DialContext; connections already made stay open.
func (l *InProcessListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is InProcessAddr.
func (l *InProcessListener) Addr() net.Addr { return inProcessAddr{} }

// DialContext connects to the listener, whatever network and address it is asked for; it waits for Accept.
func (l *InProcessListener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server, err := connPair()
	if err != nil {
		return nil, err
	}
	select {
	case l.conns <- inProcessConn{server}:
		return client, nil
	case <-ctx.Done():
		err = ctx.Err()
	case <-l.done:
		err = net.ErrClosed
	}
	client.Close()
	server.Close()
	return nil, err
}

// Client is an HTTP client (and WebSocket dialer) whose every request goes to the listener, whatever host
// its URL names, over plain HTTP: an https or wss URL (a server with TLS) is asked as http.
func (l *InProcessListener) Client(timeout time.Duration) *http.Client {
	tr := &http.Transport{DialContext: l.DialContext, MaxIdleConns: 256, MaxIdleConnsPerHost: 256,
		IdleConnTimeout: 90 * time.Second}
	return &http.Client{Transport: plainHTTP{tr}, Timeout: timeout}
}

// plainHTTP asks every request over http: the in-process listener has no TLS, and needs none.
type plainHTTP struct{ next http.RoundTripper }

func (p plainHTTP) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Scheme == "http" {
		return p.next.RoundTrip(r)
	}
	r2 := r.Clone(r.Context())
	r2.URL.Scheme = "http"
	return p.next.RoundTrip(r2)
}

// inProcessConn is the server's end of an in-process connection: its peer is InProcessAddr. It keeps the
// socket's descriptor (SyscallConn) so the socket hub writes to it as to a TCP connection.
type inProcessConn struct{ net.Conn }

func (inProcessConn) RemoteAddr() net.Addr { return inProcessAddr{} }

var errNoDescriptor = errors.New("httpx: in-process connection without a descriptor")

func (c inProcessConn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errNoDescriptor
}

type inProcessAddr struct{}

func (inProcessAddr) Network() string { return InProcessAddr }
func (inProcessAddr) String() string  { return InProcessAddr }
