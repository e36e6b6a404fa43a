package sos

import (
	"context"
	"slices"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Verbs are the SOS socket messages (docs/terminal-protocol.md "SOS", docs/console-socket.md).
func (s *Service) Verbs() []realtime.Verb {
	return slices.Concat(
		[]realtime.Verb{
			realtime.On(ReqRaise, realtime.TerminalOnly, s.onRaise),
			realtime.On(ReqCancel, realtime.TerminalOnly, s.onCancel),
			realtime.Ask(TermStop, realtime.TerminalOnly),
		},
		realtime.Events(realtime.ConsoleOnly, EventAlarm, EventUpdated, EventRealert),
		realtime.Events(realtime.TerminalOnly, TermAcked, TermClosed),
	)
}

type raiseReq struct {
	Lat  flex.Float  `json:"lat"`
	Lng  flex.Float  `json:"lng"`
	Type flex.String `json:"type"`
}

type raiseReply struct {
	ID        AlarmID `json:"id"`
	State     State   `json:"state"`
	Time      int64   `json:"time"`
	Duplicate bool    `json:"duplicate"` // the terminal already had this open alarm
}

func (s *Service) onRaise(ctx context.Context, c *realtime.Conn, req raiseReq) (any, error) {
	a, created, err := s.Raise(ctx, c.Principal(), string(req.Type), req.Lat.Ptr(), req.Lng.Ptr())
	if err != nil {
		return nil, err
	}
	return raiseReply{ID: a.ID, State: a.State, Time: a.Time, Duplicate: !created}, nil
}

type cancelReq struct {
	ID flex.String `json:"id"` // absent: the terminal's open alarm
}

func (s *Service) onCancel(ctx context.Context, c *realtime.Conn, req cancelReq) (any, error) {
	id, err := httpx.OptRowID[AlarmID]("id", string(req.ID))
	if err != nil {
		return nil, err
	}
	a, err := s.Cancel(ctx, c.Principal(), id)
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": a.ID, "state": a.State}, nil
}
