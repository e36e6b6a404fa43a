package sos

import (
	"context"
	"errors"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/timerange"
)

// Store keeps alarm records. Every method takes the customer id and never touches another customer's rows.
type Store struct {
	db  *db.DB
	dir Directory
}

// Directory is what SOS reads of a terminal raising an alarm: its name, type and last position
// (internal/directory's Store).
type Directory interface {
	Account(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
}

// NewStore wraps the database.
func NewStore(d *db.DB, dir Directory) *Store { return &Store{db: d, dir: dir} }

// A row stored before fix times were kept has a NULL fix_at: its position reads as fixed when the alarm was raised.
const alarmCols = `id, ms_id, ms_name, ms_type, type, state, at, lat, lng, COALESCE(fix_at, at), responder_id,
	responder_name, response_at, closer_id, closer_name, close_at, close_kind, remark`

func scanAlarm(r db.Scanner, extra ...any) (Alarm, error) {
	var a Alarm
	var pos db.Position
	dest := append(extra, &a.ID, &a.MsID, &a.MsName, &a.MsType, &a.Type, &a.State, &a.Time, &pos.Lat, &pos.Lng, &a.FixTime,
		&a.Responder, &a.ResponderName, &a.ResponseTime, &a.Closer, &a.CloserName, &a.CloseTime, &a.CloseKind, &a.Remark)
	if err := r.Scan(dest...); err != nil {
		return a, db.NotFound(err)
	}
	a.Lat, a.Lng = pos.Coords()
	return a, nil
}

// NewAlarm is what a terminal raises.
type NewAlarm struct {
	MsID     string
	Type     string
	Lat, Lng *float64 // nil: the terminal's last known position is used
	At       int64    // raised (ms); also when Lat, Lng were fixed
}

// Raise stores a new alarm (state 0) for the terminal and returns it with created = true; when the terminal
// already has an open alarm, that alarm is returned instead (created = false), its position refreshed when the
// request carries one. One open alarm per terminal is also a unique index, so two racing raises cannot both
// insert. The alarm's FixTime is At for a position in n, else the directory's time of the terminal's last fix. The
// row is committed when Raise returns.
func (s *Store) Raise(ctx context.Context, customerID int64, n NewAlarm) (Alarm, bool, error) {
	for attempt := 0; ; attempt++ {
		a, created, err := s.raiseOnce(ctx, customerID, n)
		if db.IsUniqueViolation(err) && attempt == 0 {
			continue // a concurrent raise of the same terminal won; return its alarm
		}
		return a, created, err
	}
}

func (s *Store) raiseOnce(ctx context.Context, customerID int64, n NewAlarm) (Alarm, bool, error) {
	// The terminal is read before the transaction; an unknown one matters only when there is no open alarm.
	acct, aerr := s.dir.Account(ctx, directory.CustomerID(customerID), directory.TerminalID(n.MsID))
	if aerr != nil && !errors.Is(aerr, db.ErrNotFound) {
		return Alarm{}, false, aerr
	}
	var out Alarm
	var created bool
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		open, err := scanAlarm(tx.QueryRow(ctx, `SELECT `+alarmCols+` FROM sos_alarms
			WHERE customer_id = ? AND ms_id = ? AND state < 2`, customerID, n.MsID))
		if err == nil {
			if n.Lat != nil {
				if _, err := tx.Exec(ctx, `UPDATE sos_alarms SET lat = ?, lng = ?, fix_at = ? WHERE id = ?`, *n.Lat, *n.Lng, n.At, open.ID); err != nil {
					return err
				}
				open.Lat, open.Lng, open.FixTime = n.Lat, n.Lng, n.At
			}
			out = open
			return nil
		}
		if !errors.Is(err, db.ErrNotFound) {
			return err
		}
		if aerr != nil {
			return aerr
		}
		a := Alarm{MsID: n.MsID, MsName: acct.Name, MsType: acct.Type, Type: n.Type, State: Sending, Time: n.At,
			Lat: n.Lat, Lng: n.Lng, FixTime: n.At}
		if a.Lat == nil {
			// The last known position keeps its own time: a phone with location denied may have fixed it hours ago.
			a.Lat, a.Lng, a.FixTime = acct.Lat, acct.Lng, acct.LastGps
			if a.Lat == nil {
				a.FixTime = 0
			}
		}
		if err := tx.QueryRow(ctx, `INSERT INTO sos_alarms (customer_id, ms_id, ms_name, ms_type, type, state, at, lat, lng, fix_at)
			VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?) RETURNING id`,
			customerID, a.MsID, a.MsName, a.MsType, a.Type, a.Time, nullable(a.Lat), nullable(a.Lng), a.FixTime).Scan(&a.ID); err != nil {
			return err
		}
		out, created = a, true
		return nil
	})
	return out, created, err
}

func nullable(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// Get returns one alarm of the customer.
func (s *Store) Get(ctx context.Context, customerID int64, id AlarmID) (Alarm, error) {
	return scanAlarm(s.db.QueryRow(ctx, `SELECT `+alarmCols+` FROM sos_alarms WHERE id = ? AND customer_id = ?`, id, customerID))
}

// OpenOf returns the terminal's open alarm, or db.ErrNotFound.
func (s *Store) OpenOf(ctx context.Context, customerID int64, msID string) (Alarm, error) {
	return scanAlarm(s.db.QueryRow(ctx, `SELECT `+alarmCols+` FROM sos_alarms WHERE customer_id = ? AND ms_id = ? AND state < 2`,
		customerID, msID))
}

// Actor is who changes an alarm.
type Actor struct{ ID, Name string }

// Acknowledge moves a sending alarm to acknowledged. db.ErrNotFound for an unknown (or foreign) id,
// ErrTransition when the alarm is no longer in state 0.
func (s *Store) Acknowledge(ctx context.Context, customerID int64, id AlarmID, by Actor, at int64) (Alarm, error) {
	return s.transition(ctx, customerID, id, Acknowledged, `state = 1, responder_id = ?, responder_name = ?, response_at = ?`,
		[]any{by.ID, by.Name, at}, "state = 0")
}

// Close moves an open alarm to closed. An alarm a dispatcher closes without acknowledging it first gets the
// closer as its responder, so every alarm a dispatcher handled has a response time; a terminal's own cancel
// does not count as a response.
func (s *Store) Close(ctx context.Context, customerID int64, id AlarmID, by Actor, kind, remark string, at int64) (Alarm, error) {
	set := `state = 2, closer_id = ?, closer_name = ?, close_at = ?, close_kind = ?, remark = ?`
	args := []any{by.ID, by.Name, at, kind, remark}
	if kind != ClosedByTerminal {
		set += `, responder_id = CASE WHEN response_at = 0 THEN ? ELSE responder_id END,
		responder_name = CASE WHEN response_at = 0 THEN ? ELSE responder_name END,
		response_at = CASE WHEN response_at = 0 THEN ? ELSE response_at END`
		args = append(args, by.ID, by.Name, at)
	}
	return s.transition(ctx, customerID, id, Closed, set, args, "state < 2")
}

func (s *Store) transition(ctx context.Context, customerID int64, id AlarmID, to State, set string, args []any, from string) (Alarm, error) {
	var out Alarm
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		changed := db.OneRow(tx.Exec(ctx, `UPDATE sos_alarms SET `+set+` WHERE id = ? AND customer_id = ? AND `+from,
			append(args, id, customerID)...))
		if changed != nil && !errors.Is(changed, db.ErrNotFound) {
			return changed
		}
		// Read back either way: when nothing changed, an unknown alarm is db.ErrNotFound (from the read) and a
		// known one was in another state.
		var err error
		out, err = scanAlarm(tx.QueryRow(ctx, `SELECT `+alarmCols+` FROM sos_alarms WHERE id = ? AND customer_id = ?`, id, customerID))
		if err == nil && changed != nil {
			err = ErrTransition
		}
		return err
	})
	return out, err
}

// Query filters Find.
type Query struct {
	Range  *timerange.Range // nil = any time
	MsIDs  []string
	States []State
	Type   string
	Offset int
	Limit  int
}

// Find returns the customer's alarms newest first, and the total count of matches.
func (s *Store) Find(ctx context.Context, customerID int64, q Query) ([]Alarm, int, error) {
	f := db.Scope("customer_id", customerID).If(q.Type != "", "type = ?", q.Type)
	if q.Range != nil {
		f.Between("at", q.Range.From, q.Range.To)
	}
	if len(q.MsIDs) > 0 {
		f.In("ms_id", db.Args(q.MsIDs))
	}
	if len(q.States) > 0 {
		f.In("state", db.Args(q.States))
	}
	if q.Limit <= 0 {
		q.Limit = 1000
	}
	return db.List(ctx, s.db, db.ListQuery{Select: alarmCols, From: "sos_alarms", Where: f, Order: "at DESC, id DESC",
		Offset: q.Offset, Limit: q.Limit}, func(r db.Scanner) (Alarm, error) { return scanAlarm(r) })
}

// Owned is an alarm with its customer, for the background re-alert pass that spans customers.
type Owned struct {
	CustomerID int64
	Alarm
}

// Unacknowledged returns every alarm still in state 0, of every customer.
func (s *Store) Unacknowledged(ctx context.Context) ([]Owned, error) {
	return s.owned(ctx, `state = 0`)
}

// OpenAll returns every open alarm (state 0 or 1) of every customer.
func (s *Store) OpenAll(ctx context.Context) ([]Owned, error) {
	return s.owned(ctx, `state < 2`)
}

func (s *Store) owned(ctx context.Context, cond string) ([]Owned, error) {
	rows, err := s.db.Query(ctx, `SELECT customer_id, `+alarmCols+` FROM sos_alarms WHERE `+cond+` ORDER BY id`)
	return db.Collect(rows, err, func(r db.Scanner) (Owned, error) {
		var o Owned
		a, err := scanAlarm(r, &o.CustomerID)
		o.Alarm = a
		return o, err
	})
}
