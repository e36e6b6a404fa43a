package db

import (
	"context"
	"database/sql"
)

// Querier is what reads rows: a *DB or a *Tx.
type Querier interface {
	Query(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRow(ctx context.Context, q string, args ...any) *sql.Row
}

var (
	_ Querier = (*DB)(nil)
	_ Querier = (*Tx)(nil)
)

// ListQuery is one list of a table: what to select from where, in which order, which page.
type ListQuery struct {
	Select string  // columns, as the scan reads them
	From   string  // table with alias and joins: "patrol_points p JOIN patrol_areas a ON a.id = p.area_id"
	Where  *Filter // nil: every row
	Order  string  // ORDER BY list, required so pages are stable: "a.name, p.name, p.id"
	// Offset and Limit pick the page (httpx.PagingFrom); Limit 0 reads every row (Offset is then ignored).
	Offset, Limit int
}

// List reads one page of rows and the number of all rows the filter matches: the count + page + order of
// every list answer (httpx.Page). Page is List ordered newest first.
func List[T any](ctx context.Context, q Querier, l ListQuery, scan func(Scanner) (T, error)) ([]T, int, error) {
	cond, args := l.Where.Cond(), l.Where.Args()
	query := `SELECT ` + l.Select + ` FROM ` + l.From + ` WHERE ` + cond + ` ORDER BY ` + l.Order
	if l.Limit > 0 {
		query += ` LIMIT ? OFFSET ?`
		args = append(args, l.Limit, l.Offset)
	}
	rows, err := q.Query(ctx, query, args...)
	out, err := Collect(rows, err, scan)
	if err != nil {
		return nil, 0, err
	}
	if l.Limit <= 0 {
		return out, len(out), nil // every row read: no need to count them again
	}
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM `+l.From+` WHERE `+cond, l.Where.Args()...).Scan(&total); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}
