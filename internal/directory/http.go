package directory

import (
	"net/http"
	"strings"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// Routes mounts the directory endpoints (docs/api.md "Directory"); every one needs a session.
func (s *Service) Routes(r httpx.Router) {
	r.Private("GET /ds/data/getGrpMsList", s.getGrpMsList)
	r.Private("GET /ds/data/getLastGps", s.getLastGps)
	r.Private("GET /ds/data/findMsInfo", s.findMsInfo)
	r.Private("PUT /ds/data/updateMsInfo", s.updateMsInfo)
	r.Private("PUT /ds/nms/updateGroupName", s.updateGroupName)
	r.Private("PUT /ds/nms/updateTerminalName", s.updateTerminalName)
	r.Private("POST /ds/nms/addGroup", s.addGroup)
	r.Private("POST /ds/nms/saveGroupMs", s.saveGroupMs)
	r.Private("POST /ds/nms/removeGroupMs", s.removeGroupMs)
	r.Private("POST /ds/nms/deleteGroup", s.deleteGroup)
	r.Private("GET /ds/nms/getTerminalByClient", s.getTerminalByClient)
}

// flag reads a 0/1 parameter ("true"/"false" too); empty is false.
func flag(name, v string) (bool, error) {
	switch strings.TrimSpace(v) {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, httpx.BadParam(name, "0 or 1")
}

// compactCols is the column order of a terminal row in the isCompress form.
var compactCols = []string{"cid", "name", "type", "online", "grp", "lat", "lng", "speed", "battery", "signal", "model",
	"lastGps", "callSetStatus", "avatar", "lastOnline", "lastOffline", "ver"}

var compactGpsCols = []string{"mid", "lng", "lat", "time"}

type compactGroup struct {
	GID         GroupID         `json:"gid"`
	FID         GroupID         `json:"fid"`
	Name        string          `json:"name"`
	Color       string          `json:"color"`
	SeqNum      int             `json:"seqNum"`
	Deep        int             `json:"deep"`
	Kind        string          `json:"kind"`
	Creator     string          `json:"creator,omitempty"`
	MemberCount int             `json:"memberCount"`
	OnlineCount int             `json:"onlineCount"`
	Children    []*compactGroup `json:"children"`
	Ms          [][]any         `json:"ms"`
	Gps         [][]any         `json:"gps,omitempty"`
}

func compact(gs []*Group, withGPS bool) []*compactGroup {
	out := make([]*compactGroup, 0, len(gs))
	for _, g := range gs {
		c := &compactGroup{GID: g.GID, FID: g.FID, Name: g.Name, Color: g.Color, SeqNum: g.SeqNum, Deep: g.Deep,
			Kind: g.Kind, Creator: g.Creator, MemberCount: g.MemberCount, OnlineCount: g.OnlineCount,
			Children: compact(g.Children, withGPS), Ms: make([][]any, 0, len(g.MsList))}
		for _, t := range g.MsList {
			c.Ms = append(c.Ms, []any{t.CID, t.Name, t.Type, t.Online, t.Grp, t.Lat, t.Lng, t.Speed, t.Battery, t.Signal,
				t.Model, t.LastGps, t.CallSetStatus, t.Avatar, t.LastOnline, t.LastOffline, t.Ver})
		}
		if withGPS {
			c.Gps = make([][]any, 0, len(g.LastGpsList))
			for _, p := range g.LastGpsList {
				c.Gps = append(c.Gps, []any{p.Mid, p.Lng, p.Lat, p.Time})
			}
		}
		out = append(out, c)
	}
	return out
}

func (s *Service) getGrpMsList(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		IsCompress string `json:"isCompress"`
		LastGps    string `json:"lastGps"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	isCompress, err := flag("isCompress", req.IsCompress)
	if err != nil {
		return nil, err
	}
	withGPS, err := flag("lastGps", req.LastGps)
	if err != nil {
		return nil, err
	}
	tree, err := s.Store.Tree(r.Context(), identity.Must(r.Context()).CustomerID, withGPS)
	if err != nil {
		return nil, err
	}
	if isCompress {
		res := map[string]any{"cols": compactCols, "groups": compact(tree, withGPS)}
		if withGPS {
			res["gpsCols"] = compactGpsCols
		}
		return res, nil
	}
	return map[string]any{"groups": tree}, nil
}

func (s *Service) getLastGps(w http.ResponseWriter, r *http.Request) (any, error) {
	return s.Store.LastGPS(r.Context(), identity.Must(r.Context()).CustomerID)
}

func (s *Service) findMsInfo(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		MsID string `json:"msId"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	id, err := CheckID("msId", req.MsID)
	if err != nil {
		return nil, err
	}
	return s.Store.Terminal(r.Context(), identity.Must(r.Context()).CustomerID, id)
}

func (s *Service) updateMsInfo(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		CID string `json:"cid"`
		Ver string `json:"ver"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	id, err := CheckID("cid", req.CID)
	if err != nil {
		return nil, err
	}
	ver := strings.TrimSpace(req.Ver)
	if err := httpx.Required("ver", ver); err != nil {
		return nil, err
	}
	if len(ver) > MaxVersionLen {
		return nil, httpx.BadParam("ver", "too long")
	}
	return s.UpdateMsInfo(r.Context(), identity.Must(r.Context()), id, ver)
}

func (s *Service) updateGroupName(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		GID  string `json:"gid"`
		Name string `json:"name"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	gid, err := ParseGroupID("gid", req.GID, false)
	if err != nil {
		return nil, err
	}
	return nil, s.RenameGroup(r.Context(), identity.Must(r.Context()), gid, req.Name)
}

func (s *Service) updateTerminalName(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		MsID   string `json:"msId"`
		MsName string `json:"msName"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	id, err := CheckID("msId", req.MsID)
	if err != nil {
		return nil, err
	}
	return s.RenameTerminal(r.Context(), identity.Must(r.Context()), id, req.MsName)
}

func (s *Service) addGroup(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		Name string `json:"name"`
		FID  string `json:"fid"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	fid := Root
	if strings.TrimSpace(req.FID) != "" {
		var err error
		if fid, err = ParseGroupID("fid", req.FID, true); err != nil {
			return nil, err
		}
	}
	return s.AddGroup(r.Context(), identity.Must(r.Context()), req.Name, fid)
}

func (s *Service) saveGroupMs(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		MsID       flex.List `json:"msId"`
		GroupID    string    `json:"groupId"`
		KeepOldGrp string    `json:"keepOldGrp"`
		PttGrp     string    `json:"pttGrp"`
		DiffClient string    `json:"diffClient"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ids, err := checkIDs("msId", req.MsID)
	if err != nil {
		return nil, err
	}
	gid, err := ParseGroupID("groupId", req.GroupID, false)
	if err != nil {
		return nil, err
	}
	keep, err := flag("keepOldGrp", req.KeepOldGrp)
	if err != nil {
		return nil, err
	}
	ptt, err := flag("pttGrp", req.PttGrp)
	if err != nil {
		return nil, err
	}
	if diff, err := flag("diffClient", req.DiffClient); err != nil {
		return nil, err
	} else if diff {
		return nil, ErrDiffClient
	}
	return nil, s.SaveGroupMembers(r.Context(), identity.Must(r.Context()),
		SaveMembers{MsIDs: ids, Group: gid, KeepOld: keep, SetPtt: ptt})
}

func (s *Service) removeGroupMs(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		MsID    flex.List `json:"msId"`
		GroupID string    `json:"groupId"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ids, err := checkIDs("msId", req.MsID)
	if err != nil {
		return nil, err
	}
	gid, err := ParseGroupID("groupId", req.GroupID, false)
	if err != nil {
		return nil, err
	}
	return nil, s.RemoveGroupMembers(r.Context(), identity.Must(r.Context()), gid, ids)
}

func (s *Service) deleteGroup(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		GID string `json:"gid"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	gid, err := ParseGroupID("gid", req.GID, false)
	if err != nil {
		return nil, err
	}
	return nil, s.DeleteGroup(r.Context(), identity.Must(r.Context()), gid)
}

func (s *Service) getTerminalByClient(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		PageNo   string `json:"pageNo"`
		PageSize string `json:"pageSize"`
		Name     string `json:"name"`
		Type     string `json:"type"`
		Online   string `json:"online"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	offset, limit, err := httpx.PagingFrom(req.PageNo, req.PageSize, 20, 1000) // spec §9: terminal list size 20
	if err != nil {
		return nil, err
	}
	f := FindTerminals{Name: strings.TrimSpace(req.Name), Type: strings.TrimSpace(req.Type),
		Offset: offset, Limit: limit}
	if len(f.Name) > 64 {
		return nil, httpx.BadParam("name", "too long")
	}
	if len(f.Type) > 16 {
		return nil, httpx.BadParam("type", "too long")
	}
	if strings.TrimSpace(req.Online) != "" {
		on, err := flag("online", req.Online)
		if err != nil {
			return nil, err
		}
		f.Online = &on
	}
	list, total, err := s.Store.Terminals(r.Context(), identity.Must(r.Context()).CustomerID, f)
	if err != nil {
		return nil, err
	}
	return map[string]any{"total": total, "pageNo": offset/limit + 1, "pageSize": limit, "list": list}, nil
}
