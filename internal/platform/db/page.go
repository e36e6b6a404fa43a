package db

import "context"

// Scanner is a *sql.Row or *sql.Rows.
type Scanner interface{ Scan(dest ...any) error }

// Page reads one page of a table's rows matching cond (a WHERE clause with ? arguments), newest first by
// (at, id), and the number of all matching rows: the shape of every alarm and record list.
func Page[T any](ctx context.Context, d *DB, table, cols, cond string, args []any, offset, limit int,
	scan func(Scanner) (T, error)) ([]T, int, error) {
	var total int
	if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := d.Query(ctx, `SELECT `+cols+` FROM `+table+` WHERE `+cond+` ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`,
		append(args[:len(args):len(args)], limit, offset)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, v)
	}
	return out, total, rows.Err()
}
