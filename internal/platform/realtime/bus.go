package realtime

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"tenfour/internal/platform/identity"
)

// Bus carries a node's events to every node of a cluster (internal/cluster implements it over NATS; docs/adr/0024).
// Without one (SetBus never called) the hub is alone and everything stays on this node, exactly as before.
type Bus interface {
	// Publish ships an encoded event frame to every node, this one included, in the customer's order; the bus
	// then hands it to each node's Deliver. It returns false when it cannot (the connection to the cluster is
	// down): the hub then delivers it on this node alone.
	Publish(customerID int64, typ string, msg []byte, to WireAudience) bool
	// Durable stores a durable event in the events table (the source of truth every node replays `sync` from)
	// and publishes it so that every node receives a customer's durable events in the order of their seq. It
	// delivers the event on this node itself when the cluster is unreachable. It returns the seq.
	Durable(ctx context.Context, customerID int64, typ string, data json.RawMessage, to WireAudience) (int64, error)
	// Online tells whether an account has a logged-in connection on another node.
	Online(accountID string) bool
	// Request sends a server→client request to the account's connection on another node and waits for its reply
	// until ctx ends (Hub.Request when the account has no connection here); the errors are Hub.Request's.
	Request(ctx context.Context, accountID, typ string, data json.RawMessage) (json.RawMessage, error)
	// Send ships an encoded event frame to the account's connections on the other nodes (fire-and-forget, as
	// Conn.Send); false when no other node holds it or the cluster cannot be reached.
	Send(accountID string, msg []byte) bool
	// Who is the principal and kind of the account's connection on another node (its token left out), for a
	// Peer of it; ok false when no other node holds it.
	Who(ctx context.Context, accountID string) (p identity.Principal, kind Kind, ok bool)
	// Nodes lists the public base URLs of the cluster's live nodes, this one first: the login reply's `nodes`,
	// what a client fails over to (docs/operations.md "Clients"); their hosts are allowed browser origins.
	Nodes() []string
}

// LocalRequest is Request for this node's connections only: what a node runs for another node's Bus.Request.
func (h *Hub) LocalRequest(ctx context.Context, accountID, typ string, data json.RawMessage) (json.RawMessage, error) {
	c := h.Conn(accountID)
	if c == nil {
		return nil, ErrNotOnline
	}
	return c.Request(ctx, typ, data)
}

// WireAudience is an Audience that can cross to another node: its kinds and accounts (an Audience made by Where
// holds a function and stays on the node that published it).
type WireAudience struct {
	Kinds    uint8    `json:"k"`
	Accounts []string `json:"a,omitempty"`
}

// Wire is the audience in its transmissible form; ok is false for a Where audience.
func (a Audience) Wire() (w WireAudience, ok bool) {
	if a.allow != nil {
		return WireAudience{}, false
	}
	w.Kinds = a.kinds
	for id := range a.accounts {
		w.Accounts = append(w.Accounts, id)
	}
	slices.Sort(w.Accounts)
	return w, true
}

// Audience turns a received WireAudience back into an Audience.
func (w WireAudience) Audience() Audience {
	a := Audience{kinds: w.Kinds}
	if len(w.Accounts) > 0 {
		a.accounts = make(map[string]bool, len(w.Accounts))
		for _, id := range w.Accounts {
			a.accounts[id] = true
		}
	}
	return a
}

// String is the audience as a header value: kinds, then the accounts, comma-separated.
func (w WireAudience) String() string {
	return string(rune('0'+w.Kinds)) + strings.Join(append([]string{""}, w.Accounts...), ",")
}

// ParseWireAudience reads String's form back.
func ParseWireAudience(s string) WireAudience {
	if s == "" {
		return WireAudience{}
	}
	w := WireAudience{Kinds: uint8(s[0] - '0')}
	if rest := s[1:]; len(rest) > 1 {
		w.Accounts = strings.Split(rest[1:], ",")
	}
	return w
}

// SetBus joins the hub to a cluster; call before serving.
func (h *Hub) SetBus(b Bus) { h.bus = b }

// Deliver fans an encoded event frame out to this node's connections (the bus calls it for every event of the
// cluster, this node's own included). Watchers run first, as for a local Publish.
func (h *Hub) Deliver(customerID int64, typ string, msg []byte, to WireAudience) {
	h.fanout(customerID, typ, msg, to.Audience())
}

// LocalOnline tells whether an account has a logged-in connection on this node (Online asks the cluster too).
func (h *Hub) LocalOnline(accountID string) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.byAccount[accountID]) > 0
}

// Customers lists the customers with a logged-in connection on this node.
func (h *Hub) Customers() []int64 {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return slices.Collect(maps.Keys(h.byCustomer))
}

// ReplaceRemote closes this node's connections of an account that logged in on another node, as a login here
// would (session.replaced, then close 4007; their logout hooks run with replaced true, so presence stays on).
// by says which login replaced them (its address and time, from the other node); keep tells the connections to
// leave open (a console window of the same sign-in). It returns how many closed.
func (h *Hub) ReplaceRemote(by Replaced, keep func(*Conn) bool) int {
	h.mu.Lock()
	var hit []*Conn
	for _, o := range h.byAccount[by.MsID] {
		if keep != nil && keep(o) {
			continue
		}
		hit = append(hit, o)
		h.dropReplaced(o)
	}
	h.mu.Unlock()
	for _, o := range hit {
		_ = o.Send(EventReplaced, by)
		o.closeAfterFlush(CloseReplaced, "logged in elsewhere")
	}
	return len(hit)
}
