package terminalctl

// POST /ds/turn/send (spec §7): a dispatcher sends a terminal fresh credentials of the embedded TURN server,
// for a terminal behind a NAT or firewall whose media does not get through (docs/adr/0022). The terminal gets
// them as the server request `turn.config` and uses them for its next WebRTC connection; the call answers once
// the terminal has acknowledged them.

import (
	"context"
	"net/http"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// TurnConfig is the server → terminal request that carries TURN credentials.
const TurnConfig = "turn.config"

// ErrNoTURN: the embedded TURN server is off (--turn-port 0), so there is nothing to send.
var ErrNoTURN = httpx.E(http.StatusConflict, "409", "errors.turn.off", "the TURN server is not enabled on this server")

// ICE issues TURN credentials for an account (media.Engine).
type ICE interface {
	ICEServers(account string) []webrtc.ICEServer
}

// TurnSent is the answer of /ds/turn/send: what the terminal acknowledged.
type TurnSent struct {
	MsID       string             `json:"msId"`
	ICEServers []webrtc.ICEServer `json:"iceServers"`
}

type turnSendReq struct {
	MsID string `json:"msId"`
}

// POST /ds/turn/send {msId} → TurnSent once the terminal acknowledged ("4" not online, "404" unknown, "409" TURN off, "408" no ack).
func (s *Service) turnSend(ctx context.Context, p identity.Principal, req turnSendReq) (any, error) {
	if err := s.terminal(ctx, p.CustomerID, req.MsID); err != nil {
		return nil, err
	}
	if s.ICE == nil {
		return nil, ErrNoTURN
	}
	servers := s.ICE.ICEServers(req.MsID)
	if len(servers) == 0 {
		return nil, ErrNoTURN
	}
	c := s.hub.TerminalConn(p.CustomerID, req.MsID)
	if c == nil {
		return nil, realtime.ErrNotOnline
	}
	defer s.locks.lock(req.MsID)()
	if err := s.ask(ctx, c, TurnConfig, map[string]any{"iceServers": servers, "by": p.AccountID}); err != nil {
		return nil, err
	}
	return TurnSent{MsID: req.MsID, ICEServers: servers}, nil
}

// Routes mounts /ds/turn/send.
func (s *Service) Routes(r httpx.Router) {
	r.Console("POST /ds/turn/send", httpx.Bind(s.turnSend))
}
