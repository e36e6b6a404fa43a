package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// The speaker protocol (docs/speaker-protocol.md, docs/adr/0018): a speaker holds one WebSocket to
// GET /broadcast/v1/speaker, registers with its organisation's id and password and its device code, is told what
// to play whenever the engine's decision for it changes, pulls the file from /broadcast/music/{name} and reports
// what it plays.

// SpeakerPath is the speakers' WebSocket.
const SpeakerPath = "/broadcast/v1/speaker"

// Speaker message types.
const (
	SpkRegister   = "register"   // speaker → server {org_id, code, password (md5 of the org's password)}
	SpkRegistered = "registered" // server → speaker {device}
	SpkError      = "error"      // server → speaker {code, msg}, then the server closes
	SpkPlay       = "play"       // server → speaker Command: play (or hold, paused) a file from a position
	SpkStop       = "stop"       // server → speaker {}: play nothing
	SpkLive       = "live"       // server → speaker {task_id, volume}: live paging; binary frames carry the audio
	SpkStatus     = "status"     // speaker → server Report
)

// Command is what a speaker is told to play.
type Command struct {
	Type       string `json:"type"`
	TaskID     int64  `json:"task_id,omitempty"`
	FileID     int64  `json:"file_id,omitempty"`
	URL        string `json:"url,omitempty"` // /broadcast/music/{name}
	PositionMs int64  `json:"position_ms"`   // where to be at At
	At         int64  `json:"at"`            // server time (ms) of PositionMs
	Volume     int    `json:"volume"`        // 0..100: the task's volume scaled by the speaker's ao_volume
	Paused     bool   `json:"paused,omitempty"`
	Gap        bool   `json:"gap,omitempty"` // silence between rounds: play nothing until told again
}

// Report is what a speaker last said it plays.
type Report struct {
	State      string  `json:"state"` // "playing", "paused", "idle"
	TaskID     int64   `json:"task_id"`
	FileID     int64   `json:"file_id"`
	PositionMs int64   `json:"position_ms"`
	Level      float64 `json:"level"`             // RMS of the decoded audio over the last 100 ms, 0..1
	Packets    int64   `json:"packets,omitempty"` // live paging: audio frames received in this page
	Decoded    int64   `json:"decoded,omitempty"` // live paging: of them, decoded (level is theirs)
	Volume     int     `json:"volume"`
	At         int64   `json:"at"` // server time it arrived
	// Stale: no report came for ReportStaleAfter (the speaker reports at least every second): what it said it plays
	// is old, and the console shows it as such (issue 33).
	Stale bool `json:"stale,omitempty"`
}

// ReportStaleAfter is how old a speaker's last report may be before it is stale.
const ReportStaleAfter = 5 * time.Second

type speaker struct {
	customerID int64
	deviceID   int64
	send       chan frame
	report     Report
	gone       chan struct{}
	last       *Playing // what it was last told (nil: stop)
	told       bool
}

// same tells whether a speaker told a is still right for b.
func same(a, b *Playing) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.TaskID == b.TaskID && a.FileID == b.FileID && a.Gap == b.Gap && a.Paused == b.Paused && a.Volume == b.Volume && a.seg == b.seg
}

// syncSpeakers tells the customer's connected speakers what changed for them in d.
func (s *Service) syncSpeakers(customerID int64, d decision) {
	h := s.speakerHub()
	h.mu.Lock()
	var tell []*speaker
	var what []*Playing
	for id, sp := range h.by {
		if sp.customerID != customerID {
			continue
		}
		var p *Playing
		if pl, ok := d.playing[id]; ok {
			p = &pl
		}
		if sp.told && same(sp.last, p) {
			continue
		}
		sp.last, sp.told = p, true
		tell, what = append(tell, sp), append(what, p)
	}
	h.mu.Unlock()
	for i, sp := range tell {
		s.send(sp, s.command(what[i]))
	}
}

// speakerCustomers lists the customers with connected speakers.
func (s *Service) speakerCustomers() []int64 {
	h := s.speakerHub()
	h.mu.Lock()
	defer h.mu.Unlock()
	seen := map[int64]bool{}
	var out []int64
	for _, sp := range h.by {
		if !seen[sp.customerID] {
			seen[sp.customerID] = true
			out = append(out, sp.customerID)
		}
	}
	return out
}

// frame is one WebSocket message to a speaker: JSON text (commands) or binary (live audio).
type frame struct {
	typ websocket.MessageType
	b   []byte
}

type speakers struct {
	mu sync.Mutex
	by map[int64]*speaker // device id → its connection
}

func (s *Service) speakerHub() *speakers {
	s.spOnce.Do(func() { s.sp = &speakers{by: map[int64]*speaker{}} })
	return s.sp
}

// send queues a command to a connected speaker; a speaker that cannot keep up is dropped (it reconnects and gets
// the current state at its registration).
func (s *Service) send(sp *speaker, c Command) {
	b, _ := json.Marshal(c)
	select {
	case sp.send <- frame{typ: websocket.MessageText, b: b}:
	default:
		slog.Warn("broadcast: speaker too slow, dropped", "device", sp.deviceID)
		s.dropSpeaker(sp)
	}
}

func (s *Service) dropSpeaker(sp *speaker) {
	h := s.speakerHub()
	h.mu.Lock()
	if h.by[sp.deviceID] == sp {
		delete(h.by, sp.deviceID)
		select {
		case <-sp.gone:
		default:
			close(sp.gone)
		}
	}
	h.mu.Unlock()
}

// command turns a decision for a device into what the speaker is told.
func (s *Service) command(p *Playing) Command {
	now := s.Now().UnixMilli()
	if p == nil {
		return Command{Type: SpkStop, At: now}
	}
	if p.TaskKind == KindLive {
		return Command{Type: SpkLive, TaskID: p.TaskID, At: now, Volume: p.Volume}
	}
	c := Command{Type: SpkPlay, TaskID: p.TaskID, FileID: p.FileID, PositionMs: p.PositionMs, At: now, Volume: p.Volume,
		Paused: p.Paused, Gap: p.Gap}
	if p.File != "" {
		c.URL = MusicPath + p.File
	}
	return c
}

// reported is what connected speakers of the customer last reported.
func (s *Service) reported(customerID int64) map[int64]Report {
	h := s.speakerHub()
	h.mu.Lock()
	defer h.mu.Unlock()
	now := s.Now().UnixMilli()
	out := map[int64]Report{}
	for id, sp := range h.by {
		if sp.customerID == customerID {
			r := sp.report
			r.Stale = r.At > 0 && now-r.At > ReportStaleAfter.Milliseconds()
			out[id] = r
		}
	}
	return out
}

// SpeakerCommandTimeout bounds one write to a speaker.
const SpeakerCommandTimeout = 5 * time.Second

// What one speaker socket may send (docs/speaker-protocol.md "Limits"): a speaker reports at least every second
// and after each command (the simulator every 200 ms); a socket that sends faster than SpeakerFrameRate frames a
// second beyond a burst of SpeakerFrameBurst is closed with CloseTooFast, so one socket cannot keep a reader
// goroutine and the hub's lock busy.
const (
	SpeakerFrameRate  = 20
	SpeakerFrameBurst = 40
	// CloseTooFast is the close code of a speaker socket that exceeded its frame rate (it may reconnect).
	CloseTooFast websocket.StatusCode = 4029
)

// speakerWS serves one speaker connection.
func (s *Service) speakerWS(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	ws.SetReadLimit(4096)
	ctx := r.Context()
	defer ws.CloseNow()
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	_, msg, err := ws.Read(rctx)
	cancel()
	if err != nil {
		return
	}
	var reg struct {
		Type     string `json:"type"`
		OrgID    int64  `json:"org_id"`
		Code     string `json:"code"`
		Password string `json:"password"`
	}
	if json.Unmarshal(msg, &reg) != nil || reg.Type != SpkRegister {
		s.refuse(ctx, ws, 400, "the first message is register")
		return
	}
	d, customerID, err := s.checkSpeaker(ctx, httpx.ClientIP(r), reg.OrgID, reg.Code, reg.Password)
	if err != nil {
		code, text := 500, "server error"
		if e, known := httpx.AsError(err); known {
			code, text = 500, e.Msg
			if n, cerr := strconv.Atoi(e.Code); cerr == nil {
				code = n
			}
		} else {
			slog.ErrorContext(ctx, "broadcast: speaker registration", "err", err)
		}
		s.refuse(ctx, ws, code, text)
		return
	}
	sp := &speaker{customerID: customerID, deviceID: d.ID, send: make(chan frame, 256), gone: make(chan struct{})}
	h := s.speakerHub()
	h.mu.Lock()
	if old := h.by[d.ID]; old != nil { // the same speaker reconnected: the old connection ends
		close(old.gone)
	}
	h.by[d.ID] = sp
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		mine := h.by[d.ID] == sp
		if mine {
			delete(h.by, d.ID)
		}
		h.mu.Unlock()
		if mine {
			if err := s.SetOnline(context.WithoutCancel(ctx), customerID, d.ID, false); err != nil {
				slog.ErrorContext(ctx, "broadcast: speaker offline", "device", d.ID, "err", err)
			}
		}
	}()
	d.Online = 1
	b, _ := json.Marshal(map[string]any{"type": SpkRegistered, "device": d})
	sp.send <- frame{typ: websocket.MessageText, b: b}
	if err := s.SetOnline(ctx, customerID, d.ID, true); err != nil {
		return
	}
	// what it plays now (a new connection has told = false, so the sync tells it even "stop")
	if _, dec, err := s.state(ctx, customerID); err == nil {
		s.syncSpeakers(customerID, dec)
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { // the writer
		defer stop()
		for {
			select {
			case <-wctx.Done():
				return
			case <-sp.gone:
				ws.Close(websocket.StatusPolicyViolation, "replaced")
				return
			case f := <-sp.send:
				c, cancel := context.WithTimeout(wctx, SpeakerCommandTimeout)
				err := ws.Write(c, f.typ, f.b)
				cancel()
				if err != nil {
					return
				}
			}
		}
	}()
	limit := rate.NewLimiter(SpeakerFrameRate, SpeakerFrameBurst)
	for {
		_, msg, err := ws.Read(wctx)
		if err != nil {
			return
		}
		if !limit.Allow() {
			slog.WarnContext(ctx, "broadcast: speaker sends too fast, closed", "device", d.ID)
			ws.Close(CloseTooFast, "too many frames")
			return
		}
		var rep Report
		var typ struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(msg, &typ) != nil || typ.Type != SpkStatus || json.Unmarshal(msg, &rep) != nil {
			continue
		}
		rep.At = s.Now().UnixMilli()
		h.mu.Lock()
		sp.report = rep
		h.mu.Unlock()
	}
}

func (s *Service) refuse(ctx context.Context, ws *websocket.Conn, code int, msg string) {
	b, _ := json.Marshal(map[string]any{"type": SpkError, "code": code, "msg": msg})
	wctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_ = ws.Write(wctx, websocket.MessageText, b)
	ws.Close(websocket.StatusPolicyViolation, msg)
}

// checkSpeaker verifies a registration: the organisation's password (md5), checked by auth (RealmSpeaker:
// the sign-in throttle with the device's own budget, the terminals' hash budget; no lockout, docs/adr/0018), and
// a device of that organisation with the code. Refusals are auth's codes (2 wrong password, 101 busy, 400 not an
// md5); an unknown device is 2 as well.
func (s *Service) checkSpeaker(ctx context.Context, addr string, orgID int64, code, password string) (Device, int64, error) {
	if s.auth == nil {
		return Device{}, 0, errNoAuth
	}
	cred, err := s.auth.CheckDeviceCredential(ctx, addr, auth.RealmSpeaker, orgLogin(orgID), code, password)
	if err != nil {
		return Device{}, 0, err
	}
	d, err := scanDevice(s.db.QueryRow(ctx, `SELECT `+deviceCols+` FROM bc_devices WHERE customer_id = ? AND org_id = ? AND code = ?`,
		cred.CustomerID, orgID, code))
	if errors.Is(err, db.ErrNotFound) {
		return Device{}, 0, auth.ErrBadPwd
	}
	return d, cred.CustomerID, err
}
