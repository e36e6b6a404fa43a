package bench

import (
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"time"
)

// DelayProxy is a TCP proxy that holds every chunk it relays for a fixed one-way delay in each direction, so a
// client connecting through it sees a round trip of twice that delay on top of loopback. It stands in for
// `tc netem` where the kernel lacks sch_netem: chunks keep their order and their spacing, and nothing is
// throttled (a wide-area round trip). Impair adds loss and Stall a silent partition, for the chaos lab
// (internal/chaos).
type DelayProxy struct {
	ln     net.Listener
	target string
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool

	delay  time.Duration // under mu, as the rest below
	loss   float64       // the share of chunks lost once (Impair)
	rng    *rand.Rand    // which chunks are lost: seeded, so a run repeats
	resume chan struct{} // non-nil while stalled; closed by Stall(false) or Close
}

// NewDelayProxy listens on a free loopback port and relays to target with delay each way.
func NewDelayProxy(target string, delay time.Duration) (*DelayProxy, error) {
	return NewDelayProxyOn("127.0.0.1:0", target, delay)
}

// NewDelayProxyOn listens on addr (host:port; port 0 for a free one) and relays to target with delay each way.
func NewDelayProxyOn(addr, target string, delay time.Duration) (*DelayProxy, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	p := &DelayProxy{ln: ln, target: target, delay: delay, conns: map[net.Conn]struct{}{}, rng: rand.New(rand.NewPCG(0, 0))}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Impair sets the one-way delay and the loss of every chunk relayed from now on, loss chosen by seed. TCP cannot
// lose bytes (the proxy's own sockets would retransmit them), so a lost chunk arrives as a retransmitted one
// does on a real link: one retransmission timeout late (RTO, 200 ms at least, as Linux's minimum, and at least
// twice the round trip), and every chunk behind it waits for it (head-of-line blocking). Impair(0, 0, _) is a
// clean link again.
func (p *DelayProxy) Impair(delay time.Duration, loss float64, seed uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.delay, p.loss, p.rng = delay, loss, rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
}

// Stall holds every chunk in both directions, connections open, until Stall(false): a partition where nobody is
// told (the peers' writes fill the socket buffers and then block; nothing is reset). The chunks held are
// relayed on resume, as TCP retransmits them after a short cut.
func (p *DelayProxy) Stall(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case on && p.resume == nil:
		p.resume = make(chan struct{})
	case !on && p.resume != nil:
		close(p.resume)
		p.resume = nil
	}
}

// due is when a chunk read now is written, by the link's delay and loss of the moment.
func (p *DelayProxy) due() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	at := time.Now().Add(p.delay)
	if p.loss > 0 && p.rng.Float64() < p.loss {
		at = at.Add(max(200*time.Millisecond, 4*p.delay)) // RTO ≥ 200 ms and ≥ 2 × the round trip
	}
	return at
}

// held waits while the proxy is stalled; false once it is closed.
func (p *DelayProxy) held() bool {
	p.mu.Lock()
	ch, closed := p.resume, p.closed
	p.mu.Unlock()
	if ch != nil {
		<-ch
	}
	return !closed
}

// Addr is the proxy's listening address (host:port).
func (p *DelayProxy) Addr() string { return p.ln.Addr().String() }

// Close stops listening and closes every relayed connection.
func (p *DelayProxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	p.closed = true
	if p.resume != nil {
		close(p.resume)
		p.resume = nil
	}
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

// pipe relays src → dst, each chunk written when due (its delay, and a retransmission when lost) and not while
// stalled.
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
			if !p.held() {
				src.Close()
				for range q { // drain
				}
				return
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
			q <- chunk{b: append([]byte(nil), buf[:n]...), at: p.due()}
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
