package broadcast

import (
	"context"
	"encoding/binary"
	"net/http"
	"sync"

	"github.com/coder/websocket"
	"github.com/pion/rtp"

	"tenfour/internal/media"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Live paging (docs/adr/0018, docs/speaker-protocol.md "Live paging"): a dispatcher holds the paging button and
// speaks; the console's microphone goes up the same WebRTC path as PTT, and the voice service hands every packet
// to the broadcast tap, which sends it to the speakers the page holds as binary WebSocket frames. A page is a run
// of the caster's priority that started now: it pre-empts tasks of lower or equal priority; when it ends they
// continue where they are.

// KindLive is the task kind of a page in Playing.task_kind.
const KindLive = 3

// Pager is what paging needs of the voice service (call.Service.SetTap): a tap on the microphone of a console of
// the customer, set only if that console's media is connected here (nothing changes otherwise); ended tells
// why a set tap stopped carrying audio ("replaced": another page took the microphone; "media": the console's
// audio connection went away); remove takes away this tap only.
type Pager interface {
	SetTap(customer int64, account string, tap media.Tap, ended func(reason string)) (remove func(), ok bool)
}

// EventPageEnded tells the console whose microphone a page carried that the page ended without its release
// (docs/console-socket.md "Broadcast"): {caster_id, task_id, reason: "replaced"|"media"}.
const EventPageEnded = "broadcast.pageEnded"

// ErrNoMedia is a page from a console whose media is not connected.
var ErrNoMedia = httpx.E(http.StatusConflict, "1015", "broadcast.errors.noMedia", "the console's audio is not connected")

type page struct {
	id         int64 // negative: never a task id
	customerID int64
	casterID   int64
	account    string
	priority   int
	started    int64
	devices    []int64
	remove     func() // takes the page's tap away (Pager.SetTap)
}

type pages struct {
	mu sync.Mutex
	by map[int64]*page // caster id → its page
}

func (s *Service) pageRuns(customerID int64) []run {
	s.pg.mu.Lock()
	defer s.pg.mu.Unlock()
	var out []run
	for _, p := range s.pg.by {
		if p.customerID != customerID {
			continue
		}
		t := Task{ID: p.id, CasterID: p.casterID, Kind: KindLive, Name: "live", State: StatePlaying, StartedAt: p.started,
			Volume: 100, DurationType: DurationUntil, customerID: p.customerID}
		out = append(out, run{t: t, priority: p.priority, devices: p.devices, tl: Timeline{Type: DurationUntil, Lengths: []int64{1 << 50}}})
	}
	return out
}

// StartPage starts the caller's page to devices (and every device of the organisations, with their
// sub-organisations). The caller must be a console whose media is connected.
func (s *Service) StartPage(ctx context.Context, c Caller, devices, orgs []int64) (Action, error) {
	if s.pager == nil || c.UserID == "" {
		return Action{}, ErrNoMedia
	}
	for _, o := range orgs {
		more, err := s.subtreeDevices(ctx, c.CustomerID, o)
		if err != nil {
			return Action{}, err
		}
		devices = append(devices, more...)
	}
	devices = uniq(devices)
	if len(devices) == 0 {
		return Action{}, ErrNoDevices
	}
	if err := s.checkDevices(ctx, c.CustomerID, devices); err != nil {
		return Action{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, before, err := s.state(ctx, c.CustomerID)
	if err != nil {
		return Action{}, err
	}
	p := &page{id: -c.CasterID, customerID: c.CustomerID, casterID: c.CasterID, account: c.UserID, priority: c.Priority,
		started: s.Now().UnixMilli(), devices: devices}
	s.pg.mu.Lock()
	old := s.pg.by[c.CasterID]
	s.pg.by[c.CasterID] = p
	s.pg.mu.Unlock()
	if old != nil && old.remove != nil { // pressed again: the new page's tap is the caster's only one
		old.remove()
	}
	// decide first, so the speakers know the page before its first packet comes
	s.changed(ctx, c.CustomerID, before)
	// The tap is keyed by the caller's customer: a console of another customer is never named, and one that
	// is not connected here changes nothing.
	remove, ok := s.pager.SetTap(c.CustomerID, c.UserID, s.tap(p), func(reason string) { s.pageLost(p, reason) })
	if !ok {
		s.endPage(ctx, c.CasterID)
		return Action{}, ErrNoMedia
	}
	s.pg.mu.Lock()
	p.remove = remove
	s.pg.mu.Unlock()
	return s.pageAction(ctx, p)
}

func (s *Service) pageAction(ctx context.Context, p *page) (Action, error) {
	_, d, err := s.state(ctx, p.customerID)
	if err != nil {
		return Action{}, err
	}
	for _, r := range s.pageRuns(p.customerID) {
		if r.t.ID == p.id {
			a := Action{Task: r.t, Lost: losses(d, r)}
			d.live(&a.Task, &r, s.Now().UnixMilli())
			a.Task.FileIDs, a.Task.DeviceIDs, a.Task.Weekdays, a.Task.RunDevices = []int64{}, p.devices, []int{}, p.devices
			return a, nil
		}
	}
	return Action{Lost: []Lost{}}, nil
}

// StopPage ends the caller's page; the tasks it pre-empted go on where they are.
func (s *Service) StopPage(ctx context.Context, c Caller) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.endPage(ctx, c.CasterID) {
		return ErrTaskState
	}
	return nil
}

// endPage removes a page and tells the speakers. The caller holds mu.
func (s *Service) endPage(ctx context.Context, casterID int64) bool {
	s.pg.mu.Lock()
	p := s.pg.by[casterID]
	s.pg.mu.Unlock()
	if p == nil {
		return false
	}
	if p.remove != nil {
		p.remove()
	}
	s.dropPage(ctx, p)
	return true
}

// dropPage removes page p (if it is still its caster's) and tells the speakers. The caller holds mu.
func (s *Service) dropPage(ctx context.Context, p *page) bool {
	s.pg.mu.Lock()
	mine := s.pg.by[p.casterID] == p
	s.pg.mu.Unlock()
	if !mine {
		return false
	}
	casterID := p.casterID
	_, before, err := s.state(ctx, p.customerID)
	s.pg.mu.Lock()
	delete(s.pg.by, casterID)
	s.pg.mu.Unlock()
	if err == nil {
		s.changed(ctx, p.customerID, before)
	}
	return true
}

// pageLost ends a page whose tap stopped carrying audio (Pager's ended: replaced by another page of the same
// microphone, or the console's media gone) and tells the console whose microphone it was, which still shows it
// live otherwise.
func (s *Service) pageLost(p *page, reason string) {
	ctx := context.Background()
	s.mu.Lock()
	dropped := s.dropPage(ctx, p)
	s.mu.Unlock()
	if !dropped {
		return // released or replaced by the same caster meanwhile
	}
	s.hub.Publish(p.customerID, EventPageEnded, map[string]any{"caster_id": p.casterID, "task_id": p.id, "reason": reason},
		realtime.Where(func(c *realtime.Conn) bool {
			pr := c.Principal()
			return pr.CustomerID == p.customerID && pr.AccountID == p.account && pr.IsDispatcher()
		}))
}

// AtLogout ends the page of a console that went away (the hub's logout hook).
func (s *Service) AtLogout(ctx context.Context, c *realtime.Conn, replaced bool) {
	if replaced {
		return
	}
	pr := c.Principal()
	s.pg.mu.Lock()
	var ids []int64
	for id, p := range s.pg.by {
		if p.customerID == pr.CustomerID && p.account == pr.AccountID {
			ids = append(ids, id)
		}
	}
	s.pg.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		s.endPage(context.WithoutCancel(ctx), id)
	}
}

// tap is the page's packet sink: each packet of the console's microphone goes to the speakers the page holds
// now, as a binary frame: sequence (2 bytes), RTP timestamp (4 bytes, 48 kHz), Opus payload.
func (s *Service) tap(p *page) media.Tap {
	return func(h *rtp.Header, payload []byte) {
		b := make([]byte, 6+len(payload))
		binary.BigEndian.PutUint16(b, h.SequenceNumber)
		binary.BigEndian.PutUint32(b[2:], h.Timestamp)
		copy(b[6:], payload)
		hub := s.speakerHub()
		hub.mu.Lock()
		var to []*speaker
		for _, sp := range hub.by {
			if sp.customerID == p.customerID && sp.last != nil && sp.last.TaskID == p.id {
				to = append(to, sp)
			}
		}
		hub.mu.Unlock()
		for _, sp := range to {
			select {
			case sp.send <- frame{typ: websocket.MessageBinary, b: b}:
			default: // a speaker that cannot keep up loses audio, not the page
			}
		}
	}
}

func (s *Service) pageHTTP(ctx context.Context, c Caller, req struct {
	DeviceIDs flex.List `json:"device_ids"`
	OrgIDs    flex.List `json:"org_ids"`
}) (any, error) {
	devs, err := idList("device_ids", req.DeviceIDs)
	if err != nil {
		return nil, err
	}
	orgs, err := idList("org_ids", req.OrgIDs)
	if err != nil {
		return nil, err
	}
	return s.StartPage(ctx, c, devs, orgs)
}
