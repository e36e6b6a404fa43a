package camera

import (
	"context"

	"tenfour/internal/platform/db"
)

// Store keeps cameras and camera recordings. Every method takes the customer id and never touches another
// customer's rows.
type Store struct{ db *db.DB }

const cameraCols = `id, customer_id, stream, url, protocol, name, app, created_at`

func scanCamera(r db.Scanner) (Camera, error) {
	var c Camera
	err := r.Scan(&c.ID, &c.customerID, &c.StreamID, &c.StreamURL, &c.Protocol, &c.Name, &c.App, &c.CreatedAt)
	return c, db.NotFound(err)
}

// Add stores a camera unless the customer has max cameras already (each camera is one connection the server
// may hold; ErrMaxConnections) or the stream id is taken (ErrStreamExists). The count and the insert are one
// transaction, so two adds racing for the last place cannot both win.
func (s *Store) Add(ctx context.Context, c Camera, max int) (Camera, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM cameras WHERE customer_id = ?`, c.customerID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return ErrMaxConnections
		}
		err := tx.QueryRow(ctx, `INSERT INTO cameras (customer_id, stream, url, protocol, name, app, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, c.customerID, c.StreamID, c.StreamURL, c.Protocol, c.Name,
			c.App, c.CreatedAt).Scan(&c.ID)
		if db.IsUniqueViolation(err) {
			return ErrStreamExists
		}
		return err
	})
	return c, err
}

// All reads every customer's cameras (the reachability probes; probe.go).
func (s *Store) All(ctx context.Context) ([]Camera, error) {
	rows, err := s.db.Query(ctx, `SELECT `+cameraCols+` FROM cameras ORDER BY customer_id, stream`)
	return db.Collect(rows, err, scanCamera)
}

// Update changes a camera's fields (stream id included).
func (s *Store) Update(ctx context.Context, c Camera) error {
	res, err := s.db.Exec(ctx, `UPDATE cameras SET stream = ?, url = ?, protocol = ?, name = ?, app = ?
		WHERE id = ? AND customer_id = ?`, c.StreamID, c.StreamURL, c.Protocol, c.Name, c.App, c.ID, c.customerID)
	if db.IsUniqueViolation(err) {
		return ErrStreamExists
	}
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return db.ErrNotFound
	}
	return nil
}

// Delete removes a camera (its recordings stay until retention).
func (s *Store) Delete(ctx context.Context, customer int64, id ID) error {
	res, err := s.db.Exec(ctx, `DELETE FROM cameras WHERE id = ? AND customer_id = ?`, id, customer)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return db.ErrNotFound
	}
	return nil
}

// Get reads one camera.
func (s *Store) Get(ctx context.Context, customer int64, id ID) (Camera, error) {
	return scanCamera(s.db.QueryRow(ctx, `SELECT `+cameraCols+` FROM cameras WHERE id = ? AND customer_id = ?`, id, customer))
}

// ByStream reads the camera of a stream id.
func (s *Store) ByStream(ctx context.Context, customer int64, stream string) (Camera, error) {
	return scanCamera(s.db.QueryRow(ctx, `SELECT `+cameraCols+` FROM cameras WHERE stream = ? AND customer_id = ?`, stream, customer))
}

// List reads the customer's cameras, by stream id.
func (s *Store) List(ctx context.Context, customer int64) ([]Camera, error) {
	rows, err := s.db.Query(ctx, `SELECT `+cameraCols+` FROM cameras WHERE customer_id = ? ORDER BY stream`, customer)
	return db.Collect(rows, err, scanCamera)
}

const recordCols = `id, customer_id, camera_id, stream, name, app, remark, path, start_at, end_at, bytes, started_by, duration_ms`

func scanRecord(r db.Scanner) (Record, error) {
	var rec Record
	var customer int64
	err := r.Scan(&rec.ID, &customer, &rec.CameraID, &rec.StreamID, &rec.Name, &rec.App, &rec.Remark, &rec.path,
		&rec.StartTime, &rec.EndTime, &rec.Bytes, &rec.StartedBy, &rec.Duration)
	if err != nil {
		return rec, db.NotFound(err)
	}
	if rec.EndTime > 0 && rec.Duration == 0 { // not measured: the wall time stands in
		rec.Duration = rec.EndTime - rec.StartTime
	}
	return rec, err
}

// StartRecord stores a recording that has begun.
func (s *Store) StartRecord(ctx context.Context, customer int64, rec Record, node string) (Record, error) {
	err := s.db.WriteRow(ctx, `INSERT INTO camera_records (customer_id, camera_id, stream, name, app, remark, path,
		start_at, started_by, node_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, customer, rec.CameraID, rec.StreamID,
		rec.Name, rec.App, rec.Remark, rec.path, rec.StartTime, rec.StartedBy, node).Scan(&rec.ID)
	return rec, err
}

// EndRecord closes a recording; duration is its file's playing time in ms (0: not measured).
func (s *Store) EndRecord(ctx context.Context, id RecordID, end, bytes, duration int64) error {
	_, err := s.db.Exec(ctx, `UPDATE camera_records SET end_at = ?, bytes = ?, duration_ms = ? WHERE id = ?`, end, bytes, duration, id)
	return err
}

// DeleteRecord removes a recording row (a recording whose file could not be made).
func (s *Store) DeleteRecord(ctx context.Context, id RecordID) error {
	_, err := s.db.Exec(ctx, `DELETE FROM camera_records WHERE id = ?`, id)
	return err
}

// GetRecord reads one recording.
func (s *Store) GetRecord(ctx context.Context, customer int64, id RecordID) (Record, error) {
	return scanRecord(s.db.QueryRow(ctx, `SELECT `+recordCols+` FROM camera_records WHERE id = ? AND customer_id = ?`, id, customer))
}

// RecordQuery selects recordings: started in [From, To], of some streams (none: all).
type RecordQuery struct {
	Streams       []string
	From, To      int64
	Offset, Limit int
}

// Records lists recordings, newest first, with the total.
func (s *Store) Records(ctx context.Context, customer int64, q RecordQuery) ([]Record, int, error) {
	f := db.Scope("customer_id", customer).Between("start_at", q.From, q.To)
	if len(q.Streams) > 0 { // none: every stream
		f.In("stream", db.Args(q.Streams))
	}
	return db.List(ctx, s.db, db.ListQuery{Select: recordCols, From: "camera_records", Where: f,
		Order: "start_at DESC, id DESC", Offset: q.Offset, Limit: q.Limit}, scanRecord)
}

// Unfinished lists recordings with no end (the server stopped while they were written).
func (s *Store) Unfinished(ctx context.Context, node string) ([]Record, error) {
	rows, err := s.db.Query(ctx, `SELECT `+recordCols+` FROM camera_records WHERE end_at = 0 AND node_id = ?`, node)
	return db.Collect(rows, err, scanRecord)
}

// OpenNodes lists the nodes with recordings open (a node alone, whose node_id is empty, is never listed).
func (s *Store) OpenNodes(ctx context.Context) ([]string, error) {
	rows, err := s.db.Query(ctx, `SELECT DISTINCT node_id FROM camera_records WHERE end_at = 0 AND node_id <> ''`)
	return db.Collect(rows, err, func(r db.Scanner) (string, error) { var n string; return n, r.Scan(&n) })
}

// CloseOpen closes a recording if it is still open (the claim: of several nodes sweeping, one closes it); bytes
// < 0 leaves the size as it is (the file is on another machine).
func (s *Store) CloseOpen(ctx context.Context, id RecordID, end, bytes int64) (bool, error) {
	q, args := `UPDATE camera_records SET end_at = ?, bytes = ? WHERE id = ? AND end_at = 0`, []any{end, bytes, id}
	if bytes < 0 {
		q, args = `UPDATE camera_records SET end_at = ? WHERE id = ? AND end_at = 0`, []any{end, id}
	}
	res, err := s.db.Exec(ctx, q, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Older lists up to limit finished recordings that started before cutoff.
func (s *Store) Older(ctx context.Context, cutoff int64, limit int) ([]Record, error) {
	rows, err := s.db.Query(ctx, `SELECT `+recordCols+` FROM camera_records WHERE start_at < ? AND end_at > 0
		ORDER BY start_at LIMIT ?`, cutoff, limit)
	return db.Collect(rows, err, scanRecord)
}

// Paths tells which of the given relative paths have a recording row.
func (s *Store) Paths(ctx context.Context, paths []string) (map[string]bool, error) {
	return s.db.Present(ctx, "camera_records", "path", paths)
}
