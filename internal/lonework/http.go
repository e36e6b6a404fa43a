package lonework

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the lone-work endpoints (spec §7 "Lone work", "Reports").
func (s *Service) Routes(r httpx.Router) {
	r.Console("POST /ds/loneWork/add", httpx.Bind(s.add))
	r.Console("PUT /ds/loneWork/update", httpx.Bind(s.update))
	r.Console("DELETE /ds/loneWork/delete", httpx.Bind(s.delete))
	r.Console("GET /ds/loneWork/list", httpx.Bind(s.list))
	r.Console("POST /ds/loneWork/addAlarm", httpx.Bind(s.addAlarm))
	r.Console("PUT /ds/loneWork/updateAlarm", httpx.Bind(s.updateAlarm))
	r.Console("GET /ds/loneWork/findAlarm", httpx.Bind(s.findAlarm))
	r.Console("POST /ds/report/findLoneWorkAlarm", httpx.Bind(s.findLoneWorkAlarm))
}

// maxIDs bounds a list of plan ids (delete, findAlarm).
const maxIDs = 1000

// dayRange reads queryDate: a day (YYYY-MM-DD) or any instant of it (ms), in the customer's zone.
func dayRange(v string, loc *time.Location) (*timerange.Range, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	var day time.Time
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		day = time.UnixMilli(ms).In(loc)
	} else if t, err := time.ParseInLocation(time.DateOnly, v, loc); err == nil {
		day = t
	} else {
		return nil, httpx.BadParam("queryDate", "YYYY-MM-DD or milliseconds")
	}
	start := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc)
	end := start.AddDate(0, 0, 1)
	return &timerange.Range{From: start.UnixMilli(), To: end.UnixMilli() - 1}, nil
}

// queryDay reads queryDate in the customer's zone.
func (s *Service) queryDay(ctx context.Context, customerID int64, v string) (*timerange.Range, error) {
	loc, err := timerange.Zone(ctx, s.db, customerID)
	if err != nil {
		return nil, err
	}
	return dayRange(v, loc)
}

type addReq struct {
	httpx.MsIDs
	RawInput
}

// POST /ds/loneWork/add {msIds, date+time | sTime, duration | wTime | eTime, interval | hb, countdown?, enabled?}
func (s *Service) add(ctx context.Context, p identity.Principal, req addReq) (any, error) {
	plans, err := s.Add(ctx, p, req.MsIDs.All(), req.RawInput)
	if err != nil {
		return nil, err
	}
	return httpx.All(plans), nil
}

type updateReq struct {
	ID string `json:"id"`
	RawInput
}

// PUT /ds/loneWork/update {id, …fields of add}
func (s *Service) update(ctx context.Context, p identity.Principal, req updateReq) (any, error) {
	id, err := httpx.RowID[WorkID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	return s.Update(ctx, p, id, req.RawInput)
}

type deleteReq struct {
	ID  flex.List `json:"id"`
	IDs flex.List `json:"ids"`
}

// DELETE /ds/loneWork/delete {id | ids}
func (s *Service) delete(ctx context.Context, p identity.Principal, req deleteReq) (any, error) {
	ids, err := httpx.RowIDsOf[WorkID]("id", append(req.ID, req.IDs...), maxIDs, true)
	if err != nil {
		return nil, err
	}
	gone, err := s.Delete(ctx, p, ids)
	if err != nil {
		return nil, err
	}
	return map[string]any{"ids": gone}, nil
}

type listReq struct {
	httpx.MsIDs
	Status    flex.List `json:"status"`
	QueryDate string    `json:"queryDate"`
	httpx.PageReq
}

// GET /ds/loneWork/list {msId?, status?, queryDate?, pageNo?, pageSize?}
func (s *Service) list(ctx context.Context, p identity.Principal, req listReq) (any, error) {
	q := ListQuery{MsIDs: req.MsIDs.All()}
	var err error
	if q.Offset, q.Limit, err = req.Paging(); err != nil {
		return nil, err
	}
	if q.Statuses, err = httpx.Choices[Status]("status", req.Status, 2); err != nil {
		return nil, err
	}
	if q.Day, err = s.queryDay(ctx, p.CustomerID, req.QueryDate); err != nil {
		return nil, err
	}
	list, total, err := s.store.List(ctx, p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	now := s.Now().UnixMilli()
	for i := range list {
		list[i] = stamp(list[i], now)
	}
	return httpx.PageOf(list, total), nil
}

type addAlarmReq struct {
	WorkID string `json:"workId"`
	Reason string `json:"reason"`
}

// POST /ds/loneWork/addAlarm {workId, reason}
func (s *Service) addAlarm(ctx context.Context, p identity.Principal, req addAlarmReq) (any, error) {
	id, err := httpx.RowID[WorkID]("workId", req.WorkID)
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(req.Reason))
	if err != nil || !Reason(n).Valid() {
		return nil, httpx.BadParam("reason", "1 to 5")
	}
	return s.AddAlarm(ctx, p, id, Reason(n))
}

type updateAlarmReq struct {
	ID     string `json:"id"`
	Remark string `json:"remark"`
}

// PUT /ds/loneWork/updateAlarm {id, remark}
func (s *Service) updateAlarm(ctx context.Context, p identity.Principal, req updateAlarmReq) (any, error) {
	id, err := httpx.RowID[AlarmID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	remark := strings.TrimSpace(req.Remark)
	if remark == "" {
		return nil, httpx.BadParam("remark", "required")
	}
	if utf8.RuneCountInString(remark) > MaxRemark {
		return nil, httpx.BadParam("remark", "at most 200 characters")
	}
	return s.HandleAlarm(ctx, p, id, remark)
}

type findAlarmReq struct {
	IDs       flex.List `json:"ids"`
	QueryDate string    `json:"queryDate"`
	httpx.PageReq
}

// GET /ds/loneWork/findAlarm {ids (plan ids), queryDate?}
func (s *Service) findAlarm(ctx context.Context, p identity.Principal, req findAlarmReq) (any, error) {
	var q AlarmQuery
	var err error
	if q.WorkIDs, err = httpx.RowIDsOf[WorkID]("ids", req.IDs, maxIDs, true); err != nil {
		return nil, err
	}
	if q.Offset, q.Limit, err = req.Paging(); err != nil {
		return nil, err
	}
	if q.Range, err = s.queryDay(ctx, p.CustomerID, req.QueryDate); err != nil {
		return nil, err
	}
	return httpx.ListOf(s.store.FindAlarms(ctx, p.CustomerID, q))
}

type reportReq struct {
	MsIDs flex.List `json:"msIds"`
	timerange.Params
	httpx.PageReq
}

// POST /ds/report/findLoneWorkAlarm {msIds?, sTime, eTime, pageNo?, pageSize?}
func (s *Service) findLoneWorkAlarm(ctx context.Context, p identity.Principal, req reportReq) (any, error) {
	rg, _, err := req.ForCustomer(ctx, s.db, p.CustomerID, 0)
	if err != nil {
		return nil, err
	}
	q := AlarmQuery{MsIDs: req.MsIDs, Range: &rg}
	if q.Offset, q.Limit, err = req.Paging(); err != nil {
		return nil, err
	}
	return httpx.ListOf(s.store.FindAlarms(ctx, p.CustomerID, q))
}
