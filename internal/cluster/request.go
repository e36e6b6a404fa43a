package cluster

// Server→client requests and sends across nodes: Hub.Request for an account held by another node, and the
// Send/Request of a realtime.Peer of it (an SMS, a job ticket, a tone, a remote parameter), go to that node on
// its own subject tenfour.req.<node>; the node runs them on its connection and answers a request with the
// client's reply or the error's code, which the asking node turns back into the same error. A send is a plain
// publish (fire-and-forget, as on one node); "who" asks the node for the principal of its connection when the
// presence message did not carry it (a node that joined after the login).

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/nats-io/nats.go"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

const subjRequest = "tenfour.req." // + node id

// Ops of a requestMsg besides a request ("").
const (
	opSend = "send"
	opWho  = "who"
)

type requestMsg struct {
	Op      string          `json:"op,omitempty"`
	Account string          `json:"msId"`
	Type    string          `json:"type"`
	Data    json.RawMessage `json:"data"`
	Wait    int64           `json:"waitMs"` // how long the asking node waits (the holder gives up a little earlier)
}

type replyMsg struct {
	Who  *whoMsg         `json:"who,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
	Code string          `json:"code,omitempty"`
	Key  string          `json:"key,omitempty"`
	Msg  string          `json:"msg,omitempty"`
}

// holderOf is a node holding the account (nil-safe: "" when none).
func (n *Node) holderOf(accountID string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	for node := range n.remote[accountID] {
		return node
	}
	return ""
}

// Request runs a server→client request on the node holding the account (realtime.Bus).
func (n *Node) Request(ctx context.Context, accountID, typ string, data json.RawMessage) (json.RawMessage, error) {
	node := n.holderOf(accountID)
	if node == "" {
		return nil, realtime.ErrNotOnline
	}
	wait := realtime.AckTimeout
	if dl, ok := ctx.Deadline(); ok {
		wait = time.Until(dl)
	}
	msg, err := n.nc.RequestWithContext(ctx, subjRequest+node, mustJSON(requestMsg{Account: accountID, Type: typ,
		Data: data, Wait: wait.Milliseconds()}))
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout):
		return nil, realtime.ErrTimeout
	case errors.Is(err, nats.ErrNoResponders):
		return nil, realtime.ErrNotOnline // that node is gone
	case err != nil:
		return nil, err
	}
	var r replyMsg
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		return nil, err
	}
	switch r.Code {
	case "", "0":
		return r.Data, nil
	case realtime.ErrNotOnline.Code:
		return nil, realtime.ErrNotOnline
	case realtime.ErrTimeout.Code:
		return nil, realtime.ErrTimeout
	}
	return r.Data, httpx.E(http.StatusConflict, r.Code, r.Key, r.Msg)
}

// whoMsg is an account's principal (without its token) and kind, as the node holding it knows them.
type whoMsg struct {
	P    identity.Principal `json:"p"`
	Kind realtime.Kind      `json:"kind"`
}

// holdersOf are the other nodes holding the account.
func (n *Node) holdersOf(accountID string) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]string, 0, len(n.remote[accountID]))
	for node := range n.remote[accountID] {
		out = append(out, node)
	}
	return out
}

// Send ships an encoded event frame to the account's connections on the other nodes (realtime.Bus).
func (n *Node) Send(accountID string, msg []byte) bool {
	sent := false
	for _, node := range n.holdersOf(accountID) {
		if err := n.nc.Publish(subjRequest+node, mustJSON(requestMsg{Op: opSend, Account: accountID, Data: msg})); err == nil {
			sent = true
		}
	}
	return sent
}

// Who is the principal and kind of the account's connection on another node (realtime.Bus): from the login's
// presence message, else asked of the node holding it.
func (n *Node) Who(ctx context.Context, accountID string) (identity.Principal, realtime.Kind, bool) {
	node := n.holderOf(accountID)
	if node == "" {
		return identity.Principal{}, "", false
	}
	n.mu.Lock()
	w, ok := n.who[accountID]
	n.mu.Unlock()
	if ok {
		return w.P, w.Kind, true
	}
	ctx, cancel := context.WithTimeout(ctx, realtime.AckTimeout)
	defer cancel()
	msg, err := n.nc.RequestWithContext(ctx, subjRequest+node, mustJSON(requestMsg{Op: opWho, Account: accountID}))
	if err != nil {
		return identity.Principal{}, "", false
	}
	var r replyMsg
	if json.Unmarshal(msg.Data, &r) != nil || r.Who == nil {
		return identity.Principal{}, "", false
	}
	n.mu.Lock()
	if n.remote[accountID][node] {
		n.who[accountID] = *r.Who
	}
	n.mu.Unlock()
	return r.Who.P, r.Who.Kind, true
}

// onRequest runs another node's request or send on this node's connection of the account.
func (n *Node) onRequest(m *nats.Msg) {
	var req requestMsg
	if err := json.Unmarshal(m.Data, &req); err != nil {
		return
	}
	switch req.Op {
	case opSend:
		n.hub.LocalSend(req.Account, req.Data)
		return
	case opWho:
		r := replyMsg{Code: realtime.ErrNotOnline.Code}
		if p, kind, ok := n.hub.LocalWho(req.Account); ok {
			r = replyMsg{Who: &whoMsg{P: p, Kind: kind}}
		}
		_ = m.Respond(mustJSON(r))
		return
	}
	go func() {
		// answer before the asker stops waiting: a timeout here still reaches it as a timeout
		ctx, cancel := context.WithTimeout(context.Background(), max(time.Duration(req.Wait)*time.Millisecond-50*time.Millisecond, 100*time.Millisecond))
		defer cancel()
		data, err := n.hub.LocalRequest(ctx, req.Account, req.Type, req.Data)
		r := replyMsg{Data: data}
		var he *httpx.Error
		if errors.As(err, &he) {
			r.Code, r.Key, r.Msg = he.Code, he.Key, he.Msg
		} else if err != nil {
			r.Code, r.Msg = realtime.ErrTimeout.Code, err.Error()
		}
		_ = m.Respond(mustJSON(r))
	}()
}
