package job

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/timerange"
)

// Directory is what job tickets read of terminals (internal/directory's Store).
type Directory interface {
	CheckTerminal(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
}

// Store keeps jobs, their tickets and their history. Every method scoped to a customer takes its id and never
// reads or writes another customer's rows: an id of another customer is db.ErrNotFound.
type Store struct {
	db  *db.DB
	dir Directory
}

// NewStore wraps the database.
func NewStore(d *db.DB, dir Directory) *Store { return &Store{db: d, dir: dir} }

// Input is a checked new job.
type Input struct {
	Job      string
	Address  string
	Lat, Lng *float64
	MsIDs    []string
}

type querier interface {
	Query(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

const jobCols = `j.id, j.customer_id, j.job, j.address, j.lat, j.lng, j.creator_id, j.creator_name, j.created_at`

const ticketCols = `t.job_id, t.ms_id, t.state, t.reason, t.remark, t.delivered_at, t.accepted_at, t.started_at,
	t.ended_at, t.updated_at`

// jobs reads the jobs of cond (over `jobs j`), with their tickets and the terminals' names.
func (s *Store) jobs(ctx context.Context, q querier, cond string, args ...any) ([]Job, error) {
	rows, err := q.Query(ctx, `SELECT `+jobCols+` FROM jobs j WHERE `+cond, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Job{}
	index := map[ID]int{}
	for rows.Next() {
		var j Job
		var lat, lng sql.NullFloat64
		if err := rows.Scan(&j.JobID, &j.customerID, &j.Job, &j.Address, &lat, &lng, &j.Creator, &j.CreatorName, &j.SendTime); err != nil {
			return nil, err
		}
		if lat.Valid && lng.Valid {
			j.Lat, j.Lng = &lat.Float64, &lng.Float64
		}
		j.JobMsList = []Ticket{}
		index[j.JobID] = len(out)
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if len(out) == 0 {
		return out, nil
	}
	ids := make([]any, 0, len(out))
	for _, j := range out {
		ids = append(ids, j.JobID)
	}
	trows, err := q.Query(ctx, `SELECT `+ticketCols+` FROM job_tickets t WHERE t.job_id IN (`+db.Placeholders(len(ids))+`)
		ORDER BY t.job_id, t.ms_id`, ids...)
	if err != nil {
		return nil, err
	}
	defer trows.Close()
	names := map[int64][]string{}
	for trows.Next() {
		var jid ID
		var t Ticket
		if err := trows.Scan(&jid, &t.MsID, &t.State, &t.Reason, &t.Remark, &t.DispatchAt, &t.AcceptTime, &t.StartTime,
			&t.EndTime, &t.UpdateTime); err != nil {
			return nil, err
		}
		t.Delivered = t.DispatchAt != 0
		j := &out[index[jid]]
		j.JobMsList = append(j.JobMsList, t)
		names[j.customerID] = append(names[j.customerID], t.MsID)
	}
	if err := trows.Err(); err != nil {
		return nil, err
	}
	for c, ms := range names {
		nm, err := s.dir.Names(ctx, directory.CustomerID(c), directory.TerminalIDs(ms))
		if err != nil {
			return nil, err
		}
		for i := range out {
			if out[i].customerID != c {
				continue
			}
			for k := range out[i].JobMsList {
				out[i].JobMsList[k].MsName = nm[directory.TerminalID(out[i].JobMsList[k].MsID)]
			}
		}
	}
	for i := range out {
		out[i].Status = Status(out[i].JobMsList)
	}
	return out, nil
}

// Get returns one job of the customer.
func (s *Store) Get(ctx context.Context, customerID int64, id ID) (Job, error) {
	list, err := s.jobs(ctx, s.db, `j.id = ? AND j.customer_id = ?`, id, customerID)
	if err == nil && len(list) == 0 {
		err = db.ErrNotFound
	}
	if err != nil {
		return Job{}, err
	}
	return list[0], nil
}

// Create stores a job and one unsettled ticket per terminal, all or none. Unknown terminals (or another
// customer's, or dispatchers) are "404".
func (s *Store) Create(ctx context.Context, customerID int64, in Input, by, byName string, now int64) (Job, error) {
	for _, ms := range in.MsIDs {
		if _, err := s.dir.CheckTerminal(ctx, directory.CustomerID(customerID), directory.TerminalID(ms)); err != nil {
			if errors.Is(err, db.ErrNotFound) {
				return Job{}, httpx.ErrNotFound
			}
			return Job{}, err
		}
	}
	var id ID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO jobs (customer_id, job, address, lat, lng, creator_id, creator_name, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, customerID, in.Job, in.Address, in.Lat, in.Lng, by, byName, now).Scan(&id); err != nil {
			return err
		}
		for _, ms := range in.MsIDs {
			if _, err := tx.Exec(ctx, `INSERT INTO job_tickets (job_id, customer_id, ms_id, state, updated_at) VALUES (?, ?, ?, 0, ?)`,
				id, customerID, ms, now); err != nil {
				return err
			}
			if err := history(ctx, tx, customerID, id, ms, actCreated, Unsettled, "", by, byName, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Job{}, err
	}
	return s.Get(ctx, customerID, id)
}

func history(ctx context.Context, tx *db.Tx, customerID int64, id ID, msID, action string, st State, reason, by, byName string, at int64) error {
	_, err := tx.Exec(ctx, `INSERT INTO job_history (job_id, customer_id, ms_id, action, state, reason, by_id, by_name, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, customerID, msID, action, int(st), reason, by, byName, at)
	return err
}

// Act applies a worker's action to the terminal's ticket of a job: the state machine decides (ErrTransition),
// the change and its history entry are stored in one transaction, and a concurrent change of the same ticket
// makes this one fail rather than overwrite it. A job without a ticket of the terminal is "404".
func (s *Store) Act(ctx context.Context, customerID int64, id ID, msID string, a Action, reason, remark, byName string, now int64) (Job, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var cur State
		if err := tx.QueryRow(ctx, `SELECT state FROM job_tickets WHERE job_id = ? AND ms_id = ? AND customer_id = ?`,
			id, msID, customerID).Scan(&cur); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return db.ErrNotFound
			}
			return err
		}
		to, err := Next(cur, a)
		if err != nil {
			return err
		}
		set := "state = ?, updated_at = ?"
		args := []any{int(to), now}
		switch a {
		case Accept:
			set += ", accepted_at = ?"
			args = append(args, now)
		case Reject:
			set += ", accepted_at = ?, reason = ?"
			args = append(args, now, reason)
		case Start:
			set += ", started_at = ?"
			args = append(args, now)
		case Complete:
			set += ", ended_at = ?, remark = ?"
			args = append(args, now, remark)
		}
		// Received or not, a ticket its worker acts on has reached the terminal.
		set += ", delivered_at = CASE WHEN delivered_at = 0 THEN ? ELSE delivered_at END"
		args = append(args, now)
		res, err := tx.Exec(ctx, `UPDATE job_tickets SET `+set+` WHERE job_id = ? AND ms_id = ? AND state = ?`,
			append(args, id, msID, int(cur))...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrTransition
		}
		note := reason
		if a == Complete {
			note = remark
		}
		return history(ctx, tx, customerID, id, msID, pastTense(a), to, note, msID, byName, now)
	})
	if err != nil {
		return Job{}, err
	}
	return s.Get(ctx, customerID, id)
}

// MarkDelivered records that the terminal acknowledged its ticket; first tells whether this was the first
// acknowledgement (a repeat changes nothing).
func (s *Store) MarkDelivered(ctx context.Context, customerID int64, id ID, msID, byName string, now int64) (first bool, err error) {
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE job_tickets SET delivered_at = ?, updated_at = ? WHERE job_id = ? AND ms_id = ?
			AND customer_id = ? AND delivered_at = 0`, now, now, id, msID, customerID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		first = true
		var st State
		if err := tx.QueryRow(ctx, `SELECT state FROM job_tickets WHERE job_id = ? AND ms_id = ?`, id, msID).Scan(&st); err != nil {
			return err
		}
		return history(ctx, tx, customerID, id, msID, actDelivered, st, "", msID, byName, now)
	})
	return first, err
}

// Delivered tells whether the terminal acknowledged its ticket of the job (a deleted ticket counts as delivered:
// there is nothing left to deliver).
func (s *Store) Delivered(ctx context.Context, id ID, msID string) (bool, error) {
	var at int64
	err := s.db.QueryRow(ctx, `SELECT delivered_at FROM job_tickets WHERE job_id = ? AND ms_id = ?`, id, msID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return true, nil
	}
	return at != 0, err
}

// Pending lists the jobs (ids above after, oldest first) whose ticket for the terminal it has not acknowledged.
func (s *Store) Pending(ctx context.Context, customerID int64, msID string, after ID, limit int) ([]Job, error) {
	return s.jobs(ctx, s.db, `j.id IN (SELECT job_id FROM job_tickets WHERE ms_id = ? AND customer_id = ? AND delivered_at = 0
		AND job_id > ?) ORDER BY j.id LIMIT ?`, msID, customerID, after, limit)
}

// OfTerminal lists the terminal's tickets that are open, or were settled at or after since, oldest first.
func (s *Store) OfTerminal(ctx context.Context, customerID int64, msID string, since int64) ([]Job, error) {
	return s.jobs(ctx, s.db, `j.id IN (SELECT job_id FROM job_tickets WHERE ms_id = ? AND customer_id = ?
		AND (state IN (0, 1, 3) OR updated_at >= ?)) ORDER BY j.id`, msID, customerID, since)
}

// Delete removes a job (msID "") or one terminal's ticket of it; a job whose last ticket goes is removed with
// it. It returns the job as it was.
func (s *Store) Delete(ctx context.Context, customerID int64, id ID, msID string) (Job, error) {
	before, err := s.Get(ctx, customerID, id)
	if err != nil {
		return Job{}, err
	}
	if msID != "" {
		if _, ok := before.For(msID); !ok {
			return Job{}, db.ErrNotFound
		}
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if msID != "" {
			if _, err := tx.Exec(ctx, `DELETE FROM job_tickets WHERE job_id = ? AND ms_id = ? AND customer_id = ?`, id, msID, customerID); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM job_history WHERE job_id = ? AND ms_id = ?`, id, msID); err != nil {
				return err
			}
		}
		q := `DELETE FROM jobs WHERE id = ? AND customer_id = ?`
		if msID != "" {
			q += ` AND NOT EXISTS (SELECT 1 FROM job_tickets t WHERE t.job_id = jobs.id)`
		}
		_, err := tx.Exec(ctx, q, id, customerID)
		return err
	})
	return before, err
}

// ListQuery filters List. A job matches MsIDs and States when one of its tickets matches both.
type ListQuery struct {
	JobID   ID
	MsIDs   []string
	States  []State
	Keyword string // in the task or the address
	Creator string
	Range   *timerange.Range // sending time
	Offset  int
	Limit   int
}

// List returns the customer's jobs, newest first, and the total count.
func (s *Store) List(ctx context.Context, customerID int64, q ListQuery) ([]Job, int, error) {
	where := []string{"j.customer_id = ?"}
	args := []any{customerID}
	if q.JobID != 0 {
		where = append(where, "j.id = ?")
		args = append(args, q.JobID)
	}
	if len(q.MsIDs) > 0 || len(q.States) > 0 {
		sub := []string{"t.job_id = j.id"}
		if len(q.MsIDs) > 0 {
			sub = append(sub, "t.ms_id IN ("+db.Placeholders(len(q.MsIDs))+")")
			for _, m := range q.MsIDs {
				args = append(args, m)
			}
		}
		if len(q.States) > 0 {
			sub = append(sub, "t.state IN ("+db.Placeholders(len(q.States))+")")
			for _, st := range q.States {
				args = append(args, int(st))
			}
		}
		where = append(where, "EXISTS (SELECT 1 FROM job_tickets t WHERE "+strings.Join(sub, " AND ")+")")
	}
	if q.Keyword != "" {
		like := "%" + likeEscape(strings.ToLower(q.Keyword)) + "%"
		where = append(where, `(LOWER(j.job) LIKE ? ESCAPE '\' OR LOWER(j.address) LIKE ? ESCAPE '\')`)
		args = append(args, like, like)
	}
	if q.Creator != "" {
		where = append(where, "j.creator_id = ?")
		args = append(args, q.Creator)
	}
	if q.Range != nil {
		where = append(where, "j.created_at >= ? AND j.created_at <= ?")
		args = append(args, q.Range.From, q.Range.To)
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM jobs j WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if q.Limit <= 0 {
		q.Limit = DefPageSize
	}
	list, err := s.jobs(ctx, s.db, cond+` ORDER BY j.created_at DESC, j.id DESC LIMIT ? OFFSET ?`, append(args, q.Limit, q.Offset)...)
	return list, total, err
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// History returns the changes of a job's tickets (of one terminal when msID is set), oldest first.
func (s *Store) History(ctx context.Context, customerID int64, id ID, msID string) ([]HistoryEntry, error) {
	if _, err := s.Get(ctx, customerID, id); err != nil {
		return nil, err
	}
	q := `SELECT id, job_id, ms_id, action, state, reason, by_id, by_name, at FROM job_history WHERE job_id = ? AND customer_id = ?`
	args := []any{id, customerID}
	if msID != "" {
		q += " AND ms_id = ?"
		args = append(args, msID)
	}
	rows, err := s.db.Query(ctx, q+" ORDER BY at, id", args...)
	return db.Collect(rows, err, func(r db.Scanner) (HistoryEntry, error) {
		var h HistoryEntry
		err := r.Scan(&h.ID, &h.JobID, &h.MsID, &h.Action, &h.State, &h.Reason, &h.By, &h.ByName, &h.Time)
		return h, err
	})
}

// Report counts the customer's tickets by terminal and state, for jobs sent within rg (of msIDs when set),
// ordered by terminal.
func (s *Store) Report(ctx context.Context, customerID int64, msIDs []string, rg timerange.Range) ([]ReportRow, error) {
	q := `SELECT t.ms_id, t.state, COUNT(*) FROM job_tickets t JOIN jobs j ON j.id = t.job_id
		WHERE t.customer_id = ? AND j.created_at >= ? AND j.created_at <= ?`
	args := []any{customerID, rg.From, rg.To}
	if len(msIDs) > 0 {
		q += " AND t.ms_id IN (" + db.Placeholders(len(msIDs)) + ")"
		for _, m := range msIDs {
			args = append(args, m)
		}
	}
	rows, err := s.db.Query(ctx, q+" GROUP BY t.ms_id, t.state ORDER BY t.ms_id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []ReportRow{}
	for rows.Next() {
		var ms string
		var st State
		var n int
		if err := rows.Scan(&ms, &st, &n); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].MsID != ms {
			out = append(out, ReportRow{MsID: ms})
		}
		out[len(out)-1].add(st, n)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ids := make([]string, len(out))
	for i, r := range out {
		ids[i] = r.MsID
	}
	if len(ids) > 0 {
		nm, err := s.dir.Names(ctx, directory.CustomerID(customerID), directory.TerminalIDs(ids))
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].MsName = nm[directory.TerminalID(out[i].MsID)]
		}
	}
	return out, nil
}
