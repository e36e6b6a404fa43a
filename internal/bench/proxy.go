package bench

import (
	"io"
	"net"
	"sync"
	"time"
)

// DelayProxy is a TCP proxy that holds every chunk it relays for a fixed one-way delay in each direction, so a
// client connecting through it sees a round trip of twice that delay on top of loopback. It stands in for
// `tc netem` where the kernel lacks sch_netem: chunks keep their order and their spacing, and nothing is
// throttled or dropped (a wide-area round trip, not a lossy link).
type DelayProxy struct {
	ln     net.Listener
	target string
	delay  time.Duration
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

// NewDelayProxy listens on a free loopback port and relays to target with delay each way.
func NewDelayProxy(target string, delay time.Duration) (*DelayProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &DelayProxy{ln: ln, target: target, delay: delay, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's listening address (host:port).
func (p *DelayProxy) Addr() string { return p.ln.Addr().String() }

// Close stops listening and closes every relayed connection.
func (p *DelayProxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}

func (p *DelayProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *DelayProxy) accept() {
	defer p.wg.Done()
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		if !p.track(in) || !p.track(out) {
			in.Close()
			out.Close()
			continue
		}
		for _, c := range []net.Conn{in, out} {
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetNoDelay(true)
			}
		}
		p.wg.Add(2)
		go p.pipe(in, out)
		go p.pipe(out, in)
	}
}

type chunk struct {
	b  []byte
	at time.Time // when to write it
}

// pipe relays src → dst, each chunk written delay after it was read.
func (p *DelayProxy) pipe(src, dst net.Conn) {
	defer p.wg.Done()
	q := make(chan chunk, 4096)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for c := range q {
			if d := time.Until(c.at); d > 0 {
				time.Sleep(d)
			}
			if _, err := dst.Write(c.b); err != nil {
				src.Close()
				for range q { // drain
				}
				return
			}
		}
		if tc, ok := dst.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		} else {
			dst.Close()
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			q <- chunk{b: append([]byte(nil), buf[:n]...), at: time.Now().Add(p.delay)}
		}
		if err != nil {
			if err != io.EOF {
				dst.Close()
			}
			break
		}
	}
	close(q)
	<-done
}
