package indoor

import (
	"context"
	"strings"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the indoor endpoints (docs/api.md "Indoor positioning"; the spec names the screen, /indoor, and
// its data-source key, indoorLocation, but no calls).
func (s *Service) Routes(r httpx.Router) {
	r.Console("GET /ds/indoor/building/list", httpx.Bind(s.listBuildings))
	r.Console("POST /ds/indoor/building/add", httpx.Bind(s.addBuilding))
	r.Console("PUT /ds/indoor/building/update", httpx.Bind(s.updateBuilding))
	r.Console("DELETE /ds/indoor/building/delete", httpx.Bind(s.deleteBuilding))
	r.Console("POST /ds/indoor/floor/add", httpx.Bind(s.addFloor))
	r.Console("PUT /ds/indoor/floor/update", httpx.Bind(s.updateFloor))
	r.Console("DELETE /ds/indoor/floor/delete", httpx.Bind(s.deleteFloor))
	r.Console("POST /ds/indoor/beacon/add", httpx.Bind(s.addBeacon))
	r.Console("PUT /ds/indoor/beacon/update", httpx.Bind(s.updateBeacon))
	r.Console("DELETE /ds/indoor/beacon/delete", httpx.Bind(s.deleteBeacon))
	r.Console("POST /ds/indoor/area/add", httpx.Bind(s.addArea))
	r.Console("PUT /ds/indoor/area/update", httpx.Bind(s.updateArea))
	r.Console("DELETE /ds/indoor/area/delete", httpx.Bind(s.deleteArea))
	r.Console("GET /ds/indoor/position/last", httpx.Bind(s.lastPositions))
	r.Console("GET /ds/indoor/position/history", httpx.Bind(s.history))
}

// History is a terminal's track: the list and whether MaxHistory left positions out.
type History struct {
	httpx.Page[Position]
	Truncated bool `json:"truncated,omitempty"`
}

type idReq struct {
	ID string `json:"id"`
}

// GET /ds/indoor/building/list → {total, list: [Building with floors and beacons]}
func (s *Service) listBuildings(ctx context.Context, p identity.Principal, _ struct{}) (any, error) {
	list, err := s.store.Buildings(ctx, p.CustomerID)
	if err != nil {
		return nil, err
	}
	return httpx.All(list), nil
}

type buildingReq struct {
	ID     string  `json:"id"`
	Name   *string `json:"name"`
	Remark *string `json:"remark"`
}

// apply checks the request's fields over b (an add starts from a zero building: the name is required).
func (req buildingReq) apply(b Building, add bool) (Building, error) {
	var err error
	if req.Name != nil || add {
		if b.Name, err = nameField.Check(deref(req.Name)); err != nil {
			return b, err
		}
	}
	if req.Remark != nil {
		if b.Remark, err = httpx.Text("remark", *req.Remark, MaxRemark); err != nil {
			return b, err
		}
	}
	return b, nil
}

// deref is a request's optional string, "" when absent.
func deref(v *string) string {
	if v == nil {
		return ""
	}
	return *v
}

// POST /ds/indoor/building/add {name, remark?} → Building
func (s *Service) addBuilding(ctx context.Context, p identity.Principal, req buildingReq) (any, error) {
	b, err := req.apply(Building{}, true)
	if err != nil {
		return nil, err
	}
	return addRow(ctx, s, p, "building", b, s.store.CreateBuilding, s.store.Building)
}

// addRow stores a checked new row of one kind (create), tells the consoles and answers the row as stored (get).
func addRow[T any, ID ~int64](ctx context.Context, s *Service, p identity.Principal, what string, row T,
	create func(ctx context.Context, customerID int64, row T, at int64) (ID, error),
	get func(ctx context.Context, customerID int64, id ID) (T, error)) (any, error) {
	id, err := create(ctx, p.CustomerID, row, s.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	s.changed(p.CustomerID, what, int64(id))
	return get(ctx, p.CustomerID, id)
}

// PUT /ds/indoor/building/update {id, name?, remark?} → Building
func (s *Service) updateBuilding(ctx context.Context, p identity.Principal, req buildingReq) (any, error) {
	return updateRow(ctx, s, p, req.ID, "building", s.store.Building,
		func(b Building) (Building, error) { return req.apply(b, false) }, s.store.UpdateBuilding)
}

// updateRow updates the customer's row of one kind named by rawID (the "id" parameter): get reads it, apply
// checks the request over it, put stores it; the consoles are told and the row is answered as stored.
func updateRow[T any, ID ~int64](ctx context.Context, s *Service, p identity.Principal, rawID, what string,
	get func(ctx context.Context, customerID int64, id ID) (T, error),
	apply func(cur T) (T, error),
	put func(ctx context.Context, customerID int64, row T) error) (any, error) {
	id, err := httpx.RowID[ID]("id", rawID)
	if err != nil {
		return nil, err
	}
	cur, err := get(ctx, p.CustomerID, id)
	if err != nil {
		return nil, err
	}
	row, err := apply(cur)
	if err != nil {
		return nil, err
	}
	if err := put(ctx, p.CustomerID, row); err != nil {
		return nil, err
	}
	s.changed(p.CustomerID, what, int64(id))
	return get(ctx, p.CustomerID, id)
}

// DELETE /ds/indoor/building/delete {id} → {id}: the building with its floors, beacons and positions.
func (s *Service) deleteBuilding(ctx context.Context, p identity.Principal, req idReq) (any, error) {
	return deleteOne(ctx, s, p, req, "building", s.store.DeleteBuilding)
}

type floorReq struct {
	ID         string  `json:"id"`
	BuildingID string  `json:"buildingId"`
	Name       *string `json:"name"`
	Level      string  `json:"level"`
	FileID     string  `json:"fileId"`
	ScaleInput
}

func parseLevel(s string, def int) (int, error) {
	if strings.TrimSpace(s) == "" {
		return def, nil
	}
	v, err := httpx.Int("level", s)
	if err != nil || v < MinLevel || v > MaxLevel {
		return 0, httpx.BadParam("level", "-10 to 200")
	}
	return int(v), nil
}

// applyFloor checks the request's fields over f (an add starts from a zero floor of its building: the name,
// the scale and the plan are required, and the building must be the customer's).
func (s *Service) applyFloor(ctx context.Context, customerID int64, req floorReq, f Floor, add bool) (Floor, error) {
	var err error
	if req.Name != nil || add {
		if f.Name, err = nameField.Check(deref(req.Name)); err != nil {
			return f, err
		}
	}
	if f.Level, err = parseLevel(req.Level, f.Level); err != nil {
		return f, err
	}
	if req.ScaleInput.given() || add {
		if f.Scale, f.Ref, err = req.ScaleInput.Resolve(); err != nil {
			return f, err
		}
	}
	if add {
		if _, err := s.store.Building(ctx, customerID, f.BuildingID); err != nil {
			return f, err
		}
	}
	if id := strings.TrimSpace(req.FileID); add || (id != "" && id != f.FileID) {
		f.FileID = id
		if f.Width, f.Height, err = s.plan(ctx, customerID, f.FileID); err != nil {
			return f, err
		}
	}
	return f, nil
}

// POST /ds/indoor/floor/add {buildingId, name, level?, fileId, scale | refX1, refY1, refX2, refY2, refDistance} → Floor
func (s *Service) addFloor(ctx context.Context, p identity.Principal, req floorReq) (any, error) {
	bid, err := httpx.RowID[BuildingID]("buildingId", req.BuildingID)
	if err != nil {
		return nil, err
	}
	f, err := s.applyFloor(ctx, p.CustomerID, req, Floor{BuildingID: bid}, true)
	if err != nil {
		return nil, err
	}
	return addRow(ctx, s, p, "floor", f, s.store.CreateFloor, s.store.Floor)
}

// PUT /ds/indoor/floor/update {id, name?, level?, fileId?, scale? | ref…?} → Floor
func (s *Service) updateFloor(ctx context.Context, p identity.Principal, req floorReq) (any, error) {
	return updateRow(ctx, s, p, req.ID, "floor", s.store.Floor,
		func(f Floor) (Floor, error) { return s.applyFloor(ctx, p.CustomerID, req, f, false) }, s.store.UpdateFloor)
}

// DELETE /ds/indoor/floor/delete {id} → {id}: the floor with its beacons and positions.
func (s *Service) deleteFloor(ctx context.Context, p identity.Principal, req idReq) (any, error) {
	return deleteOne(ctx, s, p, req, "floor", s.store.DeleteFloor)
}

type beaconReq struct {
	ID      string  `json:"id"`
	FloorID string  `json:"floorId"`
	MAC     *string `json:"mac"`
	Name    *string `json:"name"`
	X       string  `json:"x"`
	Y       string  `json:"y"`
	RSSI    string  `json:"rssi"`
	Decay   string  `json:"decay"`
}

// apply checks the request's fields over b (an add starts from a zero beacon: every field is required but the
// name) on the floor f.
func (req beaconReq) apply(b Beacon, f Floor, add bool) (Beacon, error) {
	var err error
	if req.MAC != nil || add {
		var ok bool
		if b.MAC, ok = NormalizeMAC(deref(req.MAC)); !ok {
			return b, ErrMAC
		}
	}
	if req.Name != nil {
		if b.Name, err = labelField.Check(*req.Name); err != nil {
			return b, err
		}
	}
	if strings.TrimSpace(req.RSSI) != "" || add {
		if b.RSSI, err = CheckRSSI(req.RSSI); err != nil {
			return b, err
		}
	}
	if strings.TrimSpace(req.Decay) != "" || add {
		if b.Decay, err = CheckDecay(req.Decay); err != nil {
			return b, err
		}
	}
	for _, c := range []struct {
		name, v string
		dst     *float64
	}{{"x", req.X, &b.X}, {"y", req.Y, &b.Y}} {
		v, ok, err := parseFloat(c.name, c.v)
		if err != nil {
			return b, err
		}
		if !ok && add {
			return b, httpx.BadParam(c.name, "required")
		}
		if ok {
			*c.dst = round(v, 2)
		}
	}
	if b.X < 0 || b.Y < 0 || b.X > float64(f.Width) || b.Y > float64(f.Height) {
		return b, ErrOffPlan
	}
	b.FloorID, b.BuildingID = f.ID, f.BuildingID
	return b, nil
}

// POST /ds/indoor/beacon/add {floorId, mac, name?, x, y (plan pixels), rssi (at 1 m), decay} → Beacon
func (s *Service) addBeacon(ctx context.Context, p identity.Principal, req beaconReq) (any, error) {
	return addOnFloor(ctx, s, p, req.FloorID, "beacon", req.apply, s.store.CreateBeacon, s.store.Beacon)
}

// addOnFloor adds a row of one kind (a beacon, an area) on the customer's floor floorID: apply checks the
// request over a zero row on that floor, create stores it, get reads back what was stored; the consoles are told.
func addOnFloor[T any, ID ~int64](ctx context.Context, s *Service, p identity.Principal, floorID, what string,
	apply func(cur T, f Floor, add bool) (T, error),
	create func(ctx context.Context, customerID int64, row T, at int64) (ID, error),
	get func(ctx context.Context, customerID int64, id ID) (T, error)) (any, error) {
	fid, err := httpx.RowID[FloorID]("floorId", floorID)
	if err != nil {
		return nil, err
	}
	f, err := s.store.Floor(ctx, p.CustomerID, fid)
	if err != nil {
		return nil, err
	}
	var zero T
	row, err := apply(zero, f, true)
	if err != nil {
		return nil, err
	}
	return addRow(ctx, s, p, what, row, create, get)
}

// PUT /ds/indoor/beacon/update {id, floorId?, mac?, name?, x?, y?, rssi?, decay?} → Beacon
func (s *Service) updateBeacon(ctx context.Context, p identity.Principal, req beaconReq) (any, error) {
	return updateRow(ctx, s, p, req.ID, "beacon", s.store.Beacon, func(cur Beacon) (Beacon, error) {
		fid, err := httpx.OptRowID[FloorID]("floorId", req.FloorID)
		if err != nil {
			return cur, err
		}
		if fid == 0 { // it stays on its floor
			fid = cur.FloorID
		}
		f, err := s.store.Floor(ctx, p.CustomerID, fid)
		if err != nil {
			return cur, err
		}
		return req.apply(cur, f, false)
	}, s.store.UpdateBeacon)
}

// idsReq is a delete's {id | ids} (a number, a comma list or an array each).
type idsReq struct {
	ID  flex.List `json:"id"`
	IDs flex.List `json:"ids"`
}

// deleteRows deletes the customer's rows of one kind named by req — all or none, at most max — and tells the
// consoles; it answers {ids}.
func deleteRows[ID ~int64](ctx context.Context, s *Service, p identity.Principal, req idsReq, max int, what string,
	del func(ctx context.Context, customerID int64, ids []ID) error) (any, error) {
	ids, err := httpx.RowIDsOf[ID]("ids", append(req.ID, req.IDs...), max, true)
	if err != nil {
		return nil, err
	}
	if err := del(ctx, p.CustomerID, ids); err != nil {
		return nil, err
	}
	s.changed(p.CustomerID, what, int64(ids[0]))
	return map[string]any{"ids": ids}, nil
}

// deleteOne deletes the customer's row of one kind named by req's id (with what hangs on it) and tells the
// consoles; it answers {id}.
func deleteOne[ID ~int64](ctx context.Context, s *Service, p identity.Principal, req idReq, what string,
	del func(ctx context.Context, customerID int64, id ID) error) (any, error) {
	id, err := httpx.RowID[ID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	if err := del(ctx, p.CustomerID, id); err != nil {
		return nil, err
	}
	s.changed(p.CustomerID, what, int64(id))
	return map[string]any{"id": id}, nil
}

// DELETE /ds/indoor/beacon/delete {id | ids} → {ids}: all or none.
func (s *Service) deleteBeacon(ctx context.Context, p identity.Principal, req idsReq) (any, error) {
	return deleteRows(ctx, s, p, req, MaxBeacons, "beacon", s.store.DeleteBeacons)
}

type areaReq struct {
	ID      string  `json:"id"`
	FloorID string  `json:"floorId"`
	Name    *string `json:"name"`
	Points  Points  `json:"points"`
}

// apply checks the request's fields over a (an add needs points) on the floor f.
func (req areaReq) apply(a Area, f Floor, add bool) (Area, error) {
	var err error
	if req.Name != nil {
		if a.Name, err = labelField.Check(*req.Name); err != nil {
			return a, err
		}
	}
	if req.Points.Set || add {
		if req.Points.Bad {
			return a, ErrArea
		}
		if err := CheckPolygon(req.Points.P, f.Width, f.Height, f.Scale); err != nil {
			return a, err
		}
		a.Points = req.Points.P
	}
	a.FloorID, a.BuildingID = f.ID, f.BuildingID
	return a, nil
}

// POST /ds/indoor/area/add {floorId, name?, points: [[x, y], …] (plan pixels)} → Area
func (s *Service) addArea(ctx context.Context, p identity.Principal, req areaReq) (any, error) {
	return addOnFloor(ctx, s, p, req.FloorID, "area", req.apply, s.store.CreateArea, s.store.Area)
}

// PUT /ds/indoor/area/update {id, name?, points?} → Area
func (s *Service) updateArea(ctx context.Context, p identity.Principal, req areaReq) (any, error) {
	return updateRow(ctx, s, p, req.ID, "area", s.store.Area, func(cur Area) (Area, error) {
		f, err := s.store.Floor(ctx, p.CustomerID, cur.FloorID)
		if err != nil {
			return cur, err
		}
		return req.apply(cur, f, false)
	}, s.store.UpdateArea)
}

// DELETE /ds/indoor/area/delete {id | ids} → {ids}: all or none.
func (s *Service) deleteArea(ctx context.Context, p identity.Principal, req idsReq) (any, error) {
	return deleteRows(ctx, s, p, req, MaxAreas, "area", s.store.DeleteAreas)
}

// LastWindow is how far back GET /ds/indoor/position/last looks by default.
const LastWindow = 24 * time.Hour

// GET /ds/indoor/position/last {buildingId?, since? (ms)} → {total, list: [Position]}: each terminal's latest
// position (the last 24 hours unless since says otherwise).
func (s *Service) lastPositions(ctx context.Context, p identity.Principal, req struct {
	BuildingID string `json:"buildingId"`
	Since      string `json:"since"`
}) (any, error) {
	bid, err := httpx.OptRowID[BuildingID]("buildingId", req.BuildingID)
	if err != nil {
		return nil, err
	}
	if bid != 0 {
		if _, err := s.store.Building(ctx, p.CustomerID, bid); err != nil {
			return nil, err
		}
	}
	since := s.Now().Add(-LastWindow).UnixMilli()
	if strings.TrimSpace(req.Since) != "" {
		v, err := httpx.Int("since", req.Since)
		if err != nil || v < 0 {
			return nil, httpx.BadParam("since", "milliseconds")
		}
		since = v
	}
	list, err := s.store.Last(ctx, p.CustomerID, bid, since)
	if err != nil {
		return nil, err
	}
	if err := s.named(ctx, p.CustomerID, list); err != nil {
		return nil, err
	}
	return httpx.All(list), nil
}

// MaxHistory bounds one history answer (a day of one report a second); truncated says more were left out.
const MaxHistory = 86400

// MaxHistoryRange is the longest history query (the spec's time-range rules, cross-month refused).
const MaxHistoryRange = 24 * time.Hour

// GET /ds/indoor/position/history {msId, sTime, eTime, floorId?} → {total, list: [Position], truncated?}
func (s *Service) history(ctx context.Context, p identity.Principal, req struct {
	MsID    string `json:"msId"`
	FloorID string `json:"floorId"`
	timerange.Params
}) (any, error) {
	ms, err := httpx.ID("msId", req.MsID)
	if err != nil {
		return nil, err
	}
	fid, err := httpx.OptRowID[FloorID]("floorId", req.FloorID)
	if err != nil {
		return nil, err
	}
	if fid != 0 {
		if _, err := s.store.Floor(ctx, p.CustomerID, fid); err != nil {
			return nil, err
		}
	}
	rg, _, err := req.ForCustomer(ctx, s.db, p.CustomerID, MaxHistoryRange)
	if err != nil {
		return nil, err
	}
	acc, err := s.dir.CheckTerminal(ctx, directory.CustomerID(p.CustomerID), directory.TerminalID(ms))
	if err != nil {
		return nil, err
	}
	list, truncated, err := s.store.History(ctx, p.CustomerID, ms, fid, rg.From, rg.To, MaxHistory)
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].Name = acc.Name
	}
	return History{Page: httpx.All(list), Truncated: truncated}, nil
}
