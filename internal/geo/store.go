package geo

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
)

// Store is the geo domain's SQL; what it reads and writes of accounts and groups goes through the directory.
// Every method takes the customer id and never reads or writes another customer's rows: an id of another
// customer is db.ErrNotFound.
type Store struct {
	db  *db.DB
	dir Directory
}

// Directory is what geo reads and writes of the directory (directory.Store has these methods).
type Directory interface {
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
	SetIcon(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID, avatar, mapIcon string) error
	SetGroupColor(ctx context.Context, c directory.CustomerID, gid directory.GroupID, color string) error
	LastStates(ctx context.Context) ([]directory.LastState, error)
	SyncLast(ctx context.Context, list []directory.LastReport) error
}

// NewStore wraps the database.
func NewStore(d *db.DB, dir Directory) *Store { return &Store{db: d, dir: dir} }

type querier interface {
	Query(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRow(ctx context.Context, q string, args ...any) *sql.Row
}

// TerminalRef is an account's id and name.
type TerminalRef struct {
	MsID string `json:"msId"`
	Name string `json:"name"`
}

// Terminals returns the customer's accounts among ids (by id); db.ErrNotFound if any is missing.
func (s *Store) Terminals(ctx context.Context, customer int64, ids []string) (map[string]TerminalRef, error) {
	names, err := s.dir.Names(ctx, directory.CustomerID(customer), directory.TerminalIDs(ids))
	if err != nil {
		return nil, err
	}
	out := make(map[string]TerminalRef, len(ids))
	for _, id := range ids {
		name, ok := names[directory.TerminalID(id)]
		if !ok {
			return nil, db.ErrNotFound
		}
		out[id] = TerminalRef{MsID: id, Name: name}
	}
	return out, nil
}

// ---- points ----

// Track streams a terminal's points in [from, to] in time order to fn, at most limit of them; it returns
// whether more were left.
func (s *Store) Track(ctx context.Context, terminal string, from, to int64, limit int, fn func(Point)) (bool, error) {
	rows, err := s.db.Query(ctx, `SELECT at, lat, lng, speed, direction, altitude FROM gps_points
		WHERE terminal_id = ? AND at >= ? AND at <= ? ORDER BY at LIMIT ?`, terminal, from, to, limit+1)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		if n == limit {
			return true, rows.Err()
		}
		var p Point
		if err := rows.Scan(&p.Time, &p.Lat, &p.Lng, &p.Speed, &p.Direction, &p.Altitude); err != nil {
			return false, err
		}
		fn(p)
		n++
	}
	return false, rows.Err()
}

// GPSRow is one row of the GPS data report.
type GPSRow struct {
	MsID string `json:"msId"`
	Name string `json:"name"`
	Point
}

// GPSData pages the points of terminals (already checked to be the customer's) in [from, to], ordered by
// terminal then time, with the total count.
func (s *Store) GPSData(ctx context.Context, names map[string]TerminalRef, from, to int64, offset, limit int) ([]GPSRow, int, error) {
	ids := make([]string, 0, len(names))
	for id := range names {
		ids = append(ids, id)
	}
	return db.List(ctx, s.db, db.ListQuery{
		Select: "terminal_id, at, lat, lng, speed, direction, altitude",
		From:   "gps_points",
		Where:  new(db.Filter).In("terminal_id", db.Args(ids)).Between("at", from, to),
		Order:  "terminal_id, at",
		Offset: offset, Limit: limit,
	}, func(sc db.Scanner) (GPSRow, error) {
		var r GPSRow
		err := sc.Scan(&r.MsID, &r.Time, &r.Lat, &r.Lng, &r.Speed, &r.Direction, &r.Altitude)
		r.Name = names[r.MsID].Name
		return r, err
	})
}

// Prune deletes points older than cutoff in slices of at most an hour of data each, so the single writer is
// never held for long. It returns the number of points deleted.
func (s *Store) Prune(ctx context.Context, cutoff int64) (int64, error) {
	var total int64
	for {
		var oldest sql.NullInt64
		if err := s.db.QueryRow(ctx, `SELECT MIN(at) FROM gps_points`).Scan(&oldest); err != nil {
			return total, err
		}
		if !oldest.Valid || oldest.Int64 >= cutoff {
			return total, nil
		}
		upTo := min(cutoff, oldest.Int64+3600_000)
		res, err := s.db.Exec(ctx, `DELETE FROM gps_points WHERE at < ?`, upTo)
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += n
		if err := ctx.Err(); err != nil {
			return total, err
		}
	}
}

// ---- fences ----

const fenceCols = `id, customer_id, name, type, shape, geometry, radius, creator_id, creator_name, created_at, updated_at, ver`

func scanFence(sc interface{ Scan(...any) error }) (*Fence, int64, error) {
	f := &Fence{Terminals: []string{}}
	var customer int64
	var geom string
	if err := sc.Scan(&f.ID, &customer, &f.Name, &f.Type, &f.Shape, &geom, &f.Radius, &f.CreatorID, &f.Creator,
		&f.Time, &f.Updated, &f.ver); err != nil {
		return nil, 0, err
	}
	f.FenceID = fenceIDString(f.ID)
	f.Geometry = json.RawMessage(geom)
	var err error
	if _, f.region, err = compileFence(f.Shape, f.Geometry, f.Radius); err != nil {
		f.region = Rect{MinLat: 1, MaxLat: -1} // stored geometry no longer valid: contains nothing
	}
	return f, customer, nil
}

// FenceFilter narrows the fence list.
type FenceFilter struct {
	Type     string // in | out | "" for both
	Terminal string // only fences assigned to this terminal
	IDs      []int64
}

// Fences lists a customer's fences with their terminals, oldest first.
func (s *Store) Fences(ctx context.Context, customer int64, f FenceFilter) ([]*Fence, error) {
	return fences(ctx, s.db, customer, f)
}

func fences(ctx context.Context, q querier, customer int64, f FenceFilter) ([]*Fence, error) {
	w := db.Scope("customer_id", customer).
		If(f.Type != "", "type = ?", f.Type).
		If(f.Terminal != "", "id IN (SELECT fence_id FROM fence_terminals WHERE terminal_id = ?)", f.Terminal).
		OptIn("id", db.Args(f.IDs))
	rows, err := q.Query(ctx, `SELECT `+fenceCols+` FROM fences WHERE `+w.Cond()+` ORDER BY id`, w.Args()...)
	if err != nil {
		return nil, err
	}
	var out []*Fence
	byID := map[int64]*Fence{}
	for rows.Next() {
		fe, _, err := scanFence(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, fe)
		byID[fe.ID] = fe
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return []*Fence{}, nil
	}
	rows, err = q.Query(ctx, `SELECT ft.fence_id, ft.terminal_id FROM fence_terminals ft JOIN fences f ON f.id = ft.fence_id
		WHERE f.customer_id = ? ORDER BY ft.fence_id, ft.terminal_id`, customer)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var t string
		if err := rows.Scan(&id, &t); err != nil {
			return nil, err
		}
		if fe := byID[id]; fe != nil {
			fe.Terminals = append(fe.Terminals, t)
		}
	}
	return out, rows.Err()
}

// Fence returns one of the customer's fences.
func (s *Store) Fence(ctx context.Context, customer, id int64) (*Fence, error) {
	return db.First(fences(ctx, s.db, customer, FenceFilter{IDs: []int64{id}}))
}

// customersWithFences lists the customers that have fences (start-up load).
func (s *Store) customersWithFences(ctx context.Context) ([]int64, error) {
	rows, err := s.db.Query(ctx, `SELECT DISTINCT customer_id FROM fences`)
	return db.Collect(rows, err, db.Int64)
}

// CreateFence stores a fence (geometry already compiled) with its terminals, which must be the customer's.
func (s *Store) CreateFence(ctx context.Context, customer int64, f *Fence, now int64) error {
	_, unknown := s.Terminals(ctx, customer, f.Terminals)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := belowCap(ctx, tx, "fences", customer, MaxFencesPerCust); err != nil {
			return err
		}
		if unknown != nil {
			return unknown
		}
		if err := tx.QueryRow(ctx, `INSERT INTO fences (customer_id, name, type, shape, geometry, radius, creator_id,
			creator_name, created_at, updated_at, ver) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1) RETURNING id`,
			customer, f.Name, f.Type, f.Shape, string(f.Geometry), f.Radius, f.CreatorID, f.Creator, now, now).
			Scan(&f.ID); err != nil {
			return err
		}
		f.FenceID, f.Time, f.Updated, f.ver = fenceIDString(f.ID), now, now, 1
		return addFenceTerminals(ctx, tx, f.ID, f.Terminals)
	})
}

// belowCap answers ErrTooMany when the customer already holds max rows of table (fences, marks); it counts in
// the transaction that adds the row.
func belowCap(ctx context.Context, tx *db.Tx, table string, customer int64, max int) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE customer_id = ?`, customer).Scan(&n); err != nil {
		return err
	}
	if n >= max {
		return ErrTooMany
	}
	return nil
}

func addFenceTerminals(ctx context.Context, tx *db.Tx, fence int64, ids []string) error {
	for _, t := range ids {
		if _, err := tx.Exec(ctx, `INSERT INTO fence_terminals (fence_id, terminal_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
			fence, t); err != nil {
			return err
		}
	}
	return nil
}

// FenceEdit is a partial update: nil fields are kept.
type FenceEdit struct {
	Name, Type *string
	Shape      string // with Geometry: the new shape
	Geometry   json.RawMessage
	Radius     float64
}

// EditFence updates one fence and bumps its version.
func (s *Store) EditFence(ctx context.Context, customer, id int64, e FenceEdit, now int64) error {
	sets := []string{"updated_at = ?", "ver = ver + 1"}
	args := []any{now}
	if e.Name != nil {
		sets, args = append(sets, "name = ?"), append(args, *e.Name)
	}
	if e.Type != nil {
		sets, args = append(sets, "type = ?"), append(args, *e.Type)
	}
	if e.Geometry != nil {
		sets = append(sets, "shape = ?", "geometry = ?", "radius = ?")
		args = append(args, e.Shape, string(e.Geometry), e.Radius)
	}
	res, err := s.db.Exec(ctx, `UPDATE fences SET `+strings.Join(sets, ", ")+` WHERE id = ? AND customer_id = ?`,
		append(args, id, customer)...)
	return db.OneRow(res, err)
}

// DeleteFences deletes fences (all must be the customer's, else nothing is deleted) and returns their names.
func (s *Store) DeleteFences(ctx context.Context, customer int64, ids []int64) ([]string, error) {
	var names []string
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		list, err := fences(ctx, tx, customer, FenceFilter{IDs: ids})
		if err != nil {
			return err
		}
		if len(list) != len(ids) {
			return db.ErrNotFound
		}
		for _, f := range list {
			names = append(names, f.Name)
			if _, err := tx.Exec(ctx, `DELETE FROM fence_terminals WHERE fence_id = ?`, f.ID); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM fences WHERE id = ? AND customer_id = ?`, f.ID, customer); err != nil {
				return err
			}
		}
		return nil
	})
	return names, err
}

// SetFenceTerminals changes a fence's terminals: replace (when not nil) sets the whole list, then add and
// remove apply. Terminals must be the customer's (read before the transaction, reported after the fence check).
func (s *Store) SetFenceTerminals(ctx context.Context, customer, id int64, replace, add, remove []string, now int64) error {
	all := append(append(append([]string{}, replace...), add...), remove...)
	_, unknown := s.Terminals(ctx, customer, dedupe(all))
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM fences WHERE id = ? AND customer_id = ?`, id, customer).Scan(&one); err != nil {
			return db.NotFound(err)
		}
		if unknown != nil {
			return unknown
		}
		if replace != nil {
			if _, err := tx.Exec(ctx, `DELETE FROM fence_terminals WHERE fence_id = ?`, id); err != nil {
				return err
			}
			if err := addFenceTerminals(ctx, tx, id, replace); err != nil {
				return err
			}
		}
		if err := addFenceTerminals(ctx, tx, id, add); err != nil {
			return err
		}
		for _, t := range remove {
			if _, err := tx.Exec(ctx, `DELETE FROM fence_terminals WHERE fence_id = ? AND terminal_id = ?`, id, t); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `UPDATE fences SET updated_at = ? WHERE id = ?`, now, id)
		return err
	})
}

func dedupe(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// ---- fence alarms ----

// Alarm is a fence alarm record (spec §3 "Alarm record": type, time, lng, lat, responder, closer, close
// time, response time).
type Alarm struct {
	ID           string  `json:"id"`
	FenceID      string  `json:"fenceid"`
	FenceName    string  `json:"fenceName"`
	FenceType    string  `json:"fenceType"` // in | out
	MsID         string  `json:"msId"`
	MsName       string  `json:"msName"`
	Type         string  `json:"type"` // leave | enter
	Time         int64   `json:"time"`
	Lat          float64 `json:"lat"`
	Lng          float64 `json:"lng"`
	Status       int     `json:"status"` // 0 raised, 1 responded, 2 closed
	ResponderID  string  `json:"responderId"`
	Responder    string  `json:"responder"`
	ResponseTime int64   `json:"responseTime"` // when it was responded to (ms), 0 = not yet
	CloserID     string  `json:"closerId"`
	Closer       string  `json:"closer"`
	CloseTime    int64   `json:"closeTime"` // when it was closed (ms), 0 = open
	Remark       string  `json:"remark"`
	id, customer int64
}

const alarmCols = `id, customer_id, fence_id, fence_name, fence_type, terminal_id, terminal_name, type, at, lat, lng,
	status, responder_id, responder_name, response_at, closer_id, closer_name, closed_at, remark`

func scanAlarm(sc db.Scanner) (Alarm, error) {
	var a Alarm
	var id, fence int64
	err := sc.Scan(&id, &a.customer, &fence, &a.FenceName, &a.FenceType, &a.MsID, &a.MsName, &a.Type, &a.Time, &a.Lat,
		&a.Lng, &a.Status, &a.ResponderID, &a.Responder, &a.ResponseTime, &a.CloserID, &a.Closer, &a.CloseTime, &a.Remark)
	a.id, a.ID, a.FenceID = id, fenceIDString(id), fenceIDString(fence)
	return a, err
}

// InsertAlarm stores a raised alarm and fills its id.
func (s *Store) InsertAlarm(ctx context.Context, customer, fence int64, a *Alarm) error {
	var id int64
	if err := s.db.WriteRow(ctx, `INSERT INTO fence_alarms (customer_id, fence_id, fence_name, fence_type, terminal_id,
		terminal_name, type, at, lat, lng) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		customer, fence, a.FenceName, a.FenceType, a.MsID, a.MsName, a.Type, a.Time, a.Lat, a.Lng).Scan(&id); err != nil {
		return err
	}
	a.ID = fenceIDString(id)
	return nil
}

// AlarmFilter narrows the alarm list and counts.
type AlarmFilter struct {
	From, To  int64 // 0 = open
	Terminals []string
	Fences    []int64
	Status    *int
}

func (f AlarmFilter) where(customer int64) (string, []any) {
	w := db.Scope("customer_id", customer).
		If(f.From > 0, "at >= ?", f.From).
		If(f.To > 0, "at <= ?", f.To).
		OptIn("terminal_id", db.Args(f.Terminals)).
		OptIn("fence_id", db.Args(f.Fences))
	if f.Status != nil {
		w.Eq("status", *f.Status)
	}
	return w.Cond(), w.Args()
}

// Alarms pages a customer's fence alarms, newest first, with the total count.
func (s *Store) Alarms(ctx context.Context, customer int64, f AlarmFilter, offset, limit int) ([]Alarm, int, error) {
	cond, args := f.where(customer)
	return db.Page(ctx, s.db, "fence_alarms", alarmCols, cond, args, offset, limit, scanAlarm)
}

// AlarmCount is one row of the fence-alarm count report.
type AlarmCount struct {
	MsID      string `json:"msId,omitempty"`
	MsName    string `json:"msName,omitempty"`
	FenceID   string `json:"fenceid,omitempty"`
	FenceName string `json:"fenceName,omitempty"`
	Count     int    `json:"count"`
	Leave     int    `json:"leave"`
	Enter     int    `json:"enter"`
	Closed    int    `json:"closed"`
}

// CountAlarms groups a customer's fence alarms by terminal (byFence false) or by fence.
func (s *Store) CountAlarms(ctx context.Context, customer int64, f AlarmFilter, byFence bool) ([]AlarmCount, error) {
	cond, args := f.where(customer)
	key, name := "terminal_id", "MAX(terminal_name)"
	if byFence {
		key, name = "fence_id", "MAX(fence_name)"
	}
	rows, err := s.db.Query(ctx, `SELECT `+key+`, `+name+`, COUNT(*),
		SUM(CASE WHEN type = 'leave' THEN 1 ELSE 0 END), SUM(CASE WHEN type = 'enter' THEN 1 ELSE 0 END),
		SUM(CASE WHEN status = 2 THEN 1 ELSE 0 END)
		FROM fence_alarms WHERE `+cond+` GROUP BY `+key+` ORDER BY `+key, args...)
	return db.Collect(rows, err, func(sc db.Scanner) (AlarmCount, error) {
		var c AlarmCount
		var k, n string
		err := sc.Scan(&k, &n, &c.Count, &c.Leave, &c.Enter, &c.Closed)
		if byFence {
			c.FenceID, c.FenceName = k, n
		} else {
			c.MsID, c.MsName = k, n
		}
		return c, err
	})
}

// HandleAlarms responds to (status 1) or closes (status 2) alarms on behalf of an account and returns the
// records that changed. Responding sets the responder and response time once; closing also sets the closer
// and close time (and the responder if nobody had responded). Alarms already in that state or beyond are
// left as they are. All ids must be the customer's, else nothing changes.
func (s *Store) HandleAlarms(ctx context.Context, customer int64, ids []int64, status int, byID, byName, remark string, now int64) ([]Alarm, error) {
	var changed []Alarm
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		args := []any{customer}
		for _, id := range ids {
			args = append(args, id)
		}
		rows, err := tx.Query(ctx, `SELECT `+alarmCols+` FROM fence_alarms WHERE customer_id = ? AND id IN (`+
			db.Placeholders(len(ids))+`) ORDER BY id`, args...)
		list, err := db.Collect(rows, err, scanAlarm)
		if err != nil {
			return err
		}
		if len(list) != len(ids) {
			return db.ErrNotFound
		}
		for _, a := range list {
			if a.Status >= status {
				continue
			}
			if a.Status == AlarmOpen {
				a.ResponderID, a.Responder, a.ResponseTime = byID, byName, now
			}
			if status == AlarmClosed {
				a.CloserID, a.Closer, a.CloseTime = byID, byName, now
			}
			a.Status = status
			if remark != "" {
				a.Remark = remark
			}
			if _, err := tx.Exec(ctx, `UPDATE fence_alarms SET status = ?, responder_id = ?, responder_name = ?,
				response_at = ?, closer_id = ?, closer_name = ?, closed_at = ?, remark = ? WHERE id = ? AND customer_id = ?`,
				a.Status, a.ResponderID, a.Responder, a.ResponseTime, a.CloserID, a.Closer, a.CloseTime, a.Remark,
				a.id, customer); err != nil {
				return err
			}
			changed = append(changed, a)
		}
		return nil
	})
	return changed, err
}

// ---- marks ----

// Mark is a map marker (spec §2 map tools "markers (types point, line, shape)"), shared by the customer's
// dispatchers.
type Mark struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"` // point | line | shape
	Name      string          `json:"name"`
	Geometry  json.RawMessage `json:"geometry"`
	Color     string          `json:"color"`
	Icon      string          `json:"icon"`
	Link      string          `json:"link"`
	Remark    string          `json:"remark"`
	CreatorID string          `json:"creatorId"`
	Creator   string          `json:"creator"`
	Time      int64           `json:"time"`
	Updated   int64           `json:"updated"`
}

const markCols = `id, type, name, geometry, color, icon, link, remark, creator_id, creator_name, created_at, updated_at`

func scanMark(sc db.Scanner) (Mark, error) {
	var m Mark
	var id int64
	var geom string
	err := sc.Scan(&id, &m.Type, &m.Name, &geom, &m.Color, &m.Icon, &m.Link, &m.Remark, &m.CreatorID, &m.Creator,
		&m.Time, &m.Updated)
	m.ID, m.Geometry = fenceIDString(id), json.RawMessage(geom)
	return m, err
}

// AddMark stores a mark and fills its id.
func (s *Store) AddMark(ctx context.Context, customer int64, m *Mark) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := belowCap(ctx, tx, "marks", customer, MaxMarksPerCust); err != nil {
			return err
		}
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO marks (customer_id, type, name, geometry, color, icon, link, remark,
			creator_id, creator_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			customer, m.Type, m.Name, string(m.Geometry), m.Color, m.Icon, m.Link, m.Remark, m.CreatorID, m.Creator,
			m.Time, m.Updated).Scan(&id); err != nil {
			return err
		}
		m.ID = fenceIDString(id)
		return nil
	})
}

// Mark returns one of the customer's marks.
func (s *Store) Mark(ctx context.Context, customer, id int64) (Mark, error) {
	m, err := scanMark(s.db.QueryRow(ctx, `SELECT `+markCols+` FROM marks WHERE id = ? AND customer_id = ?`, id, customer))
	return m, db.NotFound(err)
}

// UpdateMark replaces a mark's editable fields.
func (s *Store) UpdateMark(ctx context.Context, customer, id int64, m Mark) error {
	res, err := s.db.Exec(ctx, `UPDATE marks SET type = ?, name = ?, geometry = ?, color = ?, icon = ?, link = ?,
		remark = ?, updated_at = ? WHERE id = ? AND customer_id = ?`,
		m.Type, m.Name, string(m.Geometry), m.Color, m.Icon, m.Link, m.Remark, m.Updated, id, customer)
	return db.OneRow(res, err)
}

// MarkFilter narrows findMark.
type MarkFilter struct {
	Type string
	Name string // substring
	IDs  []int64
}

// Marks lists a customer's marks, oldest first. The name search ignores case on both engines (it was
// case-sensitive on PostgreSQL before the platform's Contains).
func (s *Store) Marks(ctx context.Context, customer int64, f MarkFilter) ([]Mark, error) {
	where := db.Scope("customer_id", customer).
		If(f.Type != "", "type = ?", f.Type).
		Contains(f.Name, "name")
	where.OptIn("id", db.Args(f.IDs))
	list, _, err := db.List(ctx, s.db, db.ListQuery{Select: markCols, From: "marks", Where: where, Order: "id"}, scanMark)
	return list, err
}

// DeleteMarks deletes marks; all must be the customer's, else nothing is deleted.
func (s *Store) DeleteMarks(ctx context.Context, customer int64, ids []int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		args := []any{customer}
		for _, id := range ids {
			args = append(args, id)
		}
		res, err := tx.Exec(ctx, `DELETE FROM marks WHERE customer_id = ? AND id IN (`+db.Placeholders(len(ids))+`)`, args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if int(n) != len(ids) {
			return db.ErrNotFound // rolls back
		}
		return nil
	})
}

// ---- group colours and terminal icons (kept by the directory) ----

// SetGroupColor sets a group's map colour ("" is the default).
func (s *Store) SetGroupColor(ctx context.Context, customer, gid int64, color string) error {
	return s.dir.SetGroupColor(ctx, directory.CustomerID(customer), directory.GroupID(gid), color)
}

// SetTerminalIcon sets the map icon key and the avatar image of terminals; an id that is not the customer's
// account fails the whole change.
func (s *Store) SetTerminalIcon(ctx context.Context, customer int64, ids []string, icon, image string) error {
	return s.dir.SetIcon(ctx, directory.CustomerID(customer), directory.TerminalIDs(ids), image, icon)
}
