package lonework

import (
	"context"
	"slices"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Verbs are the lone-worker socket messages (docs/terminal-protocol.md "Lone worker", docs/console-socket.md).
func (s *Service) Verbs() []realtime.Verb {
	return slices.Concat(
		[]realtime.Verb{
			realtime.On(ReqCheckin, realtime.TerminalOnly, s.onCheckin),
			realtime.On(ReqGet, realtime.TerminalOnly, s.onGet),
			realtime.Ask(TermCheck, realtime.TerminalOnly),
		},
		realtime.Events(realtime.TerminalOnly, TermStart, TermEnd),
		realtime.Events(realtime.ConsoleOnly, EventState, EventRemoved, EventAlarm, EventAlarmUpdated),
	)
}

type checkinReq struct {
	WorkID flex.String `json:"workId"` // absent: every plan of the terminal in progress
}

func (s *Service) onCheckin(ctx context.Context, c *realtime.Conn, req checkinReq) (any, error) {
	id, err := httpx.OptRowID[WorkID]("workId", string(req.WorkID))
	if err != nil {
		return nil, err
	}
	plans, err := s.Checkin(ctx, c.Principal(), id)
	if err != nil {
		return nil, err
	}
	ids := make([]WorkID, len(plans))
	next := int64(0)
	for i, p := range plans {
		ids[i] = p.ID
		if next == 0 || (p.NextCheck != 0 && p.NextCheck < next) {
			next = p.NextCheck
		}
	}
	return map[string]any{"workIds": ids, "nextCheck": next}, nil
}

func (s *Service) onGet(ctx context.Context, c *realtime.Conn, _ struct{}) (any, error) {
	p := c.Principal()
	now := s.Now().UnixMilli()
	plans, err := s.store.Upcoming(ctx, p.CustomerID, p.AccountID, now)
	if err != nil {
		return nil, err
	}
	for i := range plans {
		plans[i] = stamp(plans[i], now)
	}
	return map[string]any{"list": plans}, nil
}
