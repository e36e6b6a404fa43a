package realtime

import (
	"context"
	"sync"
)

// MaxParallelAsks bounds the acknowledgements one fan-out (a group message, a tone to a group) waits on at once.
const MaxParallelAsks = 64

// AskEach runs ask for every terminal of ids that is online on this node or, in a cluster, on another one (a Peer), at most MaxParallelAsks at once and
// all under one deadline (AckTimeout from now), so a large group still answers within the console's wait. It
// returns one error per id, in order: ErrNotOnline for a terminal without a connection, ErrTimeout for one
// whose turn came after the deadline, else what ask returned (nil: acknowledged); how many were online and
// how many acknowledged.
func (h *Hub) AskEach(ctx context.Context, customerID int64, ids []string,
	ask func(ctx context.Context, c Peer) error) (errs []error, online, acked int) {
	ctx, cancel := context.WithTimeout(ctx, h.AckTimeout())
	defer cancel()
	errs = make([]error, len(ids))
	var wg sync.WaitGroup
	sem := make(chan struct{}, MaxParallelAsks)
	for i, id := range ids {
		c := h.TerminalPeer(ctx, customerID, id)
		if c == nil {
			errs[i] = ErrNotOnline
			continue
		}
		online++
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if ctx.Err() != nil { // not sent at all once the deadline passed
				errs[i] = ErrTimeout
				return
			}
			errs[i] = ask(ctx, c)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err == nil {
			acked++
		}
	}
	return errs, online, acked
}

// AfterReady runs fn in its own goroutine once c's login reply is queued, unless the connection closes first.
// Login hooks use it to send a terminal what waited for it (pending messages, a reminder of its state).
func (c *Conn) AfterReady(fn func()) {
	go func() {
		select {
		case <-c.Ready():
			fn()
		case <-c.Done():
		}
	}()
}
