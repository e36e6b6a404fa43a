package message

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// TerminalSendResult is the reply data of a terminal's `sms.send`.
type TerminalSendResult struct {
	ID         string `json:"id"`
	Time       int64  `json:"time"`
	Type       string `json:"type"`
	Recipients int    `json:"recipients"` // other terminals of the group it is relayed to (0 for a dispatcher)
}

// SendFromTerminal stores a terminal's message (incoming, status 0), logs it (103), tells the consoles with
// the durable `sms.received`, and relays a group message to the group's other terminals in the background
// (the same acknowledged, pending-until-delivered path as a dispatcher's). It answers once the message is
// stored: the terminal may forget it after the reply.
func (s *Service) SendFromTerminal(ctx context.Context, p identity.Principal, req SendRequest) (TerminalSendResult, error) {
	to := req.To
	if to == "" {
		to = req.MsID
	} else if req.MsID != "" && req.MsID != to {
		return TerminalSendResult{}, httpx.BadParam("to", "to and msId differ")
	}
	if to != "" && req.GID != "" {
		return TerminalSendResult{}, httpx.BadParam("to", "either to or gid")
	}
	content, kind, file, err := s.body(ctx, p.CustomerID, req)
	if err != nil {
		return TerminalSendResult{}, err
	}
	m := Message{CustomerID: p.CustomerID, SenderID: p.AccountID, SenderName: p.Name, Incoming: true,
		Content: content, Kind: kind, File: file, Time: s.now().UnixMilli()}
	var recipients []string
	var remark string
	var detail oplog.Detail
	switch {
	case to != "":
		if len(to) > 32 {
			return TerminalSendResult{}, httpx.ErrNotFound
		}
		if err := s.Store.Dispatcher(ctx, p.CustomerID, string(to)); err != nil {
			return TerminalSendResult{}, err
		}
		m.MsID = string(to)
		remark = "message to dispatcher " + m.MsID
		detail = oplog.D("messageToDispatcher", "account", m.MsID)
	case req.GID != "":
		if m.GID, err = parseGID(req.GID); err != nil {
			return TerminalSendResult{}, err
		}
		members, err := s.Store.GroupTerminals(ctx, p.CustomerID, m.GID)
		if err != nil {
			return TerminalSendResult{}, err
		}
		if !slices.Contains(members, p.AccountID) {
			return TerminalSendResult{}, ErrNotMember
		}
		recipients = slices.DeleteFunc(members, func(id string) bool { return id == p.AccountID })
		remark = fmt.Sprintf("message to group %d", m.GID)
		detail = oplog.D("messageToGroup", "group", strconv.FormatInt(int64(m.GID), 10))
	default:
		remark = "message to the dispatch center"
		detail = oplog.D("messageToCenter")
	}
	if m, err = s.Store.Create(ctx, m, recipients); err != nil {
		return TerminalSendResult{}, err
	}
	s.log.By(ctx, p, oplog.Message, remark+attachmentRemark(file), withAttachment(detail, file))
	bg := context.WithoutCancel(ctx)
	if v, err := s.Store.Get(bg, m.CustomerID, m.ID); err == nil {
		m = v // with the names of its dispatcher or group
	}
	if _, err := s.hub.PublishDurable(bg, m.CustomerID, EventReceived, m.view(), realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "sms: publish received", "id", m.ID, "err", err)
	}
	if len(recipients) > 0 {
		go func(m Message) {
			var res SendResult
			s.relay(bg, m, recipients, &res)
			m.Delivered = res.Delivered
			s.publish(bg, m)
		}(m)
	}
	return TerminalSendResult{ID: strconv.FormatInt(m.ID, 10), Time: m.Time, Type: m.Kind, Recipients: len(recipients)}, nil
}
