package call

import (
	"context"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
)

// Store is the voice domain's SQL: its own tables (records, mutes, missed calls); what the floor needs of
// accounts, groups and members it reads through the directory.
type Store struct {
	db  *db.DB
	dir Directory
}

// Directory is what voice reads of the directory (directory.Store has these methods).
type Directory interface {
	Account(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	Accounts(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) ([]directory.Account, error)
	AllTerminals(ctx context.Context, c directory.CustomerID) ([]directory.Account, error)
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
	GroupInfo(ctx context.Context, c directory.CustomerID, gid directory.GroupID) (directory.GroupRef, error)
	Members(ctx context.Context, c directory.CustomerID, gid directory.GroupID) ([]directory.Account, error)
	Audience(ctx context.Context, c directory.CustomerID, gid directory.GroupID) ([]directory.Account, error)
}

// NewStore wraps the store.
func NewStore(d *db.DB, dir Directory) *Store { return &Store{db: d, dir: dir} }

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
func (a Account) Dispatcher() bool { return a.Type == identity.DispatcherType }

// Blocked tells whether a terminal is killed or stunned (it can neither talk nor hear).
func (a Account) Blocked() bool { return a.Status == 0 || a.Status == 1 }

func (a Account) person() Person { return Person{MsID: a.ID, Name: a.Name, Type: a.Type} }

func fromDirectory(a directory.Account) Account {
	return Account{ID: string(a.ID), Customer: int64(a.Customer), Type: a.Type, AcctType: a.AcctType, Name: a.Name,
		Status: a.CallSetStatus, PttGroup: int64(a.TalkGroup)}
}

func fromDirectoryList(list []directory.Account, err error) ([]Account, error) {
	if err != nil {
		return nil, err
	}
	var out []Account
	for _, a := range list {
		out = append(out, fromDirectory(a))
	}
	return out, nil
}

// Account reads one account of a customer; db.ErrNotFound if it is not theirs.
func (s *Store) Account(ctx context.Context, customer int64, id string) (Account, error) {
	a, err := s.dir.Account(ctx, directory.CustomerID(customer), directory.TerminalID(id))
	return fromDirectory(a), err
}

// Accounts reads the given accounts of a customer ordered by id (unknown ids are left out).
func (s *Store) Accounts(ctx context.Context, customer int64, ids []string) ([]Account, error) {
	return fromDirectoryList(s.dir.Accounts(ctx, directory.CustomerID(customer), directory.TerminalIDs(ids)))
}

// Terminals reads every terminal (non-dispatcher account) of a customer: the parties of an all call.
func (s *Store) Terminals(ctx context.Context, customer int64) ([]Account, error) {
	return fromDirectoryList(s.dir.AllTerminals(ctx, directory.CustomerID(customer)))
}

// GroupInfo is a group's name and kind.
type GroupInfo struct {
	ID   int64
	Name string
	Kind string // fixed | temp
}

// Group reads a group of a customer.
func (s *Store) Group(ctx context.Context, customer, gid int64) (GroupInfo, error) {
	g, err := s.dir.GroupInfo(ctx, directory.CustomerID(customer), directory.GroupID(gid))
	return GroupInfo{ID: gid, Name: g.Name, Kind: g.Kind}, err
}

// GroupAudience reads who hears a group call: its members and every account whose ptt group it is.
func (s *Store) GroupAudience(ctx context.Context, customer, gid int64) ([]Account, error) {
	return fromDirectoryList(s.dir.Audience(ctx, directory.CustomerID(customer), directory.GroupID(gid)))
}

// GroupMembers reads the members of a group (a stored temporary group's parties).
func (s *Store) GroupMembers(ctx context.Context, customer, gid int64) ([]Account, error) {
	return fromDirectoryList(s.dir.Members(ctx, directory.CustomerID(customer), directory.GroupID(gid)))
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

func scanRecord(sc db.Scanner) (Record, error) {
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

// RecordedBursts names the bursts of a customer recorded (with a row) between from and to (UTC ms, to
// excluded) as "callId-btime", the name of their files (the orphan sweep's check).
func (s *Store) RecordedBursts(ctx context.Context, customer, from, to int64) (map[string]bool, error) {
	rows, err := s.db.Query(ctx, `SELECT call_id, started_at FROM voice_records
		WHERE customer_id = ? AND started_at >= ? AND started_at < ?`, customer, from, to)
	return db.CollectSet(rows, err, func(sc db.Scanner) (string, error) {
		var id string
		var at int64
		err := sc.Scan(&id, &at)
		return burstKey(id, at), err
	})
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
	f := db.Scope("customer_id", customer).Between("started_at", q.From, q.To).
		If(q.MsID != "", "(talker_id = ? OR peer_ids = ?)", q.MsID, q.MsID).
		If(q.GroupID != 0, "group_id = ?", q.GroupID).
		If(q.Kind != "", "kind = ?", string(q.Kind))
	return db.List(ctx, s.db, db.ListQuery{Select: recordCols, From: "voice_records", Where: f,
		Order: "started_at DESC, id DESC", Offset: q.Offset, Limit: q.Limit}, scanRecord)
}

// CallRecords lists the bursts of one call (btime 0 = all of them), oldest first.
func (s *Store) CallRecords(ctx context.Context, customer int64, callID string, btime int64) ([]Record, error) {
	f := db.Scope("customer_id", customer).Eq("call_id", callID).If(btime != 0, "started_at = ?", btime)
	list, _, err := db.List(ctx, s.db, db.ListQuery{Select: recordCols, From: "voice_records", Where: f,
		Order: "started_at"}, scanRecord)
	return list, err
}

// DeleteOlder removes up to limit records that started before cutoff, calling remove for each file inside
// the transaction: a file that cannot be removed keeps its row, so files and rows go together.
func (s *Store) DeleteOlder(ctx context.Context, cutoff int64, limit int, remove func(path string) error) (int, error) {
	n := 0
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		type old struct {
			id   int64
			path string
		}
		rows, err := tx.Query(ctx, `SELECT id, path FROM voice_records WHERE started_at < ? ORDER BY started_at LIMIT ?`,
			cutoff, limit)
		olds, err := db.Collect(rows, err, func(sc db.Scanner) (old, error) {
			var o old
			err := sc.Scan(&o.id, &o.path)
			return o, err
		})
		if err != nil {
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
		return "", "", db.NotFound(err)
	}
	_, err := s.db.Exec(ctx, `DELETE FROM voice_mutes WHERE id = ? AND customer_id = ?`, id, customer)
	return msID, muteID, err
}

// Mutes lists a customer's entries (msID "" = all listeners) with the names of both accounts; an entry whose
// account is gone is left out.
func (s *Store) Mutes(ctx context.Context, customer int64, msID string) ([]Mute, error) {
	list, _, err := db.List(ctx, s.db, db.ListQuery{Select: "id, ms_id, mute_id", From: "voice_mutes",
		Where: db.Scope("customer_id", customer).If(msID != "", "ms_id = ?", msID), Order: "id"},
		func(sc db.Scanner) (Mute, error) {
			var m Mute
			err := sc.Scan(&m.ID, &m.MsID, &m.MuteID)
			return m, err
		})
	if err != nil {
		return nil, err
	}
	var ids []directory.TerminalID
	for _, m := range list {
		ids = append(ids, directory.TerminalID(m.MsID), directory.TerminalID(m.MuteID))
	}
	names, err := s.dir.Names(ctx, directory.CustomerID(customer), ids)
	if err != nil {
		return nil, err
	}
	out := []Mute{}
	for _, m := range list {
		ms, ok1 := names[directory.TerminalID(m.MsID)]
		mute, ok2 := names[directory.TerminalID(m.MuteID)]
		if ok1 && ok2 {
			m.MsName, m.MuteName = ms, mute
			out = append(out, m)
		}
	}
	return out, nil
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
	return db.Collect(rows, err, func(sc db.Scanner) (Missed, error) {
		var m Missed
		err := sc.Scan(&m.ID, &m.CallID, &m.CalleeID, &m.CallerID, &m.CallerName, &m.Status, &m.Time)
		return m, err
	})
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
