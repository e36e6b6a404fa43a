package directory

import (
	"context"
	"strings"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// Routes mounts the directory endpoints (docs/api.md "Directory"); every one needs a session.
func (s *Service) Routes(r httpx.Router) {
	r.Private("GET /ds/data/getGrpMsList", httpx.Bind(s.getGrpMsList))
	r.Private("GET /ds/data/getLastGps", httpx.Bind(s.getLastGps))
	r.Private("GET /ds/data/findMsInfo", httpx.Bind(s.findMsInfo))
	r.Private("PUT /ds/data/updateMsInfo", httpx.Bind(s.updateMsInfo))
	r.Private("PUT /ds/nms/updateGroupName", httpx.Bind(s.updateGroupName))
	r.Private("PUT /ds/nms/updateTerminalName", httpx.Bind(s.updateTerminalName))
	r.Private("POST /ds/nms/addGroup", httpx.Bind(s.addGroup))
	r.Private("POST /ds/nms/saveGroupMs", httpx.Bind(s.saveGroupMs))
	r.Private("POST /ds/nms/removeGroupMs", httpx.Bind(s.removeGroupMs))
	r.Private("POST /ds/nms/deleteGroup", httpx.Bind(s.deleteGroup))
	r.Private("GET /ds/nms/getTerminalByClient", httpx.Bind(s.getTerminalByClient))
}

// compactCols is the column order of a terminal row in the isCompress form.
// kind is null for the terminal protocol's accounts and "sip" for a SIP account (the full form's `kind`).
var compactCols = []string{"cid", "name", "type", "online", "grp", "lat", "lng", "speed", "battery", "signal", "model",
	"lastGps", "callSetStatus", "avatar", "lastOnline", "lastOffline", "ver", "kind"}

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
	CreatorName string          `json:"creatorName,omitempty"`
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
			Kind: g.Kind, Creator: g.Creator, CreatorName: g.CreatorName, MemberCount: g.MemberCount,
			OnlineCount: g.OnlineCount, Children: compact(g.Children, withGPS), Ms: make([][]any, 0, len(g.MsList))}
		for _, t := range g.MsList {
			var kind any
			if t.Kind != "" {
				kind = t.Kind
			}
			c.Ms = append(c.Ms, []any{t.CID, t.Name, t.Type, t.Online, t.Grp, t.Lat, t.Lng, t.Speed, t.Battery, t.Signal,
				t.Model, t.LastGps, t.CallSetStatus, t.Avatar, t.LastOnline, t.LastOffline, t.Ver, kind})
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

func (s *Service) getGrpMsList(ctx context.Context, p identity.Principal, req struct {
	IsCompress flex.String `json:"isCompress"`
	LastGps    flex.String `json:"lastGps"`
}) (any, error) {
	isCompress, err := httpx.Flag("isCompress", string(req.IsCompress))
	if err != nil {
		return nil, err
	}
	withGPS, err := httpx.Flag("lastGps", string(req.LastGps))
	if err != nil {
		return nil, err
	}
	tree, err := s.Store.Tree(ctx, p.CustomerID, withGPS)
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

func (s *Service) getLastGps(ctx context.Context, p identity.Principal, _ struct{}) (any, error) {
	return s.Store.LastGPS(ctx, p.CustomerID)
}

func (s *Service) findMsInfo(ctx context.Context, p identity.Principal, req struct {
	MsID string `json:"msId"`
}) (any, error) {
	id, err := CheckID("msId", req.MsID)
	if err != nil {
		return nil, err
	}
	return s.Store.Terminal(ctx, p.CustomerID, id)
}

func (s *Service) updateMsInfo(ctx context.Context, p identity.Principal, req struct {
	CID string `json:"cid"`
	Ver string `json:"ver"`
}) (any, error) {
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
	return s.UpdateMsInfo(ctx, p, id, ver)
}

func (s *Service) updateGroupName(ctx context.Context, p identity.Principal, req struct {
	GID  string `json:"gid"`
	Name string `json:"name"`
}) (any, error) {
	gid, err := ParseGroupID("gid", req.GID, false)
	if err != nil {
		return nil, err
	}
	return nil, s.RenameGroup(ctx, p, gid, req.Name)
}

func (s *Service) updateTerminalName(ctx context.Context, p identity.Principal, req struct {
	MsID   string `json:"msId"`
	MsName string `json:"msName"`
}) (any, error) {
	id, err := CheckID("msId", req.MsID)
	if err != nil {
		return nil, err
	}
	return s.RenameTerminal(ctx, p, id, req.MsName)
}

func (s *Service) addGroup(ctx context.Context, p identity.Principal, req struct {
	Name string `json:"name"`
	FID  string `json:"fid"`
}) (any, error) {
	fid := Root
	if strings.TrimSpace(req.FID) != "" {
		var err error
		if fid, err = ParseGroupID("fid", req.FID, true); err != nil {
			return nil, err
		}
	}
	return s.AddGroup(ctx, p, req.Name, fid)
}

// membersReq names terminals and the group they join or leave (saveGroupMs, removeGroupMs).
type membersReq struct {
	MsID    flex.List `json:"msId"`
	GroupID string    `json:"groupId"`
}

func (m membersReq) parse() ([]string, GroupID, error) {
	ids, err := checkIDs("msId", m.MsID)
	if err != nil {
		return nil, 0, err
	}
	gid, err := ParseGroupID("groupId", m.GroupID, false)
	return ids, gid, err
}

func (s *Service) saveGroupMs(ctx context.Context, p identity.Principal, req struct {
	membersReq
	KeepOldGrp flex.String `json:"keepOldGrp"`
	PttGrp     flex.String `json:"pttGrp"`
	DiffClient flex.String `json:"diffClient"`
}) (any, error) {
	ids, gid, err := req.parse()
	if err != nil {
		return nil, err
	}
	keep, err := httpx.Flag("keepOldGrp", string(req.KeepOldGrp))
	if err != nil {
		return nil, err
	}
	ptt, err := httpx.Flag("pttGrp", string(req.PttGrp))
	if err != nil {
		return nil, err
	}
	if diff, err := httpx.Flag("diffClient", string(req.DiffClient)); err != nil {
		return nil, err
	} else if diff {
		return nil, ErrDiffClient
	}
	return nil, s.SaveGroupMembers(ctx, p,
		SaveMembers{MsIDs: ids, Group: gid, KeepOld: keep, SetPtt: ptt})
}

func (s *Service) removeGroupMs(ctx context.Context, p identity.Principal, req membersReq) (any, error) {
	ids, gid, err := req.parse()
	if err != nil {
		return nil, err
	}
	return nil, s.RemoveGroupMembers(ctx, p, gid, ids)
}

func (s *Service) deleteGroup(ctx context.Context, p identity.Principal, req struct {
	GID string `json:"gid"`
}) (any, error) {
	gid, err := ParseGroupID("gid", req.GID, false)
	if err != nil {
		return nil, err
	}
	return nil, s.DeleteGroup(ctx, p, gid)
}

func (s *Service) getTerminalByClient(ctx context.Context, p identity.Principal, req struct {
	httpx.PageReq
	Name   string      `json:"name"`
	Type   string      `json:"type"`
	Online flex.String `json:"online"`
}) (any, error) {
	offset, limit, err := req.PagingFrom(20, 1000) // spec §9: terminal list size 20
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
	if req.Online != "" {
		on, err := httpx.Flag("online", string(req.Online))
		if err != nil {
			return nil, err
		}
		f.Online = &on
	}
	list, total, err := s.Store.Terminals(ctx, p.CustomerID, f)
	if err != nil {
		return nil, err
	}
	return map[string]any{"total": total, "pageNo": offset/limit + 1, "pageSize": limit, "list": list}, nil
}
