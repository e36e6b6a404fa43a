package message

import (
	"context"
	"database/sql"
	"errors"

	"tenfour/internal/platform/db"
)

// Store keeps messages and their recipients.
type Store struct{ db *db.DB }

// NewStore builds the store.
func NewStore(d *db.DB) *Store { return &Store{db: d} }

// Message is a stored message.
type Message struct {
	ID         int64
	CustomerID int64
	SenderID   string
	SenderName string
	MsID       string // target terminal, or ""
	GID        int64  // target group, or 0
	Content    string
	Time       int64
	Recipients int
	Delivered  int
	Incoming   bool   // sent by a terminal (SenderID); MsID is then a dispatcher or "" (the dispatch center)
	Kind       string // text | image | file | audio | video
	File       *FileRef
	Status     int // spec §4: 0 incoming and unread, 1 read (every dispatcher's message is 1)
	ReadBy     string
	ReadAt     int64

	// Filled by the list queries.
	MsName string
	GName  string
}

// Terminal returns a terminal of the customer (db.ErrNotFound for unknown ids, other customers' ids and
// dispatchers).
func (s *Store) Terminal(ctx context.Context, customerID int64, msID string) error {
	var typ string
	err := s.db.QueryRow(ctx, `SELECT type FROM accounts WHERE id = ? AND customer_id = ?`, msID, customerID).Scan(&typ)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && typ == "20") {
		return db.ErrNotFound
	}
	return err
}

// Dispatcher checks that msID is one of the customer's dispatchers (db.ErrNotFound otherwise).
func (s *Store) Dispatcher(ctx context.Context, customerID int64, msID string) error {
	var typ string
	err := s.db.QueryRow(ctx, `SELECT type FROM accounts WHERE id = ? AND customer_id = ?`, msID, customerID).Scan(&typ)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && typ != "20") {
		return db.ErrNotFound
	}
	return err
}

// GroupTerminals returns the terminal members of one of the customer's groups (db.ErrNotFound for an unknown
// group or another customer's).
func (s *Store) GroupTerminals(ctx context.Context, customerID, gid int64) ([]string, error) {
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM ptt_groups WHERE id = ? AND customer_id = ?`, gid, customerID).
		Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, db.ErrNotFound
	}
	rows, err := s.db.Query(ctx, `SELECT a.id FROM group_members m JOIN accounts a ON a.id = m.account_id
		WHERE m.group_id = ? AND a.customer_id = ? AND a.type <> '20' ORDER BY a.id`, gid, customerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Create stores a message and its recipients in one transaction and returns it with its id.
func (s *Store) Create(ctx context.Context, m Message, recipients []string) (Message, error) {
	m.Recipients = len(recipients)
	m.Status = 1
	if m.Incoming {
		m.Status = 0
	}
	if m.Kind == "" {
		m.Kind = KindText
	}
	f := m.File
	if f == nil {
		f = &FileRef{}
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO messages (customer_id, sender_id, sender_name, target_ms_id, target_gid,
			content, created_at, recipients, delivered, delivered_at, status, incoming, kind, file_id, file_name, file_mime,
			file_size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			m.CustomerID, m.SenderID, m.SenderName, m.MsID, m.GID, m.Content, m.Time, m.Recipients,
			m.Recipients == 0, deliveredAt(m.Recipients == 0, m.Time), m.Status, m.Incoming, m.Kind, f.ID, f.Name, f.Mime,
			f.Size).Scan(&m.ID); err != nil {
			return err
		}
		for _, id := range recipients {
			if _, err := tx.Exec(ctx, `INSERT INTO message_recipients (message_id, account_id) VALUES (?, ?)`, m.ID, id); err != nil {
				return err
			}
		}
		return nil
	})
	return m, err
}

func deliveredAt(done bool, at int64) int64 {
	if done {
		return at
	}
	return 0
}

// MarkDelivered records a recipient's acknowledgement. It returns the message with its new count, and
// false when that acknowledgement was already recorded (a repeat delivery).
func (s *Store) MarkDelivered(ctx context.Context, messageID int64, accountID string, at int64) (Message, bool, error) {
	var m Message
	first := false
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE message_recipients SET delivered_at = ? WHERE message_id = ? AND account_id = ?
			AND delivered_at = 0`, at, messageID, accountID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			first = true
			if _, err := tx.Exec(ctx, `UPDATE messages SET delivered_count = delivered_count + 1,
				delivered = (delivered_count + 1 >= recipients),
				delivered_at = CASE WHEN delivered_count + 1 >= recipients THEN ? ELSE delivered_at END
				WHERE id = ?`, at, messageID); err != nil {
				return err
			}
		}
		m, err = scanMessage(tx.QueryRow(ctx, `SELECT `+msgCols+` FROM messages WHERE id = ?`, messageID))
		return err
	})
	return m, first, err
}

// Pending returns the messages an account has not acknowledged with an id above after, oldest first.
func (s *Store) Pending(ctx context.Context, accountID string, after int64, limit int) ([]Message, error) {
	rows, err := s.db.Query(ctx, `SELECT `+msgCols+` FROM messages JOIN message_recipients r ON r.message_id = messages.id
		WHERE r.account_id = ? AND r.delivered_at = 0 AND messages.id > ? ORDER BY messages.id LIMIT ?`, accountID, after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Get returns one of the customer's messages, with the names of its target terminal or dispatcher and group.
func (s *Store) Get(ctx context.Context, customerID, id int64) (Message, error) {
	m, err := scanView(s.db.QueryRow(ctx, `SELECT `+viewCols+` FROM `+viewFrom+` WHERE messages.id = ? AND messages.customer_id = ?`, id, customerID))
	if errors.Is(err, sql.ErrNoRows) {
		return m, db.ErrNotFound
	}
	return m, err
}

const msgCols = `messages.id, messages.customer_id, messages.sender_id, messages.sender_name, messages.target_ms_id,
	messages.target_gid, messages.content, messages.created_at, messages.recipients, messages.delivered_count,
	messages.incoming, messages.kind, messages.file_id, messages.file_name, messages.file_mime, messages.file_size,
	messages.status, messages.read_by, messages.read_at`

type scanner interface{ Scan(dest ...any) error }

func scanMessage(sc scanner, extra ...any) (Message, error) {
	var m Message
	var f FileRef
	err := sc.Scan(append([]any{&m.ID, &m.CustomerID, &m.SenderID, &m.SenderName, &m.MsID, &m.GID, &m.Content, &m.Time,
		&m.Recipients, &m.Delivered, &m.Incoming, &m.Kind, &f.ID, &f.Name, &f.Mime, &f.Size, &m.Status, &m.ReadBy,
		&m.ReadAt}, extra...)...)
	if f.ID != "" {
		f.Kind = m.Kind
		m.File = &f
	}
	return m, err
}
