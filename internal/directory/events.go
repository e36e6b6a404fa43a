package directory

import (
	"context"
	"log/slog"

	"tenfour/internal/platform/realtime"
)

// Events to consoles (docs/console-socket.md "Events to a console"); all scoped to one customer.
const (
	EventPresence        = "presence"
	EventTerminalUpdated = "terminal.updated"
	EventGroupChanged    = "group.changed"
	EventMemberSwitched  = "member.switched"
	EventTempChanged     = "tempGroup.changed"
)

// Messages to terminals (docs/terminal-protocol.md "Groups and presence").
const (
	// TermGroupChanged tells a terminal its groups changed: data is its Membership.
	TermGroupChanged = "group.changed"
	// TermGroupSwitch asks a terminal to switch group (a remote switch); the terminal acknowledges.
	TermGroupSwitch = "group.switch"
)

// PresenceEvent is the data of `presence`.
type PresenceEvent struct {
	MsID   string `json:"msId"`
	Online string `json:"online"` // "1" / "0"
	Time   int64  `json:"time"`
}

// GroupEvent is the data of `group.changed` to consoles.
type GroupEvent struct {
	GID GroupID `json:"gid"`
}

// SwitchEvent is the data of `member.switched`.
type SwitchEvent struct {
	MsID string  `json:"msId"`
	GID  GroupID `json:"gid"`
	From GroupID `json:"from"` // "0" when it had none
}

// TempEvent is the data of `tempGroup.changed`.
type TempEvent struct {
	GID    GroupID `json:"gid"`
	Action string  `json:"action"` // create | edit | remove
	Group  *Group  `json:"group,omitempty"`
}

func (s *Service) publishGroups(customerID int64, gids ...GroupID) {
	for _, g := range gids {
		s.hub.Publish(customerID, EventGroupChanged, GroupEvent{GID: g}, realtime.Consoles)
	}
}

func (s *Service) publishTerminal(customerID int64, t Terminal) {
	s.hub.Publish(customerID, EventTerminalUpdated, t, realtime.Consoles)
}

// TerminalChanged publishes `terminal.updated` with the stored record; other domains call it after they
// change a terminal (call-set status, avatar…).
func (s *Service) TerminalChanged(ctx context.Context, customerID int64, msID string) error {
	_, err := s.changedTerminal(ctx, customerID, msID)
	return err
}

// changedTerminal reads a terminal just changed and publishes it (`terminal.updated`).
func (s *Service) changedTerminal(ctx context.Context, customerID int64, msID string) (Terminal, error) {
	t, err := s.Store.Terminal(ctx, customerID, msID)
	if err == nil {
		s.publishTerminal(customerID, t)
	}
	return t, err
}

// notifyMembers sends each connected terminal among ids its current membership (terminal `group.changed`).
// Consoles learn membership changes from the `group.changed` event instead.
func (s *Service) notifyMembers(ctx context.Context, customerID int64, ids []string) {
	for _, id := range ids {
		c := s.hub.TerminalPeer(ctx, customerID, id) // on any node of a cluster
		if c == nil {
			continue
		}
		m, err := s.Store.Membership(ctx, customerID, id)
		if err != nil {
			slog.WarnContext(ctx, "directory: membership for notify", "msId", id, "err", err)
			continue
		}
		_ = c.Send(TermGroupChanged, m)
	}
}
