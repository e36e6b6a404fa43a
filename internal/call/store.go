package call

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"tenfour/internal/platform/db"
)

// Store is the voice domain's SQL: its own tables (records, mutes, missed calls) and the few reads of the
// directory's tables (accounts, groups, members) the floor needs.
type Store struct{ db *db.DB }

// NewStore wraps the store.
func NewStore(d *db.DB) *Store { return &Store{db: d} }

// Account is what voice needs to know about an account.
type Account struct {
	ID       string
	Customer int64
	Type     string
	AcctType string
	Name     string
	Status   int   // call-set status: 0 killed, 1 stunned, 8 active
	PttGroup int64 // the group it talks in now (0 = none)
}

// Dispatcher tells a console account from a terminal.
func (a Account) Dispatcher() bool { return a.Type == "20" }

// Blocked tells whether a terminal is killed or stunned (it can neither talk nor hear).
func (a Account) Blocked() bool { return a.Status == 0 || a.Status == 1 }

func (a Account) person() Person { return Person{MsID: a.ID, Name: a.Name, Type: a.Type} }

const accountCols = `id, customer_id, type, acct_type, name, call_set_status, COALESCE(ptt_group_id, default_group_id, 0)`

func scanAccount(sc interface{ Scan(...any) error }) (Account, error) {
	var a Account
	err := sc.Scan(&a.ID, &a.Customer, &a.Type, &a.AcctType, &a.Name, &a.Status, &a.PttGroup)
	return a, err
}

// Account reads one account of a customer; db.ErrNotFound if it is not theirs.
func (s *Store) Account(ctx context.Context, customer int64, id string) (Account, error) {
	a, err := scanAccount(s.db.QueryRow(ctx, `SELECT `+accountCols+` FROM accounts WHERE id = ? AND customer_id = ?`,
		id, customer))
	if errors.Is(err, sql.ErrNoRows) {
		return a, db.ErrNotFound
	}
	return a, err
}

func (s *Store) accounts(ctx context.Context, q string, args ...any) ([]Account, error) {
	rows, err := s.db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Accounts reads the given accounts of a customer (unknown ids are left out).
func (s *Store) Accounts(ctx context.Context, customer int64, ids []string) ([]Account, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := []any{customer}
	for _, id := range ids {
		args = append(args, id)
	}
	return s.accounts(ctx, `SELECT `+accountCols+` FROM accounts WHERE customer_id = ? AND id IN (`+
		db.Placeholders(len(ids))+`) ORDER BY id`, args...)
}

// Terminals reads every terminal (non-dispatcher account) of a customer: the parties of an all call.
func (s *Store) Terminals(ctx context.Context, customer int64) ([]Account, error) {
	return s.accounts(ctx, `SELECT `+accountCols+` FROM accounts WHERE customer_id = ? AND type <> '20' ORDER BY id`,
		customer)
}

// GroupInfo is a group's name and kind.
type GroupInfo struct {
	ID   int64
	Name string
	Kind string // fixed | temp
}

// Group reads a group of a customer.
func (s *Store) Group(ctx context.Context, customer, gid int64) (GroupInfo, error) {
	g := GroupInfo{ID: gid}
	err := s.db.QueryRow(ctx, `SELECT name, kind FROM ptt_groups WHERE id = ? AND customer_id = ?`, gid, customer).
		Scan(&g.Name, &g.Kind)
	if errors.Is(err, sql.ErrNoRows) {
		return g, db.ErrNotFound
	}
	return g, err
}

// GroupAudience reads who hears a group call: its members and every account whose ptt group it is.
func (s *Store) GroupAudience(ctx context.Context, customer, gid int64) ([]Account, error) {
	// Two indexed halves (accounts by ptt group, group_members by group) instead of one OR that scans every
	// account of the customer.
	return s.accounts(ctx, `SELECT `+accountCols+` FROM accounts WHERE customer_id = ? AND ptt_group_id = ?
		UNION SELECT `+accountCols+` FROM accounts WHERE customer_id = ?
			AND id IN (SELECT account_id FROM group_members WHERE group_id = ?) ORDER BY id`, customer, gid, customer, gid)
}

// GroupMembers reads the members of a group (a stored temporary group's parties).
func (s *Store) GroupMembers(ctx context.Context, customer, gid int64) ([]Account, error) {
	return s.accounts(ctx, `SELECT `+accountCols+` FROM accounts WHERE customer_id = ?
		AND id IN (SELECT account_id FROM group_members WHERE group_id = ?) ORDER BY id`, customer, gid)
}

// CustomerTimeZone is the customer's offset from UTC in hours (for month boundaries of queries).
func (s *Store) CustomerTimeZone(ctx context.Context, customer int64) (float64, error) {
	var tz string
	if err := s.db.QueryRow(ctx, `SELECT time_zone FROM customers WHERE id = ?`, customer).Scan(&tz); err != nil {
		return 0, err
	}
	h, err := strconv.ParseFloat(strings.TrimSpace(tz), 64)
	if err != nil {
		return 0, nil
	}
	return h, nil
}

// Record is one recorded talk burst: the call record row.
type Record struct {
	ID            int64
	Customer      int64
	CallID        string
	Kind          Kind
	GroupID       int64
	GroupName     string
	PeerIDs       string
	TalkerID      string
	TalkerName    string
	Started       int64 // btime, UTC ms
	DurationMs    int64
	Quality       string
	Size          int64
	Path          string // relative to the data directory
	AccessUs      int64
	FirstPacketUs int64
	DelayP99Us    int64
}

const recordCols = `id, customer_id, call_id, kind, group_id, group_name, peer_ids, talker_id, talker_name, started_at,
	duration_ms, quality, size, path, access_us, first_packet_us, delay_p99_us`

func scanRecord(sc interface{ Scan(...any) error }) (Record, error) {
	var r Record
	err := sc.Scan(&r.ID, &r.Customer, &r.CallID, &r.Kind, &r.GroupID, &r.GroupName, &r.PeerIDs, &r.TalkerID,
		&r.TalkerName, &r.Started, &r.DurationMs, &r.Quality, &r.Size, &r.Path, &r.AccessUs, &r.FirstPacketUs,
		&r.DelayP99Us)
	return r, err
}

// AddRecord stores a burst's row (after its file is on disk) and returns its id.
func (s *Store) AddRecord(ctx context.Context, r Record) (int64, error) {
	var id int64
	err := s.db.WriteRow(ctx, `INSERT INTO voice_records (customer_id, call_id, kind, group_id, group_name, peer_ids,
		talker_id, talker_name, started_at, duration_ms, quality, size, path, access_us, first_packet_us, delay_p99_us)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		r.Customer, r.CallID, string(r.Kind), r.GroupID, r.GroupName, r.PeerIDs, r.TalkerID, r.TalkerName, r.Started,
		r.DurationMs, r.Quality, r.Size, r.Path, r.AccessUs, r.FirstPacketUs, r.DelayP99Us).Scan(&id)
	return id, err
}

// RecordQuery filters call records.
type RecordQuery struct {
	From, To int64  // UTC ms, inclusive
	MsID     string // talker or the other party of a single call
	GroupID  int64
	Kind     Kind
	Offset   int
	Limit    int
}

// Records lists a customer's records, newest first, and the total.
func (s *Store) Records(ctx context.Context, customer int64, q RecordQuery) ([]Record, int, error) {
	where := []string{"customer_id = ?", "started_at >= ?", "started_at <= ?"}
	args := []any{customer, q.From, q.To}
	if q.MsID != "" {
		where = append(where, "(talker_id = ? OR peer_ids = ?)")
		args = append(args, q.MsID, q.MsID)
	}
	if q.GroupID != 0 {
		where = append(where, "group_id = ?")
		args = append(args, q.GroupID)
	}
	if q.Kind != "" {
		where = append(where, "kind = ?")
		args = append(args, string(q.Kind))
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM voice_records WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.db.Query(ctx, `SELECT `+recordCols+` FROM voice_records WHERE `+cond+
		` ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []Record{}
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, r)
	}
	return out, total, rows.Err()
}

// CallRecords lists the bursts of one call (btime 0 = all of them), oldest first.
func (s *Store) CallRecords(ctx context.Context, customer int64, callID string, btime int64) ([]Record, error) {
	q := `SELECT ` + recordCols + ` FROM voice_records WHERE customer_id = ? AND call_id = ?`
	args := []any{customer, callID}
	if btime != 0 {
		q += ` AND started_at = ?`
		args = append(args, btime)
	}
	rows, err := s.db.Query(ctx, q+` ORDER BY started_at`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Record{}
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// DeleteOlder removes up to limit records that started before cutoff, calling remove for each file inside
// the transaction: a file that cannot be removed keeps its row, so files and rows go together.
func (s *Store) DeleteOlder(ctx context.Context, cutoff int64, limit int, remove func(path string) error) (int, error) {
	n := 0
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, path FROM voice_records WHERE started_at < ? ORDER BY started_at LIMIT ?`,
			cutoff, limit)
		if err != nil {
			return err
		}
		type old struct {
			id   int64
			path string
		}
		var olds []old
		for rows.Next() {
			var o old
			if err := rows.Scan(&o.id, &o.path); err != nil {
				rows.Close()
				return err
			}
			olds = append(olds, o)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, o := range olds {
			if err := remove(o.path); err != nil {
				continue
			}
			if _, err := tx.Exec(ctx, `DELETE FROM voice_records WHERE id = ?`, o.id); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// Mute is a mute-list entry: MsID does not hear MuteID.
type Mute struct {
	ID       int64  `json:"id,string"`
	MsID     string `json:"msId"`
	MsName   string `json:"msName"`
	MuteID   string `json:"muteId"`
	MuteName string `json:"muteName"`
}

// AddMute stores an entry (an existing pair is returned as it is).
func (s *Store) AddMute(ctx context.Context, customer int64, msID, muteID string, at int64) (int64, error) {
	var id int64
	err := s.db.WriteRow(ctx, `INSERT INTO voice_mutes (customer_id, ms_id, mute_id, created_at) VALUES (?, ?, ?, ?)
		RETURNING id`, customer, msID, muteID, at).Scan(&id)
	if db.IsUniqueViolation(err) {
		err = s.db.QueryRow(ctx, `SELECT id FROM voice_mutes WHERE customer_id = ? AND ms_id = ? AND mute_id = ?`,
			customer, msID, muteID).Scan(&id)
	}
	return id, err
}

// DeleteMute removes an entry by id, or by its pair when id is 0; it returns the pair removed.
func (s *Store) DeleteMute(ctx context.Context, customer, id int64, msID, muteID string) (string, string, error) {
	q, args := `SELECT id, ms_id, mute_id FROM voice_mutes WHERE customer_id = ? AND id = ?`, []any{customer, id}
	if id == 0 {
		q, args = `SELECT id, ms_id, mute_id FROM voice_mutes WHERE customer_id = ? AND ms_id = ? AND mute_id = ?`,
			[]any{customer, msID, muteID}
	}
	if err := s.db.QueryRow(ctx, q, args...).Scan(&id, &msID, &muteID); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return "", "", db.ErrNotFound
		}
		return "", "", err
	}
	_, err := s.db.Exec(ctx, `DELETE FROM voice_mutes WHERE id = ? AND customer_id = ?`, id, customer)
	return msID, muteID, err
}

// Mutes lists a customer's entries (msID "" = all listeners).
func (s *Store) Mutes(ctx context.Context, customer int64, msID string) ([]Mute, error) {
	q := `SELECT m.id, m.ms_id, a.name, m.mute_id, b.name FROM voice_mutes m
		JOIN accounts a ON a.id = m.ms_id JOIN accounts b ON b.id = m.mute_id WHERE m.customer_id = ?`
	args := []any{customer}
	if msID != "" {
		q += ` AND m.ms_id = ?`
		args = append(args, msID)
	}
	rows, err := s.db.Query(ctx, q+` ORDER BY m.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Mute{}
	for rows.Next() {
		var m Mute
		if err := rows.Scan(&m.ID, &m.MsID, &m.MsName, &m.MuteID, &m.MuteName); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// AllMutes reads every pair of every customer: listener → muted talkers (loaded at start).
func (s *Store) AllMutes(ctx context.Context) (map[string]map[string]bool, error) {
	rows, err := s.db.Query(ctx, `SELECT ms_id, mute_id FROM voice_mutes`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[string]bool{}
	for rows.Next() {
		var l, t string
		if err := rows.Scan(&l, &t); err != nil {
			return nil, err
		}
		if out[l] == nil {
			out[l] = map[string]bool{}
		}
		out[l][t] = true
	}
	return out, rows.Err()
}

// Missed is a missed individual call.
type Missed struct {
	ID         int64  `json:"id,string"`
	CallID     string `json:"callId"`
	CalleeID   string `json:"calleeId"`
	CallerID   string `json:"msId"`
	CallerName string `json:"msName"`
	Status     int    `json:"status"`
	Time       int64  `json:"time"`
}

// AddMissed stores a missed call.
func (s *Store) AddMissed(ctx context.Context, customer int64, m Missed) error {
	_, err := s.db.Exec(ctx, `INSERT INTO voice_missed (customer_id, callee_id, caller_id, caller_name, call_id, status, at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, customer, m.CalleeID, m.CallerID, m.CallerName, m.CallID, m.Status, m.Time)
	return err
}

// MissedCalls lists an account's missed calls, newest first.
func (s *Store) MissedCalls(ctx context.Context, customer int64, callee string, from, to int64, limit int) ([]Missed, error) {
	rows, err := s.db.Query(ctx, `SELECT id, call_id, callee_id, caller_id, caller_name, status, at FROM voice_missed
		WHERE customer_id = ? AND callee_id = ? AND at >= ? AND at <= ? ORDER BY at DESC, id DESC LIMIT ?`,
		customer, callee, from, to, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Missed{}
	for rows.Next() {
		var m Missed
		if err := rows.Scan(&m.ID, &m.CallID, &m.CalleeID, &m.CallerID, &m.CallerName, &m.Status, &m.Time); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// ClearMissed deletes an account's missed calls (id 0 = all of them).
func (s *Store) ClearMissed(ctx context.Context, customer int64, callee string, id int64) error {
	q, args := `DELETE FROM voice_missed WHERE customer_id = ? AND callee_id = ?`, []any{customer, callee}
	if id != 0 {
		q += ` AND id = ?`
		args = append(args, id)
	}
	_, err := s.db.Exec(ctx, q, args...)
	return err
}
