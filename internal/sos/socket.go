package sos

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Register installs the terminal socket requests.
func (s *Service) Register(hub *realtime.Hub) {
	hub.Handle(ReqRaise, s.onRaise)
	hub.Handle(ReqCancel, s.onCancel)
}

// flexFloat accepts a JSON number or a numeric string (terminals differ).
type flexFloat struct{ v *float64 }

func (f *flexFloat) UnmarshalJSON(b []byte) error {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	if s == "" || s == "null" {
		f.v = nil
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return httpx.BadParam("lat/lng", "not a number")
	}
	f.v = &v
	return nil
}

// flexString accepts a JSON string or number.
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*f = flexString(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return httpx.BadParam("value", "a string or a number")
	}
	*f = flexString(n.String())
	return nil
}

type raiseReq struct {
	Lat  flexFloat  `json:"lat"`
	Lng  flexFloat  `json:"lng"`
	Type flexString `json:"type"`
}

type raiseReply struct {
	ID        AlarmID `json:"id"`
	State     State   `json:"state"`
	Time      int64   `json:"time"`
	Duplicate bool    `json:"duplicate"` // the terminal already had this open alarm
}

func (s *Service) onRaise(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	if c.Kind() != realtime.Terminal {
		return nil, ErrTerminal
	}
	var req raiseReq
	if err := json.Unmarshal(data, &req); err != nil {
		return nil, badJSON(err)
	}
	a, created, err := s.Raise(ctx, c.Principal(), string(req.Type), req.Lat.v, req.Lng.v)
	if err != nil {
		return nil, err
	}
	return raiseReply{ID: a.ID, State: a.State, Time: a.Time, Duplicate: !created}, nil
}

func (s *Service) onCancel(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	if c.Kind() != realtime.Terminal {
		return nil, ErrTerminal
	}
	var req struct {
		ID flexString `json:"id"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return nil, badJSON(err)
	}
	var id AlarmID
	if req.ID != "" {
		var err error
		if id, err = ParseAlarmID("id", string(req.ID)); err != nil {
			return nil, err
		}
	}
	a, err := s.Cancel(ctx, c.Principal(), id)
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": a.ID, "state": a.State}, nil
}

func badJSON(err error) error {
	if e, ok := httpx.AsError(err); ok {
		return e
	}
	return httpx.BadParam("data", "malformed")
}
