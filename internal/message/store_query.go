package message

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
)

// Conversation kinds of findSms `type`.
const (
	ConvAll      = "0" // every message in the range (optionally sent or received by msId)
	ConvTerminal = "1" // dispatchers ↔ one terminal, direct messages
	ConvGroup    = "2" // messages to one group, from dispatchers and from its terminals
)

// Query selects messages for findSms.
type Query struct {
	Conversation string
	MsID         string // ConvTerminal: the terminal; ConvAll: sent or received by (optional)
	GID          int64  // ConvGroup
	From, To     int64  // created_at, inclusive
	UnreadOnly   bool
	Ascending    bool
	Offset       int
	Limit        int
}

// Find returns a page of the customer's messages and how many match.
func (s *Store) Find(ctx context.Context, customerID int64, q Query) ([]Message, int, error) {
	f := db.Scope("messages.customer_id", customerID).Between("messages.created_at", q.From, q.To)
	switch q.Conversation {
	case ConvTerminal:
		f.And(`((messages.incoming = FALSE AND messages.target_ms_id = ?)
			OR (messages.incoming = TRUE AND messages.sender_id = ? AND messages.target_gid = 0))`, q.MsID, q.MsID)
	case ConvGroup:
		f.Eq("messages.target_gid", q.GID)
	default:
		f.If(q.MsID != "", "(messages.sender_id = ? OR messages.target_ms_id = ?)", q.MsID, q.MsID)
	}
	f.If(q.UnreadOnly, "messages.incoming = TRUE AND messages.status = 0")
	return s.page(ctx, customerID, f, q.Ascending, q.Offset, q.Limit)
}

// page reads a page of one customer's messages by time (newest first unless asc), with their targets' names.
func (s *Store) page(ctx context.Context, customerID int64, f *db.Filter, asc bool, offset, limit int) ([]Message, int, error) {
	order := "DESC"
	if asc {
		order = "ASC"
	}
	out, total, err := db.List(ctx, s.db, db.ListQuery{Select: msgCols, From: "messages", Where: f,
		Order: "messages.created_at " + order + ", messages.id " + order, Offset: offset, Limit: limit}, scanMessage)
	if err != nil {
		return nil, 0, err
	}
	return out, total, s.named(ctx, customerID, out)
}

// unreadFor is the condition "an incoming message not read yet that dispatcher ? should read": one sent to
// it, to a group or to the dispatch center (a message to another dispatcher is that one's to read).
const unreadFor = `messages.incoming = TRUE AND messages.status = 0 AND (messages.target_ms_id = '' OR messages.target_ms_id = ?)`

// Unread returns the oldest unread messages for a dispatcher (at most limit) and how many there are.
func (s *Store) Unread(ctx context.Context, customerID int64, dispatcher string, limit int) ([]Message, int, error) {
	return s.page(ctx, customerID, db.Scope("messages.customer_id", customerID).And(unreadFor, dispatcher), true, 0, limit)
}

// ReadRequest names the messages a dispatcher has read: ids, or a conversation (a terminal's direct messages,
// a group's), or all.
type ReadRequest struct {
	IDs  []int64
	MsID string
	GID  int64
	All  bool
}

// MarkRead sets status 1 on the unread incoming messages the request names that are the dispatcher's to read,
// and returns their ids. An id that is not one of the customer's messages fails the whole request with
// db.ErrNotFound and changes nothing.
func (s *Store) MarkRead(ctx context.Context, customerID int64, by string, req ReadRequest, at int64) ([]int64, error) {
	var ids []int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		f := db.Scope("messages.customer_id", customerID).And(unreadFor, by)
		switch {
		case len(req.IDs) > 0:
			want := db.Args(slices.Compact(slices.Sorted(slices.Values(req.IDs))))
			known := db.Scope("customer_id", customerID).In("id", want)
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM messages WHERE `+known.Cond(), known.Args()...).Scan(&n); err != nil {
				return err
			}
			if n != len(want) {
				return db.ErrNotFound
			}
			f.In("messages.id", want)
		case req.MsID != "":
			f.And("messages.sender_id = ? AND messages.target_gid = 0", req.MsID)
		case req.GID != 0:
			f.Eq("messages.target_gid", req.GID)
		case req.All:
		default:
			return nil
		}
		rows, err := tx.Query(ctx, `SELECT messages.id FROM messages WHERE `+f.Cond()+` ORDER BY messages.id`, f.Args()...)
		if ids, err = db.Collect(rows, err, db.Int64); err != nil {
			return err
		}
		for chunk := range slices.Chunk(ids, 500) {
			if _, err := tx.Exec(ctx, `UPDATE messages SET status = 1, read_by = ?, read_at = ? WHERE status = 0 AND id IN (`+
				db.Placeholders(len(chunk))+`)`, append([]any{by, at}, db.Args(chunk)...)...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// ReportQuery selects the message-data report: messages sent or received by the terminals in a range.
type ReportQuery struct {
	MsIDs    []string // empty: every terminal
	From, To int64
	Offset   int
	Limit    int
}

// TerminalCount is one terminal's line of the report summary.
type TerminalCount struct {
	MsID      string `json:"msId"`
	MsName    string `json:"msName"`
	Sent      int    `json:"sent"`      // messages the terminal sent
	Received  int    `json:"received"`  // messages addressed to it (directly or through a group)
	Delivered int    `json:"delivered"` // of those, acknowledged by it
}

// Report returns a page of the messages and the per-terminal counts over the whole range.
func (s *Store) Report(ctx context.Context, customerID int64, q ReportQuery) ([]Message, int, []TerminalCount, error) {
	f := db.Scope("messages.customer_id", customerID).Between("messages.created_at", q.From, q.To)
	var in string
	ids := db.Args(q.MsIDs)
	if len(q.MsIDs) > 0 {
		in = db.Placeholders(len(q.MsIDs))
		f.And(`(messages.sender_id IN (`+in+`) OR messages.target_ms_id IN (`+in+`)
			OR messages.id IN (SELECT message_id FROM message_recipients WHERE account_id IN (`+in+`)))`,
			slices.Concat(ids, ids, ids)...)
	}
	list, total, err := s.page(ctx, customerID, f, false, q.Offset, q.Limit)
	if err != nil {
		return nil, 0, nil, err
	}
	counts := map[string]*TerminalCount{}
	at := func(id string) *TerminalCount {
		if counts[id] == nil {
			counts[id] = &TerminalCount{MsID: id}
		}
		return counts[id]
	}
	sentQ := `SELECT sender_id, COUNT(*) FROM messages WHERE customer_id = ? AND incoming = TRUE AND created_at >= ? AND created_at <= ?`
	recvQ := `SELECT r.account_id, COUNT(*), SUM(CASE WHEN r.delivered_at > 0 THEN 1 ELSE 0 END) FROM message_recipients r
		JOIN messages m ON m.id = r.message_id WHERE m.customer_id = ? AND m.created_at >= ? AND m.created_at <= ?`
	base := []any{customerID, q.From, q.To}
	sentArgs, recvArgs := base, base
	if len(q.MsIDs) > 0 {
		sentQ += ` AND sender_id IN (` + in + `)`
		recvQ += ` AND r.account_id IN (` + in + `)`
		sentArgs = append(slices.Clone(base), ids...)
		recvArgs = sentArgs
		for _, id := range q.MsIDs {
			at(id)
		}
	}
	rows, err := s.db.Query(ctx, sentQ+` GROUP BY sender_id`, sentArgs...)
	sent, err := db.Collect(rows, err, func(r db.Scanner) (TerminalCount, error) {
		var c TerminalCount
		return c, r.Scan(&c.MsID, &c.Sent)
	})
	if err != nil {
		return nil, 0, nil, err
	}
	rows, err = s.db.Query(ctx, recvQ+` GROUP BY r.account_id`, recvArgs...)
	recv, err := db.Collect(rows, err, func(r db.Scanner) (TerminalCount, error) {
		var c TerminalCount
		return c, r.Scan(&c.MsID, &c.Received, &c.Delivered)
	})
	if err != nil {
		return nil, 0, nil, err
	}
	for _, c := range sent {
		at(c.MsID).Sent = c.Sent
	}
	for _, c := range recv {
		t := at(c.MsID)
		t.Received, t.Delivered = c.Received, c.Delivered
	}
	summary := make([]TerminalCount, 0, len(counts))
	if len(counts) > 0 {
		ids := make([]directory.TerminalID, 0, len(counts))
		for id := range counts {
			ids = append(ids, directory.TerminalID(id))
		}
		names, err := s.dir.Names(ctx, directory.CustomerID(customerID), ids)
		if err != nil {
			return nil, 0, nil, err
		}
		for id, name := range names {
			counts[string(id)].MsName = name
		}
		for _, c := range counts {
			summary = append(summary, *c)
		}
		slices.SortFunc(summary, func(a, b TerminalCount) int { return strings.Compare(a.MsID, b.MsID) })
	}
	return list, total, summary, nil
}

// Conversation is one line of the unread list: a terminal's direct messages or a group's.
type Conversation struct {
	Type     string `json:"type"` // ConvTerminal or ConvGroup
	MsID     string `json:"msId,omitempty"`
	MsName   string `json:"msName,omitempty"`
	GID      string `json:"gid,omitempty"`
	GName    string `json:"gName,omitempty"`
	Unreads  int    `json:"unreads"`
	LastTime int64  `json:"lastTime"`
}

// UnreadConversations counts a dispatcher's unread messages per conversation, the latest first.
func (s *Store) UnreadConversations(ctx context.Context, customerID int64, dispatcher string) ([]Conversation, error) {
	rows, err := s.db.Query(ctx, `SELECT messages.sender_id, MAX(messages.sender_name), COUNT(*), MAX(messages.created_at)
		FROM messages WHERE messages.customer_id = ? AND messages.target_gid = 0 AND `+unreadFor+` GROUP BY messages.sender_id`,
		customerID, dispatcher)
	out, err := db.Collect(rows, err, func(r db.Scanner) (Conversation, error) {
		c := Conversation{Type: ConvTerminal}
		return c, r.Scan(&c.MsID, &c.MsName, &c.Unreads, &c.LastTime)
	})
	if err != nil {
		return nil, err
	}
	rows, err = s.db.Query(ctx, `SELECT messages.target_gid, COUNT(*), MAX(messages.created_at) FROM messages
		WHERE messages.customer_id = ? AND messages.target_gid <> 0 AND `+unreadFor+` GROUP BY messages.target_gid`,
		customerID, dispatcher)
	var gids []directory.GroupID // groups[i]'s, for their names
	groups, err := db.Collect(rows, err, func(r db.Scanner) (Conversation, error) {
		c := Conversation{Type: ConvGroup}
		var gid int64
		err := r.Scan(&gid, &c.Unreads, &c.LastTime)
		c.GID = strconv.FormatInt(gid, 10)
		gids = append(gids, directory.GroupID(gid))
		return c, err
	})
	if err != nil {
		return nil, err
	}
	gnames, err := s.dir.GroupNames(ctx, directory.CustomerID(customerID), gids)
	if err != nil {
		return nil, err
	}
	for i := range groups {
		groups[i].GName = gnames[gids[i]]
	}
	out = append(out, groups...)
	slices.SortStableFunc(out, func(a, b Conversation) int { return cmp.Compare(b.LastTime, a.LastTime) })
	return out, nil
}
