package sim

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"tenfour/internal/termclient"
)

// WebRTC is on demand: a terminal opens its PeerConnection (termclient.Media) only when it is about to talk,
// answers a call or is asked to monitor, and closes it after MediaIdle without use. An idle fleet of 10,000
// therefore holds a few dozen PeerConnections, not 10,000 (each is ~20 goroutines, DTLS state and, on the
// server, a forwarding target for every talk burst of its group). MaxMedia caps them: a terminal that finds
// no free slot does not talk this time, and answers a call "busy".

// mediaPool counts the fleet's PeerConnections against the cap.
type mediaPool struct {
	max  int32
	open atomic.Int32
}

func (p *mediaPool) reserve() bool {
	for {
		n := p.open.Load()
		if n >= p.max {
			return false
		}
		if p.open.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (p *mediaPool) release() { p.open.Add(-1) }

// sender is one microphone stream being played: a talk burst or a monitored terminal's ambient sound.
type sender struct {
	m       *termclient.Media
	packets [][]byte
	next    int
	loop    bool   // monitoring: repeat until stopped
	done    func() // runs (on a scheduler worker) when the packets ran out
	stopped atomic.Bool
	sent    atomic.Int64
}

func (s *sender) stop() { s.stopped.Store(true) }

// clock is the fleet's one 20 ms media clock: each tick it writes the next packet of every active sender, so
// 100 talkers cost one wake-up per packet time instead of 100 tickers.
type clock struct {
	sched *scheduler
	stats *Stats

	mu      sync.Mutex
	senders map[*sender]struct{}
	kick    chan struct{}
}

func newClock(s *scheduler, st *Stats) *clock {
	return &clock{sched: s, stats: st, senders: map[*sender]struct{}{}, kick: make(chan struct{}, 1)}
}

func (c *clock) add(s *sender) {
	c.mu.Lock()
	c.senders[s] = struct{}{}
	c.mu.Unlock()
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *clock) active() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.senders)
}

func (c *clock) run(ctx context.Context) {
	t := time.NewTicker(packetTime)
	defer t.Stop()
	var batch []*sender
	for {
		c.mu.Lock()
		idle := len(c.senders) == 0
		c.mu.Unlock()
		if idle { // sleep until someone talks
			select {
			case <-ctx.Done():
				return
			case <-c.kick:
			}
			t.Reset(packetTime)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		batch = batch[:0]
		c.mu.Lock()
		for s := range c.senders {
			batch = append(batch, s)
		}
		c.mu.Unlock()
		for _, s := range batch {
			if s.stopped.Load() {
				c.remove(s)
				continue
			}
			if s.next >= len(s.packets) {
				if !s.loop {
					c.remove(s)
					if s.done != nil {
						c.sched.after(0, s.done)
					}
					continue
				}
				s.next = 0
			}
			// One packet, no pacing inside: termclient.Media keeps sequence numbers and timestamps running.
			if err := s.m.Send(ctx, s.packets[s.next:s.next+1], 0); err != nil {
				s.stop()
			}
			s.next++
			s.sent.Add(1)
			c.stats.PacketsSent.Add(1)
		}
	}
}

func (c *clock) remove(s *sender) {
	c.mu.Lock()
	delete(c.senders, s)
	c.mu.Unlock()
}
