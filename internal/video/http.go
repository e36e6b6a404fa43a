package video

import (
	"net/http"
	"strings"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the video endpoints: the customer's limits and credit, and its ended sessions.
func (s *Service) Routes(r httpx.Router) {
	r.Console("GET /ds/video/limits", s.limits)
	r.Console("GET /ds/video/sessions", s.sessionsList)
}

// limits answers the customer's limits, its credit left and what is in use now.
func (s *Service) limits(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	l, err := s.store.Limits(r.Context(), p.CustomerID)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	calls, mons := s.countLocked(p.CustomerID, KindCall), s.countLocked(p.CustomerID, KindMonitor)
	s.mu.Unlock()
	return map[string]any{"maxCalls": l.MaxCalls, "maxMonitors": l.MaxMonitors, "maxDurationS": l.MaxDuration,
		"creditMs": l.CreditMs, "calls": calls, "monitors": mons, "resolutions": Resolutions}, nil
}

// sessionsList is GET /ds/video/sessions {sTime, eTime, msId?}: ended calls and monitorings, newest first
// (spec §5 time-range rules; at most 1000).
func (s *Service) sessionsList(w http.ResponseWriter, r *http.Request) (any, error) {
	p := identity.Must(r.Context())
	var req struct {
		STime string `json:"sTime"`
		ETime string `json:"eTime"`
		MsID  string `json:"msId"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	rg, _, err := timerange.ForCustomer(r.Context(), s.store.db, p.CustomerID, req.STime, req.ETime, timerange.Month)
	if err != nil {
		return nil, err
	}
	list, err := s.store.Records(r.Context(), p.CustomerID, rg.From, rg.To, strings.TrimSpace(req.MsID), 1000)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": list}, nil
}
