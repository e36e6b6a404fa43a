package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/defaults"
	"tenfour/internal/tenant"
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
	// Dispatchers more dispatcher accounts, numbered on from the last terminal (First+Count…), administrators in
	// every group, with the terminals' password (the bench's video viewers: one viewer per dispatcher).
	Dispatchers int
	PhoneApps   int // the last PhoneApps terminals are phone apps (type 10) instead of the MixType mix
	// PasswordHash, when set, is stored instead of hashing Password (a benchmark's cheap hash of the same password).
	PasswordHash string
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
	defaults.Positive(&o.GroupSize, 50)
	o.Customer = cmp.Or(o.Customer, "Sim Fleet")
	if o.Count <= 0 {
		return Provisioned{}, errors.New("provision: count must be positive")
	}
	if !auth.ValidAccountID(strconv.Itoa(o.First)) || !auth.ValidAccountID(strconv.Itoa(o.First+o.Count+max(0, o.Dispatchers)-1)) {
		return Provisioned{}, fmt.Errorf("provision: %d…%d are not 8-digit account numbers", o.First, o.First+o.Count+max(0, o.Dispatchers)-1)
	}
	if o.Dispatcher != "" && !auth.ValidAccountID(o.Dispatcher) {
		return Provisioned{}, fmt.Errorf("provision: dispatcher %q is not an 8-digit account number", o.Dispatcher)
	}
	if !auth.ValidOriginalPassword(o.Password) && !auth.ValidNewPassword(o.Password) {
		//lint:ignore ST1005 the message ends with the list of allowed special characters, which is punctuation
		return Provisioned{}, errors.New("provision: the password must be 6 digits, or 8-64 characters with upper and lower case, a digit and one of " + auth.PasswordSpecials)
	}
	hash := o.PasswordHash
	if hash == "" {
		var err error
		if hash, err = auth.HashPassword(o.Password); err != nil {
			return Provisioned{}, err
		}
	}
	var res Provisioned
	now := time.Now().UnixMilli()
	first, last := strconv.Itoa(o.First), strconv.Itoa(o.First+o.Count-1)
	err := d.InTx(ctx, func(tx *db.Tx) error {
		existing, cust, err := directory.AccountsInRange(ctx, tx, directory.TerminalID(first), directory.TerminalID(last))
		if err != nil {
			return err
		}
		switch {
		case existing == o.Count:
			res.CustomerID = int64(cust)
			return nil
		case existing > 0:
			return fmt.Errorf("provision: %d of the accounts %d…%d exist already", existing, o.First, o.First+o.Count-1)
		}
		res.CustomerID, err = tenant.ByName(ctx, tx, o.Customer)
		if errors.Is(err, db.ErrNotFound) {
			res.CustomerID, err = tenant.Add(ctx, tx, tenant.New{Name: o.Customer})
		}
		if err != nil {
			return err
		}
		fleet := directory.Fleet{Customer: directory.CustomerID(res.CustomerID), Now: now}
		var groups []string
		for i := 0; i < o.Count; i += o.GroupSize {
			name := fmt.Sprintf("Sim %d-%d", o.First+i, o.First+min(i+o.GroupSize, o.Count)-1)
			fleet.Groups = append(fleet.Groups, directory.FleetGroup{Name: name, Color: "#1677ff"})
			groups = append(groups, name)
		}
		for i := range o.Count {
			id := strconv.Itoa(o.First + i)
			typ := MixType(i)
			if i >= o.Count-o.PhoneApps {
				typ = "10"
			}
			fleet.Accounts = append(fleet.Accounts, directory.FleetAccount{ID: directory.TerminalID(id), Type: typ,
				Name: "Sim " + MixType(i) + " " + id, Model: "sim", PasswordHash: hash, Groups: []string{groups[i/o.GroupSize]}})
		}
		dispatchers := []string{}
		if o.Dispatcher != "" {
			dispatchers = append(dispatchers, o.Dispatcher)
		}
		for i := range o.Dispatchers {
			dispatchers = append(dispatchers, strconv.Itoa(o.First+o.Count+i))
		}
		for _, id := range dispatchers {
			fleet.Accounts = append(fleet.Accounts, directory.FleetAccount{ID: directory.TerminalID(id), Type: "20",
				Name: "Sim Dispatcher " + id, Model: "Console", Admin: true, PasswordHash: hash, Groups: groups})
		}
		if _, err := directory.Provision(ctx, tx, fleet); err != nil {
			return err
		}
		res.Groups, res.Created = len(groups), o.Count
		return nil
	})
	return res, err
}
