package branding

import (
	"errors"
	"net/http"
	"strings"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Service answers the public branding and configuration calls and the customers' custom-theme calls.
type Service struct {
	Store *Store
	// Hub, when set, tells a customer's consoles that the theme of one of its hosts changed (EventThemeChanged).
	Hub *realtime.Hub
}

// EventThemeChanged tells a customer's consoles {hostname} after its theme was saved or deleted: a console open at
// that host applies the new look at once (web/src/shared/branding/feed.ts).
const EventThemeChanged = "theme.changed"

// Verbs declares theme.changed.
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{realtime.Event(EventThemeChanged, realtime.ConsoleOnly)}
}

func (s *Service) themeChanged(customerID int64, host string) {
	if s.Hub != nil {
		s.Hub.Publish(customerID, EventThemeChanged, map[string]string{"hostname": host}, realtime.Consoles)
	}
}

// NewService builds the branding service.
func NewService(d *db.DB) *Service { return &Service{Store: NewStore(d)} }

// Routes mounts the public endpoints (docs/api.md "Branding and configuration"); none needs a session: the
// console reads them before sign-in.
func (s *Service) Routes(r httpx.Router) {
	r.Raw("GET /ds/pub/theme", http.HandlerFunc(s.theme), false)
	r.Public("GET /ds/pub/clientConfig", s.clientConfig)
	r.Public("GET /ds/pub/oauthProviders", s.oauthProviders)
	r.Raw("GET /static/config.json", http.HandlerFunc(s.staticConfig), false)
	// Custom themes of the customer's hosts (theme.go; account type "1").
	r.Console("POST /ds/custom/customTheme", themed(s.customTheme))
	r.Console("GET /ds/custom/findTheme", themed(s.findTheme))
	r.Console("DELETE /ds/custom/deleteTheme", themed(s.deleteTheme))
	r.Console("GET /ds/custom/getClientHostList", themed(s.getClientHostList))
}

// hostParam is the hostname parameter, or the host the request came to.
func hostParam(r *http.Request) (string, error) {
	var req struct {
		Hostname string `json:"hostname"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return "", err
	}
	if strings.TrimSpace(req.Hostname) == "" {
		req.Hostname = r.Host
	}
	return NormalizeHost(req.Hostname)
}

// theme answers with the host's branding record, or result null when it has none (the console keeps its
// default look). Written by hand because the shared envelope omits a null result.
func (s *Service) theme(w http.ResponseWriter, r *http.Request) {
	host, err := hostParam(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var out struct {
		Code   string    `json:"code"`
		Msg    string    `json:"msg"`
		Result *Branding `json:"result"`
	}
	out.Code, out.Msg = "0", "ok"
	b, err := s.Store.Branding(r.Context(), host)
	switch {
	case errors.Is(err, db.ErrNotFound):
	case err != nil:
		httpx.WriteError(w, r, err)
		return
	default:
		out.Result = &b
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// clientConfig answers the host's client configuration. A raw handler, not Bind: it is public (no Principal) and
// without a hostname parameter it answers for the host the request came to (r.Host).
func (s *Service) clientConfig(w http.ResponseWriter, r *http.Request) (any, error) {
	host, err := hostParam(r)
	if err != nil {
		return nil, err
	}
	return s.Store.ClientConfig(r.Context(), host)
}

// staticConfig is the file the console fetches with a timestamp to learn the product version (spec §7); it
// is plain JSON, not an envelope.
func (s *Service) staticConfig(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"version": BuildVersion()})
}
