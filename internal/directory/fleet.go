package directory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"tenfour/internal/platform/db"
)

// Fix is a terminal's last position (degrees, m/s, degrees, metres) and its time (ms).
type Fix struct {
	Lat, Lng, Speed, Direction, Altitude float64
	Time                                 int64
}

// LastState is an account's last position and status as the accounts table has it.
type LastState struct {
	ID       TerminalID
	Customer CustomerID
	Fix      *Fix // nil until the first position
	Status
}

// LastStates reads the last position and status of every account of every customer that has one: the GPS
// service warms its cache with them at start-up.
func (s *Store) LastStates(ctx context.Context) ([]LastState, error) {
	rows, err := s.db.Query(ctx, `SELECT id, customer_id, lat, lng, speed, direction, altitude, last_gps_at, battery, signal
		FROM accounts WHERE (lat IS NOT NULL AND lng IS NOT NULL) OR battery >= 0 OR signal >= 0`)
	return db.Collect(rows, err, func(sc db.Scanner) (LastState, error) {
		var st LastState
		var lat, lng sql.NullFloat64
		var f Fix
		err := sc.Scan(&st.ID, &st.Customer, &lat, &lng, &f.Speed, &f.Direction, &f.Altitude, &f.Time,
			&st.Battery, &st.Signal)
		if lat.Valid && lng.Valid {
			f.Lat, f.Lng = lat.Float64, lng.Float64
			st.Fix = &f
		}
		return st, err
	})
}

// LastReport is one account's latest position and/or status to store.
type LastReport struct {
	ID       TerminalID
	Customer CustomerID
	Fix      *Fix    // nil: the position is left as it is; a stored position only moves forward in time
	Status   *Status // nil: battery and signal are left as they are
}

// SyncLast stores the latest positions and statuses of many accounts at once (the GPS writer's periodic
// flush), so the directory's reads and a restarted node see them: one transaction on SQLite, two statements
// with array parameters on PostgreSQL (ten thousand terminals cost two round trips).
func (s *Store) SyncLast(ctx context.Context, list []LastReport) error {
	if len(list) == 0 {
		return nil
	}
	if s.db.Dialect == db.Postgres {
		return syncLastPG(ctx, s.db, list)
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, a := range list {
			if f := a.Fix; f != nil {
				if _, err := tx.Exec(ctx, `UPDATE accounts SET lat = ?, lng = ?, speed = ?, direction = ?, altitude = ?,
					last_gps_at = ? WHERE id = ? AND customer_id = ? AND last_gps_at <= ?`,
					f.Lat, f.Lng, f.Speed, f.Direction, f.Altitude, f.Time, string(a.ID), int64(a.Customer), f.Time); err != nil {
					return err
				}
			}
			if st := a.Status; st != nil {
				if _, err := tx.Exec(ctx, `UPDATE accounts SET battery = ?, signal = ? WHERE id = ? AND customer_id = ?`,
					st.Battery, st.Signal, string(a.ID), int64(a.Customer)); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func syncLastPG(ctx context.Context, d *db.DB, list []LastReport) error {
	var ids, sids []string
	var cust, at, scust []int64
	var lat, lng, speed, dir, alt []float64
	var batt, sig []int64
	for _, a := range list {
		if f := a.Fix; f != nil {
			ids, cust, at = append(ids, string(a.ID)), append(cust, int64(a.Customer)), append(at, f.Time)
			lat, lng, speed = append(lat, f.Lat), append(lng, f.Lng), append(speed, f.Speed)
			dir, alt = append(dir, f.Direction), append(alt, f.Altitude)
		}
		if st := a.Status; st != nil {
			sids, scust = append(sids, string(a.ID)), append(scust, int64(a.Customer))
			batt, sig = append(batt, int64(st.Battery)), append(sig, int64(st.Signal))
		}
	}
	return d.InTx(ctx, func(tx *db.Tx) error {
		if len(ids) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE accounts a SET lat = v.lat, lng = v.lng, speed = v.speed, direction = v.dir,
				altitude = v.alt, last_gps_at = v.at
				FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::float8[], ?::float8[], ?::float8[], ?::float8[], ?::float8[])
					AS v(id, cust, at, lat, lng, speed, dir, alt)
				WHERE a.id = v.id AND a.customer_id = v.cust AND a.last_gps_at <= v.at`,
				ids, cust, at, lat, lng, speed, dir, alt); err != nil {
				return err
			}
		}
		if len(sids) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE accounts a SET battery = v.battery, signal = v.signal
				FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) AS v(id, cust, battery, signal)
				WHERE a.id = v.id AND a.customer_id = v.cust`, sids, scust, batt, sig); err != nil {
				return err
			}
		}
		return nil
	})
}

// Fleet is a batch of fixed groups and accounts for one customer, created by Provision.
type Fleet struct {
	Customer CustomerID
	Groups   []FleetGroup   // in order: a parent before its children
	Accounts []FleetAccount // each a member of its Groups
	Now      int64          // created_at (ms)
}

// FleetGroup is a fixed group to create.
type FleetGroup struct {
	Name   string
	Parent string // the name of an earlier group of the fleet; "" for a top-level group
	Color  string
}

// FleetAccount is an account to create. Its password hash comes from auth.HashPassword (accounts of a fleet
// share one: hashing is what makes one-by-one creation slow).
type FleetAccount struct {
	ID           TerminalID
	Type         string // spec §3 type code
	Name         string
	Model        string
	Admin        bool
	PasswordHash string
	Groups       []string // names of the fleet's groups; the first is its default and ptt group
	Status       *Status  // nil: unknown (-1)
	Fix          *Fix     // nil: no position yet
}

// Provision creates a fleet's groups and accounts inside tx (the caller's transaction, so seeding a customer
// and its fleet is all or nothing) and returns the ids of the groups by name. Sibling groups are numbered in
// order (seqNum).
func Provision(ctx context.Context, tx *db.Tx, f Fleet) (map[string]GroupID, error) {
	gids := make(map[string]GroupID, len(f.Groups))
	seq := map[string]int{}
	for _, g := range f.Groups {
		parent := Root
		if g.Parent != "" {
			p, ok := gids[g.Parent]
			if !ok {
				return nil, fmt.Errorf("provision: group %q: parent %q is not an earlier group", g.Name, g.Parent)
			}
			parent = p
		}
		seq[g.Parent]++
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO ptt_groups (customer_id, parent_id, name, color, seq_num, kind, created_at)
			VALUES (?, ?, ?, ?, ?, 'fixed', ?) RETURNING id`, int64(f.Customer), int64(parent), g.Name, g.Color,
			seq[g.Parent], f.Now).Scan(&id); err != nil {
			return nil, fmt.Errorf("provision: group %q: %w", g.Name, err)
		}
		gids[g.Name] = GroupID(id)
	}
	for _, a := range f.Accounts {
		var def any
		groups := make([]GroupID, 0, len(a.Groups))
		for _, name := range a.Groups {
			g, ok := gids[name]
			if !ok {
				return nil, fmt.Errorf("provision: account %s: group %q is not in the fleet", a.ID, name)
			}
			groups = append(groups, g)
		}
		if len(groups) > 0 {
			def = int64(groups[0])
		}
		st := Status{Battery: -1, Signal: -1}
		if a.Status != nil {
			st = *a.Status
		}
		var lat, lng any
		var fix Fix
		if a.Fix != nil {
			fix = *a.Fix
			lat, lng = fix.Lat, fix.Lng
		}
		if _, err := tx.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, admin, name, password_hash, model,
			default_group_id, ptt_group_id, battery, signal, lat, lng, speed, direction, altitude, last_gps_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			string(a.ID), int64(f.Customer), a.Type, a.Admin, a.Name, a.PasswordHash, a.Model, def, def, st.Battery,
			st.Signal, lat, lng, fix.Speed, fix.Direction, fix.Altitude, fix.Time, f.Now); err != nil {
			return nil, fmt.Errorf("provision: account %s: %w", a.ID, err)
		}
		for _, g := range groups {
			if _, err := tx.Exec(ctx, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?)`,
				int64(g), string(a.ID)); err != nil {
				return nil, fmt.Errorf("provision: account %s in group %d: %w", a.ID, g, err)
			}
		}
	}
	return gids, nil
}

// FixedGroup resolves the fixed group an account created one by one (the admin shell) joins, inside tx: id when
// given (it must be the customer's: db.ErrNotFound otherwise), else the customer's fixed group called name,
// created under the root when there is none; 0 when both are blank. name is already checked by the caller.
func FixedGroup(ctx context.Context, tx *db.Tx, c CustomerID, id GroupID, name string, now int64) (GroupID, error) {
	if id != 0 {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM ptt_groups WHERE id = ? AND customer_id = ? AND kind = 'fixed'`,
			int64(id), int64(c)).Scan(&n); err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, fmt.Errorf("group %d of customer %d: %w", id, c, db.ErrNotFound)
		}
		return id, nil
	}
	if name == "" {
		return 0, nil
	}
	var gid int64
	err := tx.QueryRow(ctx, `SELECT id FROM ptt_groups WHERE customer_id = ? AND kind = 'fixed' AND name = ?`,
		int64(c), name).Scan(&gid)
	if errors.Is(err, sql.ErrNoRows) {
		err = tx.QueryRow(ctx, `INSERT INTO ptt_groups (customer_id, parent_id, name, kind, created_at)
			VALUES (?, ?, ?, 'fixed', ?) RETURNING id`, int64(c), int64(Root), name, now).Scan(&gid)
	}
	return GroupID(gid), err
}

// Join makes an account a member of a group inside tx (the account created in the same transaction).
func Join(ctx context.Context, tx *db.Tx, gid GroupID, account TerminalID) error {
	_, err := tx.Exec(ctx, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?)`, int64(gid), string(account))
	return err
}

// AccountsInRange counts the accounts whose 8-character ids lie between first and last (inclusive), and
// returns the customer of first (0 when first does not exist): the simulator's "is this range provisioned".
func AccountsInRange(ctx context.Context, tx *db.Tx, first, last TerminalID) (int, CustomerID, error) {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE id >= ? AND id <= ? AND length(id) = 8`,
		string(first), string(last)).Scan(&n); err != nil {
		return 0, 0, err
	}
	var c int64
	err := tx.QueryRow(ctx, `SELECT customer_id FROM accounts WHERE id = ?`, string(first)).Scan(&c)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, 0, err
	}
	return n, CustomerID(c), nil
}
