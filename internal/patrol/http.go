package patrol

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tenfour/internal/directory"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Base is the patrol service's path (spec §7 "Patrol service (/patrolService)").
const Base = "/patrolService/"

// Routes mounts the patrol service. Its answers are the dispatch envelope with success code "200" (spec §7
// "Success code 200"); its calls carry a patrol token in the `token` header (sysUsers/login), and an unknown or
// expired one is "1011" (spec §8) — not the dispatch service's "105" (docs/adr/0019).
func (s *Service) Routes(r httpx.Router) {
	r = r.With(httpx.Codes{OK: SuccessCode}, httpx.TokenAuth(patrolToken, s.lookupToken))
	r.Public("GET /patrolService/sysUsers/poc/findAccountByPoC", s.findAccountByPoC)
	r.Public("POST /patrolService/sysUsers/login", s.login)
	r.Private("POST /patrolService/sysUsers/addUserByNms", httpx.Bind(s.addUserByNms))
	r.Private("GET /patrolService/sysUsers/list", httpx.Bind(s.listUsers))

	r.Private("GET /patrolService/tbPatrolArea/list", httpx.Bind(s.listAreas))
	r.Private("POST /patrolService/tbPatrolArea/add", httpx.Bind(s.saveArea))
	r.Private("PUT /patrolService/tbPatrolArea/edit", httpx.Bind(s.saveArea))
	r.Private("DELETE /patrolService/tbPatrolArea/deleteBatch", httpx.Bind(deleteBatch(s.store.DeleteAreas)))

	r.Private("GET /patrolService/tbPatrolPoint/list", httpx.Bind(s.listPoints))
	r.Private("POST /patrolService/tbPatrolPoint/add", httpx.Bind(s.savePoint))
	r.Private("PUT /patrolService/tbPatrolPoint/edit", httpx.Bind(s.savePoint))
	r.Private("GET /patrolService/tbPatrolPoint/checkPointName", httpx.Bind(s.checkPointName))
	r.Private("GET /patrolService/tbPatrolPoint/checkPointNfc", httpx.Bind(s.checkPointNfc))
	r.Private("DELETE /patrolService/tbPatrolPoint/deleteBatch", httpx.Bind(deleteBatch(s.store.DeletePoints)))

	r.Private("GET /patrolService/tbPatrolRoute/list", httpx.Bind(s.listRoutes))
	r.Private("GET /patrolService/tbPatrolRoute/queryPointById", httpx.Bind(s.queryPointByID))
	r.Private("POST /patrolService/tbPatrolRoute/add", httpx.Bind(s.saveRoute))
	r.Private("PUT /patrolService/tbPatrolRoute/edit", httpx.Bind(s.saveRoute))
	r.Private("DELETE /patrolService/tbPatrolRoute/deleteBatch", httpx.Bind(deleteBatch(s.store.DeleteRoutes)))

	r.Private("GET /patrolService/tbPatrolPlan/list", httpx.Bind(s.listPlans))
	r.Private("POST /patrolService/tbPatrolPlan/add", httpx.Bind(s.addPlan))
	r.Private("DELETE /patrolService/tbPatrolPlan/deleteBatch", httpx.Bind(deleteBatch(s.deletePlans)))

	r.Private("GET /patrolService/tbPatrolOrder/list", httpx.Bind(s.listOrders))
	r.Private("GET /patrolService/tbOrderPoint/queryPointsByOrderId", httpx.Bind(s.queryPointsByOrderID))
	r.Private("GET /patrolService/tbOrderLog/list", httpx.Bind(s.listLogs))
}

// SuccessCode is the patrol service's success code (spec §7).
const SuccessCode = "200"

// patrolToken is where a patrol call carries its token: the `token` header only.
func patrolToken(r *http.Request) string { return r.Header.Get("token") }

// lookupToken finds a live patrol token's Principal; an unknown or expired one is "1011".
func (s *Service) lookupToken(ctx context.Context, token string) (identity.Principal, error) {
	p, err := s.auth.LookupPatrol(ctx, token)
	if errors.Is(err, httpx.ErrToken) {
		err = ErrToken
	}
	return p, err
}

type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

func (c credentials) check() error {
	if strings.TrimSpace(c.Username) == "" {
		return httpx.BadParam("username", "required")
	}
	if c.Password == "" {
		return httpx.BadParam("password", "required")
	}
	return nil
}

// ensureUser makes the signed-in dispatcher a patrol user and names it.
func (s *Service) ensureUser(ctx context.Context, p identity.Principal) (User, error) {
	u, err := s.store.EnsureUser(ctx, p.CustomerID, p.AccountID, "dispatcher", s.Now().UnixMilli())
	u.Name = p.Name
	return u, err
}

// GET sysUsers/poc/findAccountByPoC {username, password}: the patrol user of a dispatcher's PoC account.
func (s *Service) findAccountByPoC(w http.ResponseWriter, r *http.Request) (any, error) {
	var req credentials
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	p, err := s.auth.CheckPoC(r.Context(), httpx.ClientIP(r), strings.TrimSpace(req.Username), req.Password)
	if err != nil {
		return nil, err
	}
	return s.ensureUser(r.Context(), p)
}

// POST sysUsers/login {username, password}: a patrol token for a dispatcher's PoC account.
func (s *Service) login(w http.ResponseWriter, r *http.Request) (any, error) {
	var req credentials
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	p, tok, err := s.auth.PatrolSignIn(r.Context(), httpx.ClientIP(r), strings.TrimSpace(req.Username), req.Password)
	if err != nil {
		return nil, err
	}
	u, err := s.ensureUser(r.Context(), p)
	if err != nil {
		return nil, err
	}
	return map[string]any{"token": tok, "userInfo": u}, nil
}

// POST sysUsers/addUserByNms {msIds | pocAccount}: terminals of the customer become patrol users.
func (s *Service) addUserByNms(ctx context.Context, p identity.Principal, req struct {
	MsIDs      flex.List `json:"msIds"`
	PocAccount flex.List `json:"pocAccount"`
}) (any, error) {
	ids, err := httpx.IDs("msIds", append(req.MsIDs, req.PocAccount...), MaxIDs, true)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, err := s.dir.CheckTerminal(ctx, directory.CustomerID(p.CustomerID), directory.TerminalID(id)); err != nil {
			return nil, err
		}
	}
	now := s.Now().UnixMilli()
	out := []User{}
	for _, id := range ids {
		u, err := s.store.EnsureUser(ctx, p.CustomerID, id, "terminal", now)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return httpx.All(s.nameUsers(ctx, p.CustomerID, out)), nil
}

// nameUsers names the users it can (a user's name is only shown).
func (s *Service) nameUsers(ctx context.Context, c int64, l []User) []User {
	_ = nameRows(ctx, s, c, l, func(u *User) (string, *string) { return u.Username, &u.Name })
	return l
}

// GET sysUsers/list {name, pocAccount, pageNo, pageSize}
func (s *Service) listUsers(ctx context.Context, p identity.Principal, req struct {
	Name       string `json:"name"`
	PocAccount string `json:"pocAccount"`
	httpx.PageReq
}) (any, error) {
	off, lim, err := req.PagingFrom(ListSize, 1000)
	if err != nil {
		return nil, err
	}
	all, err := s.store.Users(ctx, p.CustomerID, strings.TrimSpace(req.PocAccount))
	if err != nil {
		return nil, err
	}
	all = s.nameUsers(ctx, p.CustomerID, all)
	name := strings.ToLower(strings.TrimSpace(req.Name))
	out := []User{}
	for _, u := range all {
		if name == "" || strings.Contains(strings.ToLower(u.Name), name) || strings.Contains(u.Username, name) {
			out = append(out, u)
		}
	}
	total := len(out)
	out = out[min(off, total):min(off+lim, total)]
	return httpx.PageOf(out, total), nil
}

func checkRemark(v string) (string, error) { return httpx.Text("remark", v, MaxRemark) }

// GET tbPatrolArea/list
func (s *Service) listAreas(ctx context.Context, p identity.Principal, _ struct{}) (any, error) {
	l, err := s.store.Areas(ctx, p.CustomerID)
	if err != nil {
		return nil, err
	}
	return httpx.All(l), nil
}

// POST tbPatrolArea/add {name, remark}; PUT tbPatrolArea/edit {id, name, remark}
func (s *Service) saveArea(ctx context.Context, p identity.Principal, req struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Remark string `json:"remark"`
}) (any, error) {
	var a Area
	var err error
	if a.ID, err = httpx.OptRowID[AreaID]("id", req.ID); err != nil {
		return nil, err
	}
	if a.Name, err = nameField.Check(req.Name); err != nil {
		return nil, err
	}
	if a.Remark, err = checkRemark(req.Remark); err != nil {
		return nil, err
	}
	if a.ID, err = s.store.SaveArea(ctx, p.CustomerID, a, s.Now().UnixMilli()); err != nil {
		return nil, err
	}
	return s.store.Area(ctx, p.CustomerID, a.ID)
}

type idsReq struct {
	IDs flex.List `json:"ids"`
}

// deleteBatch answers DELETE …/deleteBatch {ids}: the customer's rows deleted by del, all or none (an area with
// points, routes or plans, a point of a route, a route of a plan: 1022), answered {ids}.
func deleteBatch[T ~int64](del func(ctx context.Context, customer int64, ids []T) error,
) func(context.Context, identity.Principal, idsReq) (any, error) {
	return func(ctx context.Context, p identity.Principal, req idsReq) (any, error) {
		ids, err := httpx.RowIDsOf[T]("ids", req.IDs, MaxIDs, true)
		if err != nil {
			return nil, err
		}
		return map[string]any{"ids": ids}, del(ctx, p.CustomerID, ids)
	}
}

// GET tbPatrolPoint/list {areaId, name, pageNo, pageSize}
func (s *Service) listPoints(ctx context.Context, p identity.Principal, req struct {
	AreaID string `json:"areaId"`
	Name   string `json:"name"`
	httpx.PageReq
}) (any, error) {
	q := PointQuery{Name: strings.TrimSpace(req.Name)}
	var err error
	if q.AreaID, err = httpx.OptRowID[AreaID]("areaId", req.AreaID); err != nil {
		return nil, err
	}
	if q.Offset, q.Limit, err = req.PagingFrom(ListSize, 1000); err != nil {
		return nil, err
	}
	return httpx.ListOf(s.store.Points(ctx, p.CustomerID, q))
}

type pointReq struct {
	ID       string     `json:"id"`
	Name     string     `json:"name"`
	Remark   string     `json:"remark"`
	Type     string     `json:"type"`
	NfcValue string     `json:"nfcValue"`
	AreaID   string     `json:"areaId"`
	Lat      flex.Float `json:"lat"`
	Lng      flex.Float `json:"lng"`
	Radius   string     `json:"radius"`
}

// areaOf checks an areaId parameter names an area of the customer.
func (s *Service) areaOf(ctx context.Context, c int64, v string) (AreaID, error) {
	id, err := httpx.RowID[AreaID]("areaId", v)
	if err != nil {
		return 0, err
	}
	if _, err := s.store.Area(ctx, c, id); err != nil {
		return 0, err
	}
	return id, nil
}

// POST tbPatrolPoint/add; PUT tbPatrolPoint/edit (+id): name and NFC value unique in the area (1020, 1021).
func (s *Service) savePoint(ctx context.Context, p identity.Principal, req pointReq) (any, error) {
	id, err := httpx.OptRowID[PointID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	pt := Point{ID: id, Type: strings.TrimSpace(req.Type), Radius: DefaultRadius}
	if pt.Type == "" {
		pt.Type = "0"
	}
	if pt.Type != "0" {
		return nil, httpx.BadParam("type", `"0"`)
	}
	if pt.Name, err = nameField.Check(req.Name); err != nil {
		return nil, err
	}
	if pt.Remark, err = checkRemark(req.Remark); err != nil {
		return nil, err
	}
	if pt.NfcValue, err = nfcField.Check(req.NfcValue); err != nil {
		return nil, err
	}
	if !req.Lat.Set || !req.Lng.Set {
		return nil, httpx.BadParam("lat", "lat and lng required")
	}
	pt.Lat, pt.Lng = req.Lat.V, req.Lng.V
	if pt.Lat < -90 || pt.Lat > 90 || pt.Lng < -180 || pt.Lng > 180 {
		return nil, httpx.BadParam("lat", "not a position")
	}
	if strings.TrimSpace(req.Radius) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(req.Radius))
		if err != nil || n < MinRadius || n > MaxRadius {
			return nil, httpx.BadParam("radius", fmt.Sprintf("%d to %d metres", MinRadius, MaxRadius))
		}
		pt.Radius = n
	}
	if pt.AreaID, err = s.areaOf(ctx, p.CustomerID, req.AreaID); err != nil {
		return nil, err
	}
	if pt.ID != 0 {
		if _, err := s.store.Point(ctx, p.CustomerID, pt.ID); err != nil {
			return nil, err
		}
	}
	if taken, err := s.store.PointTaken(ctx, p.CustomerID, pt.AreaID, "name", pt.Name, pt.ID); err != nil {
		return nil, err
	} else if taken {
		return nil, ErrNameExists
	}
	if taken, err := s.store.PointTaken(ctx, p.CustomerID, pt.AreaID, "nfc_value", pt.NfcValue, pt.ID); err != nil {
		return nil, err
	} else if taken {
		return nil, ErrNfcExists
	}
	if pt.ID, err = s.store.SavePoint(ctx, p.CustomerID, pt, s.Now().UnixMilli()); err != nil {
		return nil, err
	}
	return s.store.Point(ctx, p.CustomerID, pt.ID)
}

type checkReq struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	NfcValue string `json:"nfcValue"`
	AreaID   string `json:"areaId"`
}

// check answers whether a point's name or tag value is free in an area ({available}); id leaves that point out.
func (s *Service) check(ctx context.Context, p identity.Principal, req checkReq, field, value string) (any, error) {
	id, err := httpx.OptRowID[PointID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	area, err := s.areaOf(ctx, p.CustomerID, req.AreaID)
	if err != nil {
		return nil, err
	}
	taken, err := s.store.PointTaken(ctx, p.CustomerID, area, field, value, id)
	return map[string]bool{"available": !taken}, err
}

// GET tbPatrolPoint/checkPointName {name, areaId, id?}
func (s *Service) checkPointName(ctx context.Context, p identity.Principal, req checkReq) (any, error) {
	name, err := nameField.Check(req.Name)
	if err != nil {
		return nil, err
	}
	return s.check(ctx, p, req, "name", name)
}

// GET tbPatrolPoint/checkPointNfc {nfcValue, areaId, id?}
func (s *Service) checkPointNfc(ctx context.Context, p identity.Principal, req checkReq) (any, error) {
	v, err := nfcField.Check(req.NfcValue)
	if err != nil {
		return nil, err
	}
	return s.check(ctx, p, req, "nfc_value", v)
}

// GET tbPatrolRoute/list {type 0, pageNo, pageSize, name, order desc|asc, column id, areaId}
func (s *Service) listRoutes(ctx context.Context, p identity.Principal, req struct {
	Type   string `json:"type"`
	Name   string `json:"name"`
	Order  string `json:"order"`
	Column string `json:"column"`
	AreaID string `json:"areaId"`
	httpx.PageReq
}) (any, error) {
	if t := strings.TrimSpace(req.Type); t != "" && t != "0" {
		return nil, httpx.BadParam("type", `"0"`)
	}
	if c := strings.TrimSpace(req.Column); c != "" && c != "id" {
		return nil, httpx.BadParam("column", "id")
	}
	q := RouteQuery{Name: strings.TrimSpace(req.Name)}
	var err error
	if q.Asc, err = httpx.Ascending("order", req.Order); err != nil {
		return nil, err
	}
	if q.AreaID, err = httpx.OptRowID[AreaID]("areaId", req.AreaID); err != nil {
		return nil, err
	}
	if q.Offset, q.Limit, err = req.PagingFrom(ListSize, 1000); err != nil {
		return nil, err
	}
	return httpx.ListOf(s.store.Routes(ctx, p.CustomerID, q))
}

// GET tbPatrolRoute/queryPointById {id}: a route's points in order.
func (s *Service) queryPointByID(ctx context.Context, p identity.Principal, req struct {
	ID string `json:"id"`
}) (any, error) {
	id, err := httpx.RowID[RouteID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	r, err := s.store.Route(ctx, p.CustomerID, id)
	if err != nil {
		return nil, err
	}
	return r.RoutePoints, nil
}

// POST tbPatrolRoute/add {name, areaId, routePoints: [point ids in order], type, remark}; PUT tbPatrolRoute/edit (+id)
func (s *Service) saveRoute(ctx context.Context, p identity.Principal, req struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Type        string    `json:"type"`
	Remark      string    `json:"remark"`
	AreaID      string    `json:"areaId"`
	RoutePoints flex.List `json:"routePoints"`
}) (any, error) {
	id, err := httpx.OptRowID[RouteID]("id", req.ID)
	if err != nil {
		return nil, err
	}
	r := Route{ID: id, Type: strings.TrimSpace(req.Type)}
	if r.Type == "" {
		r.Type = "0"
	}
	if r.Type != "0" {
		return nil, httpx.BadParam("type", `"0"`)
	}
	if r.Name, err = nameField.Check(req.Name); err != nil {
		return nil, err
	}
	if r.Remark, err = checkRemark(req.Remark); err != nil {
		return nil, err
	}
	if r.AreaID, err = s.areaOf(ctx, p.CustomerID, req.AreaID); err != nil {
		return nil, err
	}
	if len(req.RoutePoints) == 0 {
		return nil, httpx.BadParam("routePoints", "required")
	}
	if len(req.RoutePoints) > MaxRoute {
		return nil, httpx.BadParam("routePoints", "at most 100 points")
	}
	pts := make([]PointID, 0, len(req.RoutePoints))
	seen := map[PointID]bool{}
	for _, v := range req.RoutePoints {
		n, err := httpx.RowID[PointID]("routePoints", v)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, httpx.BadParam("routePoints", "a point once per route")
		}
		seen[n] = true
		pts = append(pts, n)
	}
	if r.ID, err = s.store.SaveRoute(ctx, p.CustomerID, r, pts, s.Now().UnixMilli()); err != nil {
		return nil, err
	}
	if id != 0 {
		// orders that had not begun were dropped: make them again on the new points now
		if err := s.generate(ctx); err != nil {
			return nil, err
		}
	}
	return s.store.Route(ctx, p.CustomerID, r.ID)
}

// day reads a YYYY-MM-DD day, or any instant of it in milliseconds, in loc.
// dateRange reads a required startDate and endDate (each a day or an instant of it) in the customer's zone.
func (s *Service) dateRange(ctx context.Context, customerID int64, start, end string) (*time.Location, time.Time, time.Time, error) {
	loc, err := timerange.Zone(ctx, s.db, customerID)
	if err != nil {
		return nil, time.Time{}, time.Time{}, err
	}
	if strings.TrimSpace(start) == "" {
		return nil, time.Time{}, time.Time{}, httpx.BadParam("startDate", "required")
	}
	if strings.TrimSpace(end) == "" {
		return nil, time.Time{}, time.Time{}, httpx.BadParam("endDate", "required")
	}
	from, err := day("startDate", start, loc)
	if err != nil {
		return nil, time.Time{}, time.Time{}, err
	}
	to, err := day("endDate", end, loc)
	if err != nil {
		return nil, time.Time{}, time.Time{}, err
	}
	return loc, from, to, nil
}

func day(name, v string, loc *time.Location) (time.Time, error) {
	v = strings.TrimSpace(v)
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		t := time.UnixMilli(ms).In(loc)
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc), nil
	}
	if len(v) > 10 {
		v = v[:10] // "2026-11-26 00:00:00"
	}
	t, err := time.ParseInLocation(time.DateOnly, v, loc)
	if err != nil {
		return t, httpx.BadParam(name, "YYYY-MM-DD or milliseconds")
	}
	return t, nil
}

func checkModel(v string) error {
	if m := strings.TrimSpace(v); m != "" && m != strconv.Itoa(Model) {
		return httpx.BadParam("model", "2")
	}
	return nil
}

// GET tbPatrolPlan/list {model 2, dtStart, dtEnd, areaId, pageNo, pageSize}: plans whose range meets the days.
func (s *Service) listPlans(ctx context.Context, p identity.Principal, req struct {
	Model   string `json:"model"`
	DtStart string `json:"dtStart"`
	DtEnd   string `json:"dtEnd"`
	AreaID  string `json:"areaId"`
	httpx.PageReq
}) (any, error) {
	if err := checkModel(req.Model); err != nil {
		return nil, err
	}
	loc, err := timerange.Zone(ctx, s.db, p.CustomerID)
	if err != nil {
		return nil, err
	}
	var q PlanQuery
	if strings.TrimSpace(req.DtStart) != "" {
		d, err := day("dtStart", req.DtStart, loc)
		if err != nil {
			return nil, err
		}
		q.From = d.Format(time.DateOnly)
	}
	if strings.TrimSpace(req.DtEnd) != "" {
		d, err := day("dtEnd", req.DtEnd, loc)
		if err != nil {
			return nil, err
		}
		q.To = d.Format(time.DateOnly)
	}
	if q.From != "" && q.To != "" && q.From > q.To {
		return nil, timerange.ErrOrder
	}
	if q.AreaID, err = httpx.OptRowID[AreaID]("areaId", req.AreaID); err != nil {
		return nil, err
	}
	if q.Offset, q.Limit, err = req.PagingFrom(ListSize, 1000); err != nil {
		return nil, err
	}
	l, total, err := s.store.Plans(ctx, p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	return httpx.PageOf(l, total), s.namePlans(ctx, p.CustomerID, l)
}

type classReq struct {
	Name      flex.String `json:"name"`
	StartTime flex.String `json:"startTime"`
	EndTime   flex.String `json:"endTime"`
	MsID      flex.String `json:"msId"`
}

// hhmm checks a class time.
func hhmm(v string) (string, bool) {
	t, err := time.Parse("15:04", strings.TrimSpace(v))
	if err != nil {
		return "", false
	}
	return t.Format("15:04"), true
}

// minutes of an HH:MM.
func minutes(v string) int {
	t, _ := time.Parse("15:04", v)
	return t.Hour()*60 + t.Minute()
}

// POST tbPatrolPlan/add {name, model 2, type "0", startDate, endDate, routeId, areaId, classes: [{name,
// startTime, endTime, msId}]}: orders of today are generated at once.
func (s *Service) addPlan(ctx context.Context, p identity.Principal, req struct {
	Name      string     `json:"name"`
	Model     string     `json:"model"`
	Type      string     `json:"type"`
	StartDate string     `json:"startDate"`
	EndDate   string     `json:"endDate"`
	RouteID   string     `json:"routeId"`
	AreaID    string     `json:"areaId"`
	Classes   []classReq `json:"classes"`
}) (any, error) {
	if err := checkModel(req.Model); err != nil {
		return nil, err
	}
	pl := Plan{Model: Model, Type: strings.TrimSpace(req.Type), CreatedBy: p.AccountID}
	if pl.Type == "" {
		pl.Type = "0"
	}
	if pl.Type != "0" {
		return nil, httpx.BadParam("type", `"0"`)
	}
	var err error
	if pl.Name, err = nameField.Check(req.Name); err != nil {
		return nil, err
	}
	loc, from, to, err := s.dateRange(ctx, p.CustomerID, req.StartDate, req.EndDate)
	if err != nil {
		return nil, err
	}
	now := s.Now().In(loc)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	if to.Before(from) || to.Before(today) || to.Sub(from) > MaxPlanDays*24*time.Hour {
		return nil, ErrDates
	}
	pl.StartDate, pl.EndDate = from.Format(time.DateOnly), to.Format(time.DateOnly)
	if pl.AreaID, err = s.areaOf(ctx, p.CustomerID, req.AreaID); err != nil {
		return nil, err
	}
	if pl.RouteID, err = httpx.RowID[RouteID]("routeId", req.RouteID); err != nil {
		return nil, err
	}
	if len(req.Classes) == 0 {
		return nil, httpx.BadParam("classes", "required")
	}
	if len(req.Classes) > MaxClasses {
		return nil, ErrClasses
	}
	type span struct{ from, to int }
	var spans []span
	for i, c := range req.Classes {
		cl := Class{Seq: i + 1}
		if cl.Name, err = classField.Check(string(c.Name)); err != nil {
			return nil, err
		}
		var ok1, ok2 bool
		cl.StartTime, ok1 = hhmm(string(c.StartTime))
		cl.EndTime, ok2 = hhmm(string(c.EndTime))
		if !ok1 || !ok2 || cl.StartTime == cl.EndTime {
			return nil, ErrClasses
		}
		if cl.MsID, err = httpx.ID("classes.msId", string(c.MsID)); err != nil {
			return nil, err
		}
		if ok, err := s.store.IsUser(ctx, p.CustomerID, cl.MsID); err != nil {
			return nil, err
		} else if !ok {
			return nil, ErrNotUser
		}
		// Classes of one plan may not overlap within a day (a night class runs to the next morning).
		a, b := minutes(cl.StartTime), minutes(cl.EndTime)
		if b <= a {
			b += 24 * 60
		}
		for _, sp := range spans {
			for _, shift := range []int{-24 * 60, 0, 24 * 60} {
				if a < sp.to+shift && sp.from+shift < b {
					return nil, ErrClasses
				}
			}
		}
		spans = append(spans, span{a, b})
		pl.Classes = append(pl.Classes, cl)
	}
	if utf8.RuneCountInString(pl.Name) == 0 {
		return nil, httpx.BadParam("name", "required")
	}
	if pl.ID, err = s.store.AddPlan(ctx, p.CustomerID, pl, s.Now().UnixMilli()); err != nil {
		return nil, err
	}
	if err := s.generate(ctx); err != nil {
		return nil, err
	}
	got, err := s.store.Plan(ctx, p.CustomerID, pl.ID)
	if err != nil {
		return nil, err
	}
	l := []Plan{got}
	return l[0], s.namePlans(ctx, p.CustomerID, l)
}

// DELETE tbPatrolPlan/deleteBatch {ids}: the plans and their orders that have not begun.
func (s *Service) deletePlans(ctx context.Context, customer int64, ids []PlanID) error {
	return s.store.DeletePlans(ctx, customer, ids, s.Now().UnixMilli())
}

// GET tbPatrolOrder/list {pageSize 10000, model 2, startDate, endDate, msId, state, planId, areaId}: orders
// whose class starts on the days.
func (s *Service) listOrders(ctx context.Context, p identity.Principal, req struct {
	Model     string `json:"model"`
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
	MsID      string `json:"msId"`
	State     string `json:"state"`
	PlanID    string `json:"planId"`
	AreaID    string `json:"areaId"`
	httpx.PageReq
}) (any, error) {
	if err := checkModel(req.Model); err != nil {
		return nil, err
	}
	_, from, to, err := s.dateRange(ctx, p.CustomerID, req.StartDate, req.EndDate)
	if err != nil {
		return nil, err
	}
	if to.Before(from) {
		return nil, timerange.ErrOrder
	}
	if to.Sub(from) > MaxPlanDays*24*time.Hour {
		return nil, timerange.ErrTooLong
	}
	q := OrderQuery{From: from.UnixMilli(), To: to.AddDate(0, 0, 1).UnixMilli() - 1, MsID: strings.TrimSpace(req.MsID)}
	if st := strings.TrimSpace(req.State); st != "" {
		n, err := strconv.Atoi(st)
		if err != nil || n < 0 || n > 2 {
			return nil, httpx.BadParam("state", "0, 1 or 2")
		}
		v := State(n)
		q.State = &v
	}
	if q.PlanID, err = httpx.OptRowID[PlanID]("planId", req.PlanID); err != nil {
		return nil, err
	}
	if q.AreaID, err = httpx.OptRowID[AreaID]("areaId", req.AreaID); err != nil {
		return nil, err
	}
	if q.Offset, q.Limit, err = req.PagingFrom(OrderSize, OrderSize); err != nil {
		return nil, err
	}
	l, total, err := s.store.Orders(ctx, p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	return httpx.PageOf(l, total), s.nameOrders(ctx, p.CustomerID, l)
}

// GET tbOrderPoint/queryPointsByOrderId {orderId}
func (s *Service) queryPointsByOrderID(ctx context.Context, p identity.Principal, req struct {
	OrderID string `json:"orderId"`
}) (any, error) {
	id, err := httpx.RowID[OrderID]("orderId", req.OrderID)
	if err != nil {
		return nil, err
	}
	if _, err := s.store.Order(ctx, p.CustomerID, id); err != nil {
		return nil, err
	}
	return s.store.OrderPoints(ctx, id)
}

// instant reads a time in milliseconds, or a YYYY-MM-DD[ HH:MM[:SS]] in loc.
func instant(name, v string, loc *time.Location) (int64, error) {
	v = strings.TrimSpace(v)
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		return ms, nil
	}
	for _, f := range []string{time.DateTime, "2006-01-02 15:04", time.DateOnly} {
		if t, err := time.ParseInLocation(f, v, loc); err == nil {
			return t.UnixMilli(), nil
		}
	}
	return 0, httpx.BadParam(name, "milliseconds or YYYY-MM-DD HH:MM:SS")
}

// GET tbOrderLog/list {msId, state, startTime, endTime, orderId, pageNo, pageSize}: punches, newest first.
func (s *Service) listLogs(ctx context.Context, p identity.Principal, req struct {
	MsID      string `json:"msId"`
	State     string `json:"state"`
	StartTime string `json:"startTime"`
	EndTime   string `json:"endTime"`
	OrderID   string `json:"orderId"`
	httpx.PageReq
}) (any, error) {
	loc, err := timerange.Zone(ctx, s.db, p.CustomerID)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.StartTime) == "" {
		return nil, httpx.BadParam("startTime", "required")
	}
	if strings.TrimSpace(req.EndTime) == "" {
		return nil, httpx.BadParam("endTime", "required")
	}
	from, err := instant("startTime", req.StartTime, loc)
	if err != nil {
		return nil, err
	}
	to, err := instant("endTime", req.EndTime, loc)
	if err != nil {
		return nil, err
	}
	rg, err := timerange.Check(from, to, 0, loc)
	if err != nil {
		return nil, err
	}
	q := LogQuery{From: rg.From, To: rg.To, MsID: strings.TrimSpace(req.MsID)}
	if st := strings.TrimSpace(req.State); st != "" {
		n, err := strconv.Atoi(st)
		if err != nil || n < LogOnTime || n > LogNoOrder {
			return nil, httpx.BadParam("state", "1 to 4")
		}
		q.State = n
	}
	if q.OrderID, err = httpx.OptRowID[OrderID]("orderId", req.OrderID); err != nil {
		return nil, err
	}
	if q.Offset, q.Limit, err = req.PagingFrom(ListSize, 1000); err != nil {
		return nil, err
	}
	l, total, err := s.store.Logs(ctx, p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	err = nameRows(ctx, s, p.CustomerID, l, func(x *OrderLog) (string, *string) { return x.MsID, &x.MsName })
	return httpx.PageOf(l, total), err
}
