package lonework

import (
	"context"
	"encoding/json"
	"strings"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Register installs the terminal socket requests.
func (s *Service) Register(hub *realtime.Hub) {
	hub.Handle(ReqCheckin, s.onCheckin)
	hub.Handle(ReqGet, s.onGet)
}

func (s *Service) onCheckin(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	if c.Kind() != realtime.Terminal {
		return nil, ErrTerminalOnly
	}
	var req struct {
		WorkID json.RawMessage `json:"workId"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return nil, httpx.BadParam("data", "malformed")
	}
	var id WorkID
	if raw := strings.Trim(string(req.WorkID), `"`); raw != "" && raw != "null" {
		n, err := parseID("workId", raw)
		if err != nil {
			return nil, err
		}
		id = WorkID(n)
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

func (s *Service) onGet(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	if c.Kind() != realtime.Terminal {
		return nil, ErrTerminalOnly
	}
	p := c.Principal()
	now := s.now().UnixMilli()
	plans, err := s.store.Upcoming(ctx, p.CustomerID, p.AccountID, now)
	if err != nil {
		return nil, err
	}
	for i := range plans {
		plans[i] = stamp(plans[i], now)
	}
	return map[string]any{"list": plans}, nil
}
