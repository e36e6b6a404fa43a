package sim

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
)

// Provisioning creates a large simulated fleet's accounts straight in the store (`tenfour sim --provision`,
// run against the server's --data or --db, best before the server starts). `tenfour admin create-terminal`
// hashes each password on its own (argon2id, ~20 ms) and opens the store per account, which for 10,000
// terminals takes minutes; like the demo seeder, provisioning hashes the shared password once and writes
// everything in one transaction.

// ProvisionOptions describe the fleet to create.
type ProvisionOptions struct {
	Customer   string // created when missing
	First      int    // first account number (8 digits)
	Count      int
	Password   string // 6 digits, or a password meeting the new-password rule
	GroupSize  int    // terminals per group (default 50)
	Dispatcher string // optional: a dispatcher account (administrator, member of every group) to watch the fleet
}

// Provisioned says what Provision did.
type Provisioned struct {
	CustomerID int64
	Created    int // terminals created (0 when the range existed already)
	Groups     int
}

// Provision creates a customer with Count terminals First… typed by MixType, GroupSize to a group, every
// account sharing one password. A range that exists entirely is left alone; one that exists in part is an
// error.
func Provision(ctx context.Context, d *db.DB, o ProvisionOptions) (Provisioned, error) {
	if o.GroupSize <= 0 {
		o.GroupSize = 50
	}
	if o.Customer == "" {
		o.Customer = "Sim Fleet"
	}
	if o.Count <= 0 {
		return Provisioned{}, errors.New("provision: count must be positive")
	}
	if !auth.ValidAccountID(strconv.Itoa(o.First)) || !auth.ValidAccountID(strconv.Itoa(o.First+o.Count-1)) {
		return Provisioned{}, fmt.Errorf("provision: %d…%d are not 8-digit account numbers", o.First, o.First+o.Count-1)
	}
	if o.Dispatcher != "" && !auth.ValidAccountID(o.Dispatcher) {
		return Provisioned{}, fmt.Errorf("provision: dispatcher %q is not an 8-digit account number", o.Dispatcher)
	}
	if !auth.ValidOriginalPassword(o.Password) && !auth.ValidNewPassword(o.Password) {
		//lint:ignore ST1005 the message ends with the list of allowed special characters, which is punctuation
		return Provisioned{}, errors.New("provision: the password must be 6 digits, or 8-64 characters with upper and lower case, a digit and one of " + auth.PasswordSpecials)
	}
	hash, err := auth.HashPassword(o.Password)
	if err != nil {
		return Provisioned{}, err
	}
	var res Provisioned
	now := time.Now().UnixMilli()
	err = d.InTx(ctx, func(tx *db.Tx) error {
		var existing int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE id >= ? AND id <= ? AND length(id) = 8`,
			strconv.Itoa(o.First), strconv.Itoa(o.First+o.Count-1)).Scan(&existing); err != nil {
			return err
		}
		switch {
		case existing == o.Count:
			return tx.QueryRow(ctx, `SELECT customer_id FROM accounts WHERE id = ?`, strconv.Itoa(o.First)).Scan(&res.CustomerID)
		case existing > 0:
			return fmt.Errorf("provision: %d of the accounts %d…%d exist already", existing, o.First, o.First+o.Count-1)
		}
		err := tx.QueryRow(ctx, `SELECT id FROM customers WHERE name = ?`, o.Customer).Scan(&res.CustomerID)
		if errors.Is(err, sql.ErrNoRows) {
			err = tx.QueryRow(ctx, `INSERT INTO customers (name, ds_config, created_at) VALUES (?, '{}', ?) RETURNING id`,
				o.Customer, now).Scan(&res.CustomerID)
		}
		if err != nil {
			return err
		}
		var gids []int64
		for i := 0; i < o.Count; i += o.GroupSize {
			var gid int64
			name := fmt.Sprintf("Sim %d-%d", o.First+i, o.First+min(i+o.GroupSize, o.Count)-1)
			if err := tx.QueryRow(ctx, `INSERT INTO ptt_groups (customer_id, parent_id, name, color, seq_num, kind, created_at)
				VALUES (?, 0, ?, '#1677ff', ?, 'fixed', ?) RETURNING id`, res.CustomerID, name, len(gids)+1, now).Scan(&gid); err != nil {
				return err
			}
			gids = append(gids, gid)
		}
		res.Groups = len(gids)
		for i := range o.Count {
			id := strconv.Itoa(o.First + i)
			typ := MixType(i)
			g := gids[i/o.GroupSize]
			if _, err := tx.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, name, password_hash, model,
				default_group_id, ptt_group_id, created_at) VALUES (?, ?, ?, ?, ?, 'sim', ?, ?, ?)`,
				id, res.CustomerID, typ, "Sim "+typ+" "+id, hash, g, g, now); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?)`, g, id); err != nil {
				return err
			}
		}
		res.Created = o.Count
		if o.Dispatcher == "" {
			return nil
		}
		if _, err := tx.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, admin, name, password_hash, model,
			default_group_id, ptt_group_id, created_at) VALUES (?, ?, '20', TRUE, 'Sim Dispatcher', ?, 'Console', ?, ?, ?)`,
			o.Dispatcher, res.CustomerID, hash, gids[0], gids[0], now); err != nil {
			return err
		}
		for _, g := range gids {
			if _, err := tx.Exec(ctx, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?)`, g, o.Dispatcher); err != nil {
				return err
			}
		}
		return nil
	})
	return res, err
}
