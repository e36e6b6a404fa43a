package realtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"

	"tenfour/internal/platform/identity"
)

// Peer is a client as a domain reaches it to send it an event or a request: its connection on this node (a
// *Conn) or, in a cluster, the connection another node holds (docs/adr/0024 "Requests and sends to clients on
// any node"). Code that delivers something to a terminal (an SMS, a job ticket, a tone, a remote parameter)
// takes a Peer, never a *Conn, so that it reaches the terminal wherever it is connected.
type Peer interface {
	Principal() identity.Principal
	Kind() Kind
	// Send queues an event to the client; an error when it is gone (for a remote peer: when its node cannot
	// be reached — the event itself is fire-and-forget, as on one node).
	Send(typ string, data any) error
	// Request sends a server→client request and waits for the reply until ctx ends; the errors are
	// Conn.Request's (ErrNotOnline, ErrTimeout, the client's refusal code).
	Request(ctx context.Context, typ string, data any) (json.RawMessage, error)
}

// PeerOf returns the account's latest connection on this node or, in a cluster, a connection another node
// holds; nil when it has none anywhere.
func (h *Hub) PeerOf(ctx context.Context, accountID string) Peer {
	if c := h.Conn(accountID); c != nil {
		return c
	}
	if h.bus == nil || !h.bus.Online(accountID) {
		return nil
	}
	p, kind, ok := h.bus.Who(ctx, accountID)
	if !ok {
		return nil
	}
	return &remotePeer{hub: h, p: p, kind: kind}
}

// TerminalPeer is TerminalConn for the whole cluster: a customer's terminal wherever it is connected, or nil
// (none, another customer's account, a dispatcher).
func (h *Hub) TerminalPeer(ctx context.Context, customerID int64, accountID string) Peer {
	c := h.PeerOf(ctx, accountID)
	if c == nil || c.Kind() != Terminal || c.Principal().CustomerID != customerID {
		return nil
	}
	return c
}

// remotePeer is an account whose connection another node holds; its Send and Request cross to that node.
type remotePeer struct {
	hub  *Hub
	p    identity.Principal
	kind Kind
}

func (r *remotePeer) Principal() identity.Principal { return r.p }
func (r *remotePeer) Kind() Kind                    { return r.kind }

func (r *remotePeer) Send(typ string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	msg, _ := json.Marshal(Frame{Type: typ, Data: raw})
	if !r.hub.bus.Send(r.p.AccountID, msg) {
		return ErrNotOnline
	}
	return nil
}

func (r *remotePeer) Request(ctx context.Context, typ string, data any) (json.RawMessage, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	return r.hub.bus.Request(ctx, r.p.AccountID, typ, raw)
}

// LocalSend queues an encoded event frame to every connection of an account on this node (what a node runs for
// another node's Bus.Send); false when it has none here.
func (h *Hub) LocalSend(accountID string, msg []byte) bool {
	var f struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(msg, &f); err != nil {
		slog.Warn("realtime: a frame from another node does not decode", "err", err)
		return false
	}
	return h.localSend(accountID, f.Type, msg)
}

func (h *Hub) localSend(accountID, typ string, msg []byte) bool {
	var reached uint8
	starts := startLists.Get().(*[]*Conn)
	h.mu.RLock()
	for _, c := range h.byAccount[accountID] {
		ok, start := c.queue(msg)
		if ok {
			reached |= c.kind.bit()
		}
		if start {
			*starts = append(*starts, c)
		}
	}
	h.mu.RUnlock()
	startWriters(starts)
	if reached != 0 {
		h.sent(typ, ServerEvent, reached)
	}
	return reached != 0
}

// LocalWho is the principal and kind of the account's latest connection on this node (the token left out:
// what a node answers another node's Bus.Who).
func (h *Hub) LocalWho(accountID string) (identity.Principal, Kind, bool) {
	c := h.Conn(accountID)
	if c == nil {
		return identity.Principal{}, "", false
	}
	p := c.Principal()
	p.Token = ""
	return p, c.Kind(), true
}

// originPatterns are the allowed browser origins: the configured ones and, in a cluster, every live node's host
// (a console or phone page served by one node keeps its socket on another when its node dies).
func (h *Hub) originPatterns() []string {
	if h.bus == nil {
		return h.origins
	}
	out := h.origins
	for _, n := range h.bus.Nodes() {
		if u, err := url.Parse(n); err == nil && u.Host != "" {
			out = append(out[:len(out):len(out)], u.Host)
		}
	}
	return out
}
