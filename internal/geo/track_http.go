package geo

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// The track query (gpsByUTC) and the position report (findGpsData).

// TrackPoint is a track point (spec §3: speed, lng, lat, direction, altitude, time) with the length of the
// segment from the previous point in metres and that segment's playback precision (spec §9 rule).
type TrackPoint struct {
	Point
	Dist      float64 `json:"dist"`
	Precision int     `json:"precision"`
}

// Track is the answer of gpsByUTC.
type Track struct {
	MsID      string       `json:"msId"`
	Name      string       `json:"name"`
	Points    []TrackPoint `json:"points"`
	Summary   Summary      `json:"summary"`
	Stops     []Stop       `json:"stops"`
	Truncated bool         `json:"truncated"` // more than MaxTrackPoints: points stop there, summary and stops too
}

// gpsByUTCReq is the request of GET /ds/data/gpsByUTC.
type gpsByUTCReq struct {
	Scid        string `json:"scid"`
	Dcid        string `json:"dcid"`
	Btime       string `json:"btime"`
	Etime       string `json:"etime"`
	Unit        string `json:"unit"`
	StopMinutes string `json:"stopMinutes"`
}

// gpsByUTC: track query {scid, dcid, btime, etime, unit, stopMinutes}. scid is the customer id (optional; must
// be the caller's), dcid the terminal (required: "track needs a terminal"); times are UTC.
func (s *Service) gpsByUTC(ctx context.Context, p identity.Principal, req gpsByUTCReq) (any, error) {
	if err := checkCustomer(p, "scid", req.Scid); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Dcid) == "" {
		return nil, ErrNeedTerminal
	}
	id, err := httpx.ID("dcid", req.Dcid)
	if err != nil {
		return nil, err
	}
	unit, err := ParseUnit(req.Unit)
	if err != nil {
		return nil, err
	}
	stopMin := int64(DefaultStopMinute)
	if strings.TrimSpace(req.StopMinutes) != "" {
		if stopMin, err = httpx.Int("stopMinutes", req.StopMinutes); err != nil || stopMin < 1 || stopMin > 1440 {
			return nil, httpx.BadParam("stopMinutes", "1 to 1440")
		}
	}
	rng, err := s.timeRange(ctx, p, "btime", req.Btime, "etime", req.Etime, MaxTrackRange)
	if err != nil {
		return nil, err
	}
	names, err := s.Store.Terminals(ctx, p.CustomerID, []string{id})
	if err != nil {
		return nil, err
	}
	tr := Track{MsID: id, Name: names[id].Name, Points: []TrackPoint{}}
	var sum summarizer
	stops := newStopDetector(time.Duration(stopMin) * time.Minute)
	tr.Truncated, err = s.Store.Track(ctx, id, rng.From, rng.To, MaxTrackPoints, func(pt Point) {
		seg := sum.add(pt)
		stops.add(pt)
		prec := 0
		if len(tr.Points) > 0 {
			prec = Precision(seg)
		}
		tr.Points = append(tr.Points, TrackPoint{Point: pt, Dist: round(seg, 1), Precision: prec})
	})
	if err != nil {
		return nil, err
	}
	tr.Summary, tr.Stops = sum.result(unit), stops.result()
	s.log.By(ctx, p, oplog.TrackQuery, fmt.Sprintf("%s %s – %s", id,
		time.UnixMilli(rng.From).UTC().Format("2006-01-02 15:04"), time.UnixMilli(rng.To).UTC().Format("2006-01-02 15:04")),
		oplog.D("trackQuery", "terminal", id, "start", strconv.FormatInt(rng.From, 10), "end", strconv.FormatInt(rng.To, 10)))
	return tr, nil
}

// gpsDataReq is the request of GET /ds/report/findGpsData and POST /ds/report/findGpsDataPost.
type gpsDataReq struct {
	MsIDs flex.List `json:"msIds"`
	MsID  string    `json:"msId"`
	STime string    `json:"sTime"`
	ETime string    `json:"eTime"`
	httpx.PageReq
}

// gpsData: the /gps-data report {msIds, sTime, eTime, pageNo, pageSize} → {total, list}, ordered by terminal
// then time; at most 7 days within one month.
func (s *Service) gpsData(ctx context.Context, p identity.Principal, req gpsDataReq) (any, error) {
	list := []string(req.MsIDs)
	if req.MsID != "" {
		list = append(list, req.MsID)
	}
	if len(list) == 0 {
		return nil, ErrNeedTerminal
	}
	ids, err := httpx.IDs("msIds", list, MaxIDs, true)
	if err != nil {
		return nil, err
	}
	offset, limit, err := req.PagingFrom(1000, MaxPageSize) // spec §9: 1000 rows a page unless asked
	if err != nil {
		return nil, err
	}
	rng, err := s.timeRange(ctx, p, "sTime", req.STime, "eTime", req.ETime, MaxTrackRange)
	if err != nil {
		return nil, err
	}
	names, err := s.Store.Terminals(ctx, p.CustomerID, ids)
	if err != nil {
		return nil, err
	}
	return httpx.ListOf(s.Store.GPSData(ctx, names, rng.From, rng.To, offset, limit))
}
