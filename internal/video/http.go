package video

import (
	"context"
	"path/filepath"
	"strings"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the video endpoints: the customer's limits and credit, and its ended sessions.
func (s *Service) Routes(r httpx.Router) {
	r.Console("GET /ds/video/limits", httpx.Bind(s.limits))
	r.Console("GET /ds/video/sessions", httpx.Bind(s.sessionsList))
	r.Console("GET /ds/video/records", httpx.Bind(s.httpRecords))
	r.Raw("GET /ds/video/recordFile", httpx.Recording(s.recordFile, ErrNoFile), true)
}

// limits answers the customer's limits, its credit left and what is in use now.
func (s *Service) limits(ctx context.Context, p identity.Principal, _ struct{}) (any, error) {
	l, err := s.store.Limits(ctx, p.CustomerID)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	calls, mons := s.countLocked(p.CustomerID, KindCall), s.countLocked(p.CustomerID, KindMonitor)
	s.mu.Unlock()
	return map[string]any{"maxCalls": l.MaxCalls, "maxMonitors": l.MaxMonitors, "maxDurationS": l.MaxDuration,
		"creditMs": l.CreditMs, "record": l.Record, "calls": calls, "monitors": mons, "resolutions": Resolutions}, nil
}

// monthQuery is what both listings are asked: a range within one month of the customer's zone (spec §5
// time-range rules) and, optionally, one account.
type monthQuery struct {
	timerange.Params
	MsID flex.String `json:"msId"`
}

func (s *Service) monthOf(ctx context.Context, p identity.Principal, q monthQuery) (timerange.Range, error) {
	rg, _, err := q.ForCustomer(ctx, s.store.db, p.CustomerID, timerange.Month)
	return rg, err
}

// sessionsList is GET /ds/video/sessions {sTime, eTime, msId?}: ended calls and monitorings, newest first
// (at most 1000).
func (s *Service) sessionsList(ctx context.Context, p identity.Principal, req monthQuery) (any, error) {
	rg, err := s.monthOf(ctx, p, req)
	if err != nil {
		return nil, err
	}
	list, err := s.store.Records(ctx, p.CustomerID, rg.From, rg.To, strings.TrimSpace(string(req.MsID)), 1000)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": list}, nil
}

// GET /ds/video/records {sTime, eTime, msId?, pageNo?, pageSize?}: recordings of calls and monitorings, newest
// first.
func (s *Service) httpRecords(ctx context.Context, p identity.Principal, req struct {
	monthQuery
	httpx.PageReq
}) (any, error) {
	rg, err := s.monthOf(ctx, p, req.monthQuery)
	if err != nil {
		return nil, err
	}
	q := RecordFileQuery{From: rg.From, To: rg.To}
	if v := strings.TrimSpace(string(req.MsID)); v != "" {
		if q.MsID, err = httpx.ID("msId", v); err != nil {
			return nil, err
		}
	}
	if q.Offset, q.Limit, err = req.PagingFrom(100, 1000); err != nil {
		return nil, err
	}
	return httpx.ListOf(s.store.RecordFiles(ctx, p.CustomerID, q))
}

// recordFile is a recording's file as GET /ds/video/recordFile {id, download?} serves it (httpx.Recording).
func (s *Service) recordFile(ctx context.Context, customerID, id int64) (httpx.StoredFile, error) {
	rec, err := s.store.RecordFile(ctx, customerID, id)
	return httpx.StoredFile{Path: filepath.Join(s.opts.DataDir, rec.path), Name: filepath.Base(rec.path), Type: rec.Type,
		Cache: "private, no-cache"}, err
}
