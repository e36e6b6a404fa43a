package secretkey

import (
	"context"
	"database/sql"
	"errors"

	"tenfour/internal/platform/db"
)

// Store keeps the key rings (table secret_keys).
type Store struct{ db *db.DB }

// NewStore wraps an open store.
func NewStore(d *db.DB) *Store { return &Store{db: d} }

const cols = `id, name, key_text, is_current, create_by, created_at, updated_at, rotated_at`

func scan(sc db.Scanner) (Key, error) {
	var k Key
	var id int64
	err := sc.Scan(&id, &k.Name, &k.SecretKey, &k.Current, &k.CreateBy, &k.CreateTime, &k.UpdateTime, &k.RotateTime)
	k.ID = KeyID(id).String()
	return k, err
}

// List returns a customer's keys, the current one first, then the newest first.
func (s *Store) List(ctx context.Context, customerID int64) ([]Key, error) {
	rows, err := s.db.Query(ctx, `SELECT `+cols+` FROM secret_keys WHERE customer_id = ?
		ORDER BY is_current DESC, created_at DESC, id DESC`, customerID)
	return db.Collect(rows, err, scan)
}

// Get returns one key of a customer (db.ErrNotFound for another customer's or none).
func (s *Store) Get(ctx context.Context, customerID int64, id KeyID) (Key, error) {
	k, err := scan(s.db.QueryRow(ctx, `SELECT `+cols+` FROM secret_keys WHERE customer_id = ? AND id = ?`, customerID, int64(id)))
	return k, db.NotFound(err)
}

// Current returns the customer's current key (an empty Changed when it has none).
func (s *Store) Current(ctx context.Context, customerID int64) (Changed, error) {
	var c Changed
	var id int64
	err := s.db.QueryRow(ctx, `SELECT id, key_text FROM secret_keys WHERE customer_id = ? AND is_current`, customerID).
		Scan(&id, &c.SecretKey)
	if errors.Is(err, sql.ErrNoRows) {
		return Changed{}, nil
	}
	if err != nil {
		return Changed{}, err
	}
	c.KeyID = KeyID(id).String()
	return c, nil
}

// change is a validated add or update: nil fields keep their value.
type change struct {
	name, key *string
	current   *bool
}

// checkUnique refuses a name or key another key of the customer has (self excluded; 0 for a new key).
func checkUnique(ctx context.Context, tx *db.Tx, customerID int64, self KeyID, c change) error {
	for _, u := range []struct {
		col   string
		v     *string
		taken error
	}{{"name", c.name, ErrNameExists}, {"key_text", c.key, ErrKeyExists}} {
		if u.v == nil {
			continue
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM secret_keys WHERE customer_id = ? AND `+u.col+` = ? AND id <> ?`,
			customerID, *u.v, int64(self)).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return u.taken
		}
	}
	return nil
}

// makeCurrent makes id the customer's only current key.
func makeCurrent(ctx context.Context, tx *db.Tx, customerID int64, id KeyID, now int64) error {
	if _, err := tx.Exec(ctx, `UPDATE secret_keys SET is_current = FALSE WHERE customer_id = ? AND is_current AND id <> ?`,
		customerID, int64(id)); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE secret_keys SET is_current = TRUE, rotated_at = ? WHERE id = ? AND NOT is_current`, now, int64(id))
	return err
}

// uniqueErr maps a unique-index failure (two dispatchers storing the same key or name at the same moment) to
// the error the check would have given.
func uniqueErr(err error) error {
	if db.IsUniqueViolation(err) {
		return ErrKeyExists
	}
	return err
}

// Add stores a new key; with current it becomes the current one. The customer's first key is current whatever
// current says: a ring with keys but none in use is a state a dispatcher reaches only on purpose (update).
func (s *Store) Add(ctx context.Context, customerID int64, name, key string, current bool, by string, now int64) (KeyID, error) {
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM secret_keys WHERE customer_id = ?`, customerID).Scan(&n); err != nil {
			return err
		}
		if n >= MaxKeys {
			return ErrTooMany
		}
		if err := checkUnique(ctx, tx, customerID, 0, change{name: &name, key: &key}); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO secret_keys (customer_id, name, key_text, create_by, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, customerID, name, key, by, now, now).Scan(&id); err != nil {
			return uniqueErr(err)
		}
		if current || n == 0 {
			return makeCurrent(ctx, tx, customerID, KeyID(id), now)
		}
		return nil
	})
	return KeyID(id), err
}

// Update changes a key's name, text or current flag (db.ErrNotFound for another customer's).
func (s *Store) Update(ctx context.Context, customerID int64, id KeyID, c change, now int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		var exists int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM secret_keys WHERE customer_id = ? AND id = ?`, customerID, int64(id)).
			Scan(&exists); err != nil {
			return err
		}
		if exists == 0 {
			return db.ErrNotFound
		}
		if err := checkUnique(ctx, tx, customerID, id, c); err != nil {
			return err
		}
		if c.name != nil {
			if _, err := tx.Exec(ctx, `UPDATE secret_keys SET name = ?, updated_at = ? WHERE id = ?`, *c.name, now, int64(id)); err != nil {
				return uniqueErr(err)
			}
		}
		if c.key != nil {
			if _, err := tx.Exec(ctx, `UPDATE secret_keys SET key_text = ?, updated_at = ? WHERE id = ?`, *c.key, now, int64(id)); err != nil {
				return uniqueErr(err)
			}
		}
		switch {
		case c.current == nil:
		case *c.current:
			return makeCurrent(ctx, tx, customerID, id, now)
		default:
			_, err := tx.Exec(ctx, `UPDATE secret_keys SET is_current = FALSE, updated_at = ? WHERE id = ? AND is_current`, now, int64(id))
			return err
		}
		return nil
	})
}

// Delete removes a key (db.ErrNotFound for another customer's or none).
func (s *Store) Delete(ctx context.Context, customerID int64, id KeyID) error {
	return db.OneRow(s.db.Exec(ctx, `DELETE FROM secret_keys WHERE customer_id = ? AND id = ?`, customerID, int64(id)))
}
