package job

import (
	"context"
	"database/sql"
	"errors"

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

const jobCols = `j.id, j.customer_id, j.job, j.address, j.lat, j.lng, j.creator_id, j.creator_name, j.created_at`

const ticketCols = `t.job_id, t.ms_id, t.state, t.reason, t.remark, t.delivered_at, t.accepted_at, t.started_at,
	t.ended_at, t.updated_at`

func scanJob(r db.Scanner) (Job, error) {
	var j Job
	var pos db.Position
	if err := r.Scan(&j.JobID, &j.customerID, &j.Job, &j.Address, &pos.Lat, &pos.Lng, &j.Creator, &j.CreatorName, &j.SendTime); err != nil {
		return Job{}, err
	}
	j.Lat, j.Lng = pos.Coords()
	j.JobMsList = []Ticket{}
	return j, nil
}

// jobs reads a list of jobs (l's Where, Order and page over `jobs j`) with their tickets and the terminals'
// names, and the number of jobs the filter matches.
func (s *Store) jobs(ctx context.Context, l db.ListQuery) ([]Job, int, error) {
	l.Select, l.From = jobCols, `jobs j`
	out, total, err := db.List(ctx, s.db, l, scanJob)
	if err != nil {
		return nil, 0, err
	}
	return out, total, s.tickets(ctx, out)
}

// tickets fills the jobs' tickets, the terminals' names and each job's status.
func (s *Store) tickets(ctx context.Context, out []Job) error {
	if len(out) == 0 {
		return nil
	}
	index := map[ID]int{}
	ids := make([]ID, len(out))
	for i, j := range out {
		index[j.JobID] = i
		ids[i] = j.JobID
	}
	type row struct {
		job ID
		Ticket
	}
	tickets, _, err := db.List(ctx, s.db, db.ListQuery{Select: ticketCols, From: `job_tickets t`,
		Where: new(db.Filter).In("t.job_id", db.Args(ids)), Order: `t.job_id, t.ms_id`}, func(r db.Scanner) (row, error) {
		var t row
		err := r.Scan(&t.job, &t.MsID, &t.State, &t.Reason, &t.Remark, &t.DispatchAt, &t.AcceptTime, &t.StartTime,
			&t.EndTime, &t.UpdateTime)
		t.Delivered = t.DispatchAt != 0
		return t, err
	})
	if err != nil {
		return err
	}
	names := map[int64][]string{}
	for _, t := range tickets {
		j := &out[index[t.job]]
		j.JobMsList = append(j.JobMsList, t.Ticket)
		names[j.customerID] = append(names[j.customerID], t.MsID)
	}
	for c, ms := range names {
		nm, err := s.dir.Names(ctx, directory.CustomerID(c), directory.TerminalIDs(ms))
		if err != nil {
			return err
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
	return nil
}

// Get returns one job of the customer.
func (s *Store) Get(ctx context.Context, customerID int64, id ID) (Job, error) {
	list, _, err := s.jobs(ctx, db.ListQuery{Where: db.Scope("j.customer_id", customerID).Eq("j.id", id), Order: `j.id`})
	return db.First(list, err)
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

// actionCols are the columns an action writes besides the state: when it happened and, for a rejection or a
// completion, the worker's words.
var actionCols = map[Action]struct{ at, words string }{
	Accept:   {at: "accepted_at"},
	Reject:   {at: "accepted_at", words: "reason"},
	Start:    {at: "started_at"},
	Complete: {at: "ended_at", words: "remark"},
}

// Act applies a worker's action to the terminal's ticket of a job: the state machine decides (ErrTransition),
// the change and its history entry are stored in one transaction, and a concurrent change of the same ticket
// makes this one fail rather than overwrite it. A job without a ticket of the terminal is "404".
func (s *Store) Act(ctx context.Context, customerID int64, id ID, msID string, a Action, reason, remark, byName string, now int64) (Job, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var cur State
		if err := tx.QueryRow(ctx, `SELECT state FROM job_tickets WHERE job_id = ? AND ms_id = ? AND customer_id = ?`,
			id, msID, customerID).Scan(&cur); err != nil {
			return db.NotFound(err)
		}
		to, err := Next(cur, a)
		if err != nil {
			return err
		}
		note := reason
		if a == Complete {
			note = remark
		}
		col := actionCols[a]
		// Received or not, a ticket its worker acts on has reached the terminal.
		set := "state = ?, updated_at = ?, " + col.at + " = ?, delivered_at = CASE WHEN delivered_at = 0 THEN ? ELSE delivered_at END"
		args := []any{int(to), now, now, now}
		if col.words != "" {
			set += ", " + col.words + " = ?"
			args = append(args, note)
		}
		// A ticket changed since it was read is not there in state cur any more: this action came too late.
		err = db.OneRow(tx.Exec(ctx, `UPDATE job_tickets SET `+set+` WHERE job_id = ? AND ms_id = ? AND state = ?`,
			append(args, id, msID, int(cur))...))
		if errors.Is(err, db.ErrNotFound) {
			return ErrTransition
		}
		if err != nil {
			return err
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
		err := db.OneRow(tx.Exec(ctx, `UPDATE job_tickets SET delivered_at = ?, updated_at = ? WHERE job_id = ? AND ms_id = ?
			AND customer_id = ? AND delivered_at = 0`, now, now, id, msID, customerID))
		if errors.Is(err, db.ErrNotFound) {
			return nil // acknowledged before (or no such ticket): nothing to record
		}
		if err != nil {
			return err
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
	list, _, err := s.jobs(ctx, db.ListQuery{Where: db.Where(`j.id IN (SELECT job_id FROM job_tickets WHERE ms_id = ?
		AND customer_id = ? AND delivered_at = 0 AND job_id > ?)`, msID, customerID, after), Order: `j.id`, Limit: limit})
	return list, err
}

// OfTerminal lists the terminal's tickets that are open, or were settled at or after since, oldest first.
func (s *Store) OfTerminal(ctx context.Context, customerID int64, msID string, since int64) ([]Job, error) {
	list, _, err := s.jobs(ctx, db.ListQuery{Where: db.Where(`j.id IN (SELECT job_id FROM job_tickets WHERE ms_id = ?
		AND customer_id = ? AND (state IN (0, 1, 3) OR updated_at >= ?))`, msID, customerID, since), Order: `j.id`})
	return list, err
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
			if err := db.OneRow(tx.Exec(ctx, `DELETE FROM job_tickets WHERE job_id = ? AND ms_id = ? AND customer_id = ?`, id, msID, customerID)); err != nil {
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
	f := db.Scope("j.customer_id", customerID).If(q.JobID != 0, "j.id = ?", q.JobID)
	if len(q.MsIDs) > 0 || len(q.States) > 0 {
		// A job matches when one ticket matches both lists.
		t := db.Where("t.job_id = j.id").OptIn("t.ms_id", db.Args(q.MsIDs)).OptIn("t.state", db.Args(q.States))
		f.And("EXISTS (SELECT 1 FROM job_tickets t WHERE "+t.Cond()+")", t.Args()...)
	}
	f.Contains(q.Keyword, "j.job", "j.address").If(q.Creator != "", "j.creator_id = ?", q.Creator)
	if q.Range != nil {
		f.Between("j.created_at", q.Range.From, q.Range.To)
	}
	if q.Limit <= 0 {
		q.Limit = DefPageSize
	}
	return s.jobs(ctx, db.ListQuery{Where: f, Order: `j.created_at DESC, j.id DESC`, Offset: q.Offset, Limit: q.Limit})
}

// History returns the changes of a job's tickets (of one terminal when msID is set), oldest first.
func (s *Store) History(ctx context.Context, customerID int64, id ID, msID string) ([]HistoryEntry, error) {
	if _, err := s.Get(ctx, customerID, id); err != nil {
		return nil, err
	}
	f := db.Scope("customer_id", customerID).Eq("job_id", id).If(msID != "", "ms_id = ?", msID)
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: `id, job_id, ms_id, action, state, reason, by_id, by_name, at`,
		From: `job_history`, Where: f, Order: `at, id`}, func(r db.Scanner) (HistoryEntry, error) {
		var h HistoryEntry
		err := r.Scan(&h.ID, &h.JobID, &h.MsID, &h.Action, &h.State, &h.Reason, &h.By, &h.ByName, &h.Time)
		return h, err
	})
	return out, err
}

// Report counts the customer's tickets by terminal and state, for jobs sent within rg (of msIDs when set),
// ordered by terminal.
func (s *Store) Report(ctx context.Context, customerID int64, msIDs []string, rg timerange.Range) ([]ReportRow, error) {
	f := db.Scope("t.customer_id", customerID).Between("j.created_at", rg.From, rg.To).OptIn("t.ms_id", db.Args(msIDs))
	type count struct {
		ms string
		st State
		n  int
	}
	rows, err := s.db.Query(ctx, `SELECT t.ms_id, t.state, COUNT(*) FROM job_tickets t JOIN jobs j ON j.id = t.job_id
		WHERE `+f.Cond()+` GROUP BY t.ms_id, t.state ORDER BY t.ms_id`, f.Args()...)
	counts, err := db.Collect(rows, err, func(r db.Scanner) (count, error) {
		var c count
		err := r.Scan(&c.ms, &c.st, &c.n)
		return c, err
	})
	if err != nil {
		return nil, err
	}
	out := []ReportRow{}
	for _, c := range counts {
		if len(out) == 0 || out[len(out)-1].MsID != c.ms {
			out = append(out, ReportRow{MsID: c.ms})
		}
		out[len(out)-1].add(c.st, c.n)
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
