package lonework

import (
	"context"
	"errors"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/timerange"
	"tenfour/internal/tenant"
)

// Store keeps plans and their alarms. Every method scoped to a customer takes its id and never touches another
// customer's rows; the engine's methods (Running, SaveRuntime, …) work on ids it read from Running. Terminals,
// their names and their last status are the directory's.
type Store struct {
	db  *db.DB
	dir Directory
}

// Directory is what lone work reads of terminals (internal/directory's Store).
type Directory interface {
	CheckTerminal(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
	LastStatus(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]directory.Status, error)
}

// NewStore wraps the database.
func NewStore(d *db.DB, dir Directory) *Store { return &Store{db: d, dir: dir} }

const planCols = `w.id, w.customer_id, w.ms_id, c.time_zone, w.start_at, w.duration_min, w.interval_min,
	w.countdown_sec, w.enabled, w.status, w.real_start_at, w.real_stop_at, w.alarm_count, w.next_check_at,
	w.deadline_at, w.flags, w.created_by, w.created_at`

const planFrom = `lone_works w JOIN customers c ON c.id = w.customer_id`

func scanPlan(r db.Scanner) (Plan, error) {
	var p Plan
	var tz string
	var enabled bool
	err := r.Scan(&p.ID, &p.customerID, &p.MsID, &tz, &p.STime, &p.Duration, &p.Interval, &p.Countdown,
		&enabled, &p.Status, &p.RealStart, &p.RealStop, &p.AlarmCount, &p.NextCheck, &p.Deadline, &p.flags,
		&p.CreatedBy, &p.CreatedAt)
	if err != nil {
		return p, db.NotFound(err)
	}
	if enabled {
		p.Enabled = 1
	}
	p.ETime = p.end()
	start := time.UnixMilli(p.STime).In(tenant.ZoneOf(tz))
	p.Date, p.Time = start.Format(time.DateOnly), start.Format("15:04")
	return p, nil
}

// plans reads plans and their terminals' names.
func (s *Store) plans(ctx context.Context, cond string, args ...any) ([]Plan, error) {
	rows, err := s.db.Query(ctx, `SELECT `+planCols+` FROM `+planFrom+` WHERE `+cond, args...)
	out, err := db.Collect(rows, err, scanPlan)
	if err != nil {
		return nil, err
	}
	return out, s.named(ctx, out)
}

// byCustomer groups the plans' terminals by customer, for the directory's per-customer reads.
func byCustomer(plans []Plan) map[int64][]string {
	out := map[int64][]string{}
	for _, p := range plans {
		out[p.customerID] = append(out[p.customerID], p.MsID)
	}
	return out
}

// named fills the plans' terminal names from the directory.
func (s *Store) named(ctx context.Context, plans []Plan) error {
	for c, ms := range byCustomer(plans) {
		names, err := s.dir.Names(ctx, directory.CustomerID(c), directory.TerminalIDs(ms))
		if err != nil {
			return err
		}
		for i := range plans {
			if plans[i].customerID == c {
				plans[i].MsName = names[directory.TerminalID(plans[i].MsID)]
			}
		}
	}
	return nil
}

// Get returns one plan of the customer.
func (s *Store) Get(ctx context.Context, customerID int64, id WorkID) (Plan, error) {
	return db.First(s.plans(ctx, `w.id = ? AND w.customer_id = ?`, id, customerID))
}

// overlaps tells whether the terminal has another plan, not over, whose window meets [start, end).
func overlaps(ctx context.Context, tx *db.Tx, customerID int64, msID string, except WorkID, start, end int64) (bool, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM lone_works WHERE customer_id = ? AND ms_id = ? AND id <> ?
		AND real_stop_at = 0 AND start_at < ? AND start_at + duration_min * 60000 > ?`,
		customerID, msID, except, end, start).Scan(&n)
	return n > 0, err
}

// Create stores one plan per terminal, all or none. Unknown terminals (or another customer's, or dispatchers)
// are "404".
func (s *Store) Create(ctx context.Context, customerID int64, msIDs []string, in Input, by string, now int64) ([]Plan, error) {
	for _, ms := range msIDs {
		_, err := s.dir.CheckTerminal(ctx, directory.CustomerID(customerID), directory.TerminalID(ms))
		if errors.Is(err, db.ErrNotFound) {
			return nil, httpx.ErrNotFound
		}
		if err != nil {
			return nil, err
		}
	}
	var ids []WorkID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		end := in.Start + int64(in.Duration)*60000
		for _, ms := range msIDs {
			if clash, err := overlaps(ctx, tx, customerID, ms, 0, in.Start, end); err != nil {
				return err
			} else if clash {
				return ErrOverlap
			}
			var id WorkID
			if err := tx.QueryRow(ctx, `INSERT INTO lone_works (customer_id, ms_id, start_at, duration_min, interval_min,
				countdown_sec, enabled, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				customerID, ms, in.Start, in.Duration, in.Interval, in.Countdown, in.Enabled, by, now).Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Plan, 0, len(ids))
	for _, id := range ids {
		p, err := s.Get(ctx, customerID, id)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Update rewrites a waiting plan's fields; ErrNotEditable once it started, is in alarm or is over.
func (s *Store) Update(ctx context.Context, customerID int64, id WorkID, in Input, now int64) (Plan, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		cur, err := scanPlan(tx.QueryRow(ctx, `SELECT `+planCols+` FROM `+planFrom+` WHERE w.id = ? AND w.customer_id = ?`, id, customerID))
		if err != nil {
			return err
		}
		if !cur.Editable(now) {
			return ErrNotEditable
		}
		if clash, err := overlaps(ctx, tx, customerID, cur.MsID, id, in.Start, in.Start+int64(in.Duration)*60000); err != nil {
			return err
		} else if clash {
			return ErrOverlap
		}
		_, err = tx.Exec(ctx, `UPDATE lone_works SET start_at = ?, duration_min = ?, interval_min = ?, countdown_sec = ?,
			enabled = ? WHERE id = ? AND customer_id = ? AND real_start_at = 0`,
			in.Start, in.Duration, in.Interval, in.Countdown, in.Enabled, id, customerID)
		return err
	})
	if err != nil {
		return Plan{}, err
	}
	return s.Get(ctx, customerID, id)
}

// Delete removes plans, all or none: unknown ids are "404"; plans in progress or in alarm are ErrNotEditable.
// Their alarms stay.
func (s *Store) Delete(ctx context.Context, customerID int64, ids []WorkID, now int64) ([]Plan, error) {
	var gone []Plan
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			p, err := scanPlan(tx.QueryRow(ctx, `SELECT `+planCols+` FROM `+planFrom+` WHERE w.id = ? AND w.customer_id = ?`, id, customerID))
			if err != nil {
				return err
			}
			if p.workState(now) == Working || p.Status == StatusAlarm {
				return ErrNotEditable
			}
			if _, err := tx.Exec(ctx, `DELETE FROM lone_works WHERE id = ? AND customer_id = ?`, id, customerID); err != nil {
				return err
			}
			gone = append(gone, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return gone, s.named(ctx, gone)
}

// ListQuery filters List.
type ListQuery struct {
	MsIDs    []string
	Statuses []Status
	Day      *timerange.Range // plans whose window meets this range
	Offset   int
	Limit    int
}

// List returns the customer's plans, latest start first, and the total count.
func (s *Store) List(ctx context.Context, customerID int64, q ListQuery) ([]Plan, int, error) {
	f := db.Scope("w.customer_id", customerID).OptIn("w.ms_id", db.Args(q.MsIDs)).OptIn("w.status", db.Args(q.Statuses))
	if q.Day != nil {
		f.And("w.start_at <= ? AND w.start_at + w.duration_min * 60000 > ?", q.Day.To, q.Day.From)
	}
	list, total, err := db.List(ctx, s.db, db.ListQuery{Select: planCols, From: planFrom, Where: f,
		Order: "w.start_at DESC, w.id DESC", Offset: q.Offset, Limit: pageLimit(q.Limit)}, scanPlan)
	if err != nil {
		return nil, 0, err
	}
	return list, total, s.named(ctx, list)
}

// pageLimit is a list's page size: a query without one reads at most 1000 rows.
func pageLimit(n int) int {
	if n <= 0 {
		return 1000
	}
	return n
}

// Running returns every enabled plan of every customer that should be running at now (started, not stopped).
func (s *Store) Running(ctx context.Context, now int64) ([]Plan, error) {
	return s.plans(ctx, `w.real_stop_at = 0 AND w.enabled = TRUE AND w.start_at <= ? ORDER BY w.id`, now)
}

// WorkingOf returns the terminal's plans in progress.
func (s *Store) WorkingOf(ctx context.Context, customerID int64, msID string) ([]Plan, error) {
	return s.plans(ctx, `w.customer_id = ? AND w.ms_id = ? AND w.real_start_at <> 0 AND w.real_stop_at = 0 ORDER BY w.id`,
		customerID, msID)
}

// Upcoming returns the terminal's plans not over yet (waiting or in progress).
func (s *Store) Upcoming(ctx context.Context, customerID int64, msID string, now int64) ([]Plan, error) {
	return s.plans(ctx, `w.customer_id = ? AND w.ms_id = ? AND w.real_stop_at = 0
		AND w.start_at + w.duration_min * 60000 > ? ORDER BY w.start_at`, customerID, msID, now)
}

// SaveRuntime writes the engine's fields of a plan (never its status or alarm count, which alarms change).
func (s *Store) SaveRuntime(ctx context.Context, p Plan) error {
	_, err := s.db.Exec(ctx, `UPDATE lone_works SET real_start_at = ?, next_check_at = ?, deadline_at = ?, flags = ? WHERE id = ?`,
		p.RealStart, p.NextCheck, p.Deadline, p.flags, p.ID)
	return err
}

// Finish stops a plan at `at`: status over unless an alarm is still unhandled.
func (s *Store) Finish(ctx context.Context, id WorkID, at int64) error {
	_, err := s.db.Exec(ctx, `UPDATE lone_works SET real_stop_at = ?, next_check_at = 0, deadline_at = 0,
		status = CASE WHEN status = 1 THEN 1 ELSE 2 END WHERE id = ? AND real_stop_at = 0`, at, id)
	return err
}

const alarmCols = `id, work_id, ms_id, ms_name, reason, at, remark, handler_id, handler_name, handled_at`

func scanAlarm(r db.Scanner) (Alarm, error) {
	var a Alarm
	err := r.Scan(&a.ID, &a.WorkID, &a.MsID, &a.MsName, &a.Reason, &a.AlarmTime, &a.Remark, &a.Handler, &a.HandlerName, &a.HandleTime)
	return a, db.NotFound(err)
}

// AddAlarm stores an alarm for a plan and puts the plan in alarm status, in one transaction.
func (s *Store) AddAlarm(ctx context.Context, p Plan, reason Reason, at int64) (Alarm, error) {
	a := Alarm{WorkID: p.ID, MsID: p.MsID, MsName: p.MsName, Reason: reason, AlarmTime: at}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO lone_work_alarms (customer_id, work_id, ms_id, ms_name, reason, at)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, p.customerID, p.ID, p.MsID, p.MsName, int(reason), at).Scan(&a.ID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE lone_works SET status = 1, alarm_count = alarm_count + 1 WHERE id = ?`, p.ID)
		return err
	})
	return a, err
}

// HandleAlarm records a dispatcher's remark on an alarm; when the plan has no unhandled alarm left its status
// returns to normal (or over, when the work has ended). It returns the alarm and the plan's id.
func (s *Store) HandleAlarm(ctx context.Context, customerID int64, id AlarmID, remark, byID, byName string, at int64) (Alarm, error) {
	var a Alarm
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		err := db.OneRow(tx.Exec(ctx, `UPDATE lone_work_alarms SET remark = ?, handler_id = ?, handler_name = ?,
			handled_at = CASE WHEN handled_at = 0 THEN ? ELSE handled_at END WHERE id = ? AND customer_id = ?`,
			remark, byID, byName, at, id, customerID))
		if err != nil {
			return err
		}
		if a, err = scanAlarm(tx.QueryRow(ctx, `SELECT `+alarmCols+` FROM lone_work_alarms WHERE id = ?`, id)); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE lone_works SET status = CASE WHEN real_stop_at <> 0 THEN 2 ELSE 0 END
			WHERE id = ? AND customer_id = ? AND status = 1
			AND NOT EXISTS (SELECT 1 FROM lone_work_alarms x WHERE x.work_id = lone_works.id AND x.handled_at = 0)`,
			a.WorkID, customerID)
		return err
	})
	return a, err
}

// AlarmQuery filters FindAlarms.
type AlarmQuery struct {
	WorkIDs []WorkID
	MsIDs   []string
	Range   *timerange.Range
	Offset  int
	Limit   int
}

// FindAlarms returns the customer's lone-work alarms, newest first, and the total count.
func (s *Store) FindAlarms(ctx context.Context, customerID int64, q AlarmQuery) ([]Alarm, int, error) {
	f := db.Scope("customer_id", customerID).OptIn("work_id", db.Args(q.WorkIDs)).OptIn("ms_id", db.Args(q.MsIDs))
	if q.Range != nil {
		f.Between("at", q.Range.From, q.Range.To)
	}
	return db.List(ctx, s.db, db.ListQuery{Select: alarmCols, From: "lone_work_alarms", Where: f,
		Order: "at DESC, id DESC", Offset: q.Offset, Limit: pageLimit(q.Limit)}, scanAlarm)
}

// TermState is what the engine reads of a terminal: battery percent and signal 0..5 (-1 unknown).
type TermState struct{ Battery, Signal int }

// Terminals reads battery and signal of the customer's terminals among msIDs.
func (s *Store) Terminals(ctx context.Context, customerID int64, msIDs []string) (map[string]TermState, error) {
	last, err := s.dir.LastStatus(ctx, directory.CustomerID(customerID), directory.TerminalIDs(msIDs))
	if err != nil {
		return nil, err
	}
	out := make(map[string]TermState, len(last))
	for id, st := range last {
		out[string(id)] = TermState{Battery: st.Battery, Signal: st.Signal}
	}
	return out, nil
}
