package cluster

// Server→client requests across nodes: Hub.Request for an account held by another node goes to that node as a
// NATS request on its own subject; the node runs it on its connection and answers with the client's reply or
// the error's code, which the asking node turns back into the same error.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/nats-io/nats.go"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

const subjRequest = "tenfour.req." // + node id

type requestMsg struct {
	Account string          `json:"msId"`
	Type    string          `json:"type"`
	Data    json.RawMessage `json:"data"`
	Wait    int64           `json:"waitMs"` // how long the asking node waits (the holder gives up a little earlier)
}

type replyMsg struct {
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

// onRequest runs another node's request on this node's connection of the account.
func (n *Node) onRequest(m *nats.Msg) {
	var req requestMsg
	if err := json.Unmarshal(m.Data, &req); err != nil {
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
