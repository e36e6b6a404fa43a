package geo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the geo endpoints (docs/geo.md); every one needs a session.
func (s *Service) Routes(mux *http.ServeMux, require func(http.Handler) http.Handler) {
	h := func(fn httpx.Handler) http.Handler { return require(httpx.Handle(fn)) }
	mux.Handle("GET /ds/data/gpsByUTC", h(s.gpsByUTC))
	mux.Handle("GET /static/gps/{file}", require(http.HandlerFunc(s.snapshot)))

	mux.Handle("POST /ds/custom/addMark", h(s.addMark))
	mux.Handle("PUT /ds/custom/updateMark", h(s.updateMark))
	mux.Handle("GET /ds/custom/findMark", h(s.findMark))
	mux.Handle("DELETE /ds/custom/deleteMark", h(s.deleteMark))
	mux.Handle("PUT /ds/custom/updateGrpColor", h(s.updateGrpColor))
	mux.Handle("PUT /ds/custom/updateMsIcon", h(s.updateMsIcon))

	mux.Handle("GET /ds/fence/list", h(s.fenceList))
	mux.Handle("POST /ds/fence/create", h(s.fenceCreate))
	mux.Handle("POST /ds/fence/set", h(s.fenceSet))
	mux.Handle("PUT /ds/fence/del", h(s.fenceDel))
	mux.Handle("PUT /ds/fence/edit", h(s.fenceEdit))
	mux.Handle("GET /ds/fence/findter", h(s.fenceFindTer))
	mux.Handle("GET /ds/fence/fa", h(s.fenceAlarms))
	mux.Handle("PUT /ds/fence/fa", h(s.fenceAlarmHandle))

	mux.Handle("POST /ds/report/findFenceAlarmCountPost", h(s.fenceAlarmCount))
	mux.Handle("GET /ds/report/findGpsData", h(s.gpsData))
	mux.Handle("POST /ds/report/findGpsDataPost", h(s.gpsData))
}

// ---- shared parameter helpers ----

// checkCustomer accepts an optional customer id parameter (cid, scid): blank or the caller's own customer;
// any other value is answered as unknown (404), never as another customer's data.
func checkCustomer(p identity.Principal, name, v string) error {
	v = strings.TrimSpace(v)
	if v == "" || v == strconv.FormatInt(p.CustomerID, 10) {
		return nil
	}
	if _, err := strconv.ParseInt(v, 10, 64); err != nil {
		return httpx.BadParam(name, "a customer id")
	}
	return httpx.ErrNotFound
}

func checkID(name, id string) (string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", httpx.BadParam(name, "required")
	}
	if len(id) > 32 {
		return "", httpx.BadParam(name, "too long")
	}
	return id, nil
}

func checkIDs(name string, ids []string, required bool) ([]string, error) {
	if len(ids) == 0 {
		if required {
			return nil, httpx.BadParam(name, "required")
		}
		return nil, nil
	}
	if len(ids) > MaxIDs {
		return nil, httpx.BadParam(name, "too many")
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		id, err := checkID(name, id)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return dedupe(out), nil
}

func numIDs(name string, ids []string, required bool) ([]int64, error) {
	if len(ids) == 0 && required {
		return nil, httpx.BadParam(name, "required")
	}
	if len(ids) > MaxIDs {
		return nil, httpx.BadParam(name, "too many")
	}
	seen := map[int64]bool{}
	var out []int64
	for _, v := range ids {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			return nil, httpx.BadParam(name, "not an id")
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

func checkName(v string, required *httpx.Error) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", required
	}
	if !utf8.ValidString(v) || strings.IndexFunc(v, unicode.IsControl) >= 0 {
		return "", httpx.BadParam("name", "invalid characters")
	}
	if utf8.RuneCountInString(v) > MaxNameLen {
		return "", ErrNameTooLong
	}
	return v, nil
}

func checkText(name, v string, maxLen int) (string, error) {
	v = strings.TrimSpace(v)
	if !utf8.ValidString(v) || utf8.RuneCountInString(v) > maxLen {
		return "", httpx.BadParam(name, fmt.Sprintf("at most %d characters", maxLen))
	}
	return v, nil
}

// page reads pageNo (from 1) and pageSize (1..MaxPageSize, default DefaultPageSize).
func page(no, size string) (offset, limit int, err error) {
	p, n := int64(1), int64(DefaultPageSize)
	if strings.TrimSpace(no) != "" {
		if p, err = httpx.Int("pageNo", no); err != nil || p < 1 {
			return 0, 0, httpx.BadParam("pageNo", "from 1")
		}
	}
	if strings.TrimSpace(size) != "" {
		if n, err = httpx.Int("pageSize", size); err != nil || n < 1 || n > MaxPageSize {
			return 0, 0, httpx.BadParam("pageSize", fmt.Sprintf("1 to %d", MaxPageSize))
		}
	}
	return int((p - 1) * n), int(n), nil
}

// timeRange parses and checks a required time range with the customer's month boundaries.
func (s *Service) timeRange(ctx context.Context, p identity.Principal, fromName, from, toName, to string, maxLen time.Duration) (timerange.Range, error) {
	f, okF, err := ParseTime(fromName, from)
	if err != nil {
		return timerange.Range{}, err
	}
	t, okT, err := ParseTime(toName, to)
	if err != nil {
		return timerange.Range{}, err
	}
	if !okF {
		return timerange.Range{}, httpx.BadParam(fromName, "required")
	}
	if !okT {
		return timerange.Range{}, httpx.BadParam(toName, "required")
	}
	tz, err := s.Store.TimeZone(ctx, p.CustomerID)
	if err != nil {
		return timerange.Range{}, err
	}
	return timerange.Check(f, t, maxLen, timerange.ZoneOf(tz))
}

// ---- track ----

// TrackPoint is a track point (spec §3: speed, lng, lat, direction, altitude, time) with the length of the
// segment from the previous point in metres and that segment's playback precision (spec §9 rule).
type TrackPoint struct {
	Point
	Dist      float64 `json:"dist"`
	Precision int     `json:"precision"`
}

// Track is the answer of gpsByUTC.
type Track struct {
	MsID      string       `json:"msId"`
	Name      string       `json:"name"`
	Points    []TrackPoint `json:"points"`
	Summary   Summary      `json:"summary"`
	Stops     []Stop       `json:"stops"`
	Truncated bool         `json:"truncated"` // more than MaxTrackPoints: points stop there, summary and stops too
}

// gpsByUTC: track query {scid, dcid, btime, etime, unit, stopMinutes}. scid is the customer id (optional; must
// be the caller's), dcid the terminal (required: "track needs a terminal"); times are UTC.
func (s *Service) gpsByUTC(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		Scid        string `json:"scid"`
		Dcid        string `json:"dcid"`
		Btime       string `json:"btime"`
		Etime       string `json:"etime"`
		Unit        string `json:"unit"`
		StopMinutes string `json:"stopMinutes"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	if err := checkCustomer(p, "scid", req.Scid); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Dcid) == "" {
		return nil, ErrNeedTerminal
	}
	id, err := checkID("dcid", req.Dcid)
	if err != nil {
		return nil, err
	}
	unit, err := ParseUnit(req.Unit)
	if err != nil {
		return nil, err
	}
	stopMin := int64(DefaultStopMinute)
	if strings.TrimSpace(req.StopMinutes) != "" {
		if stopMin, err = httpx.Int("stopMinutes", req.StopMinutes); err != nil || stopMin < 1 || stopMin > 1440 {
			return nil, httpx.BadParam("stopMinutes", "1 to 1440")
		}
	}
	rng, err := s.timeRange(ctx, p, "btime", req.Btime, "etime", req.Etime, MaxTrackRange)
	if err != nil {
		return nil, err
	}
	names, err := s.Store.Terminals(ctx, p.CustomerID, []string{id})
	if err != nil {
		return nil, err
	}
	tr := Track{MsID: id, Name: names[id].Name, Points: []TrackPoint{}}
	var sum summarizer
	stops := newStopDetector(time.Duration(stopMin) * time.Minute)
	tr.Truncated, err = s.Store.Track(ctx, id, rng.From, rng.To, MaxTrackPoints, func(pt Point) {
		seg := sum.add(pt)
		stops.add(pt)
		prec := 0
		if len(tr.Points) > 0 {
			prec = Precision(seg)
		}
		tr.Points = append(tr.Points, TrackPoint{Point: pt, Dist: round(seg, 1), Precision: prec})
	})
	if err != nil {
		return nil, err
	}
	tr.Summary, tr.Stops = sum.result(unit), stops.result()
	s.log.By(ctx, p, oplog.TrackQuery, fmt.Sprintf("%s %s – %s", id,
		time.UnixMilli(rng.From).UTC().Format("2006-01-02 15:04"), time.UnixMilli(rng.To).UTC().Format("2006-01-02 15:04")))
	return tr, nil
}

// gpsData: the /gps-data report {msIds, sTime, eTime, pageNo, pageSize} → {total, list}, ordered by terminal
// then time; at most 7 days within one month.
func (s *Service) gpsData(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		MsIDs    httpx.List `json:"msIds"`
		MsID     string     `json:"msId"`
		STime    string     `json:"sTime"`
		ETime    string     `json:"eTime"`
		PageNo   string     `json:"pageNo"`
		PageSize string     `json:"pageSize"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	list := []string(req.MsIDs)
	if req.MsID != "" {
		list = append(list, req.MsID)
	}
	if len(list) == 0 {
		return nil, ErrNeedTerminal
	}
	ids, err := checkIDs("msIds", list, true)
	if err != nil {
		return nil, err
	}
	offset, limit, err := page(req.PageNo, req.PageSize)
	if err != nil {
		return nil, err
	}
	rng, err := s.timeRange(ctx, p, "sTime", req.STime, "eTime", req.ETime, MaxTrackRange)
	if err != nil {
		return nil, err
	}
	names, err := s.Store.Terminals(ctx, p.CustomerID, ids)
	if err != nil {
		return nil, err
	}
	rows, total, err := s.Store.GPSData(ctx, names, rng.From, rng.To, offset, limit)
	if err != nil {
		return nil, err
	}
	return map[string]any{"total": total, "list": rows}, nil
}

// ---- marks ----

var colorRe = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$`)

func checkColor(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v != "" && !colorRe.MatchString(v) {
		return "", httpx.BadParam("color", "#rgb, #rrggbb or #rrggbbaa")
	}
	return v, nil
}

// CheckLink is the marker link rule (spec §5 "marker link format checked"): empty, or an absolute http or https
// URL with a host, without spaces, at most MaxMarkLinkLen characters.
func CheckLink(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", nil
	}
	if len(v) > MaxMarkLinkLen || strings.IndexFunc(v, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return "", ErrMarkLink
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return "", ErrMarkLink
	}
	return v, nil
}

// checkMarkGeometry validates a mark's GeoJSON for its type and returns it canonical.
func checkMarkGeometry(typ string, raw rawJSON) ([]byte, error) {
	var g geoJSON
	if len(raw) == 0 {
		return nil, httpx.BadParam("geometry", "required")
	}
	if err := json.Unmarshal(raw, &g); err != nil || g.Type != markGeometry[typ] {
		return nil, badGeometry(typ + " needs a GeoJSON " + markGeometry[typ])
	}
	switch g.Type {
	case "Point":
		var c []float64
		if json.Unmarshal(g.Coordinates, &c) != nil {
			return nil, badGeometry("point coordinates")
		}
		p, err := parsePosition(c)
		if err != nil {
			return nil, err
		}
		return json.Marshal(map[string]any{"type": "Point", "coordinates": []float64{p.Lng, p.Lat}})
	case "LineString":
		var cs [][]float64
		if json.Unmarshal(g.Coordinates, &cs) != nil || len(cs) < 2 || len(cs) > MaxMarkVertices {
			return nil, badGeometry(fmt.Sprintf("a line has 2 to %d positions", MaxMarkVertices))
		}
		line := make([][]float64, 0, len(cs))
		for _, c := range cs {
			p, err := parsePosition(c)
			if err != nil {
				return nil, err
			}
			line = append(line, []float64{p.Lng, p.Lat})
		}
		return json.Marshal(map[string]any{"type": "LineString", "coordinates": line})
	default: // Polygon
		var rings [][][]float64
		if json.Unmarshal(g.Coordinates, &rings) != nil || len(rings) == 0 {
			return nil, badGeometry("shape needs a GeoJSON Polygon")
		}
		ring, err := parseRing(rings[0], MaxMarkVertices)
		if err != nil {
			return nil, err
		}
		return json.Marshal(map[string]any{"type": "Polygon", "coordinates": [][][]float64{closedRing(ring)}})
	}
}

// markIn is the body of addMark and updateMark; nil fields of an update are kept.
type markIn struct {
	ID       string  `json:"id"`
	Type     *string `json:"type"`
	Name     *string `json:"name"`
	Geometry rawJSON `json:"geometry"`
	Color    *string `json:"color"`
	Icon     *string `json:"icon"`
	Link     *string `json:"link"`
	Remark   *string `json:"remark"`
}

// apply validates the given fields onto m.
func (in markIn) apply(m *Mark) error {
	if in.Type != nil {
		t := strings.TrimSpace(*in.Type)
		if _, ok := markGeometry[t]; !ok {
			return httpx.BadParam("type", "point, line or shape")
		}
		if t != m.Type && in.Geometry == nil {
			return httpx.BadParam("geometry", "required when the type changes")
		}
		m.Type = t
	}
	if in.Name != nil {
		n, err := checkName(*in.Name, httpx.BadParam("name", "required"))
		if err != nil {
			return err
		}
		m.Name = n
	}
	if in.Geometry != nil {
		g, err := checkMarkGeometry(m.Type, in.Geometry)
		if err != nil {
			return err
		}
		m.Geometry = g
	}
	var err error
	if in.Color != nil {
		if m.Color, err = checkColor(*in.Color); err != nil {
			return err
		}
	}
	if in.Icon != nil {
		if m.Icon, err = checkText("icon", *in.Icon, 256); err != nil {
			return err
		}
	}
	if in.Link != nil {
		if m.Link, err = CheckLink(*in.Link); err != nil {
			return err
		}
	}
	if in.Remark != nil {
		if m.Remark, err = checkText("remark", *in.Remark, MaxMarkTextLen); err != nil {
			return err
		}
	}
	return nil
}

type changeEvent struct {
	ID     string `json:"id,omitempty"`
	Fence  string `json:"fenceid,omitempty"`
	Action string `json:"action"`
	Mark   *Mark  `json:"mark,omitempty"`
}

func (s *Service) addMark(w http.ResponseWriter, r *http.Request) (any, error) {
	var in markIn
	if err := httpx.Decode(r, &in); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
	if in.Type == nil {
		return nil, httpx.BadParam("type", "required")
	}
	if in.Name == nil {
		return nil, httpx.BadParam("name", "required")
	}
	if in.Geometry == nil {
		return nil, httpx.BadParam("geometry", "required")
	}
	now := s.now().UnixMilli()
	m := Mark{CreatorID: p.AccountID, Creator: p.Name, Time: now, Updated: now}
	if err := in.apply(&m); err != nil {
		return nil, err
	}
	if err := s.Store.AddMark(r.Context(), p.CustomerID, &m); err != nil {
		return nil, err
	}
	s.hub.Publish(p.CustomerID, EventMarkChanged, changeEvent{ID: m.ID, Action: "add", Mark: &m}, realtime.Consoles)
	return m, nil
}

func (s *Service) updateMark(w http.ResponseWriter, r *http.Request) (any, error) {
	var in markIn
	if err := httpx.Decode(r, &in); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
	ids, err := numIDs("id", []string{in.ID}, true)
	if err != nil {
		return nil, err
	}
	m, err := s.Store.Mark(r.Context(), p.CustomerID, ids[0])
	if err != nil {
		return nil, err
	}
	if err := in.apply(&m); err != nil {
		return nil, err
	}
	m.Updated = s.now().UnixMilli()
	if err := s.Store.UpdateMark(r.Context(), p.CustomerID, ids[0], m); err != nil {
		return nil, err
	}
	s.hub.Publish(p.CustomerID, EventMarkChanged, changeEvent{ID: m.ID, Action: "update", Mark: &m}, realtime.Consoles)
	return m, nil
}

func (s *Service) findMark(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		ID   httpx.List `json:"id"`
		Type string     `json:"type"`
		Name string     `json:"name"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
	ids, err := numIDs("id", req.ID, false)
	if err != nil {
		return nil, err
	}
	if req.Type != "" {
		if _, ok := markGeometry[req.Type]; !ok {
			return nil, httpx.BadParam("type", "point, line or shape")
		}
	}
	return s.Store.Marks(r.Context(), p.CustomerID, MarkFilter{Type: req.Type, Name: strings.TrimSpace(req.Name), IDs: ids})
}

func (s *Service) deleteMark(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		ID httpx.List `json:"id"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
	ids, err := numIDs("id", req.ID, true)
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteMarks(r.Context(), p.CustomerID, ids); err != nil {
		return nil, err
	}
	for _, id := range ids {
		s.hub.Publish(p.CustomerID, EventMarkChanged, changeEvent{ID: fenceIDString(id), Action: "delete"}, realtime.Consoles)
	}
	return map[string]int{"deleted": len(ids)}, nil
}

// ---- fences ----

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

// fenceList: {cid, type, msId} → fences of the caller's customer, optionally of one type or one terminal.
func (s *Service) fenceList(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		Cid  string `json:"cid"`
		Type string `json:"type"`
		MsID string `json:"msId"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
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
	return s.Store.Fences(r.Context(), p.CustomerID, f)
}

// fenceIn is the body of create and edit.
type fenceIn struct {
	FenceID  string     `json:"fenceid"`
	Name     *string    `json:"name"`
	Type     *string    `json:"type"`
	Shape    string     `json:"shape"`
	Geometry rawJSON    `json:"geometry"`
	Radius   string     `json:"radius"`
	MsIDs    httpx.List `json:"msIds"`
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

func (s *Service) fenceCreate(w http.ResponseWriter, r *http.Request) (any, error) {
	var in fenceIn
	if err := httpx.Decode(r, &in); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	name := ""
	if in.Name != nil {
		name = *in.Name
	}
	name, err := checkName(name, ErrFenceName)
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
	geom, _, err := compileFence(strings.TrimSpace(in.Shape), json.RawMessage(in.Geometry), radius)
	if err != nil {
		return nil, err
	}
	ids, err := checkIDs("msIds", in.MsIDs, false)
	if err != nil {
		return nil, err
	}
	f := &Fence{Name: name, Type: typ, Shape: strings.TrimSpace(in.Shape), Geometry: geom, Terminals: ids,
		CreatorID: p.AccountID, Creator: p.Name}
	if f.Shape == ShapeCircle {
		f.Radius = radius
	}
	if f.Terminals == nil {
		f.Terminals = []string{}
	}
	if err := s.Store.CreateFence(ctx, p.CustomerID, f, s.now().UnixMilli()); err != nil {
		return nil, err
	}
	s.log.By(ctx, p, oplog.FenceCreate, f.Name)
	if err := s.fenceChanged(ctx, p, "create", f.ID); err != nil {
		return nil, err
	}
	return f, nil
}

func (s *Service) fenceEdit(w http.ResponseWriter, r *http.Request) (any, error) {
	var in fenceIn
	if err := httpx.Decode(r, &in); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	ids, err := numIDs("fenceid", []string{in.FenceID}, true)
	if err != nil {
		return nil, err
	}
	cur, err := s.Store.Fence(ctx, p.CustomerID, ids[0])
	if err != nil {
		return nil, err
	}
	var e FenceEdit
	if in.Name != nil {
		n, err := checkName(*in.Name, ErrFenceName)
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
	s.log.By(ctx, p, oplog.FenceEdit, f.Name)
	if err := s.fenceChanged(ctx, p, "edit", f.ID); err != nil {
		return nil, err
	}
	return f, nil
}

// fenceSet: {fenceid, msIds?, add?, remove?} — msIds replaces the whole list; add and remove change it.
func (s *Service) fenceSet(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		FenceID string      `json:"fenceid"`
		MsIDs   *httpx.List `json:"msIds"`
		Add     httpx.List  `json:"add"`
		Remove  httpx.List  `json:"remove"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	ids, err := numIDs("fenceid", []string{req.FenceID}, true)
	if err != nil {
		return nil, err
	}
	if req.MsIDs == nil && len(req.Add) == 0 && len(req.Remove) == 0 {
		return nil, httpx.BadParam("msIds/add/remove", "required")
	}
	var replace []string
	if req.MsIDs != nil {
		if replace, err = checkIDs("msIds", *req.MsIDs, false); err != nil {
			return nil, err
		}
		if replace == nil {
			replace = []string{}
		}
	}
	add, err := checkIDs("add", req.Add, false)
	if err != nil {
		return nil, err
	}
	remove, err := checkIDs("remove", req.Remove, false)
	if err != nil {
		return nil, err
	}
	if err := s.Store.SetFenceTerminals(ctx, p.CustomerID, ids[0], replace, add, remove, s.now().UnixMilli()); err != nil {
		return nil, err
	}
	f, err := s.Store.Fence(ctx, p.CustomerID, ids[0])
	if err != nil {
		return nil, err
	}
	s.log.By(ctx, p, oplog.FenceEdit, f.Name+": terminals")
	if err := s.fenceChanged(ctx, p, "set", f.ID); err != nil {
		return nil, err
	}
	return f, nil
}

func (s *Service) fenceDel(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		FenceID httpx.List `json:"fenceid"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	ids, err := numIDs("fenceid", req.FenceID, true)
	if err != nil {
		return nil, err
	}
	names, err := s.Store.DeleteFences(ctx, p.CustomerID, ids)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		s.log.By(ctx, p, oplog.FenceDelete, n)
	}
	if err := s.fenceChanged(ctx, p, "delete", ids...); err != nil {
		return nil, err
	}
	return map[string]int{"deleted": len(ids)}, nil
}

// fenceFindTer: {cid, fenceid} → the fence's terminals [{msId, name, online}].
func (s *Service) fenceFindTer(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		Cid     string `json:"cid"`
		FenceID string `json:"fenceid"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	if err := checkCustomer(p, "cid", req.Cid); err != nil {
		return nil, err
	}
	ids, err := numIDs("fenceid", []string{req.FenceID}, true)
	if err != nil {
		return nil, err
	}
	f, err := s.Store.Fence(ctx, p.CustomerID, ids[0])
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
	FenceID  httpx.List `json:"fenceid"`
	FenceIDs httpx.List `json:"fenceIds"`
	MsID     httpx.List `json:"msId"`
	MsIDs    httpx.List `json:"msIds"`
	Status   string     `json:"status"`
	STime    string     `json:"sTime"`
	ETime    string     `json:"eTime"`
	PageNo   string     `json:"pageNo"`
	PageSize string     `json:"pageSize"`
	GroupBy  string     `json:"groupBy"`
}

func (s *Service) alarmFilter(ctx context.Context, p identity.Principal, q alarmQuery, rangeRequired bool) (AlarmFilter, error) {
	var f AlarmFilter
	var err error
	if f.Fences, err = numIDs("fenceid", append(q.FenceID, q.FenceIDs...), false); err != nil {
		return f, err
	}
	if f.Terminals, err = checkIDs("msIds", append(q.MsID, q.MsIDs...), false); err != nil {
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
func (s *Service) fenceAlarms(w http.ResponseWriter, r *http.Request) (any, error) {
	var q alarmQuery
	if err := httpx.Decode(r, &q); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	f, err := s.alarmFilter(ctx, p, q, false)
	if err != nil {
		return nil, err
	}
	offset, limit, err := page(q.PageNo, q.PageSize)
	if err != nil {
		return nil, err
	}
	list, total, err := s.Store.Alarms(ctx, p.CustomerID, f, offset, limit)
	if err != nil {
		return nil, err
	}
	return map[string]any{"total": total, "list": list}, nil
}

// fenceAlarmHandle: PUT fa {id, status, remark?} — status 1 responds to the alarms, 2 closes (cancels) them
// (log 127 per closed alarm); each changed record is published as `fence.alarmUpdated`.
func (s *Service) fenceAlarmHandle(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		ID     httpx.List `json:"id"`
		Status string     `json:"status"`
		Remark string     `json:"remark"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	ids, err := numIDs("id", req.ID, true)
	if err != nil {
		return nil, err
	}
	status, err := strconv.Atoi(strings.TrimSpace(req.Status))
	if err != nil || (status != AlarmResponded && status != AlarmClosed) {
		return nil, httpx.BadParam("status", "1 (respond) or 2 (close)")
	}
	remark, err := checkText("remark", req.Remark, MaxMarkTextLen)
	if err != nil {
		return nil, err
	}
	changed, err := s.Store.HandleAlarms(ctx, p.CustomerID, ids, status, p.AccountID, p.Name, remark, s.now().UnixMilli())
	if err != nil {
		return nil, err
	}
	for _, a := range changed {
		if a.Status == AlarmClosed {
			s.log.By(ctx, p, oplog.FenceAlarmCanceled, fmt.Sprintf("%s %s (%s)", a.MsName, a.FenceName, a.Type))
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
func (s *Service) fenceAlarmCount(w http.ResponseWriter, r *http.Request) (any, error) {
	var q alarmQuery
	if err := httpx.Decode(r, &q); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
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
	return map[string]any{"total": total, "list": list}, nil
}
