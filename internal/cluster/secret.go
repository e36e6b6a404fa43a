package cluster

// Secrets every node must share, drawn once for the cluster: the first node to ask writes a random value into
// the bucket tenfour_secrets (Create: compare-and-set on "absent"), every other node reads that one. The file
// token key lives here: a token one node signs (an attachment or tone URL sent to a terminal on another node)
// must be accepted by the node the terminal fetches from.

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

const bucketSecrets = "tenfour_secrets"

// SharedSecret returns the cluster's secret of that name (size random bytes the first time any node asks).
func (n *Node) SharedSecret(ctx context.Context, name string, size int) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	js, err := jetstream.New(n.nc)
	if err != nil {
		return nil, err
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucketSecrets, History: 1,
		Description: "tenfour secrets shared by the nodes (docs/adr/0024)"})
	if err != nil {
		return nil, err
	}
	fresh := make([]byte, size)
	if _, err := rand.Read(fresh); err != nil {
		return nil, err
	}
	if _, err := kv.Create(ctx, name, fresh); err == nil {
		return fresh, nil
	} else if !errors.Is(err, jetstream.ErrKeyExists) {
		return nil, err
	}
	e, err := kv.Get(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(e.Value()) != size {
		return nil, errors.New("cluster: shared secret " + name + " has the wrong size")
	}
	return e.Value(), nil
}
