package directory

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/keylock"
	"tenfour/internal/platform/realtime"
)

// Service validates directory changes, stores them, writes the operation log and publishes events.
type Service struct {
	Store *Store
	hub   *realtime.Hub
	log   *oplog.Log
	// locks serialise presence changes of one account, so a logout racing a new login of the same account
	// can never leave it marked offline while it is connected.
	locks keylock.Striped
}

// NewService builds the directory service.
func NewService(d *db.DB, hub *realtime.Hub, log *oplog.Log) *Service {
	return &Service{Store: NewStore(d), hub: hub, log: log}
}

// ResetPresence marks every account offline at start-up (register with App.OnPrepare).
func (s *Service) ResetPresence(ctx context.Context) error {
	return s.Store.ResetPresence(ctx, time.Now())
}

// UpdateMsInfo records the software version of one of the customer's accounts.
func (s *Service) UpdateMsInfo(ctx context.Context, p identity.Principal, msID, ver string) (Terminal, error) {
	if err := s.Store.SetVersion(ctx, p.CustomerID, msID, ver); err != nil {
		return Terminal{}, err
	}
	return s.changedTerminal(ctx, p.CustomerID, msID)
}

// RenameGroup renames a fixed group.
func (s *Service) RenameGroup(ctx context.Context, p identity.Principal, gid GroupID, name string) error {
	name, err := CheckName(name, MaxGroupNameLen)
	if err != nil {
		return err
	}
	if err := s.Store.RenameGroup(ctx, p.CustomerID, gid, name); err != nil {
		return err
	}
	s.publishGroups(p.CustomerID, gid)
	return nil
}

// RenameTerminal renames an account of the customer.
func (s *Service) RenameTerminal(ctx context.Context, p identity.Principal, msID, name string) (Terminal, error) {
	name, err := CheckName(name, MaxTermNameLen)
	if err != nil {
		return Terminal{}, err
	}
	if err := s.Store.RenameTerminal(ctx, p.CustomerID, msID, name); err != nil {
		return Terminal{}, err
	}
	return s.changedTerminal(ctx, p.CustomerID, msID)
}

// AddGroup creates a fixed group under fid (Root for top level).
func (s *Service) AddGroup(ctx context.Context, p identity.Principal, name string, fid GroupID) (*Group, error) {
	name, err := CheckName(name, MaxGroupNameLen)
	if err != nil {
		return nil, err
	}
	g, err := s.Store.AddGroup(ctx, p.CustomerID, NewGroup{Name: name, Parent: fid})
	if err != nil {
		return nil, err
	}
	s.publishGroups(p.CustomerID, g.GID)
	return g, nil
}

// DeleteGroup deletes an empty fixed group.
func (s *Service) DeleteGroup(ctx context.Context, p identity.Principal, gid GroupID) error {
	if err := s.Store.DeleteGroup(ctx, p.CustomerID, gid); err != nil {
		return err
	}
	s.publishGroups(p.CustomerID, gid)
	return nil
}

// SaveGroupMembers puts terminals into a fixed group (moving them unless KeepOld).
func (s *Service) SaveGroupMembers(ctx context.Context, p identity.Principal, req SaveMembers) error {
	changed, err := s.Store.SaveMembers(ctx, p.CustomerID, req)
	if err != nil {
		return err
	}
	s.publishGroups(p.CustomerID, changed...)
	s.notifyMembers(ctx, p.CustomerID, req.MsIDs)
	return nil
}

// RemoveGroupMembers takes terminals out of a fixed group.
func (s *Service) RemoveGroupMembers(ctx context.Context, p identity.Principal, gid GroupID, msIDs []string) error {
	if err := s.Store.RemoveMembers(ctx, p.CustomerID, gid, msIDs); err != nil {
		return err
	}
	s.publishGroups(p.CustomerID, gid)
	s.notifyMembers(ctx, p.CustomerID, msIDs)
	return nil
}

// SwitchGroup switches the group an account talks in: the caller's own (msID "" or the caller), or — from a
// console — a terminal's, relayed to the terminal and applied once it acknowledges (log 8).
func (s *Service) SwitchGroup(ctx context.Context, c *realtime.Conn, gid GroupID, msID string) (SwitchEvent, error) {
	p := c.Principal()
	if gid == Root {
		return SwitchEvent{}, httpx.BadParam("gid", "required")
	}
	own := msID == "" || msID == p.AccountID
	if own {
		// A dispatcher may talk in any group of its customer; a terminal only in its own groups.
		from, err := s.Store.SwitchPtt(ctx, p.CustomerID, p.AccountID, gid, c.Kind() != realtime.Console)
		if err != nil {
			return SwitchEvent{}, err
		}
		return s.switched(ctx, p, p.AccountID, gid, from), nil
	}
	if c.Kind() != realtime.Console {
		return SwitchEvent{}, httpx.ErrPermission
	}
	t, err := s.Store.Terminal(ctx, p.CustomerID, msID)
	if err != nil {
		return SwitchEvent{}, err
	}
	g, err := s.Store.Group(ctx, p.CustomerID, gid)
	if err != nil {
		return SwitchEvent{}, err
	}
	if ok, err := s.Store.IsMember(ctx, p.CustomerID, gid, msID); err != nil {
		return SwitchEvent{}, err
	} else if !ok {
		return SwitchEvent{}, ErrNotMember
	}
	tc := s.hub.PeerOf(ctx, msID) // on any node of a cluster
	if tc == nil || tc.Principal().CustomerID != p.CustomerID {
		return SwitchEvent{}, realtime.ErrNotOnline
	}
	// The hub's acknowledgement timeout: the spec's 5 s minus a margin, so the console's own 5 s wait sees
	// our answer rather than its timeout.
	rctx, cancel := context.WithTimeout(ctx, s.hub.AckTimeout())
	defer cancel()
	if _, err := tc.Request(rctx, TermGroupSwitch, map[string]any{"gid": gid, "name": g.Name, "from": t.Grp,
		"by": p.AccountID}); err != nil {
		return SwitchEvent{}, err
	}
	from, err := s.Store.SwitchPtt(context.WithoutCancel(ctx), p.CustomerID, msID, gid, true)
	if err != nil {
		return SwitchEvent{}, err
	}
	return s.switched(ctx, p, msID, gid, from), nil
}

func (s *Service) switched(ctx context.Context, p identity.Principal, msID string, gid, from GroupID) SwitchEvent {
	ctx = context.WithoutCancel(ctx)
	ev := SwitchEvent{MsID: msID, GID: gid, From: from}
	remark := fmt.Sprintf("%s switched to group %s (from %s)", msID, gid, from)
	s.log.By(ctx, p, oplog.SwitchGroup, remark, oplog.D("switched", "terminal", msID, "group", gid.String(), "from", from.String()))
	s.hub.Publish(p.CustomerID, EventMemberSwitched, ev, realtime.Consoles)
	return ev
}

// TempCreate is a tempGroup.create request.
type TempCreate struct {
	Name  string
	MsIDs []string
}

// CreateTempGroup creates a temporary group of the caller and the given members (log 0).
func (s *Service) CreateTempGroup(ctx context.Context, p identity.Principal, req TempCreate) (*Group, error) {
	name, err := CheckName(req.Name, MaxTempNameLen)
	if err != nil {
		return nil, err
	}
	members := []string{p.AccountID}
	for _, id := range req.MsIDs {
		if id = strings.TrimSpace(id); id != "" && id != p.AccountID {
			members = append(members, id)
		}
	}
	if len(members) < 2 {
		return nil, ErrSelectMembers
	}
	if members, err = checkIDs("msIds", members); err != nil {
		return nil, err
	}
	if len(members) > MaxTempMembers {
		return nil, httpx.BadParam("msIds", "too many members")
	}
	g, err := s.Store.CreateTemp(ctx, p.CustomerID, name, p.AccountID, members)
	if errors.Is(err, ErrNameExists) {
		return nil, ErrTempExists
	}
	if err != nil {
		return nil, err
	}
	ctx = context.WithoutCancel(ctx)
	s.log.By(ctx, p, oplog.TempGroupCreated, fmt.Sprintf("temp group %q created with %d members", g.Name, g.MemberCount),
		oplog.D("tempCreated", "name", g.Name, "count", strconv.Itoa(g.MemberCount)))
	s.hub.Publish(p.CustomerID, EventTempChanged, TempEvent{GID: g.GID, Action: "create", Group: g}, realtime.Consoles)
	s.notifyMembers(ctx, p.CustomerID, members)
	return g, nil
}

// RemoveTempGroup removes (cancels) a temporary group (log 1).
func (s *Service) RemoveTempGroup(ctx context.Context, p identity.Principal, gid GroupID) error {
	g, err := s.Store.DeleteTemp(ctx, p.CustomerID, gid)
	if err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	s.log.By(ctx, p, oplog.TempGroupCanceled, fmt.Sprintf("temp group %q canceled", g.Name), oplog.D("tempCanceled", "name", g.Name))
	s.hub.Publish(p.CustomerID, EventTempChanged, TempEvent{GID: gid, Action: "remove"}, realtime.Consoles)
	s.notifyMembers(ctx, p.CustomerID, memberIDsOf(g))
	return nil
}

// EditTempGroup renames a temporary group and adds/removes members (log 104; log 4 per member removed; a
// group left with one member is removed, log 15).
func (s *Service) EditTempGroup(ctx context.Context, p identity.Principal, gid GroupID, name string, add, remove []string) (*Group, error) {
	var err error
	if name != "" {
		if name, err = CheckName(name, MaxTempNameLen); err != nil {
			return nil, err
		}
	}
	if len(add) > 0 {
		if add, err = checkIDs("add", add); err != nil {
			return nil, err
		}
	}
	if len(remove) > 0 {
		if remove, err = checkIDs("remove", remove); err != nil {
			return nil, err
		}
	}
	if name == "" && len(add) == 0 && len(remove) == 0 {
		return nil, httpx.BadParam("data", "nothing to change")
	}
	res, err := s.Store.EditTemp(ctx, p.CustomerID, gid, TempEdit{Name: name, Add: add, Remove: remove})
	if errors.Is(err, ErrNameExists) {
		return nil, ErrTempExists
	}
	if err != nil {
		return nil, err
	}
	ctx = context.WithoutCancel(ctx)
	var parts []string
	renamed := ""
	if name != "" && name != res.Before.Name {
		parts = append(parts, fmt.Sprintf("renamed to %q", name))
		renamed = name
	}
	if len(add) > 0 {
		parts = append(parts, "added "+strings.Join(add, ","))
	}
	if len(remove) > 0 {
		parts = append(parts, "removed "+strings.Join(remove, ","))
	}
	s.log.By(ctx, p, oplog.TempGroupEdited, fmt.Sprintf("temp group %q: %s", res.Before.Name, strings.Join(parts, "; ")),
		oplog.D("tempEdited", "name", res.Before.Name, "rename", renamed, "added", strings.Join(add, ","), "removed", strings.Join(remove, ",")))
	for _, t := range res.Removed {
		s.log.By(ctx, p, oplog.QuitTempGroup, fmt.Sprintf("%s (%s) left temp group %q", t.CID, t.Name, res.Before.Name),
			oplog.D("tempLeft", "terminal", t.CID, "name", res.Before.Name))
	}
	notify := append(memberIDsOf(res.Before), add...)
	if res.Deleted {
		s.log.By(ctx, p, oplog.TempGroupRemoved, fmt.Sprintf("temp group %q removed: one member left", res.Before.Name),
			oplog.D("tempRemoved", "name", res.Before.Name))
		s.hub.Publish(p.CustomerID, EventTempChanged, TempEvent{GID: gid, Action: "remove"}, realtime.Consoles)
		s.notifyMembers(ctx, p.CustomerID, notify)
		return nil, nil
	}
	s.hub.Publish(p.CustomerID, EventTempChanged, TempEvent{GID: gid, Action: "edit", Group: res.After}, realtime.Consoles)
	s.notifyMembers(ctx, p.CustomerID, notify)
	return res.After, nil
}

func memberIDsOf(g *Group) []string {
	out := make([]string, 0, len(g.MsList))
	for _, t := range g.MsList {
		out = append(out, t.CID)
	}
	return out
}
