package geo

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"tenfour/internal/platform/db"
)

var (
	mPoints = promauto.NewCounter(prometheus.CounterOpts{Name: "tenfour_gps_points_written_total",
		Help: "GPS points committed to gps_points."})
	mFlush = promauto.NewHistogram(prometheus.HistogramOpts{Name: "tenfour_gps_flush_seconds",
		Help: "Duration of one GPS batch transaction.", Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}})
	mFlushErr = promauto.NewCounter(prometheus.CounterOpts{Name: "tenfour_gps_flush_errors_total",
		Help: "GPS batch transactions that failed (their points are lost; acknowledged reports were answered 500)."})
	mBusy = promauto.NewCounter(prometheus.CounterOpts{Name: "tenfour_gps_busy_total",
		Help: "GPS reports refused because the write backlog was full."})
)

// flushed is one batch generation: closed after its transaction committed (err nil) or failed.
type flushed struct {
	done chan struct{}
	err  error
}

// writer is the one goroutine that writes GPS points: reports append to an in-memory batch, which is committed
// in one transaction every FlushEvery or as soon as FlushPoints are waiting, whichever comes first. A report
// that wants an acknowledgement waits for its batch's commit. The accounts rows (last position, battery,
// signal) follow from the hot cache every AccountSync, so a terminal reporting every second costs one row
// update per AccountSync, not one per point.
type writer struct {
	db          *db.DB
	every       time.Duration
	batch       int
	maxPending  int
	accountSync time.Duration
	dirty       func() []accountSync

	mu   sync.Mutex
	buf  []row
	gen  *flushed
	kick chan struct{}

	lastSync time.Time
}

func newWriter(d *db.DB, o Options, dirty func() []accountSync) *writer {
	return &writer{db: d, every: o.FlushEvery, batch: o.FlushPoints, maxPending: o.MaxPending,
		accountSync: o.AccountSync, dirty: dirty,
		gen: &flushed{done: make(chan struct{})}, kick: make(chan struct{}, 1)}
}

// add queues rows for the next batch and returns the batch to wait on; ErrBusy when the backlog is full
// (the database is not keeping up: the terminal should retry later).
func (w *writer) add(rows []row) (*flushed, error) {
	w.mu.Lock()
	if len(w.buf)+len(rows) > w.maxPending {
		w.mu.Unlock()
		mBusy.Inc()
		return nil, ErrBusy
	}
	w.buf = append(w.buf, rows...)
	g, n := w.gen, len(w.buf)
	w.mu.Unlock()
	if n >= w.batch {
		select {
		case w.kick <- struct{}{}:
		default:
		}
	}
	return g, nil
}

// run flushes until ctx ends, then flushes what is left.
func (w *writer) run(ctx context.Context) {
	t := time.NewTicker(w.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			w.flush(fctx)
			w.syncAccounts(fctx)
			cancel()
			return
		case <-t.C:
		case <-w.kick:
		}
		w.flush(ctx)
		if time.Since(w.lastSync) >= w.accountSync {
			w.syncAccounts(ctx)
		}
	}
}

// flush commits the waiting batch in one transaction and wakes whoever waits on it.
func (w *writer) flush(ctx context.Context) {
	w.mu.Lock()
	rows, g := w.buf, w.gen
	w.buf, w.gen = make([]row, 0, max(w.batch, len(rows))), &flushed{done: make(chan struct{})}
	w.mu.Unlock()
	if len(rows) > 0 {
		start := time.Now()
		g.err = insertPoints(ctx, w.db, rows)
		mFlush.Observe(time.Since(start).Seconds())
		if g.err != nil {
			mFlushErr.Inc()
			slog.Error("geo: write GPS batch", "points", len(rows), "err", g.err)
		} else {
			mPoints.Add(float64(len(rows)))
		}
	}
	close(g.done)
}

// insertChunk rows go in one INSERT: 7 parameters each stays far below both engines' parameter limits.
const insertChunk = 500

// insertPoints writes rows in one transaction. A point already stored (same terminal and fix time, e.g. a
// batch the terminal resent after a lost acknowledgement) is skipped. PostgreSQL gets the whole batch as seven
// arrays in one statement; SQLite (in process, no round trips) multi-row INSERTs of insertChunk rows.
func insertPoints(ctx context.Context, d *db.DB, rows []row) error {
	if d.Dialect == db.Postgres {
		ids, at := make([]string, len(rows)), make([]int64, len(rows))
		lat, lng, speed, dir, alt := make([]float64, len(rows)), make([]float64, len(rows)), make([]float64, len(rows)),
			make([]float64, len(rows)), make([]float64, len(rows))
		for i, r := range rows {
			ids[i], at[i], lat[i], lng[i], speed[i], dir[i], alt[i] = r.terminal, r.Time, r.Lat, r.Lng, r.Speed, r.Direction, r.Altitude
		}
		_, err := d.Exec(ctx, `INSERT INTO gps_points (terminal_id, at, lat, lng, speed, direction, altitude)
			SELECT * FROM unnest(?::text[], ?::bigint[], ?::float8[], ?::float8[], ?::float8[], ?::float8[], ?::float8[])
			ON CONFLICT DO NOTHING`, ids, at, lat, lng, speed, dir, alt)
		return err
	}
	return d.InTx(ctx, func(tx *db.Tx) error {
		args := make([]any, 0, insertChunk*7)
		for start := 0; start < len(rows); start += insertChunk {
			chunk := rows[start:min(start+insertChunk, len(rows))]
			args = args[:0]
			for _, r := range chunk {
				args = append(args, r.terminal, r.Time, r.Lat, r.Lng, r.Speed, r.Direction, r.Altitude)
			}
			if _, err := tx.Exec(ctx, insertSQL(len(chunk)), args...); err != nil {
				return err
			}
		}
		return nil
	})
}

var insertSQLs sync.Map // n → statement text

func insertSQL(n int) string {
	if q, ok := insertSQLs.Load(n); ok {
		return q.(string)
	}
	var b strings.Builder
	b.WriteString("INSERT INTO gps_points (terminal_id, at, lat, lng, speed, direction, altitude) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?)")
	}
	b.WriteString(" ON CONFLICT DO NOTHING")
	q := b.String()
	insertSQLs.Store(n, q)
	return q
}

// syncAccounts copies the latest positions and statuses of the hot cache into their accounts rows, so the
// directory's queries and a restarted node see them. A row is only moved forward in time.
func (w *writer) syncAccounts(ctx context.Context) {
	w.lastSync = time.Now()
	list := w.dirty()
	if len(list) == 0 {
		return
	}
	var err error
	if w.db.Dialect == db.Postgres {
		err = syncAccountsPG(ctx, w.db, list)
	} else {
		err = w.db.InTx(ctx, func(tx *db.Tx) error {
			for _, a := range list {
				if a.pos {
					f := a.fix
					if _, err := tx.Exec(ctx, `UPDATE accounts SET lat = ?, lng = ?, speed = ?, direction = ?, altitude = ?,
						last_gps_at = ? WHERE id = ? AND customer_id = ? AND last_gps_at <= ?`,
						f.Lat, f.Lng, f.Speed, f.Direction, f.Altitude, f.Time, a.id, a.customer, f.Time); err != nil {
						return err
					}
				}
				if a.status {
					if _, err := tx.Exec(ctx, `UPDATE accounts SET battery = ?, signal = ? WHERE id = ? AND customer_id = ?`,
						a.battery, a.signal, a.id, a.customer); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	if err != nil {
		slog.Error("geo: sync last positions to accounts", "rows", len(list), "err", err)
	}
}

// syncAccountsPG is syncAccounts in two statements (positions, statuses) with array parameters, so ten thousand
// terminals cost two round trips instead of ten thousand.
func syncAccountsPG(ctx context.Context, d *db.DB, list []accountSync) error {
	var ids, sids []string
	var cust, at, scust []int64
	var lat, lng, speed, dir, alt []float64
	var batt, sig []int64
	for _, a := range list {
		if a.pos {
			ids, cust, at = append(ids, a.id), append(cust, a.customer), append(at, a.fix.Time)
			lat, lng, speed = append(lat, a.fix.Lat), append(lng, a.fix.Lng), append(speed, a.fix.Speed)
			dir, alt = append(dir, a.fix.Direction), append(alt, a.fix.Altitude)
		}
		if a.status {
			sids, scust = append(sids, a.id), append(scust, a.customer)
			batt, sig = append(batt, int64(a.battery)), append(sig, int64(a.signal))
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
