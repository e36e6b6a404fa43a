package sip

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
)

// TrunkID is a trunk's row id (sip_trunks.id).
type TrunkID int64

// TrunkConfig is a trunk as the operator configured it (`tenfour admin sip-trunk`, docs/sip.md "Trunks").
type TrunkConfig struct {
	ID         TrunkID
	CustomerID int64
	Name       string
	Registrar  string // host[:port] of the PBX or provider tenfour registers to (UDP; port 5060 when left out)
	Username   string
	Password   string
	Proxy      string // host[:port] every request goes through (the outbound proxy); "" none
	AccountID  string // the SIP account that carries the trunk's calls
	Numbers    []TrunkNumber
	Status     string // the registration's last state ("registered", "failed: …"); "" before the first try
	StatusAt   int64  // unix ms
}

// TrunkNumber is a number the trunk's callers dial and where it lands: a group (Group > 0) or a dispatcher.
type TrunkNumber struct {
	Number     string
	Group      directory.GroupID
	Dispatcher string
}

// ErrTrunkExists is a second trunk of the same name for a customer.
var ErrTrunkExists = errors.New("sip: the customer has a trunk of that name")

// TrunkStore owns sip_trunks and sip_trunk_numbers.
type TrunkStore struct{ db *db.DB }

// NewTrunkStore is the trunks' store on d.
func NewTrunkStore(d *db.DB) *TrunkStore { return &TrunkStore{db: d} }

// Add stores a trunk and its numbers; a name the customer has already is ErrTrunkExists.
func (s *TrunkStore) Add(ctx context.Context, t TrunkConfig) (TrunkID, error) {
	var id TrunkID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO sip_trunks (customer_id, name, registrar, username, password, outbound_proxy, account_id)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, t.CustomerID, t.Name, t.Registrar, t.Username, t.Password, t.Proxy, t.AccountID).Scan(&id)
		if db.IsUniqueViolation(err) {
			return ErrTrunkExists
		}
		if err != nil {
			return err
		}
		for _, n := range t.Numbers {
			var group, dispatcher any
			if n.Group > 0 {
				group = int64(n.Group)
			} else {
				dispatcher = n.Dispatcher
			}
			if _, err := tx.Exec(ctx, `INSERT INTO sip_trunk_numbers (trunk_id, number, group_id, dispatcher_id) VALUES (?, ?, ?, ?)`,
				id, n.Number, group, dispatcher); err != nil {
				return fmt.Errorf("number %s: %w", n.Number, err)
			}
		}
		return nil
	})
	return id, err
}

// List reads the trunks of a customer (0: of every customer) by customer and name, with their numbers.
func (s *TrunkStore) List(ctx context.Context, customer int64) ([]TrunkConfig, error) {
	trunks, _, err := db.List(ctx, s.db, db.ListQuery{
		Select: `id, customer_id, name, registrar, username, password, outbound_proxy, account_id, status, status_at`,
		From:   `sip_trunks`, Where: new(db.Filter).If(customer > 0, `customer_id = ?`, customer), Order: `customer_id, name`,
	}, func(sc db.Scanner) (TrunkConfig, error) {
		var t TrunkConfig
		err := sc.Scan(&t.ID, &t.CustomerID, &t.Name, &t.Registrar, &t.Username, &t.Password, &t.Proxy, &t.AccountID, &t.Status, &t.StatusAt)
		return t, err
	})
	if err != nil {
		return nil, err
	}
	for i := range trunks {
		rows, err := s.db.Query(ctx, `SELECT number, COALESCE(group_id, 0), COALESCE(dispatcher_id, '') FROM sip_trunk_numbers
			WHERE trunk_id = ? ORDER BY number`, trunks[i].ID)
		trunks[i].Numbers, err = db.Collect(rows, err, func(sc db.Scanner) (TrunkNumber, error) {
			var n TrunkNumber
			err := sc.Scan(&n.Number, &n.Group, &n.Dispatcher)
			return n, err
		})
		if err != nil {
			return nil, err
		}
	}
	return trunks, nil
}

// Remove deletes a customer's trunk by name (its numbers with it); an unknown name is db.ErrNotFound.
func (s *TrunkStore) Remove(ctx context.Context, customer int64, name string) error {
	return db.OneRow(s.db.Exec(ctx, `DELETE FROM sip_trunks WHERE customer_id = ? AND name = ?`, customer, name))
}

// SetStatus records the registration's state as this node saw it.
func (s *TrunkStore) SetStatus(ctx context.Context, id TrunkID, status string, at int64) error {
	_, err := s.db.Exec(ctx, `UPDATE sip_trunks SET status = ?, status_at = ? WHERE id = ?`, status, at, id)
	return err
}

// ParseTrunkNumber reads an admin's "NUMBER=group:GID" or "NUMBER=dispatcher:ID".
func ParseTrunkNumber(s string) (TrunkNumber, error) {
	number, target, ok := strings.Cut(s, "=")
	kind, id, ok2 := strings.Cut(target, ":")
	if !ok || !ok2 || number == "" || id == "" {
		return TrunkNumber{}, fmt.Errorf("%q: want NUMBER=group:GID or NUMBER=dispatcher:ID", s)
	}
	switch kind {
	case "group":
		var gid int64
		if _, err := fmt.Sscan(id, &gid); err != nil || gid <= 0 {
			return TrunkNumber{}, fmt.Errorf("%q: the group is its numeric id", s)
		}
		return TrunkNumber{Number: number, Group: directory.GroupID(gid)}, nil
	case "dispatcher":
		return TrunkNumber{Number: number, Dispatcher: id}, nil
	}
	return TrunkNumber{}, fmt.Errorf("%q: want NUMBER=group:GID or NUMBER=dispatcher:ID", s)
}
