package call

// Voice and recording rights (spec §6 "Recording needs recording permission on the terminal and recording time
// on the client"; "call-duration statistics count only terminals with voice permission"): a terminal without
// voice permission is refused the floor, a burst of a terminal without recording permission or of a customer
// whose recording time is used up is carried but not recorded, and the floor state says why. The rights live in
// voice_rights (a terminal without a row has both) and recording_time (a customer without a row has no limit);
// this file keeps them in memory too, so the floor decides without a store read. docs/adr/0022.

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Why a burst was not recorded (FloorView.NotRecorded, BurstStatsView.NotRecorded, voice_bursts.recorded).
const (
	NoRecordPermission = "noRecordPermission" // spec §8 "no recording permission"
	NoRecordTime       = "noRecordTime"       // spec §8 "not enough recording time"
)

// EventRights is the consoles' event after a terminal's rights changed.
const EventRights = "voice.rights"

// Errors of the rights.
var (
	ErrNoVoice  = httpx.E(http.StatusForbidden, "606", "errors.floor.noVoice", "this terminal has no voice permission")
	ErrNotAdmin = httpx.E(http.StatusForbidden, "107", "errors.permission", "only an administrator may set the recording time")
)

// MaxRecordingMinutes bounds a customer's recording time (100 years of talk: a typo, not a plan).
const MaxRecordingMinutes = 100 * 365 * 24 * 60

// Rights are a terminal's voice and recording permissions.
type Rights struct {
	MsID   string `json:"msId"`
	MsName string `json:"msName"`
	Voice  bool   `json:"voice"`
	Record bool   `json:"record"`
}

// RecordingTime is a customer's recording allowance.
type RecordingTime struct {
	Limited     bool  `json:"limited"` // false: no limit (the other fields are 0 but usedMs)
	QuotaMs     int64 `json:"quotaMs"`
	UsedMs      int64 `json:"usedMs"`
	RemainingMs int64 `json:"remainingMs"`
}

// rightsCache is the in-memory copy of voice_rights and recording_time the floor reads.
type rightsCache struct {
	mu       sync.RWMutex
	noVoice  map[string]bool
	noRecord map[string]bool
	quota    map[int64]*RecordingTime
}

// loadRights fills the cache from the store (Restore).
func (s *Service) loadRights(ctx context.Context) error {
	noVoice, noRecord := map[string]bool{}, map[string]bool{}
	rows, err := s.db.Query(ctx, `SELECT account_id, voice, record FROM voice_rights`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		var voice, record bool
		if err := rows.Scan(&id, &voice, &record); err != nil {
			rows.Close()
			return err
		}
		noVoice[id], noRecord[id] = !voice, !record
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	quota := map[int64]*RecordingTime{}
	rows, err = s.db.Query(ctx, `SELECT customer_id, quota_ms, used_ms FROM recording_time`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c int64
		rt := &RecordingTime{Limited: true}
		if err := rows.Scan(&c, &rt.QuotaMs, &rt.UsedMs); err != nil {
			return err
		}
		quota[c] = rt
	}
	s.rights.mu.Lock()
	s.rights.noVoice, s.rights.noRecord, s.rights.quota = noVoice, noRecord, quota
	s.rights.mu.Unlock()
	return rows.Err()
}

// mayTalk refuses the floor to a terminal without voice permission (dispatchers always have it).
func (s *Service) mayTalk(a Account) error {
	if a.Dispatcher() {
		return nil
	}
	s.rights.mu.RLock()
	defer s.rights.mu.RUnlock()
	if s.rights.noVoice[a.ID] {
		return ErrNoVoice
	}
	return nil
}

// recordVerdict says whether a burst of account talker of customer is recorded: "" yes, else why not.
func (s *Service) recordVerdict(customer int64, talker Account) string {
	s.rights.mu.RLock()
	defer s.rights.mu.RUnlock()
	if !talker.Dispatcher() && s.rights.noRecord[talker.ID] {
		return NoRecordPermission
	}
	if q := s.rights.quota[customer]; q != nil && q.UsedMs >= q.QuotaMs {
		return NoRecordTime
	}
	return ""
}

// useRecordingTime counts a recorded burst against its customer's recording time (no-op without a limit).
func (s *Service) useRecordingTime(ctx context.Context, customer, ms int64) error {
	s.rights.mu.Lock()
	q := s.rights.quota[customer]
	if q != nil {
		q.UsedMs += ms
	}
	s.rights.mu.Unlock()
	if q == nil {
		return nil
	}
	_, err := s.db.Exec(ctx, `UPDATE recording_time SET used_ms = used_ms + ?, updated_at = ? WHERE customer_id = ?`,
		ms, time.Now().UnixMilli(), customer)
	return err
}

// RecordingTimeOf is a customer's recording allowance now.
func (s *Service) RecordingTimeOf(customer int64) RecordingTime {
	s.rights.mu.RLock()
	defer s.rights.mu.RUnlock()
	q := s.rights.quota[customer]
	if q == nil {
		return RecordingTime{}
	}
	rt := *q
	rt.RemainingMs = max(0, rt.QuotaMs-rt.UsedMs)
	return rt
}

// rightsOf returns the rights of the given accounts (every one has both without a row).
func (s *Service) rightsOf(ids []string) map[string]Rights {
	s.rights.mu.RLock()
	defer s.rights.mu.RUnlock()
	out := make(map[string]Rights, len(ids))
	for _, id := range ids {
		out[id] = Rights{MsID: id, Voice: !s.rights.noVoice[id], Record: !s.rights.noRecord[id]}
	}
	return out
}

// VoicePermitted tells which of the accounts have voice permission (the call-duration report counts only
// them).
func (s *Service) VoicePermitted(id string) bool {
	s.rights.mu.RLock()
	defer s.rights.mu.RUnlock()
	return !s.rights.noVoice[id]
}

// rightsAllowed: voice rights are terminal management, for account type "1" (spec §6).
func rightsAllowed(p identity.Principal) error {
	if p.AcctType != "1" {
		return ErrPermission
	}
	return nil
}

type rightsListReq struct {
	MsIDs flex.List `json:"msIds"`
}

// GET /ds/voice/rights {msIds?} → {list:[Rights]}: every terminal of the customer without msIds.
func (s *Service) rightsList(ctx context.Context, p identity.Principal, req rightsListReq) (any, error) {
	ids, err := httpx.IDs("msIds", req.MsIDs, 1000, false)
	if err != nil {
		return nil, err
	}
	var accts []Account
	if len(ids) == 0 {
		accts, err = s.store.Terminals(ctx, p.CustomerID)
	} else {
		accts, err = s.store.Accounts(ctx, p.CustomerID, ids)
	}
	if err != nil {
		return nil, err
	}
	list := make([]Rights, 0, len(accts))
	all := make([]string, 0, len(accts))
	for _, a := range accts {
		if !a.Dispatcher() {
			all = append(all, a.ID)
		}
	}
	rs := s.rightsOf(all)
	for _, a := range accts {
		if a.Dispatcher() {
			continue
		}
		r := rs[a.ID]
		r.MsName = a.Name
		list = append(list, r)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].MsID < list[j].MsID })
	return map[string]any{"list": list}, nil
}

type rightsSetReq struct {
	MsIDs  flex.List   `json:"msId"`   // one id, a comma list or an array
	Voice  flex.String `json:"voice"`  // "1"/"0" (also true/false); absent: unchanged
	Record flex.String `json:"record"` // "1"/"0" (also true/false); absent: unchanged
}

func boolParam(name string, v flex.String) (*bool, error) {
	switch v {
	case "":
		return nil, nil
	case "1", "true":
		t := true
		return &t, nil
	case "0", "false":
		f := false
		return &f, nil
	}
	return nil, httpx.BadParam(name, "0 or 1")
}

// PUT /ds/voice/rights {msId, voice?, record?} → {list:[Rights]}: sets the permissions of terminals (all of
// them the customer's, else "404" and nothing changes); consoles get `voice.rights`.
func (s *Service) rightsSet(ctx context.Context, p identity.Principal, req rightsSetReq) (any, error) {
	if err := rightsAllowed(p); err != nil {
		return nil, err
	}
	ids, err := httpx.IDs("msId", req.MsIDs, 1000, true)
	if err != nil {
		return nil, err
	}
	voice, err := boolParam("voice", req.Voice)
	if err != nil {
		return nil, err
	}
	record, err := boolParam("record", req.Record)
	if err != nil {
		return nil, err
	}
	if voice == nil && record == nil {
		return nil, httpx.BadParam("voice", "voice or record required")
	}
	accts, err := s.store.Accounts(ctx, p.CustomerID, ids)
	if err != nil {
		return nil, err
	}
	if len(accts) != len(ids) {
		return nil, ErrNotFound
	}
	for _, a := range accts {
		if a.Dispatcher() {
			return nil, ErrNotFound // rights are the terminals'
		}
	}
	cur := s.rightsOf(ids)
	now := time.Now().UnixMilli()
	next := make([]Rights, 0, len(accts))
	for _, a := range accts {
		r := cur[a.ID]
		r.MsName = a.Name
		if voice != nil {
			r.Voice = *voice
		}
		if record != nil {
			r.Record = *record
		}
		next = append(next, r)
	}
	if err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, r := range next {
			if _, err := tx.Exec(ctx, `INSERT INTO voice_rights (account_id, customer_id, voice, record, updated_at)
				VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET voice = excluded.voice,
				record = excluded.record, updated_at = excluded.updated_at`,
				r.MsID, p.CustomerID, r.Voice, r.Record, now); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	s.rights.mu.Lock()
	if s.rights.noVoice == nil {
		s.rights.noVoice, s.rights.noRecord = map[string]bool{}, map[string]bool{}
	}
	for _, r := range next {
		s.rights.noVoice[r.MsID], s.rights.noRecord[r.MsID] = !r.Voice, !r.Record
	}
	s.rights.mu.Unlock()
	for _, r := range next {
		s.hub.Publish(p.CustomerID, EventRights, r, realtime.Consoles)
		// log 9 (call settings), one entry per permission that changed
		was := cur[r.MsID]
		if was.Voice != r.Voice {
			d := oplog.D("voicePermissionRevoked", "terminal", r.MsID)
			if r.Voice {
				d = oplog.D("voicePermissionGranted", "terminal", r.MsID)
			}
			s.log.By(ctx, p, oplog.CallSettings, fmt.Sprintf("voice permission of %s: %t", r.MsID, r.Voice), d)
		}
		if was.Record != r.Record {
			d := oplog.D("recordPermissionRevoked", "terminal", r.MsID)
			if r.Record {
				d = oplog.D("recordPermissionGranted", "terminal", r.MsID)
			}
			s.log.By(ctx, p, oplog.CallSettings, fmt.Sprintf("recording permission of %s: %t", r.MsID, r.Record), d)
		}
	}
	return map[string]any{"list": next}, nil
}

// GET /ds/voice/recordingTime → RecordingTime of the caller's customer.
func (s *Service) recordingTimeGet(ctx context.Context, p identity.Principal, _ struct{}) (any, error) {
	return s.RecordingTimeOf(p.CustomerID), nil
}

type recordingTimeReq struct {
	Minutes flex.String `json:"minutes"` // the allowance in minutes; "" or -1: no limit
	Reset   flex.String `json:"reset"`   // "1": the used time starts again at 0
}

// PUT /ds/voice/recordingTime {minutes, reset?} (an administrator): sets the customer's recording time.
func (s *Service) recordingTimeSet(ctx context.Context, p identity.Principal, req recordingTimeReq) (any, error) {
	if !p.Admin {
		return nil, ErrNotAdmin
	}
	reset, err := boolParam("reset", req.Reset)
	if err != nil {
		return nil, err
	}
	var minutes int64 = -1
	if req.Minutes != "" {
		if minutes, err = httpx.Int("minutes", string(req.Minutes)); err != nil {
			return nil, err
		}
		if minutes < -1 || minutes > MaxRecordingMinutes {
			return nil, httpx.BadParam("minutes", "-1 (no limit) or 0 to 52560000")
		}
	}
	now := time.Now().UnixMilli()
	if minutes < 0 {
		if _, err := s.db.Exec(ctx, `DELETE FROM recording_time WHERE customer_id = ?`, p.CustomerID); err != nil {
			return nil, err
		}
		s.rights.mu.Lock()
		delete(s.rights.quota, p.CustomerID)
		s.rights.mu.Unlock()
		s.log.By(ctx, p, oplog.CallSettings, "recording time: no limit", oplog.D("recordingTimeUnlimited"))
		return RecordingTime{}, nil
	}
	// The used time stays unless reset: the store keeps counting it (useRecordingTime) meanwhile.
	rt := RecordingTime{Limited: true}
	if err := s.db.WriteRow(ctx, `INSERT INTO recording_time (customer_id, quota_ms, used_ms, updated_at) VALUES (?, ?, 0, ?)
		ON CONFLICT (customer_id) DO UPDATE SET quota_ms = excluded.quota_ms,
		used_ms = CASE WHEN ? THEN 0 ELSE recording_time.used_ms END, updated_at = excluded.updated_at
		RETURNING quota_ms, used_ms`, p.CustomerID, minutes*60_000, now, reset != nil && *reset).Scan(&rt.QuotaMs, &rt.UsedMs); err != nil {
		return nil, err
	}
	s.rights.mu.Lock()
	if s.rights.quota == nil {
		s.rights.quota = map[int64]*RecordingTime{}
	}
	cp := rt
	s.rights.quota[p.CustomerID] = &cp
	s.rights.mu.Unlock()
	s.log.By(ctx, p, oplog.CallSettings, fmt.Sprintf("recording time: %d minutes", minutes),
		oplog.D("recordingTimeSet", "minutes", strconv.FormatInt(minutes, 10)))
	rt.RemainingMs = max(0, rt.QuotaMs-rt.UsedMs)
	return rt, nil
}
