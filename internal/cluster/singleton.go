package cluster

// Work that must run on one node of the cluster at a time (the lone-work engine: on every node it would prompt
// and alarm once per node): the node holding the key of the work in the bucket tenfour_leases runs it, renews
// the key every Heartbeat at its revision, and stops the work the moment a renewal fails; a dead holder's key
// expires after Timeout and another node takes the work over.

import (
	"context"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

const bucketLeases = "tenfour_leases"

// Singleton returns a background loop (App.Go) that runs fn only while this node holds the lease named name.
func (n *Node) Singleton(name string, fn func(ctx context.Context)) func(ctx context.Context) {
	return func(ctx context.Context) {
		var (
			rev     uint64
			held    bool
			stop    = func() {}
			running sync.WaitGroup
		)
		halt := func() {
			if held {
				stop()
				running.Wait()
				held = false
			}
		}
		defer func() {
			if held {
				halt()
				dctx, cancel := context.WithTimeout(context.Background(), time.Second)
				_ = n.leases.Delete(dctx, name, jetstream.LastRevision(rev)) // hand over at once
				cancel()
			}
		}()
		t := time.NewTicker(n.opt.Heartbeat)
		defer t.Stop()
		for {
			octx, cancel := context.WithTimeout(ctx, n.opt.Heartbeat)
			var err error
			if held {
				rev, err = n.leases.Update(octx, name, []byte(n.opt.NodeID), rev)
				if err != nil {
					halt() // lost it (NATS away, or expired and taken): never two at once
				}
			} else if rev, err = n.leases.Create(octx, name, []byte(n.opt.NodeID)); err == nil {
				held = true
				wctx, cancelWork := context.WithCancel(ctx)
				stop = cancelWork
				running.Go(func() { fn(wctx) })
			}
			cancel()
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}
}
