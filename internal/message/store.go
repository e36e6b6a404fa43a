package message

import (
	"context"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
)

// Store keeps messages and their recipients. Terminals, groups and their names are the directory's.
type Store struct {
	db  *db.DB
	dir Directory
}

// Directory is what messages read of terminals and groups (internal/directory's Store).
type Directory interface {
	Account(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	CheckTerminal(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	GroupInfo(ctx context.Context, c directory.CustomerID, gid directory.GroupID) (directory.GroupRef, error)
	GroupTerminals(ctx context.Context, c directory.CustomerID, gid directory.GroupID) ([]directory.TerminalID, error)
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
	GroupNames(ctx context.Context, c directory.CustomerID, gids []directory.GroupID) (map[directory.GroupID]string, error)
}

// NewStore builds the store.
func NewStore(d *db.DB, dir Directory) *Store { return &Store{db: d, dir: dir} }

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

// Terminal checks that msID is one of the customer's terminals (db.ErrNotFound for unknown ids, other
// customers' ids and dispatchers).
func (s *Store) Terminal(ctx context.Context, customerID int64, msID string) error {
	_, err := s.dir.CheckTerminal(ctx, directory.CustomerID(customerID), directory.TerminalID(msID))
	return err
}

// Dispatcher checks that msID is one of the customer's dispatchers (db.ErrNotFound otherwise).
func (s *Store) Dispatcher(ctx context.Context, customerID int64, msID string) error {
	a, err := s.dir.Account(ctx, directory.CustomerID(customerID), directory.TerminalID(msID))
	if err == nil && !a.Dispatcher() {
		return db.ErrNotFound
	}
	return err
}

// Account checks that msID is one of the customer's accounts (db.ErrNotFound otherwise).
func (s *Store) Account(ctx context.Context, customerID int64, msID string) error {
	_, err := s.dir.Account(ctx, directory.CustomerID(customerID), directory.TerminalID(msID))
	return err
}

// Group checks that gid is one of the customer's groups (db.ErrNotFound otherwise).
func (s *Store) Group(ctx context.Context, customerID, gid int64) error {
	_, err := s.dir.GroupInfo(ctx, directory.CustomerID(customerID), directory.GroupID(gid))
	return err
}

// GroupTerminals returns the terminal members of one of the customer's groups (db.ErrNotFound for an unknown
// group or another customer's).
func (s *Store) GroupTerminals(ctx context.Context, customerID, gid int64) ([]string, error) {
	ids, err := s.dir.GroupTerminals(ctx, directory.CustomerID(customerID), directory.GroupID(gid))
	if err != nil {
		return nil, err
	}
	return directory.Strings(ids), nil
}

// named fills the names of the target terminals (or dispatchers) and groups of a page of one customer's
// messages, from the directory; a target that no longer exists has no name.
func (s *Store) named(ctx context.Context, customerID int64, list []Message) error {
	var ids []directory.TerminalID
	var gids []directory.GroupID
	for _, m := range list {
		if m.MsID != "" {
			ids = append(ids, directory.TerminalID(m.MsID))
		}
		if m.GID != 0 {
			gids = append(gids, directory.GroupID(m.GID))
		}
	}
	c := directory.CustomerID(customerID)
	names, err := s.dir.Names(ctx, c, ids)
	if err != nil {
		return err
	}
	gnames, err := s.dir.GroupNames(ctx, c, gids)
	if err != nil {
		return err
	}
	for i := range list {
		list[i].MsName = names[directory.TerminalID(list[i].MsID)]
		list[i].GName = gnames[directory.GroupID(list[i].GID)]
	}
	return nil
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
	return db.Collect(rows, err, scanMessage)
}

// Get returns one of the customer's messages, with the names of its target terminal or dispatcher and group.
func (s *Store) Get(ctx context.Context, customerID, id int64) (Message, error) {
	m, err := scanMessage(s.db.QueryRow(ctx, `SELECT `+msgCols+` FROM messages WHERE messages.id = ? AND messages.customer_id = ?`, id, customerID))
	if err != nil {
		return m, db.NotFound(err)
	}
	list := []Message{m}
	err = s.named(ctx, customerID, list)
	return list[0], err
}

const msgCols = `messages.id, messages.customer_id, messages.sender_id, messages.sender_name, messages.target_ms_id,
	messages.target_gid, messages.content, messages.created_at, messages.recipients, messages.delivered_count,
	messages.incoming, messages.kind, messages.file_id, messages.file_name, messages.file_mime, messages.file_size,
	messages.status, messages.read_by, messages.read_at`

func scanMessage(sc db.Scanner) (Message, error) {
	var m Message
	var f FileRef
	err := sc.Scan(&m.ID, &m.CustomerID, &m.SenderID, &m.SenderName, &m.MsID, &m.GID, &m.Content, &m.Time,
		&m.Recipients, &m.Delivered, &m.Incoming, &m.Kind, &f.ID, &f.Name, &f.Mime, &f.Size, &m.Status, &m.ReadBy,
		&m.ReadAt)
	if f.ID != "" {
		f.Kind = m.Kind
		m.File = &f
	}
	return m, err
}
