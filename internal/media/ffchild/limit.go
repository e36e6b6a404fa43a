package ffchild

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"tenfour/internal/platform/defaults"
)

// ErrBusy: no ffmpeg slot came free within the queue's wait (each domain answers its coded "system busy", 101).
var ErrBusy = errors.New("ffchild: too much ffmpeg work queued")

// Limits bound the ffmpeg work clients ask for (snapshots, upload transcodes; docs/adr/0030): at most Server
// children at once on this server, at most PerCustomer of them for one customer, and a request waits at most
// Wait for both before it is answered busy. Camera pulls are not counted: each customer has at most
// --camera-max of them, and they last.
type Limits struct {
	Server      int
	PerCustomer int
	Wait        time.Duration
}

// DefaultLimits: one child per CPU (a transcode or a decode keeps one core busy), half of them for one customer
// (at least one), so another customer always finds a slot; a 10 s queue.
func DefaultLimits() Limits {
	n := max(runtime.NumCPU(), 2)
	return Limits{Server: n, PerCustomer: max(1, n/2), Wait: 10 * time.Second}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	defaults.Positive(&l.Server, d.Server)
	defaults.Positive(&l.PerCustomer, max(1, l.Server/2))
	l.PerCustomer = min(l.PerCustomer, l.Server)
	defaults.Positive(&l.Wait, d.Wait)
	return l
}

// Limiter hands out ffmpeg slots per server and per customer; one Limiter serves every domain.
type Limiter struct {
	lim     Limits
	server  chan struct{}
	mu      sync.Mutex
	custs   map[int64]*custSlots
	running atomic.Int64
	refused atomic.Int64
}

type custSlots struct {
	sem  chan struct{}
	refs int // holders and waiters
}

// NewLimiter makes a limiter (zero fields of l take DefaultLimits).
func NewLimiter(l Limits) *Limiter {
	l = l.withDefaults()
	return &Limiter{lim: l, server: make(chan struct{}, l.Server), custs: map[int64]*custSlots{}}
}

// Running is how many slots are held now; Refused how many requests were answered ErrBusy so far.
func (l *Limiter) Running() int64 { return l.running.Load() }

// Refused is how many requests waited Wait in vain.
func (l *Limiter) Refused() int64 { return l.refused.Load() }

// Acquire waits for a slot of the customer and one of the server, at most Wait in all; ErrBusy after that, the
// context's error if it ends first. release gives both back (once).
func (l *Limiter) Acquire(ctx context.Context, customer int64) (release func(), err error) {
	timer := time.NewTimer(l.lim.Wait)
	defer timer.Stop()
	c := l.join(customer)
	select {
	case c.sem <- struct{}{}:
	case <-timer.C:
		l.leave(customer, c)
		l.refused.Add(1)
		return nil, ErrBusy
	case <-ctx.Done():
		l.leave(customer, c)
		return nil, ctx.Err()
	}
	select {
	case l.server <- struct{}{}:
	case <-timer.C:
		<-c.sem
		l.leave(customer, c)
		l.refused.Add(1)
		return nil, ErrBusy
	case <-ctx.Done():
		<-c.sem
		l.leave(customer, c)
		return nil, ctx.Err()
	}
	l.running.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			l.running.Add(-1)
			<-l.server
			<-c.sem
			l.leave(customer, c)
		})
	}, nil
}

func (l *Limiter) join(customer int64) *custSlots {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.custs[customer]
	if c == nil {
		c = &custSlots{sem: make(chan struct{}, l.lim.PerCustomer)}
		l.custs[customer] = c
	}
	c.refs++
	return c
}

func (l *Limiter) leave(customer int64, c *custSlots) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.refs--; c.refs == 0 {
		delete(l.custs, customer)
	}
}
