// Package quota is the per-customer storage quota of uploads (issue 30; docs/security.md "Storage quotas"):
// one number of bytes per customer across every place a client's upload is kept — the file store (attachments,
// tones, floor plans, the media cloud's photos and videos) and the broadcast library. Usage is the sum of the
// stored rows' sizes, read from each owner's table through a Usage function the owner provides, so there is no
// counter to drift.
//
// The bound: an upload is checked twice. Before its bytes are read (Room: nothing is read once the customer is
// full, and the stream is cut as soon as it passes the room left), then in the transaction that inserts its row
// (Take), under a per-customer lock — PostgreSQL's advisory lock, SQLite's single writer — so two uploads
// finishing together are decided one after the other on committed sizes. The stored total therefore never
// exceeds the quota; only the bytes of uploads still streaming (each at most its own size limit) are on disk
// beyond it, and a refused upload's bytes are removed.
package quota

import (
	"context"
	"net/http"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// ErrFull refuses an upload that does not fit in the customer's quota (507, like WebDAV's quota answer).
var ErrFull = httpx.E(http.StatusInsufficientStorage, "79", "errors.file.quota", "the organisation's storage quota is full")

// DefaultMB is the default quota per customer (--storage-quota-mb): 10 GiB.
const DefaultMB = 10 << 10

// Usage is how many bytes one owner keeps for a customer, e.g. SUM(size) of its table.
type Usage func(ctx context.Context, q db.Querier, customerID int64) (int64, error)

// Quota is the limit and where usage is read. A nil *Quota, or a limit of 0, is unlimited.
type Quota struct {
	db      *db.DB
	limit   int64
	sources []Usage
}

// New builds the quota: limit bytes per customer (0 = unlimited) over the usage of every source.
func New(d *db.DB, limit int64, sources ...Usage) *Quota {
	return &Quota{db: d, limit: max(limit, 0), sources: sources}
}

// used is the customer's usage across every source, read through r (the pool, or the transaction of Take).
func (q *Quota) used(ctx context.Context, r db.Querier, customerID int64) (int64, error) {
	var total int64
	for _, u := range q.sources {
		n, err := u(ctx, r, customerID)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// Unlimited is what Room answers when there is no quota.
const Unlimited = int64(1<<63 - 1)

// Room is how many bytes the customer may still store: ErrFull when none. Unlimited without a quota.
func (q *Quota) Room(ctx context.Context, customerID int64) (int64, error) {
	if q == nil || q.limit == 0 {
		return Unlimited, nil
	}
	used, err := q.used(ctx, q.db, customerID)
	if err != nil {
		return 0, err
	}
	if used >= q.limit {
		return 0, ErrFull
	}
	return q.limit - used, nil
}

// lockSpace is the high half of the quota's advisory-lock keys (one per customer); internal/cluster's durable
// events use another.
const lockSpace = int64(0x71756f74) << 32 // "quot"

// Take decides, inside the transaction that inserts an upload's row, whether size more bytes fit: ErrFull when
// they do not (the caller rolls back and removes the bytes). The customer's lock is held until tx ends.
func (q *Quota) Take(ctx context.Context, tx *db.Tx, customerID, size int64) error {
	if q == nil || q.limit == 0 {
		return nil
	}
	if q.db.Dialect == db.Postgres { // SQLite: the transaction already holds the one writer
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(?)`, lockSpace|(customerID&0xffffffff)); err != nil {
			return err
		}
	}
	used, err := q.used(ctx, tx, customerID)
	if err != nil {
		return err
	}
	if used+size > q.limit {
		return ErrFull
	}
	return nil
}

// SumSize is a Usage over `SELECT SUM(size) FROM <table> WHERE customer_id = ?` (the table is named by its
// owner, never by a client).
func SumSize(table string) Usage {
	query := `SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM ` + table + ` WHERE customer_id = ?`
	return func(ctx context.Context, q db.Querier, customerID int64) (int64, error) {
		var n int64
		err := q.QueryRow(ctx, query, customerID).Scan(&n)
		return n, err
	}
}
