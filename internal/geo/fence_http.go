package geo

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// The fence endpoints: fences, their terminals, and fence alarms (list, respond or close, counts).

func checkFenceType(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v != FenceIn && v != FenceOut {
		return "", httpx.BadParam("type", "in or out")
	}
	return v, nil
}

func (s *Service) fenceChanged(ctx context.Context, p identity.Principal, action string, ids ...int64) error {
	if err := s.reloadFences(ctx, p.CustomerID); err != nil {
		return err
	}
	for _, id := range ids {
		s.hub.Publish(p.CustomerID, EventFenceChanged, changeEvent{Fence: fenceIDString(id), Action: action}, realtime.Consoles)
	}
	return nil
}

// fenceListReq is the request of GET /ds/fence/list.
type fenceListReq struct {
	Cid  string `json:"cid"`
	Type string `json:"type"`
	MsID string `json:"msId"`
}

// fenceList: {cid, type, msId} → fences of the caller's customer, optionally of one type or one terminal.
func (s *Service) fenceList(ctx context.Context, p identity.Principal, req fenceListReq) (any, error) {
	if err := checkCustomer(p, "cid", req.Cid); err != nil {
		return nil, err
	}
	f := FenceFilter{Terminal: strings.TrimSpace(req.MsID)}
	if strings.TrimSpace(req.Type) != "" {
		t, err := checkFenceType(req.Type)
		if err != nil {
			return nil, err
		}
		f.Type = t
	}
	return s.Store.Fences(ctx, p.CustomerID, f)
}

// fenceIn is the body of create and edit.
type fenceIn struct {
	FenceID  string    `json:"fenceid"`
	Name     *string   `json:"name"`
	Type     *string   `json:"type"`
	Shape    string    `json:"shape"`
	Geometry rawJSON   `json:"geometry"`
	Radius   string    `json:"radius"`
	MsIDs    flex.List `json:"msIds"`
}

func (in fenceIn) radius() (float64, error) {
	if strings.TrimSpace(in.Radius) == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(in.Radius), 64)
	if err != nil || !finite(v) {
		return 0, httpx.BadParam("radius", "metres")
	}
	return v, nil
}

func (s *Service) fenceCreate(ctx context.Context, p identity.Principal, in fenceIn) (any, error) {
	name := ""
	if in.Name != nil {
		name = *in.Name
	}
	name, err := fenceName.Check(name)
	if err != nil {
		return nil, err
	}
	if in.Type == nil {
		return nil, httpx.BadParam("type", "in or out")
	}
	typ, err := checkFenceType(*in.Type)
	if err != nil {
		return nil, err
	}
	radius, err := in.radius()
	if err != nil {
		return nil, err
	}
	geom, region, err := compileFence(strings.TrimSpace(in.Shape), json.RawMessage(in.Geometry), radius)
	if err != nil {
		return nil, err
	}
	ids, err := httpx.IDs("msIds", in.MsIDs, MaxIDs, false)
	if err != nil {
		return nil, err
	}
	f := &Fence{Name: name, Type: typ, Shape: strings.TrimSpace(in.Shape), Geometry: geom, Terminals: ids,
		CreatorID: p.AccountID, Creator: p.Name, region: region}
	if f.Shape == ShapeCircle {
		f.Radius = radius
	}
	if f.Terminals == nil {
		f.Terminals = []string{}
	}
	if err := s.Store.CreateFence(ctx, p.CustomerID, f, s.now().UnixMilli()); err != nil {
		return nil, err
	}
	s.log.By(ctx, p, oplog.FenceCreate, f.Name, oplog.D("fenceCreated", "name", f.Name))
	if err := s.fenceChanged(ctx, p, "create", f.ID); err != nil {
		return nil, err
	}
	return s.withOccupancy(ctx, p.CustomerID, f)
}

// fence reads a call's fenceid (one fence) and loads that fence of the caller's customer.
func (s *Service) fence(ctx context.Context, p identity.Principal, fenceID string) (*Fence, error) {
	id, err := httpx.RowID[int64]("fenceid", fenceID)
	if err != nil {
		return nil, err
	}
	return s.Store.Fence(ctx, p.CustomerID, id)
}

func (s *Service) fenceEdit(ctx context.Context, p identity.Principal, in fenceIn) (any, error) {
	cur, err := s.fence(ctx, p, in.FenceID)
	if err != nil {
		return nil, err
	}
	var e FenceEdit
	if in.Name != nil {
		n, err := fenceName.Check(*in.Name)
		if err != nil {
			return nil, err
		}
		e.Name = &n
	}
	if in.Type != nil {
		t, err := checkFenceType(*in.Type)
		if err != nil {
			return nil, err
		}
		e.Type = &t
	}
	if in.Shape != "" || in.Geometry != nil || in.Radius != "" {
		shape, geom, radius := cur.Shape, json.RawMessage(cur.Geometry), cur.Radius
		if in.Shape != "" {
			shape = strings.TrimSpace(in.Shape)
		}
		if in.Geometry != nil {
			geom = json.RawMessage(in.Geometry)
		}
		if in.Radius != "" {
			if radius, err = in.radius(); err != nil {
				return nil, err
			}
		}
		if e.Geometry, _, err = compileFence(shape, geom, radius); err != nil {
			return nil, err
		}
		e.Shape = shape
		if shape == ShapeCircle {
			e.Radius = radius
		}
	}
	if err := s.Store.EditFence(ctx, p.CustomerID, cur.ID, e, s.now().UnixMilli()); err != nil {
		return nil, err
	}
	f, err := s.Store.Fence(ctx, p.CustomerID, cur.ID)
	if err != nil {
		return nil, err
	}
	s.log.By(ctx, p, oplog.FenceEdit, f.Name, oplog.D("fenceEdited", "name", f.Name))
	if err := s.fenceChanged(ctx, p, "edit", f.ID); err != nil {
		return nil, err
	}
	return f, nil
}

// fenceSetReq is the request of POST /ds/fence/set.
type fenceSetReq struct {
	FenceID string     `json:"fenceid"`
	MsIDs   *flex.List `json:"msIds"`
	Add     flex.List  `json:"add"`
	Remove  flex.List  `json:"remove"`
}

// fenceSet: {fenceid, msIds?, add?, remove?} — msIds replaces the whole list; add and remove change it.
func (s *Service) fenceSet(ctx context.Context, p identity.Principal, req fenceSetReq) (any, error) {
	id, err := httpx.RowID[int64]("fenceid", req.FenceID)
	if err != nil {
		return nil, err
	}
	if req.MsIDs == nil && len(req.Add) == 0 && len(req.Remove) == 0 {
		return nil, httpx.BadParam("msIds/add/remove", "required")
	}
	var replace []string
	if req.MsIDs != nil {
		if replace, err = httpx.IDs("msIds", *req.MsIDs, MaxIDs, false); err != nil {
			return nil, err
		}
		if replace == nil {
			replace = []string{}
		}
	}
	add, err := httpx.IDs("add", req.Add, MaxIDs, false)
	if err != nil {
		return nil, err
	}
	remove, err := httpx.IDs("remove", req.Remove, MaxIDs, false)
	if err != nil {
		return nil, err
	}
	if err := s.Store.SetFenceTerminals(ctx, p.CustomerID, id, replace, add, remove, s.now().UnixMilli()); err != nil {
		return nil, err
	}
	f, err := s.Store.Fence(ctx, p.CustomerID, id)
	if err != nil {
		return nil, err
	}
	s.log.By(ctx, p, oplog.FenceEdit, f.Name+": terminals", oplog.D("fenceTerminals", "name", f.Name))
	if err := s.fenceChanged(ctx, p, "set", f.ID); err != nil {
		return nil, err
	}
	return s.withOccupancy(ctx, p.CustomerID, f)
}

// Occupant is a terminal of a fence at its latest position.
type Occupant struct {
	MsID string  `json:"msId"`
	Name string  `json:"name"`
	Lat  float64 `json:"lat"`
	Lng  float64 `json:"lng"`
	Time int64   `json:"time"` // of the fix (ms)
}

// fenceOccupancy is the reply of create and set: the fence and where its terminals are now. The engine alarms on
// crossings only, so a terminal that already breaks the fence's rule when the fence is drawn or assigned to it
// stays silent until it crosses; the console shows these and offers to raise the alarm (fenceAlarmBreaches).
type fenceOccupancy struct {
	*Fence
	// Occupants are the terminals inside the fence.
	Occupants []Occupant `json:"occupants"`
	// Breaching are the terminals already breaking its rule: inside an "out" fence, outside an "in" fence.
	Breaching []Occupant `json:"breaching"`
}

func (s *Service) withOccupancy(ctx context.Context, customer int64, f *Fence) (fenceOccupancy, error) {
	occ, breach, err := s.occupancy(ctx, customer, f)
	return fenceOccupancy{Fence: f, Occupants: occ, Breaching: breach}, err
}

// occupancy places the fence's terminals that have a position (their latest fix, from the live cache).
func (s *Service) occupancy(ctx context.Context, customer int64, f *Fence) (inside, breaching []Occupant, err error) {
	inside, breaching = []Occupant{}, []Occupant{}
	if len(f.Terminals) == 0 {
		return inside, breaching, nil
	}
	names, err := s.Store.Terminals(ctx, customer, f.Terminals)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range f.Terminals {
		fix, ok := s.cache.lastFix(id, customer)
		if !ok {
			continue
		}
		o := Occupant{MsID: id, Name: names[id].Name, Lat: fix.Lat, Lng: fix.Lng, Time: fix.Time}
		in := f.region.Contains(fix.pos())
		if in {
			inside = append(inside, o)
		}
		if in == (f.Type == FenceOut) {
			breaching = append(breaching, o)
		}
	}
	return inside, breaching, nil
}

// fenceAlarmBreachesReq is the request of POST /ds/fence/alarmBreaches.
type fenceAlarmBreachesReq struct {
	FenceID string    `json:"fenceid"`
	MsIDs   flex.List `json:"msIds"`
}

// fenceAlarmBreaches: {fenceid, msIds?} raises the fence's alarm now for its terminals whose latest position
// already breaks its rule (all of them, or those among msIds), through the engine's own path (stored, then
// `fence.alarm`), at that position and the current time. A terminal with an alarm of this fence still open
// (raised or responded) is left alone, so asking twice raises nothing twice. → {"list": [alarms raised]}.
func (s *Service) fenceAlarmBreaches(ctx context.Context, p identity.Principal, req fenceAlarmBreachesReq) (any, error) {
	id, err := httpx.RowID[int64]("fenceid", req.FenceID)
	if err != nil {
		return nil, err
	}
	only, err := httpx.IDs("msIds", req.MsIDs, MaxIDs, false)
	if err != nil {
		return nil, err
	}
	f, err := s.Store.Fence(ctx, p.CustomerID, id)
	if err != nil {
		return nil, err
	}
	_, breaching, err := s.occupancy(ctx, p.CustomerID, f)
	if err != nil {
		return nil, err
	}
	wanted := map[string]bool{}
	for _, id := range only {
		wanted[id] = true
	}
	var candidates []string
	for _, o := range breaching {
		if len(only) == 0 || wanted[o.MsID] {
			candidates = append(candidates, o.MsID)
		}
	}
	raised := []Alarm{}
	if len(candidates) == 0 {
		return map[string]any{"list": raised}, nil
	}
	open := map[string]bool{}
	for _, st := range []int{AlarmOpen, AlarmResponded} {
		list, _, err := s.Store.Alarms(ctx, p.CustomerID, AlarmFilter{Fences: []int64{f.ID}, Terminals: candidates, Status: &st}, 0, MaxPageSize)
		if err != nil {
			return nil, err
		}
		for _, a := range list {
			open[a.MsID] = true
		}
	}
	kind := AlarmLeave
	if f.Type == FenceOut {
		kind = AlarmEnter
	}
	now := s.now().UnixMilli()
	for _, o := range breaching {
		if open[o.MsID] || (len(only) > 0 && !wanted[o.MsID]) {
			continue
		}
		at := alarmAt{crossing: crossing{fence: f, kind: kind}, at: Point{Lat: o.Lat, Lng: o.Lng, Time: now}}
		a, err := s.raiseAlarm(ctx, p.CustomerID, TerminalRef{MsID: o.MsID, Name: o.Name}, at)
		if err != nil {
			return nil, err
		}
		raised = append(raised, a)
	}
	return map[string]any{"list": raised}, nil
}

// fenceDelReq is the request of PUT /ds/fence/del.
type fenceDelReq struct {
	FenceID flex.List `json:"fenceid"`
}

func (s *Service) fenceDel(ctx context.Context, p identity.Principal, req fenceDelReq) (any, error) {
	ids, err := httpx.RowIDs("fenceid", req.FenceID, MaxIDs, true)
	if err != nil {
		return nil, err
	}
	names, err := s.Store.DeleteFences(ctx, p.CustomerID, ids)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		s.log.By(ctx, p, oplog.FenceDelete, n, oplog.D("fenceDeleted", "name", n))
	}
	if err := s.fenceChanged(ctx, p, "delete", ids...); err != nil {
		return nil, err
	}
	return map[string]int{"deleted": len(ids)}, nil
}

// fenceFindTerReq is the request of GET /ds/fence/findter.
type fenceFindTerReq struct {
	Cid     string `json:"cid"`
	FenceID string `json:"fenceid"`
}

// fenceFindTer: {cid, fenceid} → the fence's terminals [{msId, name, online}].
func (s *Service) fenceFindTer(ctx context.Context, p identity.Principal, req fenceFindTerReq) (any, error) {
	if err := checkCustomer(p, "cid", req.Cid); err != nil {
		return nil, err
	}
	f, err := s.fence(ctx, p, req.FenceID)
	if err != nil {
		return nil, err
	}
	names, err := s.Store.Terminals(ctx, p.CustomerID, f.Terminals)
	if err != nil {
		return nil, err
	}
	type ter struct {
		MsID   string `json:"msId"`
		Name   string `json:"name"`
		Online string `json:"online"`
	}
	out := make([]ter, 0, len(f.Terminals))
	for _, id := range f.Terminals {
		on := "0"
		if s.hub.Online(id) {
			on = "1"
		}
		out = append(out, ter{MsID: id, Name: names[id].Name, Online: on})
	}
	return out, nil
}

type alarmQuery struct {
	FenceID  flex.List `json:"fenceid"`
	FenceIDs flex.List `json:"fenceIds"`
	httpx.MsIDs
	Status  string `json:"status"`
	STime   string `json:"sTime"`
	ETime   string `json:"eTime"`
	GroupBy string `json:"groupBy"`
	httpx.PageReq
}

func (s *Service) alarmFilter(ctx context.Context, p identity.Principal, q alarmQuery, rangeRequired bool) (AlarmFilter, error) {
	var f AlarmFilter
	var err error
	if f.Fences, err = httpx.RowIDs("fenceid", append(q.FenceID, q.FenceIDs...), MaxIDs, false); err != nil {
		return f, err
	}
	if f.Terminals, err = q.MsIDs.Check("msIds", MaxIDs, false); err != nil {
		return f, err
	}
	if st := strings.TrimSpace(q.Status); st != "" {
		n, err := strconv.Atoi(st)
		if err != nil || n < AlarmOpen || n > AlarmClosed {
			return f, httpx.BadParam("status", "0, 1 or 2")
		}
		f.Status = &n
	}
	if rangeRequired || strings.TrimSpace(q.STime) != "" || strings.TrimSpace(q.ETime) != "" {
		rng, err := s.timeRange(ctx, p, "sTime", q.STime, "eTime", q.ETime, MaxReportRange)
		if err != nil {
			return f, err
		}
		f.From, f.To = rng.From, rng.To
	}
	return f, nil
}

// fenceAlarms: GET fa {fenceid?, msIds?, status?, sTime?, eTime?, pageNo, pageSize} → {total, list} newest first.
func (s *Service) fenceAlarms(ctx context.Context, p identity.Principal, q alarmQuery) (any, error) {
	f, err := s.alarmFilter(ctx, p, q, false)
	if err != nil {
		return nil, err
	}
	offset, limit, err := q.PagingFrom(1000, MaxPageSize) // spec §9: 1000 rows a page unless asked
	if err != nil {
		return nil, err
	}
	return httpx.ListOf(s.Store.Alarms(ctx, p.CustomerID, f, offset, limit))
}

// fenceAlarmHandleReq is the request of PUT /ds/fence/fa.
type fenceAlarmHandleReq struct {
	ID     flex.List `json:"id"`
	Status string    `json:"status"`
	Remark string    `json:"remark"`
}

// fenceAlarmHandle: PUT fa {id, status, remark?} — status 1 responds to the alarms, 2 closes (cancels) them
// (log 127 per closed alarm); each changed record is published as `fence.alarmUpdated`.
func (s *Service) fenceAlarmHandle(ctx context.Context, p identity.Principal, req fenceAlarmHandleReq) (any, error) {
	ids, err := httpx.RowIDs("id", req.ID, MaxIDs, true)
	if err != nil {
		return nil, err
	}
	status, err := strconv.Atoi(strings.TrimSpace(req.Status))
	if err != nil || (status != AlarmResponded && status != AlarmClosed) {
		return nil, httpx.BadParam("status", "1 (respond) or 2 (close)")
	}
	remark, err := httpx.Text("remark", req.Remark, MaxMarkTextLen)
	if err != nil {
		return nil, err
	}
	changed, err := s.Store.HandleAlarms(ctx, p.CustomerID, ids, status, p.AccountID, p.Name, remark, s.now().UnixMilli())
	if err != nil {
		return nil, err
	}
	for _, a := range changed {
		if a.Status == AlarmClosed {
			s.log.By(ctx, p, oplog.FenceAlarmCanceled, fmt.Sprintf("%s %s (%s)", a.MsName, a.FenceName, a.Type),
				oplog.D("fenceAlarmClosed", "terminal", a.MsID, "name", a.FenceName, "event", a.Type))
		}
		if _, err := s.hub.PublishDurable(ctx, p.CustomerID, EventAlarmUpdated, a, realtime.Consoles); err != nil {
			return nil, err
		}
	}
	if changed == nil {
		changed = []Alarm{}
	}
	return map[string]any{"list": changed}, nil
}

// fenceAlarmCount: {msIds?, fenceIds?, sTime, eTime, groupBy: terminal|fence} → {total, list}.
func (s *Service) fenceAlarmCount(ctx context.Context, p identity.Principal, q alarmQuery) (any, error) {
	byFence := false
	switch strings.TrimSpace(q.GroupBy) {
	case "", "terminal":
	case "fence":
		byFence = true
	default:
		return nil, httpx.BadParam("groupBy", "terminal or fence")
	}
	f, err := s.alarmFilter(ctx, p, q, true)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.CountAlarms(ctx, p.CustomerID, f, byFence)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, c := range list {
		total += c.Count
	}
	return httpx.PageOf(list, total), nil
}
