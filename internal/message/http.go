package message

import (
	"context"
	"log/slog"
	"strconv"
	"strings"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the message endpoints (spec §7 "SMS", the unread list and the /message-data report).
func (s *Service) Routes(r httpx.Router) {
	r.Console("GET /ds/sms/findSms", httpx.Bind(s.findSms))
	r.Console("PUT /ds/sms/updateSms", httpx.Bind(s.updateSms))
	r.Console("GET /ds/sms/unread", httpx.Bind(s.unread))
	r.Console("POST /ds/report/findMessageData", httpx.Bind(s.findMessageData))
}

func views(list []Message) []View {
	out := make([]View, len(list))
	for i, m := range list {
		out[i] = m.view()
	}
	return out
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// rangeOf checks a search range in the customer's zone; a range longer than a month answers "94".
func (s *Service) rangeOf(ctx context.Context, customerID int64, sName, sTime, eName, eTime string) (timerange.Range, error) {
	loc, err := timerange.Zone(ctx, s.Store.db, customerID)
	if err != nil {
		return timerange.Range{}, err
	}
	return timerange.Parse(sName, sTime, eName, eTime, loc, timerange.Month)
}

type findReq struct {
	Type   string `json:"type"`
	MsID   string `json:"msId"`
	DstID  string `json:"dstId"`
	PmrID  string `json:"pmrId"`
	GrpID  string `json:"grpId"`
	GID    string `json:"gid"`
	STime  string `json:"stime"`
	ETime  string `json:"etime"`
	STime2 string `json:"sTime"`
	ETime2 string `json:"eTime"`
	Unread string `json:"unread"`
	Order  string `json:"order"`
	httpx.PageReq
}

// GET /ds/sms/findSms {type, msId, dstId, pmrId, grpId, stime, etime, unread, order, pageNo, pageSize}
// → {total, list:[View]}
func (s *Service) findSms(ctx context.Context, p identity.Principal, req findReq) (any, error) {
	q := Query{Conversation: strings.TrimSpace(req.Type)}
	terminal := firstOf(req.DstID, req.PmrID)
	group := firstOf(req.GrpID, req.GID)
	if q.Conversation == "" {
		switch {
		case group != "":
			q.Conversation = ConvGroup
		case terminal != "":
			q.Conversation = ConvTerminal
		default:
			q.Conversation = ConvAll
		}
	}
	switch q.Conversation {
	case ConvTerminal:
		q.MsID = firstOf(terminal, req.MsID)
		if q.MsID == "" {
			return nil, httpx.BadParam("dstId", "required for type 1")
		}
		if len(q.MsID) > 32 {
			return nil, httpx.ErrNotFound
		}
		if err := s.Store.Terminal(ctx, p.CustomerID, q.MsID); err != nil {
			return nil, err
		}
	case ConvGroup:
		if group == "" {
			return nil, httpx.BadParam("grpId", "required for type 2")
		}
		gid, err := parseGID(flex.String(group))
		if err != nil {
			return nil, httpx.BadParam("grpId", "a group id")
		}
		if err := s.Store.Group(ctx, p.CustomerID, gid); err != nil {
			return nil, err
		}
		q.GID = gid
	case ConvAll:
		if q.MsID = req.MsID; q.MsID != "" {
			if len(q.MsID) > 32 {
				return nil, httpx.ErrNotFound
			}
			if err := s.Store.Account(ctx, p.CustomerID, q.MsID); err != nil {
				return nil, err
			}
		}
	default:
		return nil, httpx.BadParam("type", "0, 1 or 2")
	}
	var err error
	if q.UnreadOnly, err = httpx.Flag("unread", req.Unread); err != nil {
		return nil, err
	}
	if q.Ascending, err = httpx.Ascending("order", req.Order); err != nil {
		return nil, err
	}
	if q.Offset, q.Limit, err = req.Paging(); err != nil {
		return nil, err
	}
	rg, err := s.rangeOf(ctx, p.CustomerID, "stime", firstOf(req.STime, req.STime2), "etime", firstOf(req.ETime, req.ETime2))
	if err != nil {
		return nil, err
	}
	q.From, q.To = rg.From, rg.To
	list, total, err := s.Store.Find(ctx, p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	return httpx.PageOf(views(list), total), nil
}

// ReadEvent is the data of the durable `sms.read` event.
type ReadEvent struct {
	IDs    []string `json:"ids"`
	By     string   `json:"by"`
	ByName string   `json:"byName"`
	MsID   string   `json:"msId,omitempty"` // the conversation, when one was marked read as a whole
	GID    string   `json:"gid,omitempty"`
	ReadAt int64    `json:"readAt"`
}

type updateReq struct {
	IDs    flex.List `json:"ids"`
	ID     string    `json:"id"`
	MsID   string    `json:"msId"`
	GID    string    `json:"gid"`
	GrpID  string    `json:"grpId"`
	All    string    `json:"all"`
	Status string    `json:"status"`
}

// PUT /ds/sms/updateSms {ids | id | msId | gid | all, status:1} → {updated, ids}
func (s *Service) updateSms(ctx context.Context, p identity.Principal, req updateReq) (any, error) {
	if req.Status != "" && req.Status != "1" {
		return nil, httpx.BadParam("status", "only 1 (read)")
	}
	var rr ReadRequest
	ids := req.IDs
	if req.ID != "" {
		ids = append(ids, req.ID)
	}
	group := firstOf(req.GID, req.GrpID)
	given := 0
	for _, set := range []bool{len(ids) > 0, req.MsID != "", group != "", req.All == "1" || req.All == "true"} {
		if set {
			given++
		}
	}
	if given != 1 {
		return nil, httpx.BadParam("ids", "exactly one of ids, msId, gid and all")
	}
	switch {
	case len(ids) > 0:
		var err error
		if rr.IDs, err = httpx.RowIDs("ids", ids, 1000, true); err != nil {
			return nil, err
		}
	case req.MsID != "":
		if len(req.MsID) > 32 {
			return nil, httpx.ErrNotFound
		}
		if err := s.Store.Account(ctx, p.CustomerID, req.MsID); err != nil {
			return nil, err
		}
		rr.MsID = req.MsID
	case group != "":
		gid, err := parseGID(flex.String(group))
		if err != nil {
			return nil, err
		}
		if err := s.Store.Group(ctx, p.CustomerID, gid); err != nil {
			return nil, err
		}
		rr.GID = gid
	default:
		rr.All = true
	}
	at := s.now().UnixMilli()
	changed, err := s.Store.MarkRead(ctx, p.CustomerID, p.AccountID, rr, at)
	if err != nil {
		return nil, err
	}
	ev := ReadEvent{IDs: make([]string, len(changed)), By: p.AccountID, ByName: p.Name, MsID: rr.MsID, ReadAt: at}
	for i, id := range changed {
		ev.IDs[i] = strconv.FormatInt(id, 10)
	}
	if rr.GID != 0 {
		ev.GID = strconv.FormatInt(rr.GID, 10)
	}
	if len(changed) > 0 {
		if _, err := s.hub.PublishDurable(context.WithoutCancel(ctx), p.CustomerID, EventRead, ev, realtime.Consoles); err != nil {
			slog.ErrorContext(ctx, "sms: publish read", "err", err)
		}
	}
	return map[string]any{"updated": len(changed), "ids": ev.IDs}, nil
}

// UnreadList is the answer of GET /ds/sms/unread: the oldest 1000 unread messages, and every conversation
// with unread ones.
type UnreadList struct {
	httpx.Page[View]
	Conversations []Conversation `json:"conversations"`
}

// GET /ds/sms/unread → UnreadList: the caller's unread messages (console start-up and resync).
func (s *Service) unread(ctx context.Context, p identity.Principal, _ struct{}) (any, error) {
	list, total, err := s.Store.Unread(ctx, p.CustomerID, p.AccountID, 1000)
	if err != nil {
		return nil, err
	}
	convs, err := s.Store.UnreadConversations(ctx, p.CustomerID, p.AccountID)
	if err != nil {
		return nil, err
	}
	return UnreadList{Page: httpx.PageOf(views(list), total), Conversations: convs}, nil
}

// ReportPage is the answer of findMessageData: a page of the messages and the per-terminal counts.
type ReportPage struct {
	httpx.Page[View]
	Summary []TerminalCount `json:"summary"`
}

type reportReq struct {
	httpx.MsIDs
	STime  string `json:"sTime"`
	ETime  string `json:"eTime"`
	STime2 string `json:"stime"`
	ETime2 string `json:"etime"`
	httpx.PageReq
}

// POST /ds/report/findMessageData {msIds, sTime, eTime, pageNo, pageSize} → ReportPage
func (s *Service) findMessageData(ctx context.Context, p identity.Principal, req reportReq) (any, error) {
	q := ReportQuery{}
	seen := map[string]bool{}
	for _, id := range req.MsIDs.All() {
		if id = strings.TrimSpace(id); id == "" || seen[id] {
			continue
		}
		if len(id) > 32 || len(q.MsIDs) >= 1000 {
			return nil, httpx.BadParam("msIds", "at most 1000 ids")
		}
		if err := s.Store.Account(ctx, p.CustomerID, id); err != nil {
			return nil, err
		}
		seen[id] = true
		q.MsIDs = append(q.MsIDs, id)
	}
	var err error
	if q.Offset, q.Limit, err = req.Paging(); err != nil {
		return nil, err
	}
	rg, err := s.rangeOf(ctx, p.CustomerID, "sTime", firstOf(req.STime, req.STime2), "eTime", firstOf(req.ETime, req.ETime2))
	if err != nil {
		return nil, err
	}
	q.From, q.To = rg.From, rg.To
	list, total, summary, err := s.Store.Report(ctx, p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	return ReportPage{Page: httpx.PageOf(views(list), total), Summary: summary}, nil
}
