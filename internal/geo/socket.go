package geo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Terminal requests (docs/terminal-protocol.md "Positions").
const (
	ReqGPSReport    = "gps.report"
	ReqStatusReport = "status.report"
)

func (s *Service) registerSocket(h *realtime.Hub) {
	h.Handle(ReqGPSReport, s.sockGPSReport)
	h.Handle(ReqStatusReport, s.sockStatusReport)
}

// num is a JSON number that may also arrive as a numeric string; null and "" are absent.
type num struct {
	v   float64
	set bool
}

func (n *num) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			return nil
		}
		b = []byte(s)
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return httpx.BadParam("value", "a number")
	}
	n.v, n.set = v, true
	return nil
}

// pointIn is one position as a terminal sends it.
type pointIn struct {
	Lat       num `json:"lat"`
	Lng       num `json:"lng"`
	Speed     num `json:"speed"`
	Direction num `json:"direction"`
	Altitude  num `json:"altitude"`
	Time      num `json:"time"`
}

// point validates and normalizes one reported position: lat/lng required (micro-degrees divided, spec §9),
// speed 0-1000 m/s, direction 0-360, altitude -1000..100000 m (absent = 0), time in UTC ms (absent or 0 = now)
// not more than MaxFuture ahead, not before 2000 and not older than the retention.
func (s *Service) point(in pointIn, nowMs int64) (Point, error) {
	if !in.Lat.set || !in.Lng.set {
		return Point{}, httpx.BadParam("lat/lng", "required")
	}
	pos, ok := normalizeLatLng(in.Lat.v, in.Lng.v)
	if !ok {
		return Point{}, httpx.BadParam("lat/lng", "out of range")
	}
	p := Point{Lat: pos.Lat, Lng: pos.Lng, Speed: in.Speed.v, Direction: in.Direction.v, Altitude: in.Altitude.v}
	for _, f := range []struct {
		name     string
		v        float64
		min, max float64
	}{{"speed", p.Speed, 0, 1000}, {"direction", p.Direction, 0, 360}, {"altitude", p.Altitude, -1000, 100000}} {
		if !(f.v >= f.min && f.v <= f.max) { // false for NaN too
			return Point{}, httpx.BadParam(f.name, "out of range")
		}
	}
	p.Time = int64(in.Time.v)
	if p.Time == 0 {
		p.Time = nowMs
	}
	oldest := int64(946684800000) // 2000-01-01
	if s.opt.Retention > 0 {
		oldest = max(oldest, nowMs-s.opt.Retention.Milliseconds())
	}
	if p.Time < oldest || p.Time > nowMs+MaxFuture.Milliseconds() {
		return Point{}, httpx.BadParam("time", "outside the accepted window (UTC milliseconds)")
	}
	return p, nil
}

// gpsReportIn is a gps.report: one position at the top level, or a batch in points.
type gpsReportIn struct {
	pointIn
	Points []pointIn `json:"points"`
	Ack    *bool     `json:"ack"`
}

func decode(data json.RawMessage, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		var he *httpx.Error
		if errors.As(err, &he) {
			return he
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return httpx.BadParam(te.Field, "wrong type")
		}
		return httpx.BadParam("data", "malformed")
	}
	return nil
}

// sockGPSReport takes a terminal's position(s). The reply comes after the points are committed, unless the
// request says ack:false; a single invalid position is a 400, invalid points of a batch are skipped and listed.
func (s *Service) sockGPSReport(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	if c.Kind() != realtime.Terminal {
		return nil, ErrNotTerminal
	}
	var req gpsReportIn
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	var pts []Point
	res := IngestResult{}
	if req.Points != nil {
		if len(req.Points) == 0 || len(req.Points) > MaxBatch {
			return nil, httpx.BadParam("points", fmt.Sprintf("1 to %d positions", MaxBatch))
		}
		pts = make([]Point, 0, len(req.Points))
		for i, in := range req.Points {
			p, err := s.point(in, now)
			if err != nil {
				res.Rejected = append(res.Rejected, i)
				continue
			}
			pts = append(pts, p)
		}
		if len(pts) == 0 {
			return nil, httpx.BadParam("points", "no valid position")
		}
	} else {
		p, err := s.point(req.pointIn, now)
		if err != nil {
			return nil, err
		}
		pts = []Point{p}
	}
	res.Accepted = len(pts)
	wait := req.Ack == nil || *req.Ack
	if err := s.Ingest(ctx, c.Principal(), pts, wait); err != nil {
		return nil, err
	}
	return res, nil
}

// sockStatusReport takes a terminal's battery (percent 0-100) and signal (0-5); at least one of them.
func (s *Service) sockStatusReport(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	if c.Kind() != realtime.Terminal {
		return nil, ErrNotTerminal
	}
	var req struct {
		Battery num `json:"battery"`
		Signal  num `json:"signal"`
	}
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	if !req.Battery.set && !req.Signal.set {
		return nil, httpx.BadParam("battery/signal", "required")
	}
	var battery, signal *int
	if req.Battery.set {
		if !(req.Battery.v >= 0 && req.Battery.v <= 100) {
			return nil, httpx.BadParam("battery", "0 to 100")
		}
		b := int(req.Battery.v)
		battery = &b
	}
	if req.Signal.set {
		if !(req.Signal.v >= 0 && req.Signal.v <= 5) {
			return nil, httpx.BadParam("signal", "0 to 5")
		}
		v := int(req.Signal.v)
		signal = &v
	}
	s.SetStatus(c.Principal(), battery, signal)
	return struct{}{}, nil
}
