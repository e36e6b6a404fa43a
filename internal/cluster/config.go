package cluster

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"tenfour/internal/config"
)

// FromConfig turns the serve flags (--nats, --node-id, --nats-ca/-cert/-key/-creds, --node-timeout) into Options.
func FromConfig(c config.Cluster) Options {
	o := Options{URL: c.NATS, NodeID: c.NodeID, Timeout: c.Timeout}
	if c.NATSCA != "" {
		o.NATSOptions = append(o.NATSOptions, nats.RootCAs(c.NATSCA))
	}
	if c.NATSCert != "" {
		o.NATSOptions = append(o.NATSOptions, nats.ClientCert(c.NATSCert, c.NATSKey))
	}
	if c.NATSCreds != "" {
		o.NATSOptions = append(o.NATSOptions, nats.UserCredentials(c.NATSCreds))
	}
	return o
}

// ReleaseOwn ends what this node held in its previous run (it crashed, or stopped without its logouts): the
// accounts no other node holds go offline. Register with App.OnPrepare.
func (n *Node) ReleaseOwn(ctx context.Context) error { return n.release(ctx, n.opt.NodeID) }

// Alone runs fn only when no other node is alive: the single node's start-up resets (every terminal offline,
// every open presence interval closed) would undo what the other nodes hold. Wrap them with it.
func (n *Node) Alone(fn func(ctx context.Context) error) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		alive, err := n.Alive(ctx)
		if err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) {
			return err
		}
		if len(alive) > 1 {
			return nil
		}
		if _, err := n.db.Exec(ctx, `DELETE FROM cluster_presence WHERE node_id <> ?`, n.opt.NodeID); err != nil {
			return err
		}
		return fn(ctx)
	}
}
