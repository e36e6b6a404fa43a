// Package failover is how a client of a cluster (docs/adr/0024, docs/operations.md "Clients") picks its node:
// a list of node base URLs, a start among them (spread by the client's index), the next one after a failed
// login or a dropped connection, and a jittered exponential backoff between attempts. The fleet simulator
// (internal/sim) and the Go terminal client (internal/termclient) both use it; the browser clients have the
// same rules in web/src/shared/socket/nodes.ts.
package failover

import (
	"slices"
	"strings"
	"time"
)

// Backoff bounds: the first retry waits about Base, doubling per failure up to Cap, each scaled by a random
// factor in [0.5, 1.5) so that a dead node's clients do not all reach the next node at once.
const (
	Base = time.Second
	Cap  = 30 * time.Second
)

// ParseList splits a comma-separated list of base URLs ("http://a:8080, http://b:8080/"), trimming spaces and a
// trailing slash, dropping empty items.
func ParseList(s string) []string {
	var out []string
	for _, u := range strings.Split(s, ",") {
		if u = strings.TrimSuffix(strings.TrimSpace(u), "/"); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// Nodes is a client's position in a list of nodes. The zero value with URLs set starts on the first.
type Nodes struct {
	URLs  []string
	Start int // the client's own offset (its index in a fleet), so that clients spread over the nodes
	moved int // how many times it moved on
}

// Current is the base URL to use now.
func (n *Nodes) Current() string {
	if len(n.URLs) == 0 {
		return ""
	}
	return n.URLs[(n.Start+n.moved)%len(n.URLs)]
}

// Next moves to the following node (after a failed attempt or a lost connection) and returns it.
func (n *Nodes) Next() string {
	n.moved++
	return n.Current()
}

// Learn takes a login reply's `nodes` (the live nodes' base URLs, the answering one first): the list becomes
// the node in use, then the others — rotated by the client's Start, so that a dead node's clients do not all
// move to the same survivor (docs/terminal-protocol.md "Nodes of a cluster"). A reply without other nodes
// leaves the list as it is (a node alone, or the only one left: the others may come back). The same rule as
// NodeList.learn in web/src/shared/socket/nodes.ts.
func (n *Nodes) Learn(nodes []string) {
	cur := n.Current()
	var others []string
	for _, u := range nodes {
		if u = strings.TrimSuffix(strings.TrimSpace(u), "/"); u != "" && u != cur && !slices.Contains(others, u) {
			others = append(others, u)
		}
	}
	if len(others) == 0 || cur == "" {
		return
	}
	k := n.Start % len(others)
	n.URLs = append(append([]string{cur}, others[k:]...), others[:k]...)
	n.moved = (len(n.URLs) - n.Start%len(n.URLs)) % len(n.URLs) // Current is cur again
}

// Backoff is the wait before attempt number failures (1 = after the first failure): Base doubling to Cap,
// times 0.5 + r, where r in [0, 1) is the caller's random draw.
func Backoff(failures int, r float64) time.Duration {
	d := Base << min(max(failures-1, 0), 5)
	return time.Duration(float64(min(d, Cap)) * (0.5 + r))
}
