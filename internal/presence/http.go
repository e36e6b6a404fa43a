package presence

import (
	"context"
	"sort"

	"tenfour/internal/directory"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// MaxTerminals bounds the msIds of one online report.
const MaxTerminals = 1000

// Routes mounts the online reports (spec §7 Reports; docs/api.md "Reports").
func (s *Service) Routes(r httpx.Router) {
	r.Console("POST /ds/report/findOnlineDurationPost", httpx.Bind(s.findOnlineDuration))
	r.Console("GET /ds/report/findOnlineDetailData", httpx.Bind(s.findOnlineDetail))
}

// OnlineRow is one account's line of the online-duration report.
type OnlineRow struct {
	MsID     string  `json:"msId"`
	MsName   string  `json:"msName"`
	OnlineMs int64   `json:"onlineMs"` // online time inside the range
	Sessions int     `json:"sessions"` // intervals that touch the range
	Days     []DayMs `json:"days"`     // per calendar day of the customer's zone, days without online time left out
}

// OnlineReport is the answer of findOnlineDurationPost.
type OnlineReport struct {
	STime int64       `json:"sTime"`
	ETime int64       `json:"eTime"`
	Total int         `json:"total"`
	List  []OnlineRow `json:"list"`
}

type durationReq struct {
	MsIDs flex.List `json:"msIds"`
	timerange.Params
}

// POST /ds/report/findOnlineDurationPost {msIds?, sTime, eTime}: online time per account over the range (every
// terminal of the customer without msIds), most online first.
func (s *Service) findOnlineDuration(ctx context.Context, p identity.Principal, req durationReq) (any, error) {
	ids, err := httpx.IDs("msIds", req.MsIDs, MaxTerminals, false)
	if err != nil {
		return nil, err
	}
	rg, loc, err := req.ForCustomer(ctx, s.db, p.CustomerID, timerange.Month)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	order := []string{}
	if len(ids) == 0 {
		all, err := s.dir.AllTerminals(ctx, directory.CustomerID(p.CustomerID))
		if err != nil {
			return nil, err
		}
		for _, a := range all {
			names[string(a.ID)] = a.Name
			order = append(order, string(a.ID))
		}
	} else {
		got, err := s.dir.Names(ctx, directory.CustomerID(p.CustomerID), directory.TerminalIDs(ids))
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if n, ok := got[directory.TerminalID(id)]; ok { // another customer's or unknown: left out
				names[id] = n
				order = append(order, id)
			}
		}
	}
	ivs, err := s.store.Intervals(ctx, p.CustomerID, order, rg.From, rg.To)
	if err != nil {
		return nil, err
	}
	now := s.Now().UnixMilli()
	rows := make([]OnlineRow, 0, len(order))
	for _, id := range order {
		spans := Clip(ivs[id], rg.From, rg.To, now)
		rows = append(rows, OnlineRow{MsID: id, MsName: names[id], OnlineMs: Total(spans), Sessions: len(spans),
			Days: PerDay(spans, loc)})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].OnlineMs > rows[j].OnlineMs })
	return OnlineReport{STime: rg.From, ETime: rg.To, Total: len(rows), List: rows}, nil
}

// DetailRow is one interval of findOnlineDetailData.
type DetailRow struct {
	Online     int64 `json:"online"`     // login (may be before stime)
	Offline    int64 `json:"offline"`    // logout; 0 while still online
	DurationMs int64 `json:"durationMs"` // the part inside the range
}

// detailCols is the column order of a row in the isCompress form.
var detailCols = []string{"online", "offline", "durationMs"}

type detailReq struct {
	MsID       string `json:"msId"`
	STime      string `json:"stime"`
	ETime      string `json:"etime"`
	IsCompress string `json:"isCompress"`
}

// GET /ds/report/findOnlineDetailData {msId, stime, etime, isCompress}: the online/offline intervals of one
// account that touch the range, oldest first. isCompress=1 answers {cols, rows} (rows are arrays in cols
// order) instead of {list} of objects.
func (s *Service) findOnlineDetail(ctx context.Context, p identity.Principal, req detailReq) (any, error) {
	id, err := httpx.ID("msId", req.MsID)
	if err != nil {
		return nil, err
	}
	compact, err := httpx.Flag("isCompress", req.IsCompress)
	if err != nil {
		return nil, err
	}
	loc, err := timerange.Zone(ctx, s.db, p.CustomerID)
	if err != nil {
		return nil, err
	}
	rg, err := timerange.Parse("stime", req.STime, "etime", req.ETime, loc, timerange.Month)
	if err != nil {
		return nil, err
	}
	names, err := s.dir.Names(ctx, directory.CustomerID(p.CustomerID), []directory.TerminalID{directory.TerminalID(id)})
	if err != nil {
		return nil, err
	}
	name, ok := names[directory.TerminalID(id)]
	if !ok {
		return nil, httpx.ErrNotFound
	}
	ivs, err := s.store.Intervals(ctx, p.CustomerID, []string{id}, rg.From, rg.To)
	if err != nil {
		return nil, err
	}
	now := s.Now().UnixMilli()
	res := map[string]any{"msId": id, "msName": name, "stime": rg.From, "etime": rg.To}
	var spans []Span
	rows := make([]DetailRow, 0, len(ivs[id]))
	for _, iv := range ivs[id] {
		c := Clip([]Interval{iv}, rg.From, rg.To, now)
		if len(c) == 0 {
			continue // touches the range only at an end
		}
		spans = append(spans, c[0])
		rows = append(rows, DetailRow{Online: iv.On, Offline: iv.Off, DurationMs: c[0].Ms()})
	}
	res["onlineMs"] = Total(spans)
	res["total"] = len(rows)
	if compact {
		out := make([][3]int64, len(rows))
		for i, r := range rows {
			out[i] = [3]int64{r.Online, r.Offline, r.DurationMs}
		}
		res["cols"], res["rows"] = detailCols, out
		return res, nil
	}
	res["list"] = rows
	return res, nil
}
