package patrol

import (
	"context"
	"slices"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Verbs are the patrol socket messages (docs/terminal-protocol.md "Patrol", docs/console-socket.md "Patrol").
func (s *Service) Verbs() []realtime.Verb {
	return slices.Concat(
		[]realtime.Verb{
			realtime.On(ReqPunch, realtime.TerminalOnly, s.onPunch),
			realtime.On(ReqOrders, realtime.TerminalOnly, s.onOrders),
		},
		realtime.Events(realtime.TerminalOnly, TermOrders),
		realtime.Events(realtime.ConsoleOnly, EventOrder, EventPunch),
	)
}

type punchReq struct {
	Method  flex.String `json:"method"`
	Value   flex.String `json:"value"`
	Lat     flex.Float  `json:"lat"`
	Lng     flex.Float  `json:"lng"`
	PointID flex.String `json:"pointId"`
}

func (s *Service) onPunch(ctx context.Context, c *realtime.Conn, req punchReq) (any, error) {
	id, err := httpx.OptRowID[PointID]("pointId", string(req.PointID))
	if err != nil {
		return nil, err
	}
	return s.Punch(ctx, c.Principal(), PunchInput{Method: string(req.Method), Value: string(req.Value),
		Lat: req.Lat.Ptr(), Lng: req.Lng.Ptr(), PointID: id})
}

func (s *Service) onOrders(ctx context.Context, c *realtime.Conn, _ struct{}) (any, error) {
	l, err := s.Mine(ctx, c.Principal())
	if err != nil {
		return nil, err
	}
	return map[string]any{"serverTime": s.Now().UnixMilli(), "list": l}, nil
}
