package directory

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// Store reads and writes groups, memberships and terminal records. Every method is scoped to one customer:
// an id of another customer is db.ErrNotFound and nothing is written.
type Store struct{ db *db.DB }

// NewStore wraps an open store. It holds no state, so every domain may make its own.
func NewStore(d *db.DB) *Store { return &Store{db: d} }

const termCols = `a.id, a.name, a.type, a.online, a.ptt_group_id, a.lat, a.lng, a.speed, a.battery, a.signal,
	a.model, a.last_gps_at, a.call_set_status, a.avatar, a.last_online_at, a.last_offline_at, a.sw_version,
	a.direction, a.altitude, a.kind`

// scanTerminal reads termCols, after any extra leading columns.
func scanTerminal(sc db.Scanner, extra ...any) (Terminal, error) {
	var t Terminal
	var online bool
	var ptt sql.NullInt64
	var pos db.Position
	dest := append(extra, &t.CID, &t.Name, &t.Type, &online, &ptt, &pos.Lat, &pos.Lng, &t.Speed, &t.Battery, &t.Signal,
		&t.Model, &t.LastGps, &t.CallSetStatus, &t.Avatar, &t.LastOnline, &t.LastOffline, &t.Ver,
		&t.direction, &t.altitude, &t.Kind)
	if err := sc.Scan(dest...); err != nil {
		return t, err
	}
	t.Online = "0"
	if online {
		t.Online = "1"
	}
	if ptt.Valid {
		t.Grp = GroupID(ptt.Int64).String()
	}
	t.Lat, t.Lng = pos.Coords()
	return t, nil
}

// Terminal returns one account of the customer.
func (s *Store) Terminal(ctx context.Context, customerID int64, msID string) (Terminal, error) {
	return terminal(ctx, s.db, customerID, msID)
}

func terminal(ctx context.Context, q db.Querier, customerID int64, msID string) (Terminal, error) {
	t, err := scanTerminal(q.QueryRow(ctx, `SELECT `+termCols+` FROM accounts a WHERE a.customer_id = ? AND a.id = ?`,
		customerID, msID))
	return t, db.NotFound(err)
}

// FindTerminals filters the paged terminal list.
type FindTerminals struct {
	Name   string // case-insensitive substring of the name or the id
	Type   string // spec §3 type code; "" = any
	Online *bool
	Offset int
	Limit  int
}

// Terminals returns a page of the customer's accounts ordered by id, and the total matching.
func (s *Store) Terminals(ctx context.Context, customerID int64, f FindTerminals) ([]Terminal, int, error) {
	where := db.Scope("a.customer_id", customerID).
		Contains(f.Name, "a.name", "a.id").
		If(f.Type != "", "a.type = ?", f.Type).
		If(f.Online != nil, "a.online = ?", f.Online != nil && *f.Online)
	if f.Limit <= 0 {
		f.Limit = 20
	}
	return db.List(ctx, s.db, db.ListQuery{Select: termCols, From: "accounts a", Where: where, Order: "a.id",
		Offset: f.Offset, Limit: f.Limit}, func(r db.Scanner) (Terminal, error) { return scanTerminal(r) })
}

// LastGPS returns the last position of every account of the customer that reported one.
func (s *Store) LastGPS(ctx context.Context, customerID int64) ([]LastGPS, error) {
	rows, err := s.db.Query(ctx, `SELECT id, lng, lat, speed, direction, altitude, last_gps_at FROM accounts
		WHERE customer_id = ? AND lat IS NOT NULL AND lng IS NOT NULL ORDER BY id`, customerID)
	return db.Collect(rows, err, func(r db.Scanner) (LastGPS, error) {
		var g LastGPS
		err := r.Scan(&g.Mid, &g.Lng, &g.Lat, &g.Speed, &g.Direction, &g.Altitude, &g.Time)
		return g, err
	})
}

// groupCols, selected FROM groupFrom, are read by scanGroup: the creator's name is read with the group, so a temp
// group names its creator even to a console that does not list that dispatcher.
const (
	groupCols = `g.id, g.parent_id, g.name, g.color, g.seq_num, g.kind, g.creator_id, COALESCE(c.name, '')`
	groupFrom = `ptt_groups g LEFT JOIN accounts c ON c.id = g.creator_id AND c.customer_id = g.customer_id`
)

func scanGroup(sc db.Scanner) (*Group, error) {
	g := &Group{Children: []*Group{}, MsList: []Terminal{}, LastGpsList: []GPSLatest{}}
	var id, parent int64
	if err := sc.Scan(&id, &parent, &g.Name, &g.Color, &g.SeqNum, &g.Kind, &g.Creator, &g.CreatorName); err != nil {
		return nil, err
	}
	g.GID, g.FID = GroupID(id), GroupID(parent)
	return g, nil
}

// Tree returns the customer's groups as a tree: fixed groups nested by fid and ordered by seqNum, then the
// temporary groups at the top level; each with its members (msList) and, when withGPS, their last
// positions (lastGpsList).
func (s *Store) Tree(ctx context.Context, customerID int64, withGPS bool) ([]*Group, error) {
	flat, byID, err := s.groups(ctx, customerID, ` ORDER BY g.kind, g.seq_num, g.id`, withGPS)
	if err != nil {
		return nil, err
	}
	roots := []*Group{}
	for _, g := range flat {
		parent := byID[g.FID]
		if g.Kind == KindTemp || g.FID == Root || parent == nil || parent.Kind != KindFixed {
			roots = append(roots, g)
			continue
		}
		parent.Children = append(parent.Children, g)
	}
	var setDeep func(gs []*Group, d int)
	setDeep = func(gs []*Group, d int) {
		for _, g := range gs {
			g.Deep = d
			if d < 64 { // a corrupted parent cycle cannot recurse forever
				setDeep(g.Children, d+1)
			}
		}
	}
	setDeep(roots, 1)
	return roots, nil
}

// groups reads the customer's groups (more, after the customer: a condition and an order) with their members:
// the list, and the same groups by id.
func (s *Store) groups(ctx context.Context, customerID int64, more string, withGPS bool) ([]*Group, map[GroupID]*Group, error) {
	rows, err := s.db.Query(ctx, `SELECT `+groupCols+` FROM `+groupFrom+` WHERE g.customer_id = ?`+more, customerID)
	list, err := db.Collect(rows, err, scanGroup)
	if err != nil || len(list) == 0 {
		return list, nil, err
	}
	byID := make(map[GroupID]*Group, len(list))
	for _, g := range list {
		byID[g.GID] = g
	}
	return list, byID, s.fillMembers(ctx, s.db, customerID, byID, withGPS)
}

// fillMembers loads the members of the groups in byID (all of the customer's groups).
func (s *Store) fillMembers(ctx context.Context, q db.Querier, customerID int64, byID map[GroupID]*Group, withGPS bool) error {
	rows, err := q.Query(ctx, `SELECT m.group_id, `+termCols+` FROM group_members m
		JOIN ptt_groups g ON g.id = m.group_id
		JOIN accounts a ON a.id = m.account_id
		WHERE g.customer_id = ? AND a.customer_id = ?
		ORDER BY m.group_id, a.id`, customerID, customerID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var gid int64
		t, err := scanTerminal(rows, &gid)
		if err != nil {
			return err
		}
		g := byID[GroupID(gid)]
		if g == nil {
			continue
		}
		addMember(g, t, withGPS)
	}
	return rows.Err()
}

func addMember(g *Group, t Terminal, withGPS bool) {
	g.MsList = append(g.MsList, t)
	g.MemberCount++
	if t.IsOnline() {
		g.OnlineCount++
	}
	if withGPS && t.Lat != nil {
		g.LastGpsList = append(g.LastGpsList, GPSLatest{Mid: t.CID, Lng: *t.Lng, Lat: *t.Lat, Time: t.LastGps})
	}
}

// Group returns one group of the customer with its members and depth (children are not filled).
func (s *Store) Group(ctx context.Context, customerID int64, gid GroupID) (*Group, error) {
	return loadGroup(ctx, s.db, customerID, gid)
}

func loadGroup(ctx context.Context, q db.Querier, customerID int64, gid GroupID) (*Group, error) {
	g, err := scanGroup(q.QueryRow(ctx, `SELECT `+groupCols+` FROM `+groupFrom+` WHERE g.id = ? AND g.customer_id = ?`,
		int64(gid), customerID))
	if err != nil {
		return nil, db.NotFound(err)
	}
	if g.Deep, err = depth(ctx, q, customerID, gid); err != nil {
		return nil, err
	}
	rows, err := q.Query(ctx, `SELECT `+termCols+` FROM group_members m JOIN accounts a ON a.id = m.account_id
		WHERE m.group_id = ? AND a.customer_id = ? ORDER BY a.id`, int64(gid), customerID)
	members, err := db.Collect(rows, err, func(sc db.Scanner) (Terminal, error) { return scanTerminal(sc) })
	if err != nil {
		return nil, err
	}
	for _, t := range members {
		addMember(g, t, true)
	}
	return g, nil
}

// depth is 1 for a top-level group, 2 for its children…
func depth(ctx context.Context, q db.Querier, customerID int64, gid GroupID) (int, error) {
	d := 0
	for cur := gid; cur != Root; d++ {
		if d > MaxDepth+2 {
			return 0, fmt.Errorf("group %d: parent chain too long", gid)
		}
		var parent int64
		if err := q.QueryRow(ctx, `SELECT parent_id FROM ptt_groups WHERE id = ? AND customer_id = ?`,
			int64(cur), customerID).Scan(&parent); err != nil {
			return 0, db.NotFound(err)
		}
		cur = GroupID(parent)
	}
	return d, nil
}

// GroupMembers returns the members of one of the customer's groups.
func (s *Store) GroupMembers(ctx context.Context, customerID int64, gid GroupID) ([]Terminal, error) {
	g, err := s.Group(ctx, customerID, gid)
	if err != nil {
		return nil, err
	}
	return g.MsList, nil
}

// IsMember tells whether an account is a member of a group of the customer.
func (s *Store) IsMember(ctx context.Context, customerID int64, gid GroupID, msID string) (bool, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM group_members m JOIN ptt_groups g ON g.id = m.group_id
		WHERE m.group_id = ? AND m.account_id = ? AND g.customer_id = ?`, int64(gid), msID, customerID).Scan(&n)
	return n > 0, err
}

// GroupsOf returns the groups an account belongs to, fixed first.
func (s *Store) GroupsOf(ctx context.Context, customerID int64, msID string) ([]GroupRef, error) {
	rows, err := s.db.Query(ctx, `SELECT g.id, g.parent_id, g.name, g.kind FROM group_members m
		JOIN ptt_groups g ON g.id = m.group_id
		WHERE m.account_id = ? AND g.customer_id = ? ORDER BY g.kind, g.seq_num, g.id`, msID, customerID)
	return db.Collect(rows, err, func(sc db.Scanner) (GroupRef, error) {
		var r GroupRef
		var id, parent int64
		err := sc.Scan(&id, &parent, &r.Name, &r.Kind)
		r.GID, r.FID = GroupID(id), GroupID(parent)
		return r, err
	})
}

// Membership is what a terminal is told about its groups.
func (s *Store) Membership(ctx context.Context, customerID int64, msID string) (Membership, error) {
	var ptt, def sql.NullInt64
	if err := s.db.QueryRow(ctx, `SELECT ptt_group_id, default_group_id FROM accounts WHERE id = ? AND customer_id = ?`,
		msID, customerID).Scan(&ptt, &def); err != nil {
		return Membership{}, db.NotFound(err)
	}
	groups, err := s.GroupsOf(ctx, customerID, msID)
	if err != nil {
		return Membership{}, err
	}
	m := Membership{MsID: msID, Groups: groups}
	if ptt.Valid {
		m.PttGroup = GroupID(ptt.Int64).String()
	}
	if def.Valid {
		m.GID = GroupID(def.Int64).String()
	}
	return m, nil
}

// checkAccounts fails with db.ErrNotFound unless every id (distinct) is an account of the customer.
func checkAccounts(ctx context.Context, q db.Querier, customerID int64, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	var n int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE customer_id = ? AND id IN (`+db.Placeholders(len(ids))+`)`,
		append([]any{customerID}, db.Args(ids)...)...).Scan(&n); err != nil {
		return err
	}
	if n != len(ids) {
		return db.ErrNotFound
	}
	return nil
}

// groupKind returns the kind of one of the customer's groups.
func groupKind(ctx context.Context, q db.Querier, customerID int64, gid GroupID) (string, error) {
	var kind string
	err := q.QueryRow(ctx, `SELECT kind FROM ptt_groups WHERE id = ? AND customer_id = ?`, int64(gid), customerID).Scan(&kind)
	return kind, db.NotFound(err)
}

// mustBeFixed answers db.ErrNotFound unless gid is one of the customer's fixed groups (the only ones whose
// structure and membership the directory screens change).
func mustBeFixed(ctx context.Context, q db.Querier, customerID int64, gid GroupID) error {
	kind, err := groupKind(ctx, q, customerID, gid)
	if err == nil && kind != KindFixed {
		err = db.ErrNotFound
	}
	return err
}

// mustAffect is db.OneRow with a name another group already has answered as ErrNameExists.
func mustAffect(res sql.Result, err error) error {
	if db.IsUniqueViolation(err) {
		return ErrNameExists
	}
	return db.OneRow(res, err)
}

// RenameGroup renames a fixed group (names are unique per customer: ErrNameExists).
func (s *Store) RenameGroup(ctx context.Context, customerID int64, gid GroupID, name string) error {
	return mustAffect(s.db.Exec(ctx, `UPDATE ptt_groups SET name = ? WHERE id = ? AND customer_id = ? AND kind = 'fixed'`,
		name, int64(gid), customerID))
}

// RenameTerminal sets an account's display name.
func (s *Store) RenameTerminal(ctx context.Context, customerID int64, msID, name string) error {
	return mustAffect(s.db.Exec(ctx, `UPDATE accounts SET name = ? WHERE id = ? AND customer_id = ?`, name, msID, customerID))
}

// SIPTalk returns how a SIP account of the customer asks for the floor (one of the SIPTalk modes); a SIP account
// it does not have is db.ErrNotFound.
func (s *Store) SIPTalk(ctx context.Context, customerID int64, msID string) (string, error) {
	var talk string
	err := s.db.QueryRow(ctx, `SELECT sip_talk FROM accounts WHERE id = ? AND customer_id = ? AND kind = ?`,
		msID, customerID, KindSIP).Scan(&talk)
	return talk, db.NotFound(err)
}

// SetSIPTalk sets how a SIP account of the customer asks for the floor: ErrSIPTalk for a mode that is none of the
// SIPTalk modes, db.ErrNotFound for a SIP account the customer does not have. The account's next call uses it.
func (s *Store) SetSIPTalk(ctx context.Context, customerID int64, msID, talk string) error {
	switch talk {
	case SIPTalkAuto, SIPTalkKeys, SIPTalkVoice:
	default:
		return ErrSIPTalk
	}
	return db.OneRow(s.db.Exec(ctx, `UPDATE accounts SET sip_talk = ? WHERE id = ? AND customer_id = ? AND kind = ?`,
		talk, msID, customerID, KindSIP))
}

// SetVersion records an account's software version.
func (s *Store) SetVersion(ctx context.Context, customerID int64, msID, ver string) error {
	return mustAffect(s.db.Exec(ctx, `UPDATE accounts SET sw_version = ? WHERE id = ? AND customer_id = ?`, ver, msID, customerID))
}

// NewGroup is a fixed group to create.
type NewGroup struct {
	Name   string
	Parent GroupID // Root for a top-level group
	Color  string
}

// AddGroup creates a fixed group at the end of its siblings.
func (s *Store) AddGroup(ctx context.Context, customerID int64, ng NewGroup) (*Group, error) {
	var g *Group
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if ng.Parent != Root {
			if err := mustBeFixed(ctx, tx, customerID, ng.Parent); err != nil {
				return err
			}
			d, err := depth(ctx, tx, customerID, ng.Parent)
			if err != nil {
				return err
			}
			if d+1 > MaxDepth {
				return ErrTooDeep
			}
		}
		var seq int
		if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(seq_num), 0) + 1 FROM ptt_groups
			WHERE customer_id = ? AND parent_id = ? AND kind = 'fixed'`, customerID, int64(ng.Parent)).Scan(&seq); err != nil {
			return err
		}
		var id int64
		err := tx.QueryRow(ctx, `INSERT INTO ptt_groups (customer_id, parent_id, name, color, seq_num, kind, created_at)
			VALUES (?, ?, ?, ?, ?, 'fixed', ?) RETURNING id`,
			customerID, int64(ng.Parent), ng.Name, ng.Color, seq, time.Now().UnixMilli()).Scan(&id)
		if db.IsUniqueViolation(err) {
			return ErrNameExists
		}
		if err != nil {
			return err
		}
		g, err = loadGroup(ctx, tx, customerID, GroupID(id))
		return err
	})
	return g, err
}

// DeleteGroup deletes an empty fixed group (no members, no subgroups: ErrGroupNotEmpty).
func (s *Store) DeleteGroup(ctx context.Context, customerID int64, gid GroupID) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := mustBeFixed(ctx, tx, customerID, gid); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM ptt_groups WHERE customer_id = ? AND parent_id = ?)
			+ (SELECT COUNT(*) FROM group_members WHERE group_id = ?)`, customerID, int64(gid), int64(gid)).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrGroupNotEmpty
		}
		return dropGroup(ctx, tx, customerID, gid)
	})
}

// dropGroup deletes a group; accounts talking in it fall back to their default group.
func dropGroup(ctx context.Context, tx *db.Tx, customerID int64, gid GroupID) error {
	if _, err := tx.Exec(ctx, `UPDATE accounts SET ptt_group_id = default_group_id WHERE customer_id = ? AND ptt_group_id = ?`,
		customerID, int64(gid)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE accounts SET ptt_group_id = NULL WHERE customer_id = ? AND ptt_group_id = ?`,
		customerID, int64(gid)); err != nil {
		return err
	}
	return mustAffect(tx.Exec(ctx, `DELETE FROM ptt_groups WHERE id = ? AND customer_id = ?`, int64(gid), customerID))
}

// SaveMembers puts accounts into a fixed group (nms saveGroupMs).
type SaveMembers struct {
	MsIDs   []string // distinct
	Group   GroupID
	KeepOld bool // keep their other fixed groups; otherwise they move (leave their other fixed groups)
	SetPtt  bool // also make it the group they talk in
}

// SaveMembers applies a SaveMembers request in one transaction and returns the groups whose membership
// changed.
func (s *Store) SaveMembers(ctx context.Context, customerID int64, req SaveMembers) ([]GroupID, error) {
	var changed []GroupID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := mustBeFixed(ctx, tx, customerID, req.Group); err != nil {
			return err
		}
		if err := checkAccounts(ctx, tx, customerID, req.MsIDs); err != nil {
			return err
		}
		in := db.Placeholders(len(req.MsIDs))
		ids := db.Args(req.MsIDs)
		changed = []GroupID{req.Group}
		gid := int64(req.Group)
		if !req.KeepOld {
			rows, err := tx.Query(ctx, `SELECT DISTINCT m.group_id FROM group_members m JOIN ptt_groups g ON g.id = m.group_id
				WHERE g.customer_id = ? AND g.kind = 'fixed' AND m.group_id <> ? AND m.account_id IN (`+in+`)`,
				append([]any{customerID, gid}, ids...)...)
			left, err := db.Collect(rows, err, db.Int64)
			if err != nil {
				return err
			}
			for _, id := range left {
				changed = append(changed, GroupID(id))
			}
			if _, err := tx.Exec(ctx, `DELETE FROM group_members WHERE group_id <> ? AND account_id IN (`+in+`)
				AND group_id IN (SELECT id FROM ptt_groups WHERE customer_id = ? AND kind = 'fixed')`,
				append(append([]any{gid}, ids...), customerID)...); err != nil {
				return err
			}
		}
		for _, id := range req.MsIDs {
			if _, err := tx.Exec(ctx, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
				gid, id); err != nil {
				return err
			}
		}
		scope := append([]any{gid, customerID}, ids...)
		defCond, pttCond := " AND default_group_id IS NULL", " AND ptt_group_id IS NULL"
		if !req.KeepOld {
			// Moved accounts get the new group as default, and talk in it unless they still belong to the
			// group they talk in.
			defCond = ""
			pttCond = ` AND (ptt_group_id IS NULL OR NOT EXISTS
				(SELECT 1 FROM group_members m WHERE m.account_id = accounts.id AND m.group_id = accounts.ptt_group_id))`
		}
		if req.SetPtt {
			pttCond = ""
		}
		if _, err := tx.Exec(ctx, `UPDATE accounts SET default_group_id = ? WHERE customer_id = ? AND id IN (`+in+`)`+defCond,
			scope...); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE accounts SET ptt_group_id = ? WHERE customer_id = ? AND id IN (`+in+`)`+pttCond, scope...)
		return err
	})
	slices.Sort(changed)
	return slices.Compact(changed), err
}

// RemoveMembers takes accounts out of a fixed group (ErrNotMember if one is not in it). Accounts whose default
// group it was get another of their fixed groups (or none); those talking in it fall back to their default.
func (s *Store) RemoveMembers(ctx context.Context, customerID int64, gid GroupID, msIDs []string) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := mustBeFixed(ctx, tx, customerID, gid); err != nil {
			return err
		}
		if err := checkAccounts(ctx, tx, customerID, msIDs); err != nil {
			return err
		}
		in := db.Placeholders(len(msIDs))
		ids := db.Args(msIDs)
		res, err := tx.Exec(ctx, `DELETE FROM group_members WHERE group_id = ? AND account_id IN (`+in+`)`,
			append([]any{int64(gid)}, ids...)...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if int(n) != len(msIDs) {
			return ErrNotMember // rolls back the partial delete
		}
		return fallBack(ctx, tx, customerID, gid, msIDs)
	})
}

// fallBack repairs default and ptt groups of accounts that just left gid.
func fallBack(ctx context.Context, tx *db.Tx, customerID int64, gid GroupID, msIDs []string) error {
	in := db.Placeholders(len(msIDs))
	scope := append([]any{customerID, int64(gid)}, db.Args(msIDs)...)
	if _, err := tx.Exec(ctx, `UPDATE accounts SET default_group_id = (SELECT MIN(m.group_id) FROM group_members m
			JOIN ptt_groups g ON g.id = m.group_id WHERE m.account_id = accounts.id AND g.kind = 'fixed')
		WHERE customer_id = ? AND default_group_id = ? AND id IN (`+in+`)`, scope...); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE accounts SET ptt_group_id = default_group_id
		WHERE customer_id = ? AND ptt_group_id = ? AND id IN (`+in+`)`, scope...)
	return err
}

// CreateTemp creates a temporary group with its members (the creator included by the caller).
func (s *Store) CreateTemp(ctx context.Context, customerID int64, name, creator string, members []string) (*Group, error) {
	var g *Group
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := checkAccounts(ctx, tx, customerID, members); err != nil {
			return err
		}
		var id int64
		err := tx.QueryRow(ctx, `INSERT INTO ptt_groups (customer_id, parent_id, name, kind, creator_id, created_at)
			VALUES (?, 0, ?, 'temp', ?, ?) RETURNING id`, customerID, name, creator, time.Now().UnixMilli()).Scan(&id)
		if db.IsUniqueViolation(err) {
			return ErrNameExists
		}
		if err != nil {
			return err
		}
		for _, m := range members {
			if _, err := tx.Exec(ctx, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?)`, id, m); err != nil {
				return err
			}
		}
		g, err = loadGroup(ctx, tx, customerID, GroupID(id))
		return err
	})
	return g, err
}

// tempGroup loads a temporary group of the customer (db.ErrNotFound for fixed groups).
func tempGroup(ctx context.Context, q db.Querier, customerID int64, gid GroupID) (*Group, error) {
	g, err := loadGroup(ctx, q, customerID, gid)
	if err != nil {
		return nil, err
	}
	if g.Kind != KindTemp {
		return nil, db.ErrNotFound
	}
	return g, nil
}

// DeleteTemp removes a temporary group and returns it as it was (with its members).
func (s *Store) DeleteTemp(ctx context.Context, customerID int64, gid GroupID) (*Group, error) {
	var g *Group
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		if g, err = tempGroup(ctx, tx, customerID, gid); err != nil {
			return err
		}
		return dropGroup(ctx, tx, customerID, gid)
	})
	return g, err
}

// TempEdit changes a temporary group.
type TempEdit struct {
	Name   string   // "" = keep
	Add    []string // distinct
	Remove []string // distinct; each must be a member (ErrNotMember)
}

// TempEdited is the outcome of EditTemp.
type TempEdited struct {
	Before  *Group
	After   *Group     // nil when the group was removed
	Removed []Terminal // members taken out
	Deleted bool       // left with one member or none, so removed (spec §4)
}

// EditTemp renames a temporary group and adds/removes members in one transaction; a group left with at most
// one member is removed.
func (s *Store) EditTemp(ctx context.Context, customerID int64, gid GroupID, e TempEdit) (TempEdited, error) {
	var out TempEdited
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := tempGroup(ctx, tx, customerID, gid)
		if err != nil {
			return err
		}
		out.Before = before
		if e.Name != "" && e.Name != before.Name {
			if err := mustAffect(tx.Exec(ctx, `UPDATE ptt_groups SET name = ? WHERE id = ? AND customer_id = ?`,
				e.Name, int64(gid), customerID)); err != nil {
				return err
			}
		}
		if err := checkAccounts(ctx, tx, customerID, e.Add); err != nil {
			return err
		}
		for _, m := range e.Add {
			if _, err := tx.Exec(ctx, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
				int64(gid), m); err != nil {
				return err
			}
		}
		members := map[string]Terminal{}
		for _, t := range before.MsList {
			members[t.CID] = t
		}
		for _, m := range e.Remove {
			t, ok := members[m]
			if !ok {
				return ErrNotMember
			}
			out.Removed = append(out.Removed, t)
		}
		if len(e.Remove) > 0 {
			if _, err := tx.Exec(ctx, `DELETE FROM group_members WHERE group_id = ? AND account_id IN (`+
				db.Placeholders(len(e.Remove))+`)`, append([]any{int64(gid)}, db.Args(e.Remove)...)...); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE accounts SET ptt_group_id = default_group_id
				WHERE customer_id = ? AND ptt_group_id = ? AND id IN (`+db.Placeholders(len(e.Remove))+`)`,
				append([]any{customerID, int64(gid)}, db.Args(e.Remove)...)...); err != nil {
				return err
			}
		}
		after, err := loadGroup(ctx, tx, customerID, gid)
		if err != nil {
			return err
		}
		if after.MemberCount > MaxTempMembers {
			return httpx.BadParam("add", "too many members")
		}
		if after.MemberCount <= 1 {
			out.Deleted = true
			return dropGroup(ctx, tx, customerID, gid)
		}
		out.After = after
		return nil
	})
	return out, err
}

// TempGroups lists the customer's temporary groups with their members.
func (s *Store) TempGroups(ctx context.Context, customerID int64) ([]*Group, error) {
	list, _, err := s.groups(ctx, customerID, ` AND g.kind = 'temp' ORDER BY g.id`, true)
	if err != nil {
		return nil, err
	}
	for _, g := range list {
		g.Deep = 1 // temporary groups are all at the top level
	}
	return list, nil
}

// SwitchPtt makes gid the group an account talks in and returns the previous one (Root when none). With
// mustBeMember the account has to belong to the group (ErrNotMember).
func (s *Store) SwitchPtt(ctx context.Context, customerID int64, msID string, gid GroupID, mustBeMember bool) (GroupID, error) {
	var from GroupID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var ptt sql.NullInt64
		if err := tx.QueryRow(ctx, `SELECT ptt_group_id FROM accounts WHERE id = ? AND customer_id = ?`, msID, customerID).
			Scan(&ptt); err != nil {
			return db.NotFound(err)
		}
		from = GroupID(ptt.Int64)
		if _, err := groupKind(ctx, tx, customerID, gid); err != nil {
			return err
		}
		if mustBeMember {
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM group_members WHERE group_id = ? AND account_id = ?`,
				int64(gid), msID).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return ErrNotMember
			}
		}
		_, err := tx.Exec(ctx, `UPDATE accounts SET ptt_group_id = ? WHERE id = ? AND customer_id = ?`, int64(gid), msID, customerID)
		return err
	})
	return from, err
}

// SetOnline records an account going online or offline at a time (last online/offline time).
func (s *Store) SetOnline(ctx context.Context, customerID int64, msID string, online bool, at time.Time) error {
	q := `UPDATE accounts SET online = FALSE, last_offline_at = ? WHERE id = ? AND customer_id = ?`
	if online {
		q = `UPDATE accounts SET online = TRUE, last_online_at = ? WHERE id = ? AND customer_id = ?`
	}
	return mustAffect(s.db.Exec(ctx, q, at.UnixMilli(), msID, customerID))
}

// ResetPresence marks every account offline: at start-up nothing is connected to this node yet.
// (With several nodes this becomes per-node presence; see DESIGN.md §11.)
func (s *Store) ResetPresence(ctx context.Context, at time.Time) error {
	_, err := s.db.Exec(ctx, `UPDATE accounts SET online = FALSE, last_offline_at = ? WHERE online = TRUE`, at.UnixMilli())
	return err
}
