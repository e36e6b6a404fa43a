package directory

import (
	"context"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Verbs are the directory's socket requests and what it sends (docs/console-socket.md, docs/terminal-protocol.md
// "Groups and presence"). The presence hooks are installed apart (Hooks).
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		realtime.On("group.switch", realtime.Anyone, s.sockSwitch),
		realtime.On("group.list", realtime.Anyone, s.sockGroupList),
		realtime.On("tempGroup.create", realtime.ConsoleOnly, s.sockTempCreate),
		realtime.On("tempGroup.remove", realtime.ConsoleOnly, s.sockTempRemove),
		realtime.On("tempGroup.edit", realtime.ConsoleOnly, s.sockTempEdit),
		realtime.On("tempGroup.delMember", realtime.ConsoleOnly, s.sockTempDelMember),
		realtime.On("tempGroup.query", realtime.ConsoleOnly, s.sockTempQuery),
		realtime.Event(EventPresence, realtime.ConsoleOnly),
		realtime.Event(EventTerminalUpdated, realtime.ConsoleOnly),
		realtime.Event(EventGroupChanged, realtime.Anyone), // consoles: {gid}; a terminal: its Membership
		realtime.Event(EventMemberSwitched, realtime.ConsoleOnly),
		realtime.Event(EventTempChanged, realtime.ConsoleOnly),
		realtime.Ask(TermGroupSwitch, realtime.TerminalOnly),
	}
}

// canManageTemp: spec §6, only account type "1" manages temp groups (the temp-group changes check it first).
func canManageTemp(p identity.Principal) bool { return p.AcctType == "" || p.AcctType == "1" }

// tempGroupOf is the temporary group a change names (gid), once the caller may manage temporary groups.
func tempGroupOf(c *realtime.Conn, gid flex.String) (GroupID, error) {
	if !canManageTemp(c.Principal()) {
		return 0, httpx.ErrPermission
	}
	return ParseGroupID("gid", string(gid), false)
}

type switchReq struct {
	GID  flex.String `json:"gid"`
	MsID flex.String `json:"msId"`
}

func (s *Service) sockSwitch(ctx context.Context, c *realtime.Conn, req switchReq) (any, error) {
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

func (s *Service) sockGroupList(ctx context.Context, c *realtime.Conn, _ struct{}) (any, error) {
	p := c.Principal()
	return s.Store.Membership(ctx, p.CustomerID, p.AccountID)
}

type tempCreateReq struct {
	Name  string    `json:"name"`
	MsIDs flex.List `json:"msIds"`
}

func (s *Service) sockTempCreate(ctx context.Context, c *realtime.Conn, req tempCreateReq) (any, error) {
	if !canManageTemp(c.Principal()) {
		return nil, httpx.ErrPermission
	}
	g, err := s.CreateTempGroup(ctx, c.Principal(), TempCreate{Name: req.Name, MsIDs: req.MsIDs})
	if err != nil {
		return nil, err
	}
	return map[string]any{"gid": g.GID, "group": g}, nil
}

type tempGroupReq struct {
	GID  flex.String `json:"gid"`
	MsID flex.String `json:"msId"` // tempGroup.delMember
}

func (s *Service) sockTempRemove(ctx context.Context, c *realtime.Conn, req tempGroupReq) (any, error) {
	gid, err := tempGroupOf(c, req.GID)
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

type tempEditReq struct {
	GID    flex.String `json:"gid"`
	Name   *string     `json:"name"`
	Add    flex.List   `json:"add"`
	Remove flex.List   `json:"remove"`
}

func (s *Service) sockTempEdit(ctx context.Context, c *realtime.Conn, req tempEditReq) (any, error) {
	gid, err := tempGroupOf(c, req.GID)
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

func (s *Service) sockTempDelMember(ctx context.Context, c *realtime.Conn, req tempGroupReq) (any, error) {
	gid, err := tempGroupOf(c, req.GID)
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

func (s *Service) sockTempQuery(ctx context.Context, c *realtime.Conn, _ struct{}) (any, error) {
	gs, err := s.Store.TempGroups(ctx, c.Principal().CustomerID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"groups": gs}, nil
}
