package geo

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/text"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the geo endpoints (docs/geo.md); every one needs a session. The track query and the position
// report are in track_http.go, marks, group colours and terminal icons in mark_http.go, fences and fence alarms
// in fence_http.go.
func (s *Service) Routes(r httpx.Router) {
	r.Private("GET /ds/data/gpsByUTC", httpx.Bind(s.gpsByUTC))
	r.Raw("GET /static/gps/{file}", http.HandlerFunc(s.snapshot), true)

	r.Private("POST /ds/custom/addMark", httpx.Bind(s.addMark))
	r.Private("PUT /ds/custom/updateMark", httpx.Bind(s.updateMark))
	r.Private("GET /ds/custom/findMark", httpx.Bind(s.findMark))
	r.Private("DELETE /ds/custom/deleteMark", httpx.Bind(s.deleteMark))
	r.Private("PUT /ds/custom/updateGrpColor", httpx.Bind(s.updateGrpColor))
	r.Private("PUT /ds/custom/updateMsIcon", httpx.Bind(s.updateMsIcon))

	r.Private("GET /ds/fence/list", httpx.Bind(s.fenceList))
	r.Private("POST /ds/fence/create", httpx.Bind(s.fenceCreate))
	r.Private("POST /ds/fence/set", httpx.Bind(s.fenceSet))
	r.Private("PUT /ds/fence/del", httpx.Bind(s.fenceDel))
	r.Private("PUT /ds/fence/edit", httpx.Bind(s.fenceEdit))
	r.Private("GET /ds/fence/findter", httpx.Bind(s.fenceFindTer))
	r.Console("POST /ds/fence/alarmBreaches", httpx.Bind(s.fenceAlarmBreaches))
	r.Private("GET /ds/fence/fa", httpx.Bind(s.fenceAlarms))
	r.Private("PUT /ds/fence/fa", httpx.Bind(s.fenceAlarmHandle))

	r.Private("POST /ds/report/findFenceAlarmCountPost", httpx.Bind(s.fenceAlarmCount))
	r.Private("GET /ds/report/findGpsData", httpx.Bind(s.gpsData))
	r.Private("POST /ds/report/findGpsDataPost", httpx.Bind(s.gpsData))
}

// ---- parameter rules of the geo endpoints (ids, paging and text are httpx's, time ranges timerange's) ----

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

// Mark and fence names (text.Name, at most MaxNameLen characters, spec's 65 when longer); a fence without
// one is the spec's 60, a mark's is the common "name: required".
var (
	markName  = text.Field{Name: "name", Max: MaxNameLen, Required: true, TooLong: ErrNameTooLong}
	fenceName = text.Field{Name: "name", Max: MaxNameLen, Required: true, TooLong: ErrNameTooLong, Missing: ErrFenceName}
)

// timeRange parses and checks a required time range with the customer's month boundaries (times as ParseTime
// reads them).
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
	loc, err := timerange.Zone(ctx, s.db, p.CustomerID)
	if err != nil {
		return timerange.Range{}, err
	}
	return timerange.Check(f, t, maxLen, loc)
}

// changeEvent is `mark.changed` and `fence.changed`.
type changeEvent struct {
	ID     string `json:"id,omitempty"`
	Fence  string `json:"fenceid,omitempty"`
	Action string `json:"action"`
	Mark   *Mark  `json:"mark,omitempty"`
}
