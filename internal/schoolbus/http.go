package schoolbus

import (
	"context"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the school-bus endpoints (spec §7 "School car"; update and onboard are this server's additions).
func (s *Service) Routes(r httpx.Router) {
	r.Console("POST /ds/schoolCar/add", httpx.Bind(s.Add))
	r.Console("GET /ds/schoolCar/list", httpx.Bind(s.list))
	r.Console("GET /ds/schoolCar/checklist", httpx.Bind(s.checklist))
	r.Console("PUT /ds/schoolCar/update", httpx.Bind(s.update))
	r.Console("DELETE /ds/schoolCar/delete", httpx.Bind(s.delete))
	r.Console("GET /ds/schoolCar/onboard", httpx.Bind(s.onboard))
}

type updateReq struct {
	ID string `json:"id"`
	NewStudent
}

// PUT /ds/schoolCar/update {id, and add's fields}: this server's addition, the console's edit of a student
func (s *Service) update(ctx context.Context, p identity.Principal, req updateReq) (any, error) {
	id, err := httpx.RowID[StudentID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	return s.Update(ctx, p, id, req.NewStudent)
}

type listReq struct {
	Keyword string `json:"keyword"`
	BusID   string `json:"busId"`
	httpx.PageReq
}

// GET /ds/schoolCar/list {keyword?, busId?, pageNo (1), pageSize (20)}
func (s *Service) list(ctx context.Context, p identity.Principal, req listReq) (any, error) {
	var q ListQuery
	var err error
	if q.Keyword, err = httpx.Text("keyword", req.Keyword, 100); err != nil {
		return nil, err
	}
	if req.BusID != "" {
		if q.BusID, err = httpx.ID("busId", req.BusID); err != nil {
			return nil, err
		}
	}
	if q.Offset, q.Limit, err = req.PagingFrom(DefPage, 1000); err != nil {
		return nil, err
	}
	return httpx.ListOf(s.List(ctx, p.CustomerID, q))
}

type checklistReq struct {
	StudentID string `json:"studentId"`
	timerange.Params
	httpx.PageReq
}

// GET /ds/schoolCar/checklist {studentId, sTime+eTime?, pageNo?, pageSize?}
func (s *Service) checklist(ctx context.Context, p identity.Principal, req checklistReq) (any, error) {
	id, err := httpx.RowID[StudentID]("studentId", req.StudentID)
	if err != nil {
		return nil, err
	}
	var from, to int64
	if req.Given() {
		rg, _, err := req.ForCustomer(ctx, s.db, p.CustomerID, 0)
		if err != nil {
			return nil, err
		}
		from, to = rg.From, rg.To
	}
	off, lim, err := req.PagingFrom(100, 1000)
	if err != nil {
		return nil, err
	}
	return httpx.ListOf(s.Checklist(ctx, p.CustomerID, id, from, to, off, lim))
}

type deleteReq struct {
	ID string `json:"id"`
}

// DELETE /ds/schoolCar/delete {id}
func (s *Service) delete(ctx context.Context, p identity.Principal, req deleteReq) (any, error) {
	id, err := httpx.RowID[StudentID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	if err := s.Delete(ctx, p, id); err != nil {
		return nil, err
	}
	return map[string]any{"id": id}, nil
}

type onboardReq struct {
	BusID string `json:"busId"`
}

// GET /ds/schoolCar/onboard {busId?}: the buses with the students on them now
func (s *Service) onboard(ctx context.Context, p identity.Principal, req onboardReq) (any, error) {
	bus := ""
	if req.BusID != "" {
		var err error
		if bus, err = httpx.ID("busId", req.BusID); err != nil {
			return nil, err
		}
	}
	buses, err := s.OnBoard(ctx, p.CustomerID, bus)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": buses}, nil
}
