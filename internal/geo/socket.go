package geo

import (
	"context"
	"fmt"
	"slices"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Terminal requests (docs/terminal-protocol.md "Positions").
const (
	ReqGPSReport    = "gps.report"
	ReqStatusReport = "status.report"
)

// Verbs lists the terminal requests of the geo domain (only terminals report) and the events it sends consoles.
func (s *Service) Verbs() []realtime.Verb {
	return slices.Concat(
		[]realtime.Verb{
			realtime.On(ReqGPSReport, realtime.TerminalOnly, s.sockGPSReport),
			realtime.On(ReqStatusReport, realtime.TerminalOnly, s.sockStatusReport),
		},
		// what the server sends consoles (docs/geo.md)
		realtime.Events(realtime.ConsoleOnly, EventGPS, EventMarkChanged, EventFenceChanged, EventFenceAlarm, EventAlarmUpdated),
	)
}

// pointIn is one position as a terminal sends it.
type pointIn struct {
	Lat       flex.Float `json:"lat"`
	Lng       flex.Float `json:"lng"`
	Speed     flex.Float `json:"speed"`
	Direction flex.Float `json:"direction"`
	Altitude  flex.Float `json:"altitude"`
	Time      flex.Float `json:"time"`
}

// errTooOld refuses a fix time before the accepted window (counted apart in tenfour_gps_points_refused_total).
var errTooOld = httpx.BadParam("time", "older than the accepted window (UTC milliseconds)")

// point validates and normalizes one reported position: lat/lng required (micro-degrees divided, spec §9),
// speed 0-1000 m/s, direction 0-360, altitude -1000..100000 m (absent = 0), time in UTC ms (absent or 0 = now)
// not more than MaxFuture ahead, not before 2000 and not older than MaxAge or the retention.
func (s *Service) point(in pointIn, nowMs int64) (Point, error) {
	if !in.Lat.Set || !in.Lng.Set {
		return Point{}, httpx.BadParam("lat/lng", "required")
	}
	pos, ok := normalizeLatLng(in.Lat.V, in.Lng.V)
	if !ok {
		return Point{}, httpx.BadParam("lat/lng", "out of range")
	}
	p := Point{Lat: pos.Lat, Lng: pos.Lng, Speed: in.Speed.V, Direction: in.Direction.V, Altitude: in.Altitude.V}
	for _, f := range []struct {
		name     string
		v        float64
		min, max float64
	}{{"speed", p.Speed, 0, 1000}, {"direction", p.Direction, 0, 360}, {"altitude", p.Altitude, -1000, 100000}} {
		if !(f.v >= f.min && f.v <= f.max) { // false for NaN too
			return Point{}, httpx.BadParam(f.name, "out of range")
		}
	}
	p.Time = int64(in.Time.V)
	if p.Time == 0 {
		p.Time = nowMs
	}
	oldest := max(int64(946684800000), nowMs-s.opt.MaxAge.Milliseconds()) // 2000-01-01
	if s.opt.Retention > 0 {
		oldest = max(oldest, nowMs-s.opt.Retention.Milliseconds())
	}
	if p.Time < oldest {
		return Point{}, errTooOld
	}
	if p.Time > nowMs+MaxFuture.Milliseconds() {
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

// sockGPSReport takes a terminal's position(s). The reply comes after the points are committed, unless the
// request says ack:false; a single invalid position is a 400, invalid points of a batch are skipped and listed.
// Every position sent, valid or not, spends the terminal's budget; a report beyond it is refused whole ("429").
func (s *Service) sockGPSReport(ctx context.Context, c *realtime.Conn, req gpsReportIn) (any, error) {
	at := s.now()
	now := at.UnixMilli()
	var pts []Point
	res := IngestResult{}
	if req.Points != nil {
		if len(req.Points) == 0 || len(req.Points) > MaxBatch {
			return nil, httpx.BadParam("points", fmt.Sprintf("1 to %d positions", MaxBatch))
		}
		if err := s.budget.take(c.Principal().AccountID, len(req.Points), at); err != nil {
			return nil, err
		}
		pts = make([]Point, 0, len(req.Points))
		for i, in := range req.Points {
			p, err := s.point(in, now)
			if err != nil {
				refused(err)
				res.Rejected = append(res.Rejected, i)
				continue
			}
			pts = append(pts, p)
		}
		if len(pts) == 0 {
			return nil, httpx.BadParam("points", "no valid position")
		}
	} else {
		if err := s.budget.take(c.Principal().AccountID, 1, at); err != nil {
			return nil, err
		}
		p, err := s.point(req.pointIn, now)
		if err != nil {
			refused(err)
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

// refused counts a refused position by its reason (tenfour_gps_points_refused_total).
func refused(err error) {
	reason := "invalid"
	if err == errTooOld {
		reason = "old"
	}
	mRefused.WithLabelValues(reason).Inc()
}

// statusReportIn is a status.report.
type statusReportIn struct {
	Battery flex.Float `json:"battery"`
	Signal  flex.Float `json:"signal"`
}

// sockStatusReport takes a terminal's battery (percent 0-100) and signal (0-5); at least one of them.
func (s *Service) sockStatusReport(_ context.Context, c *realtime.Conn, req statusReportIn) (any, error) {
	if !req.Battery.Set && !req.Signal.Set {
		return nil, httpx.BadParam("battery/signal", "required")
	}
	var battery, signal *int
	if req.Battery.Set {
		if !(req.Battery.V >= 0 && req.Battery.V <= 100) {
			return nil, httpx.BadParam("battery", "0 to 100")
		}
		b := int(req.Battery.V)
		battery = &b
	}
	if req.Signal.Set {
		if !(req.Signal.V >= 0 && req.Signal.V <= 5) {
			return nil, httpx.BadParam("signal", "0 to 5")
		}
		v := int(req.Signal.V)
		signal = &v
	}
	s.SetStatus(c.Principal(), battery, signal)
	return struct{}{}, nil
}
