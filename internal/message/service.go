package message

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"tenfour/internal/files"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Service sends messages and delivers the ones terminals missed.
type Service struct {
	Store *Store
	// Files resolves attachments and issues the file tokens terminals download them with; nil refuses
	// attachments.
	Files *files.Service
	hub   *realtime.Hub
	log   *oplog.Log
	now   func() time.Time

	mu      sync.Mutex
	flights map[flightKey]*flight // deliveries under way, so a send and a login never deliver one message twice
}

type flightKey struct {
	msg int64
	to  string
}

type flight struct {
	done chan struct{}
	err  error
}

// New builds the service.
func New(s *Store, hub *realtime.Hub, log *oplog.Log) *Service {
	return &Service{Store: s, hub: hub, log: log, now: time.Now, flights: map[flightKey]*flight{}}
}

// claim starts a delivery of a message to an account, or returns the one already under way (mine false).
func (s *Service) claim(msg int64, to string) (*flight, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := flightKey{msg, to}
	if f := s.flights[k]; f != nil {
		return f, false
	}
	f := &flight{done: make(chan struct{})}
	s.flights[k] = f
	return f, true
}

// land ends a delivery with its outcome. A failed one is forgotten at once (the next send or login tries again); an
// acknowledged one stays claimed for flightLinger, so that a send and a login's pending delivery that both read the
// message as undelivered — one of them before the other's acknowledgement was stored — find it delivered instead
// of sending it a second time (and waiting out the acknowledgement time for a duplicate the terminal ignores).
func (s *Service) land(msg int64, to string, f *flight, err error) {
	k := flightKey{msg, to}
	f.err = err
	close(f.done)
	if err != nil {
		s.forget(k, f)
		return
	}
	time.AfterFunc(flightLinger, func() { s.forget(k, f) })
}

// flightLinger is how long an acknowledged delivery stays claimed (land).
const flightLinger = time.Minute

func (s *Service) forget(k flightKey, f *flight) {
	s.mu.Lock()
	if s.flights[k] == f {
		delete(s.flights, k)
	}
	s.mu.Unlock()
}

// Verbs are the message socket types (docs/console-socket.md "SMS", docs/terminal-protocol.md "Messages").
// Pending messages reach a terminal at its login through DeliverAtLogin, a login hook.
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		realtime.On(ReqSend, realtime.Anyone, s.sockSend),
		realtime.Ask(TermDeliver, realtime.TerminalOnly),
		realtime.Event(EventStatus, realtime.ConsoleOnly),
		realtime.Event(EventReceived, realtime.ConsoleOnly),
		realtime.Event(EventRead, realtime.ConsoleOnly),
	}
}

func (s *Service) sockSend(ctx context.Context, c *realtime.Conn, req SendRequest) (any, error) {
	if c.Kind() == realtime.Terminal {
		return s.SendFromTerminal(ctx, c.Principal(), req)
	}
	return s.Send(ctx, c.Principal(), req)
}

// body checks a message's text and attachment: content may be empty only when a file is attached.
func (s *Service) body(ctx context.Context, customerID int64, req SendRequest) (content string, kind string, f *FileRef, err error) {
	ref := string(req.FileID)
	if ref == "" {
		ref = string(req.FileURL)
	}
	if ref != "" {
		id := files.Ref(ref)
		if id == "" || s.Files == nil {
			return "", "", nil, httpx.ErrNotFound
		}
		info, err := s.Files.Get(ctx, customerID, id)
		if err != nil {
			return "", "", nil, err
		}
		f = &FileRef{ID: info.ID, Kind: string(info.Kind), Name: info.Name, Mime: info.Mime, Size: info.Size}
		kind = string(info.Kind)
	} else {
		kind = KindText
	}
	if req.Content == nil || (f != nil && strings.TrimSpace(*req.Content) == "") {
		if f != nil {
			return "", kind, f, nil
		}
		return "", "", nil, ErrEmpty
	}
	content, err = CleanContent(*req.Content)
	return content, kind, f, err
}

// Send validates, stores, logs (103) and relays a message from a dispatcher, then publishes its `sms.status`.
// A terminal message answers ErrNotOnline, realtime.ErrTimeout or ErrRefused when it was not acknowledged
// (it stays pending and is delivered at the terminal's next login); a group message answers the counts.
func (s *Service) Send(ctx context.Context, p identity.Principal, req SendRequest) (SendResult, error) {
	if (req.MsID == "") == (req.GID == "") {
		return SendResult{}, httpx.BadParam("msId", "either msId or gid")
	}
	if req.To != "" {
		return SendResult{}, httpx.BadParam("to", "terminals only; use msId")
	}
	content, kind, file, err := s.body(ctx, p.CustomerID, req)
	if err != nil {
		return SendResult{}, err
	}
	m := Message{CustomerID: p.CustomerID, SenderID: p.AccountID, SenderName: p.Name, Content: content,
		Time: s.now().UnixMilli(), Kind: kind, File: file}
	var recipients []string
	var remark string
	var detail oplog.Detail
	if req.MsID != "" {
		m.MsID = string(req.MsID)
		if len(m.MsID) > 32 {
			return SendResult{}, httpx.ErrNotFound
		}
		if err := s.Store.Terminal(ctx, p.CustomerID, m.MsID); err != nil {
			return SendResult{}, err
		}
		recipients = []string{m.MsID}
		remark = "SMS to " + m.MsID + attachmentRemark(file)
		detail = oplog.D("smsToTerminal", "terminal", m.MsID)
	} else {
		if m.GID, err = parseGID(req.GID); err != nil {
			return SendResult{}, err
		}
		if recipients, err = s.Store.GroupTerminals(ctx, p.CustomerID, m.GID); err != nil {
			return SendResult{}, err
		}
		remark = fmt.Sprintf("SMS to group %d (%d terminals)", m.GID, len(recipients)) + attachmentRemark(file)
		detail = oplog.D("smsToGroup", "group", strconv.FormatInt(int64(m.GID), 10), "count", strconv.Itoa(len(recipients)))
	}
	// Durable before anything is sent: a crash after this point loses no message.
	if m, err = s.Store.Create(ctx, m, recipients); err != nil {
		return SendResult{}, err
	}
	s.log.By(ctx, p, oplog.Message, remark, withAttachment(detail, file))

	res := SendResult{ID: strconv.FormatInt(m.ID, 10), Recipients: len(recipients)}
	errs := s.relay(ctx, m, recipients, &res)
	m.Delivered = res.Delivered
	res.State = state(res.Recipients, res.Delivered)
	s.publish(ctx, m)
	if m.MsID != "" && res.Delivered == 0 {
		return res, errs[0]
	}
	return res, nil
}

// relay sends m to every connected recipient and records the acknowledgements; it returns one error per
// recipient (nil when acknowledged). A recipient whose turn comes after the deadline is not sent to at all: its
// delivery stays pending for its next login.
func (s *Service) relay(ctx context.Context, m Message, recipients []string, res *SendResult) []error {
	errs, online, acked := s.hub.AskEach(ctx, m.CustomerID, recipients, func(ctx context.Context, c realtime.Peer) error {
		return s.deliverTo(ctx, c, m)
	})
	res.Online, res.Delivered = online, acked
	return errs
}

// deliverTo sends one message to one terminal connection and records its acknowledgement; when a login's
// pending delivery is already sending it, it waits for that outcome instead.
func (s *Service) deliverTo(ctx context.Context, c realtime.Peer, m Message) (err error) {
	to := c.Principal().AccountID
	f, mine := s.claim(m.ID, to)
	if !mine {
		select {
		case <-f.done:
			return f.err
		case <-ctx.Done():
			return realtime.ErrTimeout
		}
	}
	defer func() { s.land(m.ID, to, f, err) }()
	if err := s.request(ctx, c, m); err != nil {
		return err
	}
	// Recorded even if the caller has gone: the terminal has the message now.
	if _, _, err := s.Store.MarkDelivered(context.WithoutCancel(ctx), m.ID, to, s.now().UnixMilli()); err != nil {
		return err
	}
	return nil
}

// request sends `sms.deliver` and waits for the acknowledgement: nil, ErrNotOnline, realtime.ErrTimeout or
// ErrRefused (the terminal answered a code other than "0").
func (s *Service) request(ctx context.Context, c realtime.Peer, m Message) error {
	rctx, cancel := context.WithTimeout(ctx, s.hub.AckTimeout())
	defer cancel()
	_, err := c.Request(rctx, TermDeliver, m.deliver(s.fileToken(c, m)))
	if err == nil || errors.Is(err, realtime.ErrNotOnline) || errors.Is(err, realtime.ErrTimeout) {
		return err
	}
	if _, coded := httpx.AsError(err); coded {
		return ErrRefused
	}
	return err
}

// fileToken lets the receiving terminal download a message's attachment.
func (s *Service) fileToken(c realtime.Peer, m Message) string {
	if m.File == nil || s.Files == nil {
		return ""
	}
	tok, _ := s.Files.IssueToken(c.Principal())
	return tok
}

func attachmentRemark(f *FileRef) string {
	if f == nil {
		return ""
	}
	return " with " + f.Kind + " " + f.Name
}

// withAttachment adds the attachment's kind and name to a message's log detail (the console appends them).
func withAttachment(d oplog.Detail, f *FileRef) oplog.Detail {
	if f != nil {
		if d.Params == nil {
			d.Params = map[string]string{}
		}
		d.Params["fileKind"], d.Params["file"] = f.Kind, f.Name
	}
	return d
}

func (s *Service) publish(ctx context.Context, m Message) {
	if _, err := s.hub.PublishDurable(context.WithoutCancel(ctx), m.CustomerID, EventStatus, m.view(), realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "sms: publish status", "id", m.ID, "err", err)
	}
}

// DeliverAtLogin delivers, once the login reply is out, what a terminal missed while it was away, oldest first. It
// stops at the first failure (the terminal went away or stopped answering); the rest waits for the next login.
func (s *Service) DeliverAtLogin(ctx context.Context, c *realtime.Conn, _ bool) {
	if c.Kind() != realtime.Terminal {
		return
	}
	c.AfterReady(func() {
		if err := s.deliverPending(ctx, c); err != nil && !errors.Is(err, realtime.ErrNotOnline) {
			slog.WarnContext(ctx, "sms: pending delivery stopped", "msId", c.Principal().AccountID, "err", err)
		}
	})
}

func (s *Service) deliverPending(ctx context.Context, c *realtime.Conn) error {
	id := c.Principal().AccountID
	var after int64
	for {
		list, err := s.Store.Pending(ctx, id, after, pendingBatch)
		if err != nil {
			return err
		}
		for _, m := range list {
			after = m.ID
			if err := s.deliverPendingOne(ctx, c, m); err != nil {
				return err
			}
		}
		if len(list) < pendingBatch {
			return nil
		}
	}
}

// deliverPendingOne delivers one missed message unless a send is delivering it right now.
func (s *Service) deliverPendingOne(ctx context.Context, c *realtime.Conn, m Message) (err error) {
	to := c.Principal().AccountID
	f, mine := s.claim(m.ID, to)
	if !mine {
		return nil // the sender delivers it and publishes its status
	}
	defer func() { s.land(m.ID, to, f, err) }()
	if err := s.request(ctx, c, m); err != nil {
		return err
	}
	done, first, err := s.Store.MarkDelivered(ctx, m.ID, to, s.now().UnixMilli())
	if err != nil {
		return err
	}
	if first {
		s.publish(ctx, done)
	}
	return nil
}
