package geo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"tenfour/internal/files"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Marks (points, lines and shapes a dispatcher draws on the map), group colours and terminal icons.

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
		n, err := markName.Check(*in.Name)
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
		if m.Icon, err = httpx.Text("icon", *in.Icon, 256); err != nil {
			return err
		}
	}
	if in.Link != nil {
		if m.Link, err = CheckLink(*in.Link); err != nil {
			return err
		}
	}
	if in.Remark != nil {
		if m.Remark, err = httpx.Text("remark", *in.Remark, MaxMarkTextLen); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) addMark(ctx context.Context, p identity.Principal, in markIn) (any, error) {
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
	if err := s.Store.AddMark(ctx, p.CustomerID, &m); err != nil {
		return nil, err
	}
	s.hub.Publish(p.CustomerID, EventMarkChanged, changeEvent{ID: m.ID, Action: "add", Mark: &m}, realtime.Consoles)
	return m, nil
}

func (s *Service) updateMark(ctx context.Context, p identity.Principal, in markIn) (any, error) {
	id, err := httpx.RowID[int64]("id", in.ID)
	if err != nil {
		return nil, err
	}
	m, err := s.Store.Mark(ctx, p.CustomerID, id)
	if err != nil {
		return nil, err
	}
	if err := in.apply(&m); err != nil {
		return nil, err
	}
	m.Updated = s.now().UnixMilli()
	if err := s.Store.UpdateMark(ctx, p.CustomerID, id, m); err != nil {
		return nil, err
	}
	s.hub.Publish(p.CustomerID, EventMarkChanged, changeEvent{ID: m.ID, Action: "update", Mark: &m}, realtime.Consoles)
	return m, nil
}

// findMarkReq is the request of GET /ds/custom/findMark.
type findMarkReq struct {
	ID   flex.List `json:"id"`
	Type string    `json:"type"`
	Name string    `json:"name"`
}

func (s *Service) findMark(ctx context.Context, p identity.Principal, req findMarkReq) (any, error) {
	ids, err := httpx.RowIDs("id", req.ID, MaxIDs, false)
	if err != nil {
		return nil, err
	}
	if req.Type != "" {
		if _, ok := markGeometry[req.Type]; !ok {
			return nil, httpx.BadParam("type", "point, line or shape")
		}
	}
	return s.Store.Marks(ctx, p.CustomerID, MarkFilter{Type: req.Type, Name: strings.TrimSpace(req.Name), IDs: ids})
}

// deleteMarkReq is the request of DELETE /ds/custom/deleteMark.
type deleteMarkReq struct {
	ID flex.List `json:"id"`
}

func (s *Service) deleteMark(ctx context.Context, p identity.Principal, req deleteMarkReq) (any, error) {
	ids, err := httpx.RowIDs("id", req.ID, MaxIDs, true)
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteMarks(ctx, p.CustomerID, ids); err != nil {
		return nil, err
	}
	for _, id := range ids {
		s.hub.Publish(p.CustomerID, EventMarkChanged, changeEvent{ID: fenceIDString(id), Action: "delete"}, realtime.Consoles)
	}
	return map[string]int{"deleted": len(ids)}, nil
}

// Group colours and terminal icons are how groups and terminals look on the map (spec §2 map tools); they
// are stored on the directory's rows (ptt_groups.color, accounts.avatar and accounts.map_icon).

// MaxImageLen bounds a terminal icon image: a data: URL of a picture of at most 50 KB (spec §5; base64 adds a
// third) or a file's path.
const MaxImageLen = 70 << 10

var iconKeyRe = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// updateGrpColorReq is the request of PUT /ds/custom/updateGrpColor.
type updateGrpColorReq struct {
	GID   string  `json:"gid"`
	Color *string `json:"color"`
}

// updateGrpColor: {gid, color} — color "#rgb", "#rrggbb" or "#rrggbbaa"; empty resets to the default.
// Consoles get `group.changed {gid}` (and refetch the tree, as for any group change).
func (s *Service) updateGrpColor(ctx context.Context, p identity.Principal, req updateGrpColorReq) (any, error) {
	gids, err := httpx.RowIDs("gid", []string{req.GID}, MaxIDs, true)
	if err != nil {
		return nil, err
	}
	if req.Color == nil {
		return nil, httpx.BadParam("color", "required")
	}
	color, err := checkColor(*req.Color)
	if err != nil {
		return nil, err
	}
	if err := s.Store.SetGroupColor(ctx, p.CustomerID, gids[0], color); err != nil {
		return nil, err
	}
	gid := strconv.FormatInt(gids[0], 10)
	s.hub.Publish(p.CustomerID, "group.changed", map[string]string{"gid": gid}, realtime.Consoles)
	return map[string]string{"gid": gid, "color": color}, nil
}

// updateMsIconReq is the request of PUT /ds/custom/updateMsIcon.
type updateMsIconReq struct {
	MsID  flex.List `json:"msId"`
	Icon  string    `json:"icon"`
	Image string    `json:"image"`
}

// updateMsIcon: {msId (one or a list), icon, image} — spec §5 "avatar setting needs icon and image": icon is
// the icon's key (letters, digits, _ . -), image its picture (checkImage: a data:image URL up to 64 KiB or an
// uploaded file). The image becomes the terminal's avatar.
func (s *Service) updateMsIcon(ctx context.Context, p identity.Principal, req updateMsIconReq) (any, error) {
	ids, err := httpx.IDs("msId", req.MsID, MaxIDs, true)
	if err != nil {
		return nil, err
	}
	icon := strings.TrimSpace(req.Icon)
	if !iconKeyRe.MatchString(icon) {
		return nil, httpx.BadParam("icon", "required: letters, digits, _ . - (at most 64)")
	}
	image := strings.TrimSpace(req.Image)
	if err := checkImage(image); err != nil {
		return nil, err
	}
	if err := s.Store.SetTerminalIcon(ctx, p.CustomerID, ids, icon, image); err != nil {
		return nil, err
	}
	for _, id := range ids {
		s.terminalChanged(ctx, p.CustomerID, id, image)
	}
	return map[string]any{"msIds": ids, "icon": icon, "image": image}, nil
}

// avatarDataRe is an inline raster picture (the console sends the chosen file as one); no SVG, which may
// carry script when opened on its own.
var avatarDataRe = regexp.MustCompile(`^data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$`)

// checkImage accepts only a picture the server holds: inline (a data:image URL, stored on the row) or an
// uploaded file it serves (/filews/files/{id}). Every console of the customer loads a terminal's avatar with
// its session, so a path or URL of anything else — /ds/user/logout, another host — is refused (issue 14 M2).
func checkImage(v string) error {
	switch {
	case v == "":
		return httpx.BadParam("image", "required")
	case len(v) > MaxImageLen:
		return httpx.BadParam("image", "too large")
	case avatarDataRe.MatchString(v):
		return nil
	case strings.HasPrefix(v, files.FilesPath) && files.ValidID(strings.TrimPrefix(v, files.FilesPath)):
		return nil
	}
	return httpx.BadParam("image", "a data:image (png, jpeg, gif, webp) URL or an uploaded file (/filews/files/{id})")
}

// terminalChanged tells consoles a terminal's look changed: through the directory (full `terminal.updated`)
// when OnTerminalChanged is wired, else with a partial `terminal.updated {cid, avatar}`.
func (s *Service) terminalChanged(ctx context.Context, customer int64, id, avatar string) {
	if s.OnTerminalChanged != nil && s.OnTerminalChanged(ctx, customer, id) == nil {
		return
	}
	s.hub.Publish(customer, "terminal.updated", map[string]string{"cid": id, "avatar": avatar}, realtime.Consoles)
}
