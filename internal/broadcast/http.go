package broadcast

import (
	"context"
	"net/http"
	"strings"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
)

// Routes mounts the broadcast service (spec §7 "Broadcast service") under /broadcast. It is a second API with
// its own envelope ({code: 200}) and its own token (POST /v1/login, or the console's session), so it is mounted
// on the mux with its own wrappers rather than httpx.Router's (docs/adr/0018).
func (s *Service) Routes(r httpx.Router) {
	m := r.Mux
	const b = "/broadcast/v1"
	m.Handle("POST "+b+"/login", s.public(s.loginHTTP))
	m.Handle("POST "+b+"/org", s.signedIn(s.createOrgHTTP))
	m.Handle("POST /broadcast/api/v1/org", s.signedIn(s.createOrgHTTP)) // spec: "prefixed /api when no parent"
	m.Handle("PATCH "+b+"/org/{id}", s.signedIn(s.updateOrgHTTP))
	m.Handle("DELETE "+b+"/org/{id}", s.signedIn(s.deleteOrgHTTP))
	m.Handle("GET "+b+"/org", s.signedIn(s.listOrgs))
	m.Handle("POST "+b+"/caster", s.signedIn(s.createCasterHTTP))
	m.Handle("GET "+b+"/caster", s.signedIn(s.listCasters))
	m.Handle("GET "+b+"/sys/user", s.signedIn(func(_ http.ResponseWriter, _ *http.Request, c Caller) (any, error) { return sysUser(c), nil }))
	m.Handle("POST "+b+"/device", s.signedIn(s.createDeviceHTTP))
	m.Handle("PATCH "+b+"/device/{id}", s.signedIn(s.updateDeviceHTTP))
	m.Handle("GET "+b+"/device", s.signedIn(s.listDevices))
	m.Handle("DELETE "+b+"/device/{id}", s.signedIn(s.deleteDevice))
	m.Handle("PATCH "+b+"/device/{id}/volume", s.signedIn(s.deviceVolume))
	m.Handle("POST "+b+"/device/batch_volume", s.signedIn(s.batchVolume))
	m.Handle("POST "+b+"/upload", s.signedIn(s.upload))
	m.Handle("GET "+b+"/file", s.signedIn(s.listFiles))
	m.Handle("DELETE "+b+"/file/{id}", s.signedIn(s.deleteFileHTTP))
	m.Handle("GET /broadcast/music/{name}", http.HandlerFunc(s.music))
	m.Handle("GET "+SpeakerPath, http.HandlerFunc(s.speakerWS))
	m.Handle("POST "+b+"/paging/start", s.signedIn(s.pageHTTP))
	m.Handle("GET "+b+"/paging/stop", s.signedIn(func(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
		return map[string]any{}, s.StopPage(r.Context(), c)
	}))
	m.Handle("POST "+b+"/task", s.signedIn(s.createTaskHTTP))
	m.Handle("PATCH "+b+"/task/{id}", s.signedIn(s.updateTaskHTTP))
	m.Handle("GET "+b+"/task", s.signedIn(s.listTasks))
	m.Handle("DELETE "+b+"/task/{id}", s.signedIn(s.deleteTaskHTTP))
	m.Handle("GET "+b+"/task/{id}/{action}", s.signedIn(s.taskAction))
	m.Handle("GET "+b+"/plan", s.signedIn(s.listPlans))
	m.Handle("POST "+b+"/plan", s.signedIn(s.createPlan))
	m.Handle("PATCH "+b+"/plan/{id}", s.signedIn(s.updatePlan))
	m.Handle("DELETE "+b+"/plan/{id}", s.signedIn(s.deletePlan))
	m.Handle("GET "+b+"/plan/{id}/{action}", s.signedIn(s.planAction))
	m.Handle("GET "+b+"/real_time_task", s.signedIn(func(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
		return s.RealTime(r.Context(), c)
	}))
	m.Handle("PATCH "+b+"/real_time_task", s.signedIn(func(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
		var in TaskIn
		if err := httpx.Decode(r, &in); err != nil {
			return nil, err
		}
		return s.UpdateRealTime(r.Context(), c, in)
	}))
	m.Handle("POST "+b+"/real_time_task/start", s.signedIn(s.realTimeVerb("start")))
	for _, v := range []string{"stop", "pause", "next", "prev"} {
		m.Handle("GET "+b+"/real_time_task/"+v, s.signedIn(s.realTimeVerb(v)))
	}
	m.Handle("PATCH "+b+"/real_time_task/choice", s.signedIn(func(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
		var req struct {
			Choice string `json:"choice_file_id"`
		}
		if err := httpx.Decode(r, &req); err != nil {
			return nil, err
		}
		id, err := pathID("choice_file_id", req.Choice)
		if err != nil {
			return nil, err
		}
		return s.RealTimeAct(r.Context(), c, "choice", id)
	}))
}

func pathID(field, v string) (int64, error) {
	n, err := httpx.Int(field, v)
	if err != nil || n <= 0 {
		return 0, httpx.BadParam(field, "not an id")
	}
	return n, nil
}

func idOf(r *http.Request) (int64, error) { return pathID("id", r.PathValue("id")) }

// paging reads page (from 1) and limit (1..maxLimit, default def).
func paging(page, limit string, def, maxLimit int) (offset, n int, err error) {
	p, l := int64(1), int64(def)
	if strings.TrimSpace(limit) != "" {
		if l, err = httpx.Int("limit", limit); err != nil || l < 1 || l > int64(maxLimit) {
			return 0, 0, httpx.BadParam("limit", "1 to "+itoa(int64(maxLimit)))
		}
	}
	if strings.TrimSpace(page) != "" {
		if p, err = httpx.Int("page", page); err != nil || p < 1 || (p-1)*l > httpx.MaxOffset {
			return 0, 0, httpx.BadParam("page", "from 1")
		}
	}
	return int((p - 1) * l), int(l), nil
}

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

func optID(field string, v *string) (*int64, error) {
	if v == nil {
		return nil, nil
	}
	if strings.TrimSpace(*v) == "" || strings.TrimSpace(*v) == "0" {
		z := int64(0)
		return &z, nil
	}
	n, err := pathID(field, *v)
	return &n, err
}

type orgReq struct {
	ParentID   *string `json:"parent_id"`
	Password   *string `json:"password"`
	Name       *string `json:"name"`
	Code       *string `json:"code"`
	CallNumber *string `json:"call_number"`
}

func (q orgReq) in() (orgIn, error) {
	pid, err := optID("parent_id", q.ParentID)
	return orgIn{ParentID: pid, Name: q.Name, Code: q.Code, CallNumber: q.CallNumber, Password: q.Password}, err
}

func (s *Service) createOrgHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var req orgReq
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	in, err := req.in()
	if err != nil {
		return nil, err
	}
	return s.createOrg(r.Context(), c.CustomerID, in)
}

func (s *Service) updateOrgHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	var req orgReq
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	in, err := req.in()
	if err != nil {
		return nil, err
	}
	return s.updateOrg(r.Context(), c.CustomerID, id, in)
}

func (s *Service) deleteOrgHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": id}, s.deleteOrg(r.Context(), c.CustomerID, id)
}

func (s *Service) listOrgs(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	return listPage(r, c, s.orgs)
}

func (s *Service) createCasterHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var req struct {
		UserID     string `json:"user_id"`
		Password   string `json:"password"`
		Name       string `json:"name"`
		Code       string `json:"code"`
		CallNumber string `json:"call_number"`
		Priority   string `json:"priority"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	in := casterIn{UserID: req.UserID, Name: req.Name, Code: req.Code, CallNumber: req.CallNumber, Password: req.Password, Priority: DefaultPriority}
	if strings.TrimSpace(req.Priority) != "" {
		if err := intIn("priority", &req.Priority, 1, 9, &in.Priority); err != nil {
			return nil, err
		}
	}
	return s.createCaster(r.Context(), c.CustomerID, in)
}

func (s *Service) listCasters(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var req struct {
		Code string `json:"code"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	list, err := s.casters(r.Context(), c.CustomerID, strings.TrimSpace(req.Code))
	return Page[Caster]{Total: len(list), List: list}, err
}

type deviceReq struct {
	OrgID *string `json:"org_id"`
	Name  *string `json:"name"`
	Code  *string `json:"code"`
}

func (q deviceReq) in() (deviceIn, error) {
	in := deviceIn{Name: q.Name, Code: q.Code}
	if q.OrgID != nil {
		id, err := pathID("org_id", *q.OrgID)
		if err != nil {
			return in, err
		}
		in.OrgID = &id
	}
	return in, nil
}

func (s *Service) createDeviceHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var req deviceReq
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	in, err := req.in()
	if err != nil {
		return nil, err
	}
	d, err := s.createDevice(r.Context(), c.CustomerID, in)
	if err == nil {
		s.hub.Publish(c.CustomerID, EventDevice, d, consoles)
	}
	return d, err
}

func (s *Service) updateDeviceHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	var req deviceReq
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	in, err := req.in()
	if err != nil {
		return nil, err
	}
	d, err := s.updateDevice(r.Context(), c.CustomerID, id, in)
	if err == nil {
		s.hub.Publish(c.CustomerID, EventDevice, d, consoles)
	}
	return d, err
}

func (s *Service) listDevices(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var req struct {
		pageReq
		OrgID string `json:"org_id"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	off, n, err := paging(req.Page, req.Limit, DefaultPage, DefaultPage)
	if err != nil {
		return nil, err
	}
	var org int64
	if strings.TrimSpace(req.OrgID) != "" {
		if org, err = pathID("org_id", req.OrgID); err != nil {
			return nil, err
		}
	}
	list, total, err := s.devices(r.Context(), c.CustomerID, org, off, n)
	if err != nil {
		return nil, err
	}
	return Page[Device]{Total: total, List: list}, s.devicesPlaying(r.Context(), c.CustomerID, list)
}

func (s *Service) deleteDevice(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
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
	return map[string]any{"id": id}, nil
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

func (s *Service) deviceVolume(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	var req struct {
		Volume *string `json:"ao_volume"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	if req.Volume == nil {
		return nil, errRequired("ao_volume")
	}
	vol, err := checkVolume("ao_volume", *req.Volume)
	if err != nil {
		return nil, err
	}
	if _, err := s.device(r.Context(), c.CustomerID, id); err != nil {
		return nil, err
	}
	if err := s.volumeChange(r.Context(), c, []int64{id}, vol); err != nil {
		return nil, err
	}
	return s.device(r.Context(), c.CustomerID, id)
}

// batchVolume is POST /v1/device/batch_volume {group_id, ao_volume, device_ids}: the listed devices and every
// device of the organisation group_id and its sub-organisations.
func (s *Service) batchVolume(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var req struct {
		GroupID   string    `json:"group_id"`
		Volume    *string   `json:"ao_volume"`
		DeviceIDs flex.List `json:"device_ids"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
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
	ctx := r.Context()
	if g := strings.TrimSpace(req.GroupID); g != "" && g != "0" {
		gid, err := pathID("group_id", g)
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

func (s *Service) listFiles(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var req struct {
		pageReq
		GroupID *string `json:"group_id"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	off, n, err := paging(req.Page, req.Limit, FilesPerGroup, DefaultPage)
	if err != nil {
		return nil, err
	}
	gid, err := optID("group_id", req.GroupID)
	if err != nil {
		return nil, err
	}
	list, total, err := s.files(r.Context(), c.CustomerID, gid, off, n)
	return Page[File]{Total: total, List: list}, err
}

func (s *Service) deleteFileHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": id}, s.deleteFile(r.Context(), c, id)
}

func (s *Service) createTaskHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var in TaskIn
	if err := httpx.Decode(r, &in); err != nil {
		return nil, err
	}
	return s.CreateTask(r.Context(), c, in)
}

func (s *Service) updateTaskHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	var in TaskIn
	if err := httpx.Decode(r, &in); err != nil {
		return nil, err
	}
	return s.UpdateTask(r.Context(), c, id, in)
}

func (s *Service) listTasks(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var req struct {
		pageReq
		PlanID string `json:"plan_id"`
		Type   string `json:"type"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	off, n, err := paging(req.Page, req.Limit, DefaultPage, DefaultPage)
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
	ctx := r.Context()
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
	now := s.now().UnixMilli()
	for i := range all {
		var rr *run
		for j := range runs {
			if runs[j].t.ID == all[i].ID {
				rr = &runs[j]
			}
		}
		d.live(&all[i], rr, now)
	}
	return Page[Task]{Total: total, List: all}, nil
}

func (s *Service) deleteTaskHTTP(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": id}, s.DeleteTask(r.Context(), c, id)
}

func (s *Service) taskAction(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	switch a := r.PathValue("action"); a {
	case "start", "stop", "pause", "resume":
		return s.Act(r.Context(), c, id, a)
	}
	return nil, ErrNotFound
}

func (s *Service) realTimeVerb(v string) handler {
	return func(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
		return s.RealTimeAct(r.Context(), c, v, 0)
	}
}

func (s *Service) listPlans(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	return listPage(r, c, s.plans)
}

func (s *Service) createPlan(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	var req struct {
		Name string `json:"name"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	name, err := checkName("name", req.Name)
	if err != nil {
		return nil, err
	}
	p := Plan{Name: name, CreatedAt: s.now().UnixMilli()}
	err = s.db.WriteRow(r.Context(), `INSERT INTO bc_plans (customer_id, name, active, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
		c.CustomerID, name, false, p.CreatedAt).Scan(&p.ID)
	return p, err
}

func (s *Service) updatePlan(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	name, err := checkName("name", req.Name)
	if err != nil {
		return nil, err
	}
	res, err := s.db.Exec(r.Context(), `UPDATE bc_plans SET name = ? WHERE customer_id = ? AND id = ?`, name, c.CustomerID, id)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, ErrNotFound
	}
	return s.plan(r.Context(), c.CustomerID, id)
}

func (s *Service) deletePlan(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	p, err := s.plan(r.Context(), c.CustomerID, id)
	if err != nil {
		return nil, err
	}
	if p.Tasks > 0 {
		return nil, ErrPlanHasTasks
	}
	_, err = s.db.Exec(r.Context(), `DELETE FROM bc_plans WHERE customer_id = ? AND id = ?`, c.CustomerID, id)
	return map[string]any{"id": id}, err
}

func (s *Service) planAction(_ http.ResponseWriter, r *http.Request, c Caller) (any, error) {
	id, err := idOf(r)
	if err != nil {
		return nil, err
	}
	switch r.PathValue("action") {
	case "start":
		return s.ActivatePlan(r.Context(), c, id, true)
	case "stop":
		return s.ActivatePlan(r.Context(), c, id, false)
	}
	return nil, ErrNotFound
}

// listPage answers a paged list of the caller's customer ({page, limit}, default and maximum DefaultPage).
func listPage[T any](r *http.Request, c Caller, fetch func(ctx context.Context, customerID int64, off, n int) ([]T, int, error)) (any, error) {
	var req pageReq
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	off, n, err := paging(req.Page, req.Limit, DefaultPage, DefaultPage)
	if err != nil {
		return nil, err
	}
	list, total, err := fetch(r.Context(), c.CustomerID, off, n)
	return Page[T]{Total: total, List: list}, err
}
