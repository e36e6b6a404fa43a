package terminalctl

import (
	"context"
	"encoding/json"
	"maps"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// ParamGet asks for a terminal's current report intervals: a console's request, and the server's question to the
// terminal (docs/console-socket.md and docs/terminal-protocol.md "Remote control").
const ParamGet = "param.get"

// ParamGetResult is the reply data of `param.get`: the intervals the set-param dialog opens with.
type ParamGetResult struct {
	MsID string `json:"msId"`
	// Params are the terminal's intervals: what it reported, over what the server stored (acknowledged).
	Params map[string]string `json:"params"`
	// Reported tells the terminal answered; false: it is offline or could not say, Params are the stored ones.
	Reported bool `json:"reported"`
}

type paramGetReq struct {
	MsID flex.String `json:"msId"`
}

func (s *Service) sockParamGet(ctx context.Context, c *realtime.Conn, req paramGetReq) (any, error) {
	return s.CurrentParams(ctx, c.Principal(), string(req.MsID))
}

// CurrentParams returns a terminal's intervals. A connected terminal is asked (it knows its defaults too, which
// the server never stored); its answer is checked like a param.set, and a value out of bounds or of a parameter
// this server does not know is left out. A terminal that is offline, refuses or does not answer in time leaves
// the stored parameters, the ones it acknowledged and is reminded of at each login.
func (s *Service) CurrentParams(ctx context.Context, p identity.Principal, msID string) (ParamGetResult, error) {
	if err := s.terminal(ctx, p.CustomerID, msID); err != nil {
		return ParamGetResult{}, err
	}
	stored, err := s.StoredParams(ctx, msID)
	if err != nil {
		return ParamGetResult{}, err
	}
	res := ParamGetResult{MsID: msID, Params: stored}
	c := s.hub.TerminalPeer(ctx, p.CustomerID, msID)
	if c == nil {
		return res, nil
	}
	rctx, cancel := context.WithTimeout(ctx, s.hub.AckTimeout())
	defer cancel()
	raw, err := c.Request(rctx, ParamGet, struct{}{})
	var answer struct {
		Params map[string]string `json:"params"`
	}
	if err != nil || json.Unmarshal(raw, &answer) != nil || answer.Params == nil {
		return res, nil // it could not say (an older terminal answers an unknown request "400")
	}
	params := maps.Clone(stored)
	for k, v := range answer.Params {
		if norm, _, err := CheckParams(map[string]string{k: v}); err == nil {
			params[k] = norm[k]
		}
	}
	return ParamGetResult{MsID: msID, Params: params, Reported: true}, nil
}
