package directory

import (
	"context"
	"encoding/json"
	"errors"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// RegisterSocket installs the presence hooks and the socket requests of the directory
// (docs/console-socket.md, docs/terminal-protocol.md "Groups and presence").
func (s *Service) RegisterSocket(h *realtime.Hub) {
	h.SetHooks(s.Hooks())
	h.Handle("group.switch", s.sockSwitch)
	h.Handle("group.list", s.sockGroupList)
	h.Handle("tempGroup.create", s.tempOnly(s.sockTempCreate))
	h.Handle("tempGroup.remove", s.tempOnly(s.sockTempRemove))
	h.Handle("tempGroup.edit", s.tempOnly(s.sockTempEdit))
	h.Handle("tempGroup.delMember", s.tempOnly(s.sockTempDelMember))
	h.Handle("tempGroup.query", s.sockTempQuery)
}

func decode(data json.RawMessage, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		var he *httpx.Error
		if errors.As(err, &he) {
			return he
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return httpx.BadParam(te.Field, "wrong type")
		}
		return httpx.BadParam("data", "malformed")
	}
	return nil
}

// tempOnly guards temp-group changes: consoles only, and (spec §6) only account type "1" manages temp groups.
func (s *Service) tempOnly(h realtime.Handler) realtime.Handler {
	return func(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
		if c.Kind() != realtime.Console || !canManageTemp(c.Principal()) {
			return nil, httpx.ErrPermission
		}
		return h(ctx, c, data)
	}
}

func canManageTemp(p identity.Principal) bool { return p.AcctType == "" || p.AcctType == "1" }

func (s *Service) sockSwitch(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	var req struct {
		GID  flexString `json:"gid"`
		MsID flexString `json:"msId"`
	}
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	gid, err := ParseGroupID("gid", string(req.GID), false)
	if err != nil {
		return nil, err
	}
	msID := string(req.MsID)
	if msID != "" {
		if msID, err = CheckID("msId", msID); err != nil {
			return nil, err
		}
	}
	return s.SwitchGroup(ctx, c, gid, msID)
}

func (s *Service) sockGroupList(ctx context.Context, c *realtime.Conn, _ json.RawMessage) (any, error) {
	p := c.Principal()
	return s.Store.Membership(ctx, p.CustomerID, p.AccountID)
}

func (s *Service) sockTempCreate(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	var req struct {
		Name  string   `json:"name"`
		MsIDs flexList `json:"msIds"`
	}
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	g, err := s.CreateTempGroup(ctx, c.Principal(), TempCreate{Name: req.Name, MsIDs: req.MsIDs})
	if err != nil {
		return nil, err
	}
	return map[string]any{"gid": g.GID, "group": g}, nil
}

func (s *Service) sockTempRemove(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	var req struct {
		GID flexString `json:"gid"`
	}
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	gid, err := ParseGroupID("gid", string(req.GID), false)
	if err != nil {
		return nil, err
	}
	if err := s.RemoveTempGroup(ctx, c.Principal(), gid); err != nil {
		return nil, err
	}
	return map[string]any{"gid": gid}, nil
}

// editReply answers tempGroup.edit and delMember: removed tells the group is gone (one member left).
func editReply(gid GroupID, g *Group) any {
	return map[string]any{"gid": gid, "removed": g == nil, "group": g}
}

func (s *Service) sockTempEdit(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	var req struct {
		GID    flexString `json:"gid"`
		Name   *string    `json:"name"`
		Add    flexList   `json:"add"`
		Remove flexList   `json:"remove"`
	}
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	gid, err := ParseGroupID("gid", string(req.GID), false)
	if err != nil {
		return nil, err
	}
	name := ""
	if req.Name != nil {
		if name, err = CheckName(*req.Name, MaxTempNameLen); err != nil {
			return nil, err
		}
	}
	g, err := s.EditTempGroup(ctx, c.Principal(), gid, name, req.Add, req.Remove)
	if err != nil {
		return nil, err
	}
	return editReply(gid, g), nil
}

func (s *Service) sockTempDelMember(ctx context.Context, c *realtime.Conn, data json.RawMessage) (any, error) {
	var req struct {
		GID  flexString `json:"gid"`
		MsID flexString `json:"msId"`
	}
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	gid, err := ParseGroupID("gid", string(req.GID), false)
	if err != nil {
		return nil, err
	}
	msID, err := CheckID("msId", string(req.MsID))
	if err != nil {
		return nil, err
	}
	g, err := s.EditTempGroup(ctx, c.Principal(), gid, "", nil, []string{msID})
	if err != nil {
		return nil, err
	}
	return editReply(gid, g), nil
}

func (s *Service) sockTempQuery(ctx context.Context, c *realtime.Conn, _ json.RawMessage) (any, error) {
	if c.Kind() != realtime.Console {
		return nil, httpx.ErrPermission
	}
	gs, err := s.Store.TempGroups(ctx, c.Principal().CustomerID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"groups": gs}, nil
}
