package presence

import (
	"context"

	"tenfour/internal/platform/db"
)

// Store is the SQL of presence_intervals (the package's one table).
type Store struct{ db *db.DB }

// Open starts an interval for an account at `at` unless one is open already (a login that replaced another
// device keeps the interval it had).
func (s Store) Open(ctx context.Context, customerID int64, accountID string, at int64) error {
	_, err := s.db.Exec(ctx, `INSERT INTO presence_intervals (customer_id, account_id, online_at, seen_at)
		SELECT ?, ?, ?, ? WHERE NOT EXISTS
		(SELECT 1 FROM presence_intervals WHERE account_id = ? AND offline_at IS NULL)`,
		customerID, accountID, at, at, accountID)
	return err
}

// Close ends the account's open interval at `at` (never before it began).
func (s Store) Close(ctx context.Context, accountID string, at int64) error {
	_, err := s.db.Exec(ctx, `UPDATE presence_intervals
		SET offline_at = CASE WHEN online_at > ? THEN online_at ELSE ? END, seen_at = ?
		WHERE account_id = ? AND offline_at IS NULL`, at, at, at, accountID)
	return err
}

// Touch records that the server was running at `at` (so were the open intervals): one row, whatever the number
// of accounts online.
func (s Store) Touch(ctx context.Context, at int64) error {
	_, err := s.db.Exec(ctx, `INSERT INTO presence_clock (id, seen_at) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`, at)
	return err
}

// CloseStale ends the intervals a stopped server left open at the last moment it was seen running (never before
// an interval began).
func (s Store) CloseStale(ctx context.Context) (int64, error) {
	var seen int64
	err := s.db.QueryRow(ctx, `SELECT COALESCE(MAX(seen_at), 0) FROM presence_clock`).Scan(&seen)
	if err != nil {
		return 0, err
	}
	res, err := s.db.Exec(ctx, `UPDATE presence_intervals
		SET offline_at = CASE WHEN seen_at > ? THEN seen_at ELSE ? END, seen_at = CASE WHEN seen_at > ? THEN seen_at ELSE ? END
		WHERE offline_at IS NULL`, seen, seen, seen, seen)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Intervals returns the customer's intervals that touch [from, to], per account in start order. With ids,
// only those accounts'.
func (s Store) Intervals(ctx context.Context, customerID int64, ids []string, from, to int64) (map[string][]Interval, error) {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	rows, err := s.db.Query(ctx, `SELECT account_id, online_at, COALESCE(offline_at, 0) FROM presence_intervals
		WHERE customer_id = ? AND online_at <= ? AND (offline_at IS NULL OR offline_at >= ?)
		ORDER BY account_id, online_at`, customerID, to, from)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]Interval{}
	for rows.Next() {
		var id string
		var iv Interval
		if err := rows.Scan(&id, &iv.On, &iv.Off); err != nil {
			return nil, err
		}
		if len(want) == 0 || want[id] {
			out[id] = append(out[id], iv)
		}
	}
	return out, rows.Err()
}
