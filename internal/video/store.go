package video

import (
	"context"
	"database/sql"
	"errors"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
)

// Store is the video domain's SQL (video_limits, video_sessions); accounts are read through the directory.
type Store struct {
	db  *db.DB
	dir Directory
}

// Directory is what video reads of the directory (directory.Store has it).
type Directory interface {
	Account(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
}

// NewStore wraps the database.
func NewStore(d *db.DB, dir Directory) *Store { return &Store{db: d, dir: dir} }

// Account is what video needs to know of an account.
type Account struct {
	ID       string
	Customer int64
	Type     string
	Name     string
	Status   int // call-set status: 0 killed, 1 stunned
}

// Dispatcher tells a console account from a terminal.
func (a Account) Dispatcher() bool { return a.Type == identity.DispatcherType }

// Blocked tells whether a terminal is killed or stunned.
func (a Account) Blocked() bool { return a.Status == 0 || a.Status == 1 }

func (a Account) person() Person { return Person{MsID: a.ID, Name: a.Name, Type: a.Type} }

// Account reads an account of the customer (db.ErrNotFound when it is none of its).
func (s *Store) Account(ctx context.Context, customer int64, id string) (Account, error) {
	a, err := s.dir.Account(ctx, directory.CustomerID(customer), directory.TerminalID(id))
	if err != nil {
		return Account{}, err
	}
	return Account{ID: string(a.ID), Customer: int64(a.Customer), Type: a.Type, Name: a.Name, Status: a.CallSetStatus}, nil
}

// Limits reads a customer's limits (the defaults when it has no row).
func (s *Store) Limits(ctx context.Context, customer int64) (Limits, error) {
	l := DefaultLimits
	var rec int
	err := s.db.QueryRow(ctx, `SELECT max_calls, max_monitors, max_duration_s, credit_ms, record FROM video_limits
		WHERE customer_id = ?`, customer).Scan(&l.MaxCalls, &l.MaxMonitors, &l.MaxDuration, &l.CreditMs, &rec)
	l.Record = rec == 1
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultLimits, nil
	}
	return l, err
}

// SetLimits stores a customer's limits (the operator's: tenfour admin video-limits, the demo, tests).
func (s *Store) SetLimits(ctx context.Context, customer int64, l Limits, at int64) error {
	rec := 0
	if l.Record {
		rec = 1
	}
	_, err := s.db.Exec(ctx, `INSERT INTO video_limits (customer_id, max_calls, max_monitors, max_duration_s, credit_ms,
		record, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (customer_id) DO UPDATE SET max_calls = excluded.max_calls,
		max_monitors = excluded.max_monitors, max_duration_s = excluded.max_duration_s, credit_ms = excluded.credit_ms,
		record = excluded.record, updated_at = excluded.updated_at`, customer, l.MaxCalls, l.MaxMonitors, l.MaxDuration,
		l.CreditMs, rec, at)
	return err
}

// Record is one ended session (a row of video_sessions).
type Record struct {
	ID         int64  `json:"id"`
	CallID     string `json:"callId"`
	Kind       string `json:"kind"`
	CallerID   string `json:"callerId"`
	CallerName string `json:"callerName"`
	CalleeID   string `json:"calleeId"`
	CalleeName string `json:"calleeName"`
	Codec      string `json:"codec"`
	Started    int64  `json:"started"`
	Connected  int64  `json:"connected"`
	Ended      int64  `json:"ended"`
	DurationMs int64  `json:"durationMs"`
	Status     int    `json:"status"`
	EndedBy    string `json:"endedBy"`
	customer   int64
}

// AddRecord stores an ended session and, for a call with limited credit, spends its connected time, in one
// transaction (the credit never goes below 0).
func (s *Store) AddRecord(ctx context.Context, r Record) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO video_sessions (customer_id, call_id, kind, caller_id, caller_name,
			callee_id, callee_name, codec, started_at, connected_at, ended_at, duration_ms, status, ended_by)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.customer, r.CallID, r.Kind, r.CallerID, r.CallerName,
			r.CalleeID, r.CalleeName, r.Codec, r.Started, r.Connected, r.Ended, r.DurationMs, r.Status, r.EndedBy); err != nil {
			return err
		}
		if r.Kind != KindCall || r.DurationMs <= 0 {
			return nil
		}
		_, err := tx.Exec(ctx, `UPDATE video_limits SET credit_ms = CASE WHEN credit_ms > ? THEN credit_ms - ? ELSE 0 END
			WHERE customer_id = ? AND credit_ms >= 0`, r.DurationMs, r.DurationMs, r.customer)
		return err
	})
}

// Records lists a customer's ended sessions between from and to (UTC ms, by start), newest first.
func (s *Store) Records(ctx context.Context, customer, from, to int64, msID string, limit int) ([]Record, error) {
	f := db.Scope("customer_id", customer).Between("started_at", from, to).
		If(msID != "", "(caller_id = ? OR callee_id = ?)", msID, msID)
	rows, err := s.db.Query(ctx, `SELECT id, call_id, kind, caller_id, caller_name, callee_id, callee_name, codec,
		started_at, connected_at, ended_at, duration_ms, status, ended_by FROM video_sessions WHERE `+f.Cond()+
		` ORDER BY started_at DESC, id DESC LIMIT ?`, append(f.Args(), limit)...)
	return db.Collect(rows, err, func(sc db.Scanner) (Record, error) {
		var r Record
		err := sc.Scan(&r.ID, &r.CallID, &r.Kind, &r.CallerID, &r.CallerName, &r.CalleeID, &r.CalleeName, &r.Codec,
			&r.Started, &r.Connected, &r.Ended, &r.DurationMs, &r.Status, &r.EndedBy)
		return r, err
	})
}
