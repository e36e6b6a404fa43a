package presence

import (
	"context"

	"tenfour/internal/platform/db"
)

// SeedIntervals stores past, closed intervals inside tx (the demo's history of its fleet; internal/demo).
func SeedIntervals(ctx context.Context, tx *db.Tx, customerID int64, accountID string, list []Interval) error {
	for _, iv := range list {
		if _, err := tx.Exec(ctx, `INSERT INTO presence_intervals (customer_id, account_id, online_at, offline_at, seen_at)
			VALUES (?, ?, ?, ?, ?)`, customerID, accountID, iv.On, iv.Off, iv.Off); err != nil {
			return err
		}
	}
	return nil
}
