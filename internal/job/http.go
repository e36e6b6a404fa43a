package job

import (
	"context"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the job-ticket endpoints (spec §7 "Jobs", "Reports"; history is this server's addition).
func (s *Service) Routes(r httpx.Router) {
	r.Console("POST /ds/job/add", httpx.Bind(s.Add))
	r.Console("GET /ds/job/list", httpx.Bind(s.list))
	r.Console("DELETE /ds/job/delete", httpx.Bind(s.delete))
	r.Console("GET /ds/job/history", httpx.Bind(s.history))
	r.Console("POST /ds/report/findJobReport", httpx.Bind(s.report))
}

type listReq struct {
	JobID string `json:"jobId"`
	httpx.MsIDs
	State   flex.List `json:"state"`
	Status  flex.List `json:"status"`
	Keyword string    `json:"keyword"`
	Creator string    `json:"creator"`
	timerange.Params
	httpx.PageReq
}

// GET /ds/job/list {jobId?, msId(s)?, state?, keyword?, creator?, sTime+eTime?, pageNo (1), pageSize (20)}
func (s *Service) list(ctx context.Context, p identity.Principal, req listReq) (any, error) {
	var q ListQuery
	var err error
	if q.JobID, err = httpx.OptRowID[ID]("jobId", req.JobID); err != nil {
		return nil, err
	}
	if q.MsIDs, err = req.MsIDs.Check("msId", 1000, false); err != nil {
		return nil, err
	}
	for _, v := range append(req.State, req.Status...) {
		n, err := httpx.Int("state", v)
		if err != nil || !State(n).Valid() {
			return nil, ErrStateFilter
		}
		q.States = append(q.States, State(n))
	}
	if q.Keyword, err = httpx.Text("keyword", req.Keyword, 100); err != nil {
		return nil, err
	}
	q.Creator = req.Creator
	if req.Given() {
		rg, _, err := req.ForCustomer(ctx, s.db, p.CustomerID, 0)
		if err != nil {
			return nil, err
		}
		q.Range = &rg
	}
	if q.Offset, q.Limit, err = req.PagingFrom(DefPageSize, 1000); err != nil {
		return nil, err
	}
	return httpx.ListOf(s.store.List(ctx, p.CustomerID, q))
}

type idReq struct {
	JobID string `json:"jobId"`
	ID    string `json:"id"` // alias
	MsID  string `json:"msId"`
}

func (r idReq) parse() (ID, string, error) {
	v := r.JobID
	if v == "" {
		v = r.ID
	}
	id, err := httpx.RowID[ID]("jobId", v)
	if err != nil {
		return 0, "", err
	}
	ms := ""
	if r.MsID != "" {
		if ms, err = httpx.ID("msId", r.MsID); err != nil {
			return 0, "", err
		}
	}
	return id, ms, nil
}

// DELETE /ds/job/delete {jobId, msId?}: one terminal's ticket, or (without msId) the whole job
func (s *Service) delete(ctx context.Context, p identity.Principal, req idReq) (any, error) {
	id, ms, err := req.parse()
	if err != nil {
		return nil, err
	}
	if _, err := s.Delete(ctx, p, id, ms); err != nil {
		return nil, err
	}
	return Removed{JobID: id, MsID: ms}, nil
}

// GET /ds/job/history {jobId, msId?}
func (s *Service) history(ctx context.Context, p identity.Principal, req idReq) (any, error) {
	id, ms, err := req.parse()
	if err != nil {
		return nil, err
	}
	list, err := s.store.History(ctx, p.CustomerID, id, ms)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": list}, nil
}

type reportReq struct {
	httpx.MsIDs
	timerange.Params
}

// Report is the findJobReport answer: a row per terminal and the sums.
type Report struct {
	List  []ReportRow `json:"list"`
	Total ReportRow   `json:"total"`
}

// POST /ds/report/findJobReport {msIds?, sTime, eTime}: tickets by terminal and state, for jobs sent in the range
func (s *Service) report(ctx context.Context, p identity.Principal, req reportReq) (any, error) {
	ids, err := req.MsIDs.Check("msIds", 1000, false)
	if err != nil {
		return nil, err
	}
	rg, _, err := req.ForCustomer(ctx, s.db, p.CustomerID, 0)
	if err != nil {
		return nil, err
	}
	rows, err := s.store.Report(ctx, p.CustomerID, ids, rg)
	if err != nil {
		return nil, err
	}
	out := Report{List: rows}
	for _, r := range rows {
		out.Total.Total += r.Total
		out.Total.Unsettled += r.Unsettled
		out.Total.Accepted += r.Accepted
		out.Total.Rejected += r.Rejected
		out.Total.Working += r.Working
		out.Total.Over += r.Over
	}
	return out, nil
}
