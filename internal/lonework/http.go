package lonework

import (
	"net/http"
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
	r.Console("POST /ds/loneWork/add", s.add)
	r.Console("PUT /ds/loneWork/update", s.update)
	r.Console("DELETE /ds/loneWork/delete", s.delete)
	r.Console("GET /ds/loneWork/list", s.list)
	r.Console("POST /ds/loneWork/addAlarm", s.addAlarm)
	r.Console("PUT /ds/loneWork/updateAlarm", s.updateAlarm)
	r.Console("GET /ds/loneWork/findAlarm", s.findAlarm)
	r.Console("POST /ds/report/findLoneWorkAlarm", s.findLoneWorkAlarm)
}

// Page is a list answer.
type Page[T any] struct {
	Total int `json:"total"`
	List  []T `json:"list"`
}

func workIDs(name string, l flex.List) ([]WorkID, error) {
	var out []WorkID
	for _, v := range l {
		n, err := parseID(name, v)
		if err != nil {
			return nil, err
		}
		out = append(out, WorkID(n))
	}
	return out, nil
}

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

// POST /ds/loneWork/add {msIds, date+time | sTime, duration | wTime | eTime, interval | hb, countdown?, enabled?}
func (s *Service) add(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	var req struct {
		MsIDs flex.List `json:"msIds"`
		MsID  flex.List `json:"msId"`
		RawInput
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	plans, err := s.Add(r.Context(), p, append(req.MsIDs, req.MsID...), req.RawInput)
	if err != nil {
		return nil, err
	}
	return Page[Plan]{Total: len(plans), List: plans}, nil
}

// PUT /ds/loneWork/update {id, …fields of add}
func (s *Service) update(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	var req struct {
		ID string `json:"id"`
		RawInput
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	id, err := parseID("id", req.ID)
	if err != nil {
		return nil, err
	}
	return s.Update(r.Context(), p, WorkID(id), req.RawInput)
}

// DELETE /ds/loneWork/delete {id | ids}
func (s *Service) delete(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	var req struct {
		ID  flex.List `json:"id"`
		IDs flex.List `json:"ids"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ids, err := workIDs("id", append(req.ID, req.IDs...))
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, httpx.BadParam("id", "required")
	}
	gone, err := s.Delete(r.Context(), p, ids)
	if err != nil {
		return nil, err
	}
	return map[string]any{"ids": gone}, nil
}

// GET /ds/loneWork/list {msId?, status?, queryDate?, pageNo?, pageSize?}
func (s *Service) list(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	var req struct {
		MsID      flex.List `json:"msId"`
		MsIDs     flex.List `json:"msIds"`
		Status    flex.List `json:"status"`
		QueryDate string    `json:"queryDate"`
		PageNo    string    `json:"pageNo"`
		PageSize  string    `json:"pageSize"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	q := ListQuery{MsIDs: append(req.MsID, req.MsIDs...)}
	var err error
	if q.Offset, q.Limit, err = httpx.Paging(req.PageNo, req.PageSize); err != nil {
		return nil, err
	}
	for _, v := range req.Status {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 2 {
			return nil, httpx.BadParam("status", "0, 1 or 2")
		}
		q.Statuses = append(q.Statuses, Status(n))
	}
	loc, err := timerange.Zone(r.Context(), s.db, p.CustomerID)
	if err != nil {
		return nil, err
	}
	if q.Day, err = dayRange(req.QueryDate, loc); err != nil {
		return nil, err
	}
	list, total, err := s.store.List(r.Context(), p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	for i := range list {
		list[i] = stamp(list[i], now)
	}
	return Page[Plan]{Total: total, List: list}, nil
}

// POST /ds/loneWork/addAlarm {workId, reason}
func (s *Service) addAlarm(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	var req struct {
		WorkID string `json:"workId"`
		Reason string `json:"reason"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	id, err := parseID("workId", req.WorkID)
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(req.Reason))
	if err != nil || !Reason(n).Valid() {
		return nil, httpx.BadParam("reason", "1 to 5")
	}
	return s.AddAlarm(r.Context(), p, WorkID(id), Reason(n))
}

// PUT /ds/loneWork/updateAlarm {id, remark}
func (s *Service) updateAlarm(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	var req struct {
		ID     string `json:"id"`
		Remark string `json:"remark"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	id, err := parseID("id", req.ID)
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
	return s.HandleAlarm(r.Context(), p, AlarmID(id), remark)
}

// GET /ds/loneWork/findAlarm {ids (plan ids), queryDate?}
func (s *Service) findAlarm(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	var req struct {
		IDs       flex.List `json:"ids"`
		QueryDate string    `json:"queryDate"`
		PageNo    string    `json:"pageNo"`
		PageSize  string    `json:"pageSize"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	var q AlarmQuery
	var err error
	if q.WorkIDs, err = workIDs("ids", req.IDs); err != nil {
		return nil, err
	}
	if len(q.WorkIDs) == 0 {
		return nil, httpx.BadParam("ids", "required")
	}
	if q.Offset, q.Limit, err = httpx.Paging(req.PageNo, req.PageSize); err != nil {
		return nil, err
	}
	loc, err := timerange.Zone(r.Context(), s.db, p.CustomerID)
	if err != nil {
		return nil, err
	}
	if q.Range, err = dayRange(req.QueryDate, loc); err != nil {
		return nil, err
	}
	list, total, err := s.store.FindAlarms(r.Context(), p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	return Page[Alarm]{Total: total, List: list}, nil
}

// POST /ds/report/findLoneWorkAlarm {msIds?, sTime, eTime, pageNo?, pageSize?}
func (s *Service) findLoneWorkAlarm(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	var req struct {
		MsIDs    flex.List `json:"msIds"`
		STime    string    `json:"sTime"`
		ETime    string    `json:"eTime"`
		PageNo   string    `json:"pageNo"`
		PageSize string    `json:"pageSize"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	rg, _, err := timerange.ForCustomer(r.Context(), s.db, p.CustomerID, req.STime, req.ETime, 0)
	if err != nil {
		return nil, err
	}
	q := AlarmQuery{MsIDs: req.MsIDs, Range: &rg}
	if q.Offset, q.Limit, err = httpx.Paging(req.PageNo, req.PageSize); err != nil {
		return nil, err
	}
	list, total, err := s.store.FindAlarms(r.Context(), p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	return Page[Alarm]{Total: total, List: list}, nil
}
