package httpx

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// The server's connection limits (serve --body-timeout, --body-min-rate-kb, --conns-per-ip; docs/security.md).
// Without them a body trickled one byte every 3 s held its connection forever, sign-in and upload included,
// and 300 such connections from one address all stayed open (issue 14 M5).
var (
	mSlowBodies = promauto.NewCounter(prometheus.CounterOpts{Name: "tenfour_http_slow_bodies_total",
		Help: "Requests whose body arrived slower than the minimum rate (read deadline passed; the connection is closed)."})
	mConnsRefused = promauto.NewCounter(prometheus.CounterOpts{Name: "tenfour_http_conns_refused_total",
		Help: "TCP connections closed at once because their address had --conns-per-ip open already."})
)

// ErrBodyTimeout answers a request whose body did not arrive in time (BodyDeadline); the connection closes.
var ErrBodyTimeout = E(http.StatusRequestTimeout, "408", "errors.timeout", "request body too slow")

// BodyDeadline bounds how long a request body may take: grace plus one second per minRate bytes read so far
// (bytes per second), so a JSON call must arrive within about grace and a large upload may take as long as it
// keeps at least minRate, while a trickle of a byte every few seconds is cut after grace. The deadline is the
// connection's read deadline (http.ResponseController), moved on as bytes arrive and lifted once the body has
// been read, so a handler that runs long afterwards is not cancelled by it; requests without a body (GET, the
// WebSocket upgrade) are not touched, so upgraded sockets never see it.
func BodyDeadline(grace time.Duration, minRate int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		start := time.Now()
		if rc.SetReadDeadline(start.Add(grace)) == nil {
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc, start: start, grace: grace, minRate: minRate}
		}
		next.ServeHTTP(w, r)
	})
}

type deadlineBody struct {
	io.ReadCloser
	rc      *http.ResponseController
	start   time.Time
	grace   time.Duration
	minRate int64
	n       int64
	done    bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.done {
		return n, err
	}
	b.n += int64(n)
	switch {
	case errors.Is(err, io.EOF):
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{}) // the body is in: what runs next has no read deadline
	case isTimeout(err):
		b.done = true
		mSlowBodies.Inc()
		return n, ErrBodyTimeout
	case n > 0:
		allowance := time.Duration(float64(b.n) / float64(b.minRate) * float64(time.Second)) // no overflow at TB sizes
		_ = b.rc.SetReadDeadline(b.start.Add(b.grace + allowance))
	}
	return n, err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// LimitPerIP closes, as soon as they are accepted, connections from an address that has max open already
// (max ≤ 0: no limit). The cap is on TCP peers: a trusted reverse proxy (exempt) carries many clients and is
// not capped, nor is anything it forwards; behind a proxy, put the per-client cap there. Closed connections
// are counted in tenfour_http_conns_refused_total.
func LimitPerIP(ln net.Listener, max int, exempt []netip.Prefix) net.Listener {
	if max <= 0 {
		return ln
	}
	return &perIPListener{Listener: ln, max: max, exempt: exempt, open: map[netip.Addr]int{}}
}

type perIPListener struct {
	net.Listener
	max    int
	exempt []netip.Prefix

	mu   sync.Mutex
	open map[netip.Addr]int
}

func (l *perIPListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ap, perr := netip.ParseAddrPort(c.RemoteAddr().String())
		if perr != nil || l.isExempt(ap.Addr().Unmap()) {
			return c, nil
		}
		a := ap.Addr().Unmap()
		l.mu.Lock()
		if l.open[a] >= l.max {
			l.mu.Unlock()
			mConnsRefused.Inc()
			c.Close()
			continue
		}
		l.open[a]++
		l.mu.Unlock()
		return &countedConn{Conn: c, release: func() { l.release(a) }}, nil
	}
}

func (l *perIPListener) isExempt(a netip.Addr) bool {
	for _, p := range l.exempt {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func (l *perIPListener) release(a netip.Addr) {
	l.mu.Lock()
	if l.open[a]--; l.open[a] <= 0 {
		delete(l.open, a)
	}
	l.mu.Unlock()
}

// countedConn gives its address's slot back when closed (once, however often Close is called).
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
