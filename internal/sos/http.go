package sos

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the SOS endpoints (spec §7 "SOS", "Reports").
func (s *Service) Routes(r httpx.Router) {
	r.Console("GET /ds/sos/findSos", httpx.Bind(s.findSos))
	r.Console("PUT /ds/sos/updateSos", httpx.Bind(s.updateSos))
	r.Console("POST /ds/report/findSosReport", httpx.Bind(s.findSosReport))
}

type findReq struct {
	timerange.Params
	httpx.MsIDs
	State flex.List `json:"state"`
	Type  string    `json:"type"`
	Open  string    `json:"open"`
	httpx.PageReq
}

// GET /ds/sos/findSos {sTime, eTime, msId, state, type, open, pageNo, pageSize} → {total, list:[Alarm]}
func (s *Service) findSos(ctx context.Context, p identity.Principal, req findReq) (any, error) {
	q := Query{MsIDs: req.MsIDs.All(), Type: req.Type}
	var err error
	if q.Offset, q.Limit, err = req.Paging(); err != nil {
		return nil, err
	}
	if q.States, err = httpx.Choices[State]("state", req.State, 2); err != nil {
		return nil, err
	}
	open, err := httpx.Flag("open", req.Open)
	if err != nil {
		return nil, err
	}
	if open {
		// Every alarm still open, whenever it was raised: what a console loads when it starts.
		if len(q.States) == 0 {
			q.States = []State{Sending, Acknowledged}
		}
		if req.Given() {
			return nil, httpx.BadParam("open", "not with sTime/eTime")
		}
	} else {
		rg, _, err := req.ForCustomer(ctx, s.db, p.CustomerID, 0)
		if err != nil {
			return nil, err
		}
		q.Range = &rg
	}
	list, total, err := s.store.Find(ctx, p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	if !open {
		s.log.By(ctx, p, oplog.AlarmSearch, searchRemark(q), searchDetail(q))
	}
	return httpx.PageOf(list, total), nil
}

func searchRemark(q Query) string {
	parts := []string{}
	if q.Range != nil {
		parts = append(parts, fmt.Sprintf("from %s to %s",
			time.UnixMilli(q.Range.From).UTC().Format(time.DateTime), time.UnixMilli(q.Range.To).UTC().Format(time.DateTime)))
	}
	if len(q.MsIDs) > 0 {
		parts = append(parts, "terminals "+strings.Join(q.MsIDs, ","))
	}
	if len(q.States) > 0 {
		parts = append(parts, "state "+statesText(q.States))
	}
	return "SOS search " + strings.Join(parts, ", ")
}

// statesText writes states as the request had them: "0,1".
func statesText(states []State) string {
	st := make([]string, len(states))
	for i, v := range states {
		st[i] = strconv.Itoa(int(v))
	}
	return strings.Join(st, ",")
}

// searchDetail is the search as log detail; a criterion left out is empty.
func searchDetail(q Query) oplog.Detail {
	start, end := "", ""
	if q.Range != nil {
		start, end = strconv.FormatInt(q.Range.From, 10), strconv.FormatInt(q.Range.To, 10)
	}
	return oplog.D("sosSearch", "start", start, "end", end, "terminals", strings.Join(q.MsIDs, ","), "states", statesText(q.States))
}

type updateReq struct {
	ID     string `json:"id"`
	State  string `json:"state"`
	Remark string `json:"remark"`
	Remote string `json:"remote"`
}

// PUT /ds/sos/updateSos {id, state: 1|2, remark?, remote?: "1"} → Alarm
func (s *Service) updateSos(ctx context.Context, p identity.Principal, req updateReq) (any, error) {
	id, err := httpx.RowID[AlarmID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	if err := httpx.Required("state", req.State); err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(req.State)
	if err != nil || (n != int(Acknowledged) && n != int(Closed)) {
		if err == nil && n == int(Sending) {
			return nil, ErrTransition // nothing goes back to 0
		}
		return nil, httpx.BadParam("state", "1 or 2")
	}
	remote, err := httpx.Flag("remote", req.Remote)
	if err != nil {
		return nil, err
	}
	return s.Update(ctx, p, id, State(n), strings.TrimSpace(req.Remark), remote)
}

type reportReq struct {
	MsIDs flex.List `json:"msIds"`
	timerange.Params
}

// POST /ds/report/findSosReport {msIds?, sTime, eTime} → {total, list:[ReportRow]} (alarm counts per terminal per day)
func (s *Service) findSosReport(ctx context.Context, p identity.Principal, req reportReq) (any, error) {
	rg, loc, err := req.ForCustomer(ctx, s.db, p.CustomerID, 0)
	if err != nil {
		return nil, err
	}
	rows, err := s.Report(ctx, p.CustomerID, req.MsIDs, rg, loc)
	if err != nil {
		return nil, err
	}
	return httpx.All(rows), nil
}

// Report counts alarms per terminal and day.
func (s *Service) Report(ctx context.Context, customerID int64, msIDs []string, rg timerange.Range, loc *time.Location) ([]ReportRow, error) {
	type key struct{ ms, day string }
	acc := map[key]*ReportRow{}
	responded := map[key]int64{}
	for offset := 0; ; offset += 1000 {
		list, _, err := s.store.Find(ctx, customerID, Query{Range: &rg, MsIDs: msIDs, Offset: offset, Limit: 1000})
		if err != nil {
			return nil, err
		}
		for _, a := range list {
			k := key{a.MsID, timerange.Day(a.Time, loc)}
			row := acc[k]
			if row == nil {
				row = &ReportRow{MsID: a.MsID, MsName: a.MsName, Day: k.day}
				acc[k] = row
			}
			row.Total++
			switch a.State {
			case Sending:
				row.Sending++
			case Acknowledged:
				row.Acknowledged++
			case Closed:
				row.Closed++
				if a.CloseKind == ClosedByTerminal {
					row.Canceled++
				}
			}
			if a.ResponseTime != 0 && a.CloseKind != ClosedByTerminal {
				d := a.ResponseMs()
				row.AvgResponse += d // a sum until the end
				responded[k]++
				row.MaxResponse = max(row.MaxResponse, d)
			}
		}
		if len(list) < 1000 {
			break
		}
	}
	out := make([]ReportRow, 0, len(acc))
	for k, row := range acc {
		if n := responded[k]; n > 0 {
			row.AvgResponse /= n
		}
		out = append(out, *row)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Day != out[j].Day {
			return out[i].Day < out[j].Day
		}
		return out[i].MsID < out[j].MsID
	})
	return out, nil
}
