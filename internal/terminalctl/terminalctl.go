// Package terminalctl is remote control of terminals from a console (spec §4 call-set status, §9 remote
// control intervals): `call.set` kills, stuns or revives a terminal and `param.set` sets its report intervals.
// Both are relayed to the terminal and take effect — stored, logged (type 9) and announced to consoles — only
// once the terminal has acknowledged them. A terminal is reminded of both at each login.
package terminalctl

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Socket types (docs/console-socket.md, docs/terminal-protocol.md "Remote control").
const (
	CallSet              = "call.set"  // console → server request, and server → terminal request
	ParamSet             = "param.set" // console → server request, and server → terminal request
	EventTerminalUpdated = directory.EventTerminalUpdated
)

// Call-set statuses (spec §4).
const (
	Killed  = 0
	Stunned = 1
	Active  = 8
)

var statusNames = map[int]string{Killed: "kill", Stunned: "stun", Active: "revive"}

// Param is a settable interval and its bounds.
type Param struct {
	Min, Max time.Duration
}

// Params are the parameters param.set accepts (values: a whole number with unit s, m or h).
var Params = map[string]Param{
	"gpsInterval":    {Min: time.Second, Max: 24 * time.Hour},      // position reports
	"heartbeat":      {Min: 5 * time.Second, Max: time.Hour},       // keep-alive pings
	"statusInterval": {Min: 10 * time.Second, Max: 24 * time.Hour}, // battery and signal reports
}

var intervalRe = regexp.MustCompile(`^([0-9]{1,6})([smh])$`)

// ErrBadInterval is the code of an interval without a valid unit or number.
func errBadInterval(name string) error {
	return httpx.E(http.StatusBadRequest, "400", "errors.param.interval", name+": a whole number with unit s, m or h")
}

// ParseInterval reads "30s", "5m" or "2h" (case-insensitive, surrounding blanks ignored).
func ParseInterval(v string) (time.Duration, string, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	m := intervalRe.FindStringSubmatch(v)
	if m == nil {
		return 0, "", false
	}
	n, _ := strconv.Atoi(m[1])
	unit := map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour}[m[2]]
	return time.Duration(n) * unit, strconv.Itoa(n) + m[2], true
}

// Service relays remote-control requests.
type Service struct {
	db    *db.DB
	dir   Directory
	hub   *realtime.Hub
	log   *oplog.Log
	now   func() time.Time
	locks termLocks
	// OnCallSet runs after a call-set status is stored (voice drops a killed or stunned talker at once).
	OnCallSet func(customerID int64, msID string, status int)
	// ICE issues the TURN credentials /ds/turn/send relays (turn.go); nil: TURN is off.
	ICE ICE
}

// Directory is what remote control reads and writes of terminals (internal/directory's Store): the
// call-set status is the directory's column.
type Directory interface {
	CheckTerminal(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	Account(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	Terminal(ctx context.Context, customerID int64, msID string) (directory.Terminal, error)
	SetCallSetStatus(ctx context.Context, c directory.CustomerID, id directory.TerminalID, status int) error
}

// New builds the service.
func New(d *db.DB, dir Directory, hub *realtime.Hub, log *oplog.Log) *Service {
	return &Service{db: d, dir: dir, hub: hub, log: log, now: time.Now}
}

// Verbs are the remote-control requests of consoles and their relays to terminals (docs/console-socket.md,
// docs/terminal-protocol.md "Remote control"). The login reminder is a login hook: RemindAtLogin.
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		realtime.On(CallSet, realtime.ConsoleOnly, s.sockCallSet),
		realtime.On(ParamSet, realtime.ConsoleOnly, s.sockParamSet),
		realtime.On(ParamGet, realtime.ConsoleOnly, s.sockParamGet), // current.go
		realtime.Ask(CallSet, realtime.TerminalOnly),
		realtime.Ask(ParamSet, realtime.TerminalOnly),
		realtime.Ask(ParamGet, realtime.TerminalOnly),
		realtime.Ask(TurnConfig, realtime.TerminalOnly), // turn.go
	}
}

// CallSetResult is the reply data of `call.set`.
type CallSetResult struct {
	MsID   string `json:"msId"`
	Status int    `json:"status"`
}

type callSetReq struct {
	MsID   flex.String `json:"msId"`
	Status flex.String `json:"status"`
}

func (s *Service) sockCallSet(ctx context.Context, c *realtime.Conn, req callSetReq) (any, error) {
	st, err := strconv.Atoi(string(req.Status))
	if _, known := statusNames[st]; err != nil || !known {
		return nil, httpx.BadParam("status", "0 (kill), 1 (stun) or 8 (revive)")
	}
	return s.SetCallStatus(ctx, c.Principal(), string(req.MsID), st)
}

// SetCallStatus relays a call-set status to a terminal and stores it once acknowledged.
func (s *Service) SetCallStatus(ctx context.Context, p identity.Principal, msID string, status int) (CallSetResult, error) {
	unlock, err := s.relay(ctx, p.CustomerID, msID, CallSet, map[string]any{"status": status, "by": p.AccountID, "byName": p.Name})
	if err != nil {
		return CallSetResult{}, err
	}
	defer unlock()
	// The terminal applied it: record it even if the console has gone meanwhile.
	ctx = context.WithoutCancel(ctx)
	if err := s.dir.SetCallSetStatus(ctx, directory.CustomerID(p.CustomerID), directory.TerminalID(msID), status); err != nil {
		return CallSetResult{}, err
	}
	if s.OnCallSet != nil {
		s.OnCallSet(p.CustomerID, msID, status)
	}
	s.log.By(ctx, p, oplog.CallSettings, fmt.Sprintf("call set %s: %s (%d)", msID, statusNames[status], status),
		oplog.D("callSet", "terminal", msID, "status", statusNames[status]))
	s.publish(ctx, p.CustomerID, msID)
	return CallSetResult{MsID: msID, Status: status}, nil
}

// ParamSetResult is the reply data of `param.set`.
type ParamSetResult struct {
	MsID   string            `json:"msId"`
	Params map[string]string `json:"params"` // every parameter stored for the terminal now
}

type paramSetReq struct {
	MsID   flex.String                `json:"msId"`
	Params map[string]json.RawMessage `json:"params"` // strings: a number that is not one names its parameter
}

func (s *Service) sockParamSet(ctx context.Context, c *realtime.Conn, req paramSetReq) (any, error) {
	params := make(map[string]string, len(req.Params))
	for k, raw := range req.Params {
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return nil, errBadInterval(k)
		}
		params[k] = v
	}
	return s.SetParams(ctx, c.Principal(), string(req.MsID), params)
}

// CheckParams validates parameters and returns them normalised ("05M" → "5m") with their values in seconds.
func CheckParams(params map[string]string) (map[string]string, map[string]int64, error) {
	if len(params) == 0 {
		return nil, nil, httpx.BadParam("params", "at least one parameter")
	}
	norm := make(map[string]string, len(params))
	secs := make(map[string]int64, len(params))
	for k, v := range params {
		def, ok := Params[k]
		if !ok {
			return nil, nil, httpx.BadParam(k, "unknown parameter")
		}
		d, n, ok := ParseInterval(v)
		if !ok {
			return nil, nil, errBadInterval(k)
		}
		if d < def.Min || d > def.Max {
			return nil, nil, httpx.BadParam(k, fmt.Sprintf("from %s to %s", short(def.Min), short(def.Max)))
		}
		norm[k], secs[k] = n, int64(d/time.Second)
	}
	return norm, secs, nil
}

// SetParams validates parameters, relays them to a terminal and stores them once acknowledged.
func (s *Service) SetParams(ctx context.Context, p identity.Principal, msID string, params map[string]string) (ParamSetResult, error) {
	norm, secs, err := CheckParams(params)
	if err != nil {
		return ParamSetResult{}, err
	}
	unlock, err := s.relay(ctx, p.CustomerID, msID, ParamSet,
		map[string]any{"params": norm, "seconds": secs, "by": p.AccountID, "byName": p.Name})
	if err != nil {
		return ParamSetResult{}, err
	}
	defer unlock()
	ctx = context.WithoutCancel(ctx)
	now := s.now().UnixMilli()
	keys := slices.Sorted(maps.Keys(norm))
	if err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, k := range keys {
			if _, err := tx.Exec(ctx, `INSERT INTO terminal_params (account_id, name, value, updated_at) VALUES (?, ?, ?, ?)
				ON CONFLICT (account_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
				msID, k, norm[k], now); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return ParamSetResult{}, err
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + norm[k]
	}
	s.log.By(ctx, p, oplog.CallSettings, fmt.Sprintf("set param %s: %s", msID, strings.Join(parts, " ")),
		oplog.D("paramSet", "terminal", msID, "params", strings.Join(parts, " ")))
	all, err := s.StoredParams(ctx, msID)
	if err != nil {
		return ParamSetResult{}, err
	}
	s.publish(ctx, p.CustomerID, msID)
	return ParamSetResult{MsID: msID, Params: all}, nil
}

// StoredParams returns the parameters a terminal acknowledged.
func (s *Service) StoredParams(ctx context.Context, msID string) (map[string]string, error) {
	rows, err := s.db.Query(ctx, `SELECT name, value FROM terminal_params WHERE account_id = ?`, msID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// terminal loads one of the customer's terminals: unknown ids, other customers' ids and dispatchers are 404.
func (s *Service) terminal(ctx context.Context, customerID int64, msID string) error {
	if msID == "" {
		return httpx.BadParam("msId", "required")
	}
	if len(msID) > 32 {
		return httpx.ErrNotFound
	}
	_, err := s.dir.CheckTerminal(ctx, directory.CustomerID(customerID), directory.TerminalID(msID))
	return err
}

// relay asks one of the customer's terminals, online on any node of a cluster, to apply a change and waits for
// its acknowledgement, holding the terminal's lock (termLocks): the caller stores the change, then unlocks.
func (s *Service) relay(ctx context.Context, customerID int64, msID, typ string, data any) (unlock func(), err error) {
	if err := s.terminal(ctx, customerID, msID); err != nil {
		return nil, err
	}
	c := s.hub.TerminalPeer(ctx, customerID, msID)
	if c == nil {
		return nil, realtime.ErrNotOnline
	}
	unlock = s.locks.lock(msID)
	if err := s.ask(ctx, c, typ, data); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// ask relays a request to a terminal and waits for its acknowledgement (the hub's AckTimeout).
func (s *Service) ask(ctx context.Context, c realtime.Peer, typ string, data any) error {
	rctx, cancel := context.WithTimeout(ctx, s.hub.AckTimeout())
	defer cancel()
	_, err := c.Request(rctx, typ, data)
	return err
}

// Updated is the data of `terminal.updated` from this package: the terminal (directory's JSON) and its
// acknowledged parameters.
type Updated struct {
	directory.Terminal
	Params map[string]string `json:"params"`
}

func (s *Service) publish(ctx context.Context, customerID int64, msID string) {
	t, err := s.dir.Terminal(ctx, customerID, msID)
	if err != nil {
		slog.ErrorContext(ctx, "terminalctl: load terminal", "msId", msID, "err", err)
		return
	}
	params, err := s.StoredParams(ctx, msID)
	if err != nil {
		slog.ErrorContext(ctx, "terminalctl: load params", "msId", msID, "err", err)
		return
	}
	s.hub.Publish(customerID, EventTerminalUpdated, Updated{Terminal: t, Params: params}, realtime.Consoles)
}

// RemindAtLogin reminds a terminal, once its login reply is out, of a call-set status other than active and of its
// stored parameters, so a terminal that lost its state (reinstalled, reset) is blocked or tuned again. Whether
// a reminder is due is read at login; the reminder itself re-reads the state under the terminal's lock, so it
// can never overtake a dispatcher's change and leave the terminal out of step with the store.
func (s *Service) RemindAtLogin(ctx context.Context, c *realtime.Conn, _ bool) {
	if c.Kind() != realtime.Terminal {
		return
	}
	p := c.Principal()
	a, err := s.dir.Account(ctx, directory.CustomerID(p.CustomerID), directory.TerminalID(p.AccountID))
	var nParams int
	if err == nil {
		err = s.db.QueryRow(ctx, `SELECT COUNT(*) FROM terminal_params WHERE account_id = ?`, p.AccountID).Scan(&nParams)
	}
	if err != nil {
		slog.WarnContext(ctx, "terminalctl: state at login", "msId", p.AccountID, "err", err)
		return
	}
	if a.CallSetStatus == Active && nParams == 0 {
		return
	}
	c.AfterReady(func() {
		if err := s.remind(ctx, c); err != nil {
			slog.InfoContext(ctx, "terminalctl: reminder not acknowledged", "msId", p.AccountID, "err", err)
		}
	})
}

func (s *Service) remind(ctx context.Context, c *realtime.Conn) error {
	p := c.Principal()
	id := p.AccountID
	defer s.locks.lock(id)()
	a, err := s.dir.Account(ctx, directory.CustomerID(p.CustomerID), directory.TerminalID(id))
	if err != nil {
		return err
	}
	if a.CallSetStatus != Active {
		if err := s.ask(ctx, c, CallSet, map[string]any{"status": a.CallSetStatus}); err != nil {
			return err
		}
	}
	params, err := s.StoredParams(ctx, id)
	if err != nil || len(params) == 0 {
		return err
	}
	_, secs, err := CheckParams(params)
	if err != nil {
		return err
	}
	return s.ask(ctx, c, ParamSet, map[string]any{"params": params, "seconds": secs})
}

// termLocks serialize remote control of one terminal: relay, acknowledgement and store happen as one step,
// so concurrent changes (two dispatchers, a login reminder) reach the terminal in the order they are stored.
type termLocks [64]sync.Mutex

func (l *termLocks) lock(id string) func() {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	m := &l[h.Sum32()%uint32(len(l))]
	m.Lock()
	return m.Unlock
}

func short(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case d%time.Minute == 0:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	}
	return strconv.Itoa(int(d/time.Second)) + "s"
}
