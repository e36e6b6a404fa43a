package broadcast

import (
	"context"
	"net/http"
	"strings"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
)

// Routes mounts the broadcast service (spec §7 "Broadcast service") under /broadcast. It is a second API with
// its own envelope ({code: 200}, numeric codes) and its own token (POST /v1/login, or the console's session), so
// it mounts on a router With its codes and authenticator (docs/adr/0018, 0034).
func (s *Service) Routes(r httpx.Router) {
	r = r.With(codes, s.authenticate)
	r.Public("POST /broadcast/v1/login", s.loginHTTP)
	r.Private("POST /broadcast/v1/org", bind(s.createOrgHTTP))
	r.Private("POST /broadcast/api/v1/org", bind(s.createOrgHTTP)) // spec: "prefixed /api when no parent"
	r.Private("PATCH /broadcast/v1/org/{id}", byID(s.updateOrgHTTP))
	r.Private("DELETE /broadcast/v1/org/{id}", byID(s.deleteOrgHTTP))
	r.Private("GET /broadcast/v1/org", bind(listPage(s.orgs)))
	r.Private("POST /broadcast/v1/caster", bind(s.createCasterHTTP))
	r.Private("GET /broadcast/v1/caster", bind(s.listCasters))
	r.Private("GET /broadcast/v1/sys/user", bind(sysUserHTTP))
	r.Private("POST /broadcast/v1/device", bind(s.createDeviceHTTP))
	r.Private("PATCH /broadcast/v1/device/{id}", byID(s.updateDeviceHTTP))
	r.Private("GET /broadcast/v1/device", bind(s.listDevices))
	r.Private("DELETE /broadcast/v1/device/{id}", byID(s.deleteDevice))
	r.Private("PATCH /broadcast/v1/device/{id}/volume", byID(s.deviceVolume))
	r.Private("POST /broadcast/v1/device/batch_volume", bind(s.batchVolume))
	r.Private("POST /broadcast/v1/upload", as(s.upload)) // multipart: the body is the file, not parameters
	r.Private("GET /broadcast/v1/file", bind(s.listFiles))
	r.Private("DELETE /broadcast/v1/file/{id}", byID(s.deleteFileHTTP))
	r.Raw("GET /broadcast/music/{name}", http.HandlerFunc(s.music), false)   // the name is the capability
	r.Raw("GET /broadcast/v1/speaker", http.HandlerFunc(s.speakerWS), false) // SpeakerPath: speakers sign in on the socket
	r.Private("POST /broadcast/v1/paging/start", bind(s.pageHTTP))
	r.Private("GET /broadcast/v1/paging/stop", bind(s.stopPageHTTP))
	r.Private("POST /broadcast/v1/task", bind(s.CreateTask))
	r.Private("PATCH /broadcast/v1/task/{id}", byID(s.UpdateTask))
	r.Private("GET /broadcast/v1/task", bind(s.listTasks))
	r.Private("DELETE /broadcast/v1/task/{id}", byID(s.deleteTaskHTTP))
	r.Private("GET /broadcast/v1/task/{id}/{action}", byID(s.taskAction))
	r.Private("GET /broadcast/v1/plan", bind(listPage(s.plans)))
	r.Private("POST /broadcast/v1/plan", bind(s.createPlan))
	r.Private("PATCH /broadcast/v1/plan/{id}", byID(s.updatePlan))
	r.Private("DELETE /broadcast/v1/plan/{id}", byID(s.deletePlan))
	r.Private("GET /broadcast/v1/plan/{id}/{action}", byID(s.planAction))
	r.Private("GET /broadcast/v1/real_time_task", bind(s.realTimeHTTP))
	r.Private("PATCH /broadcast/v1/real_time_task", bind(s.UpdateRealTime))
	r.Private("POST /broadcast/v1/real_time_task/start", bind(s.realTimeVerb("start")))
	r.Private("GET /broadcast/v1/real_time_task/stop", bind(s.realTimeVerb("stop")))
	r.Private("GET /broadcast/v1/real_time_task/pause", bind(s.realTimeVerb("pause")))
	r.Private("GET /broadcast/v1/real_time_task/next", bind(s.realTimeVerb("next")))
	r.Private("GET /broadcast/v1/real_time_task/prev", bind(s.realTimeVerb("prev")))
	r.Private("PATCH /broadcast/v1/real_time_task/choice", bind(s.realTimeChoice))
}

// bind is httpx.Bind for the broadcast service: fn runs as the Caller its authenticator found.
func bind[Req, Res any](fn func(ctx context.Context, c Caller, req Req) (Res, error)) httpx.Handler {
	return httpx.BindAs(callerIn, fn)
}

// none is the request of an endpoint without parameters.
type none struct{}

// byID is bind for an endpoint on a path's {id}: the id is checked first (a bad one is 400 "id: not an id"),
// then the parameters decode into Req and fn runs with both.
func byID[Req, Res any](fn func(ctx context.Context, c Caller, id int64, req Req) (Res, error)) httpx.Handler {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := httpx.RowID[int64]("id", r.PathValue("id"))
		if err != nil {
			return nil, err
		}
		return bind(func(ctx context.Context, c Caller, req Req) (Res, error) { return fn(ctx, c, id, req) })(w, r)
	}
}

// deleted is the answer of a delete: the id, once del has removed it.
func deleted(id int64, err error) (map[string]any, error) {
	return map[string]any{"id": id}, err
}

// listPages reads a list's page (from 1) and limit (spec §7: the broadcast service's paging parameters).
var listPages = httpx.PageParams{Page: "page", Size: "limit"}

type pageReq struct {
	Page  string `json:"page"`
	Limit string `json:"limit"`
}

func (s *Service) loginHTTP(_ http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		Username string `json:"username"`
		Password string `json:"password"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	return s.login(r.Context(), r, req.Username, req.Password)
}

type orgReq struct {
	ParentID   *string `json:"parent_id"`
	Password   *string `json:"password"`
	Name       *string `json:"name"`
	Code       *string `json:"code"`
	CallNumber *string `json:"call_number"`
}

func (q orgReq) in() (orgIn, error) {
	pid, err := httpx.PresentRowID[int64]("parent_id", q.ParentID)
	return orgIn{ParentID: pid, Name: q.Name, Code: q.Code, CallNumber: q.CallNumber, Password: q.Password}, err
}

func (s *Service) createOrgHTTP(ctx context.Context, c Caller, req orgReq) (Org, error) {
	in, err := req.in()
	if err != nil {
		return Org{}, err
	}
	return s.createOrg(ctx, c.CustomerID, in)
}

func (s *Service) updateOrgHTTP(ctx context.Context, c Caller, id int64, req orgReq) (Org, error) {
	in, err := req.in()
	if err != nil {
		return Org{}, err
	}
	return s.updateOrg(ctx, c.CustomerID, id, in)
}

func (s *Service) deleteOrgHTTP(ctx context.Context, c Caller, id int64, _ none) (map[string]any, error) {
	return deleted(id, s.deleteOrg(ctx, c.CustomerID, id))
}

func (s *Service) createCasterHTTP(ctx context.Context, c Caller, req struct {
	UserID     string `json:"user_id"`
	Password   string `json:"password"`
	Name       string `json:"name"`
	Code       string `json:"code"`
	CallNumber string `json:"call_number"`
	Priority   string `json:"priority"`
}) (Caster, error) {
	in := casterIn{UserID: req.UserID, Name: req.Name, Code: req.Code, CallNumber: req.CallNumber, Password: req.Password, Priority: DefaultPriority}
	if strings.TrimSpace(req.Priority) != "" {
		if err := intIn("priority", &req.Priority, 1, 9, &in.Priority); err != nil {
			return Caster{}, err
		}
	}
	return s.createCaster(ctx, c.CustomerID, in)
}

func (s *Service) listCasters(ctx context.Context, c Caller, req struct {
	Code string `json:"code"`
}) (httpx.Page[Caster], error) {
	list, err := s.casters(ctx, c.CustomerID, strings.TrimSpace(req.Code))
	return httpx.All(list), err
}

func sysUserHTTP(_ context.Context, c Caller, _ none) (map[string]any, error) { return sysUser(c), nil }

type deviceReq struct {
	OrgID *string `json:"org_id"`
	Name  *string `json:"name"`
	Code  *string `json:"code"`
}

func (q deviceReq) in() (deviceIn, error) {
	in := deviceIn{Name: q.Name, Code: q.Code}
	if q.OrgID != nil {
		id, err := httpx.RowID[int64]("org_id", *q.OrgID)
		if err != nil {
			return in, err
		}
		in.OrgID = &id
	}
	return in, nil
}

func (s *Service) createDeviceHTTP(ctx context.Context, c Caller, req deviceReq) (Device, error) {
	in, err := req.in()
	if err != nil {
		return Device{}, err
	}
	d, err := s.createDevice(ctx, c.CustomerID, in)
	return s.published(c, d, err)
}

func (s *Service) updateDeviceHTTP(ctx context.Context, c Caller, id int64, req deviceReq) (Device, error) {
	in, err := req.in()
	if err != nil {
		return Device{}, err
	}
	d, err := s.updateDevice(ctx, c.CustomerID, id, in)
	return s.published(c, d, err)
}

// published tells the caller's consoles of a device just saved.
func (s *Service) published(c Caller, d Device, err error) (Device, error) {
	if err == nil {
		s.hub.Publish(c.CustomerID, EventDevice, d, consoles)
	}
	return d, err
}

func (s *Service) listDevices(ctx context.Context, c Caller, req struct {
	pageReq
	OrgID string `json:"org_id"`
}) (httpx.Page[Device], error) {
	off, n, err := listPages.Read(req.Page, req.Limit, DefaultPage, DefaultPage)
	if err != nil {
		return httpx.Page[Device]{}, err
	}
	var org int64
	if strings.TrimSpace(req.OrgID) != "" {
		if org, err = httpx.RowID[int64]("org_id", req.OrgID); err != nil {
			return httpx.Page[Device]{}, err
		}
	}
	list, total, err := s.devices(ctx, c.CustomerID, org, off, n)
	if err != nil {
		return httpx.Page[Device]{}, err
	}
	return httpx.PageOf(list, total), s.devicesPlaying(ctx, c.CustomerID, list)
}

func (s *Service) deleteDevice(ctx context.Context, c Caller, id int64, _ none) (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, before, err := s.state(ctx, c.CustomerID)
	if err != nil {
		return nil, err
	}
	res, err := s.db.Exec(ctx, `DELETE FROM bc_devices WHERE customer_id = ? AND id = ?`, c.CustomerID, id)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, ErrNotFound
	}
	s.changed(ctx, c.CustomerID, before)
	return deleted(id, nil)
}

func (s *Service) volumeChange(ctx context.Context, c Caller, ids []int64, vol int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, before, err := s.state(ctx, c.CustomerID)
	if err != nil {
		return err
	}
	if err := s.setVolumes(ctx, c.CustomerID, ids, vol); err != nil {
		return err
	}
	for _, id := range ids {
		if d, err := s.device(ctx, c.CustomerID, id); err == nil {
			s.hub.Publish(c.CustomerID, EventDevice, d, consoles)
		}
	}
	s.changed(ctx, c.CustomerID, before)
	return nil
}

func (s *Service) deviceVolume(ctx context.Context, c Caller, id int64, req struct {
	Volume *string `json:"ao_volume"`
}) (Device, error) {
	if req.Volume == nil {
		return Device{}, errRequired("ao_volume")
	}
	vol, err := checkVolume("ao_volume", *req.Volume)
	if err != nil {
		return Device{}, err
	}
	if _, err := s.device(ctx, c.CustomerID, id); err != nil {
		return Device{}, err
	}
	if err := s.volumeChange(ctx, c, []int64{id}, vol); err != nil {
		return Device{}, err
	}
	return s.device(ctx, c.CustomerID, id)
}

// batchVolume is POST /v1/device/batch_volume {group_id, ao_volume, device_ids}: the listed devices and every
// device of the organisation group_id and its sub-organisations.
func (s *Service) batchVolume(ctx context.Context, c Caller, req struct {
	GroupID   string    `json:"group_id"`
	Volume    *string   `json:"ao_volume"`
	DeviceIDs flex.List `json:"device_ids"`
}) (any, error) {
	if req.Volume == nil {
		return nil, errRequired("ao_volume")
	}
	vol, err := checkVolume("ao_volume", *req.Volume)
	if err != nil {
		return nil, err
	}
	ids, err := idList("device_ids", req.DeviceIDs)
	if err != nil {
		return nil, err
	}
	if g := strings.TrimSpace(req.GroupID); g != "" && g != "0" {
		gid, err := httpx.RowID[int64]("group_id", g)
		if err != nil {
			return nil, err
		}
		more, err := s.subtreeDevices(ctx, c.CustomerID, gid)
		if err != nil {
			return nil, err
		}
		ids = uniq(append(ids, more...))
	}
	if len(ids) == 0 {
		return nil, ErrNoDevices
	}
	if err := s.volumeChange(ctx, c, ids, vol); err != nil {
		return nil, err
	}
	return map[string]any{"device_ids": ids, "ao_volume": vol}, nil
}

// subtreeDevices lists the devices of an organisation and its descendants.
func (s *Service) subtreeDevices(ctx context.Context, customerID, orgID int64) ([]int64, error) {
	if _, err := s.org(ctx, customerID, orgID); err != nil {
		return nil, notFoundAs(err, "group_id")
	}
	all, _, err := s.orgs(ctx, customerID, 0, 100000)
	if err != nil {
		return nil, err
	}
	in := map[int64]bool{orgID: true}
	for grew := true; grew; {
		grew = false
		for _, o := range all {
			if !in[o.ID] && in[o.ParentID] {
				in[o.ID], grew = true, true
			}
		}
	}
	devs, _, err := s.devices(ctx, customerID, 0, 0, 100000)
	if err != nil {
		return nil, err
	}
	out := []int64{}
	for _, d := range devs {
		if in[d.OrgID] {
			out = append(out, d.ID)
		}
	}
	return out, nil
}

func (s *Service) listFiles(ctx context.Context, c Caller, req struct {
	pageReq
	GroupID *string `json:"group_id"`
}) (httpx.Page[File], error) {
	off, n, err := listPages.Read(req.Page, req.Limit, FilesPerGroup, DefaultPage)
	if err != nil {
		return httpx.Page[File]{}, err
	}
	gid, err := httpx.PresentRowID[int64]("group_id", req.GroupID)
	if err != nil {
		return httpx.Page[File]{}, err
	}
	list, total, err := s.files(ctx, c.CustomerID, gid, off, n)
	return httpx.PageOf(list, total), err
}

func (s *Service) deleteFileHTTP(ctx context.Context, c Caller, id int64, _ none) (map[string]any, error) {
	return deleted(id, s.deleteFile(ctx, c, id))
}

func (s *Service) listTasks(ctx context.Context, c Caller, req struct {
	pageReq
	PlanID string `json:"plan_id"`
	Type   string `json:"type"`
}) (any, error) {
	off, n, err := listPages.Read(req.Page, req.Limit, DefaultPage, DefaultPage)
	if err != nil {
		return nil, err
	}
	cond, args := `customer_id = ? AND kind <> 2`, []any{c.CustomerID}
	if v := strings.TrimSpace(req.PlanID); v != "" {
		id, err := httpx.Int("plan_id", v)
		if err != nil || id < 0 {
			return nil, httpx.BadParam("plan_id", "not an id")
		}
		cond += ` AND plan_id = ?`
		args = append(args, id)
	}
	if v := strings.TrimSpace(req.Type); v != "" {
		k := 0
		if err := intIn("type", &v, KindManual, KindTimed, &k); err != nil {
			return nil, err
		}
		cond += ` AND kind = ?`
		args = append(args, k)
	}
	all, err := s.tasksWhere(ctx, cond, args...)
	if err != nil {
		return nil, err
	}
	total := len(all)
	all = all[min(off, len(all)):min(off+n, len(all))]
	runs, d, err := s.state(ctx, c.CustomerID)
	if err != nil {
		return nil, err
	}
	now := s.Now().UnixMilli()
	for i := range all {
		var rr *run
		for j := range runs {
			if runs[j].t.ID == all[i].ID {
				rr = &runs[j]
			}
		}
		d.live(&all[i], rr, now)
	}
	return httpx.PageOf(all, total), nil
}

func (s *Service) deleteTaskHTTP(ctx context.Context, c Caller, id int64, _ none) (map[string]any, error) {
	return deleted(id, s.DeleteTask(ctx, c, id))
}

// actionReq is the {action} of a path.
type actionReq struct {
	Action string `json:"action"`
}

func (s *Service) taskAction(ctx context.Context, c Caller, id int64, req actionReq) (Action, error) {
	switch a := req.Action; a {
	case "start", "stop", "pause", "resume":
		return s.Act(ctx, c, id, a)
	}
	return Action{}, ErrNotFound
}

func (s *Service) realTimeHTTP(ctx context.Context, c Caller, _ none) (Task, error) {
	return s.RealTime(ctx, c)
}

func (s *Service) realTimeVerb(v string) func(ctx context.Context, c Caller, _ none) (Action, error) {
	return func(ctx context.Context, c Caller, _ none) (Action, error) { return s.RealTimeAct(ctx, c, v, 0) }
}

func (s *Service) realTimeChoice(ctx context.Context, c Caller, req struct {
	Choice string `json:"choice_file_id"`
}) (Action, error) {
	id, err := httpx.RowID[int64]("choice_file_id", req.Choice)
	if err != nil {
		return Action{}, err
	}
	return s.RealTimeAct(ctx, c, "choice", id)
}

func (s *Service) stopPageHTTP(ctx context.Context, c Caller, _ none) (map[string]any, error) {
	return map[string]any{}, s.StopPage(ctx, c)
}

// nameReq is a plan's name.
type nameReq struct {
	Name string `json:"name"`
}

func (s *Service) createPlan(ctx context.Context, c Caller, req nameReq) (Plan, error) {
	name, err := nameField.Check(req.Name)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Name: name, CreatedAt: s.Now().UnixMilli()}
	err = s.db.WriteRow(ctx, `INSERT INTO bc_plans (customer_id, name, active, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
		c.CustomerID, name, false, p.CreatedAt).Scan(&p.ID)
	return p, err
}

func (s *Service) updatePlan(ctx context.Context, c Caller, id int64, req nameReq) (Plan, error) {
	name, err := nameField.Check(req.Name)
	if err != nil {
		return Plan{}, err
	}
	res, err := s.db.Exec(ctx, `UPDATE bc_plans SET name = ? WHERE customer_id = ? AND id = ?`, name, c.CustomerID, id)
	if err != nil {
		return Plan{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Plan{}, ErrNotFound
	}
	return s.plan(ctx, c.CustomerID, id)
}

func (s *Service) deletePlan(ctx context.Context, c Caller, id int64, _ none) (map[string]any, error) {
	p, err := s.plan(ctx, c.CustomerID, id)
	if err != nil {
		return nil, err
	}
	if p.Tasks > 0 {
		return nil, ErrPlanHasTasks
	}
	_, err = s.db.Exec(ctx, `DELETE FROM bc_plans WHERE customer_id = ? AND id = ?`, c.CustomerID, id)
	return deleted(id, err)
}

func (s *Service) planAction(ctx context.Context, c Caller, id int64, req actionReq) (Plan, error) {
	switch req.Action {
	case "start":
		return s.ActivatePlan(ctx, c, id, true)
	case "stop":
		return s.ActivatePlan(ctx, c, id, false)
	}
	return Plan{}, ErrNotFound
}

// listPage answers a paged list of the caller's customer ({page, limit}, default and maximum DefaultPage).
func listPage[T any](fetch func(ctx context.Context, customerID int64, off, n int) ([]T, int, error)) func(context.Context, Caller, pageReq) (httpx.Page[T], error) {
	return func(ctx context.Context, c Caller, req pageReq) (httpx.Page[T], error) {
		off, n, err := listPages.Read(req.Page, req.Limit, DefaultPage, DefaultPage)
		if err != nil {
			return httpx.Page[T]{}, err
		}
		list, total, err := fetch(ctx, c.CustomerID, off, n)
		return httpx.PageOf(list, total), err
	}
}
