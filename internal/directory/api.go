package directory

// The directory API: everything other domains read or write of terminals, groups and membership goes through
// these methods of *Store, so the accounts, ptt_groups and group_members tables have one owner (internal/auth
// keeps the credentials). A domain declares the few methods it uses as an interface where it uses them
// (`type Directory interface{ GroupTerminals(...) }`) and internal/app wires the directory's Store in.
//
//	accounts         Account, CheckTerminal, Accounts, AllTerminals, Names; Terminal is the console's record
//	groups           GroupInfo, GroupNames, GroupTerminals (members that are terminals), Members, Audience
//	                 (members and every account talking in the group)
//	call-set status  SetCallSetStatus; read it as Account.CallSetStatus
//	last status      LastStatus (battery, signal), LastStates (start-up load of every account), SyncLast (the
//	                 GPS writer's batched copy of the latest positions and statuses)
//	look             SetIcon (avatar and map icon), SetGroupColor
//	presence         SetOnline, ResetPresence (presence.go keeps them in step with the hub)
//	provisioning     Provision, AccountsInRange (demo seeding, the simulator, bench): many accounts in one
//	                 transaction
//
// Every method scoped to a customer takes its id and never reads or writes another customer's rows: an id of
// another customer is db.ErrNotFound, or left out of a list.

import (
	"cmp"
	"context"
	"slices"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// TerminalID is an account's id (msId, cid): a terminal's or a dispatcher's.
type TerminalID string

// CustomerID is a customer's id (the spec's "client").
type CustomerID int64

// TerminalIDs types a list of account ids as other domains keep them.
func TerminalIDs(ids []string) []TerminalID {
	out := make([]TerminalID, len(ids))
	for i, id := range ids {
		out[i] = TerminalID(id)
	}
	return out
}

// Strings is a list of account ids as other domains keep them (the inverse of TerminalIDs).
func Strings(ids []TerminalID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return out
}

// Account is what other domains read of an account: who it is, what it is and the state that decides whether
// it may talk.
type Account struct {
	ID            TerminalID
	Customer      CustomerID
	Type          string // spec §3 type code; identity.DispatcherType for a console
	AcctType      string // feature access code "1" or "-2" (spec §6)
	Name          string
	CallSetStatus int      // 0 killed, 1 stunned, 8 active
	TalkGroup     GroupID  // the group it talks in: its ptt group, else its default group, Root when none
	Lat, Lng      *float64 // last position; nil until the first
	LastGps       int64    // when that position was fixed (ms); 0 until the first
}

// Dispatcher tells a console account from a terminal.
func (a Account) Dispatcher() bool { return a.Type == identity.DispatcherType }

const accountCols = `id, customer_id, type, acct_type, name, call_set_status, COALESCE(ptt_group_id, default_group_id, 0),
	lat, lng, last_gps_at`

func scanAccount(sc db.Scanner) (Account, error) {
	var a Account
	var talk int64
	var pos db.Position
	if err := sc.Scan(&a.ID, &a.Customer, &a.Type, &a.AcctType, &a.Name, &a.CallSetStatus, &talk, &pos.Lat, &pos.Lng, &a.LastGps); err != nil {
		return a, db.NotFound(err)
	}
	a.TalkGroup = GroupID(talk)
	a.Lat, a.Lng = pos.Coords()
	return a, nil
}

func (s *Store) accounts(ctx context.Context, q string, args ...any) ([]Account, error) {
	rows, err := s.db.Query(ctx, q, args...)
	return db.Collect(rows, err, scanAccount)
}

// Account reads one account of the customer, dispatchers included.
func (s *Store) Account(ctx context.Context, c CustomerID, id TerminalID) (Account, error) {
	return scanAccount(s.db.QueryRow(ctx, `SELECT `+accountCols+` FROM accounts WHERE id = ? AND customer_id = ?`, id, c))
}

// CheckTerminal reads one terminal of the customer: unknown ids, other customers' ids and dispatchers are
// db.ErrNotFound.
func (s *Store) CheckTerminal(ctx context.Context, c CustomerID, id TerminalID) (Account, error) {
	a, err := s.Account(ctx, c, id)
	if err == nil && a.Dispatcher() {
		return Account{}, db.ErrNotFound
	}
	return a, err
}

// Accounts reads the given accounts of the customer ordered by id; unknown ids are left out.
func (s *Store) Accounts(ctx context.Context, c CustomerID, ids []TerminalID) ([]Account, error) {
	var out []Account
	err := eachIn(ctx, s.db, `SELECT `+accountCols+` FROM accounts WHERE customer_id = ? AND id IN (`, c, ids,
		func(sc db.Scanner) error {
			a, err := scanAccount(sc)
			out = append(out, a)
			return err
		})
	slices.SortFunc(out, func(a, b Account) int { return cmp.Compare(a.ID, b.ID) })
	return out, err
}

// AllTerminals reads every terminal (account that is not a dispatcher) of the customer ordered by id: the
// parties of an all call.
func (s *Store) AllTerminals(ctx context.Context, c CustomerID) ([]Account, error) {
	return s.accounts(ctx, `SELECT `+accountCols+` FROM accounts WHERE customer_id = ? AND type <> '20' ORDER BY id`, c)
}

// Names returns the names of the customer's accounts among ids; unknown ids are left out (a caller that needs
// every id to exist compares the lengths).
func (s *Store) Names(ctx context.Context, c CustomerID, ids []TerminalID) (map[TerminalID]string, error) {
	return namesIn(ctx, s.db, "accounts", c, ids)
}

// GroupInfo reads one group of the customer without its members (GID, FID, name, kind).
func (s *Store) GroupInfo(ctx context.Context, c CustomerID, gid GroupID) (GroupRef, error) {
	r := GroupRef{GID: gid}
	var parent int64
	err := s.db.QueryRow(ctx, `SELECT parent_id, name, kind FROM ptt_groups WHERE id = ? AND customer_id = ?`, int64(gid), c).
		Scan(&parent, &r.Name, &r.Kind)
	r.FID = GroupID(parent)
	return r, db.NotFound(err)
}

// GroupNames returns the names of the customer's groups among gids; unknown ids are left out.
func (s *Store) GroupNames(ctx context.Context, c CustomerID, gids []GroupID) (map[GroupID]string, error) {
	return namesIn(ctx, s.db, "ptt_groups", c, gids)
}

// namesIn reads the names of the customer's rows of table (accounts, ptt_groups) among ids.
func namesIn[K comparable](ctx context.Context, q db.Querier, table string, c CustomerID, ids []K) (map[K]string, error) {
	out := make(map[K]string, len(ids))
	return out, eachIn(ctx, q, `SELECT id, name FROM `+table+` WHERE customer_id = ? AND id IN (`, c, ids,
		func(sc db.Scanner) error {
			var id K
			var name string
			if err := sc.Scan(&id, &name); err != nil {
				return err
			}
			out[id] = name
			return nil
		})
}

// GroupTerminals returns the ids of a group's members that are terminals (not dispatchers), ordered: who a
// message or a tone to the group goes to. An unknown group or another customer's is db.ErrNotFound.
func (s *Store) GroupTerminals(ctx context.Context, c CustomerID, gid GroupID) ([]TerminalID, error) {
	if _, err := groupKind(ctx, s.db, int64(c), gid); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT a.id FROM group_members m JOIN accounts a ON a.id = m.account_id
		WHERE m.group_id = ? AND a.customer_id = ? AND a.type <> '20' ORDER BY a.id`, int64(gid), c)
	return db.Collect(rows, err, func(sc db.Scanner) (TerminalID, error) {
		var id TerminalID
		err := sc.Scan(&id)
		return id, err
	})
}

// Members reads every member of a group (dispatchers included) ordered by id: a temporary group's parties. An
// unknown group or another customer's is db.ErrNotFound.
func (s *Store) Members(ctx context.Context, c CustomerID, gid GroupID) ([]Account, error) {
	if _, err := groupKind(ctx, s.db, int64(c), gid); err != nil {
		return nil, err
	}
	return s.accounts(ctx, `SELECT `+accountCols+` FROM accounts WHERE customer_id = ?
		AND id IN (SELECT account_id FROM group_members WHERE group_id = ?) ORDER BY id`, c, int64(gid))
}

// Audience reads who hears a group call ordered by id: the group's members and every account whose ptt group
// it is (a dispatcher talks in any group). An unknown group or another customer's is db.ErrNotFound.
func (s *Store) Audience(ctx context.Context, c CustomerID, gid GroupID) ([]Account, error) {
	if _, err := groupKind(ctx, s.db, int64(c), gid); err != nil {
		return nil, err
	}
	// Two indexed halves (accounts by ptt group, group_members by group) instead of one OR that scans every
	// account of the customer.
	return s.accounts(ctx, `SELECT `+accountCols+` FROM accounts WHERE customer_id = ? AND ptt_group_id = ?
		UNION SELECT `+accountCols+` FROM accounts WHERE customer_id = ?
			AND id IN (SELECT account_id FROM group_members WHERE group_id = ?) ORDER BY id`, c, int64(gid), c, int64(gid))
}

// SetCallSetStatus stores a terminal's call-set status (spec §4: 0 killed, 1 stunned, 8 active).
func (s *Store) SetCallSetStatus(ctx context.Context, c CustomerID, id TerminalID, status int) error {
	if status != 0 && status != 1 && status != 8 {
		return httpx.BadParam("status", "0, 1 or 8")
	}
	return mustAffect(s.db.Exec(ctx, `UPDATE accounts SET call_set_status = ? WHERE id = ? AND customer_id = ?`,
		status, id, c))
}

// Status is a terminal's last battery (percent) and signal (0..5); -1 is unknown.
type Status struct{ Battery, Signal int }

// LastStatus reads the last battery and signal of the customer's accounts among ids; unknown ids are left out.
func (s *Store) LastStatus(ctx context.Context, c CustomerID, ids []TerminalID) (map[TerminalID]Status, error) {
	out := make(map[TerminalID]Status, len(ids))
	return out, eachIn(ctx, s.db, `SELECT id, battery, signal FROM accounts WHERE customer_id = ? AND id IN (`, c, ids,
		func(sc db.Scanner) error {
			var id TerminalID
			var st Status
			err := sc.Scan(&id, &st.Battery, &st.Signal)
			out[id] = st
			return err
		})
}

// SetIcon sets the avatar (an image URL) and the map icon key of the customer's accounts, all or none: an
// unknown id is db.ErrNotFound and changes nothing.
func (s *Store) SetIcon(ctx context.Context, c CustomerID, ids []TerminalID, avatar, mapIcon string) error {
	ids = distinct(ids)
	if len(ids) == 0 {
		return nil
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := checkAccounts(ctx, tx, int64(c), Strings(ids)); err != nil {
			return err
		}
		for chunk := range slices.Chunk(ids, maxIn) {
			if _, err := tx.Exec(ctx, `UPDATE accounts SET avatar = ?, map_icon = ? WHERE customer_id = ? AND id IN (`+
				db.Placeholders(len(chunk))+`)`, append([]any{avatar, mapIcon, c}, anys(chunk)...)...); err != nil {
				return err
			}
		}
		return nil
	})
}

// SetGroupColor sets a group's colour on the map.
func (s *Store) SetGroupColor(ctx context.Context, c CustomerID, gid GroupID, color string) error {
	return mustAffect(s.db.Exec(ctx, `UPDATE ptt_groups SET color = ? WHERE id = ? AND customer_id = ?`,
		color, int64(gid), c))
}

// eachIn runs query, which ends in "IN (", for the customer over the distinct ids in chunks of maxIn and hands
// every row to fn.
func eachIn[T comparable](ctx context.Context, q db.Querier, query string, c CustomerID, ids []T, fn func(db.Scanner) error) error {
	for chunk := range slices.Chunk(distinct(ids), maxIn) {
		rows, err := q.Query(ctx, query+db.Placeholders(len(chunk))+`)`, append([]any{c}, anys(chunk)...)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := fn(rows); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// maxIn bounds the ids of one IN list (both engines take far more; this keeps statements small).
const maxIn = 500

func distinct[T comparable](ids []T) []T {
	seen := make(map[T]bool, len(ids))
	out := make([]T, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func anys[T any](v []T) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}
