package geo

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"tenfour/internal/directory"
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
	dir         Directory
	dirty       func() []directory.LastReport

	mu   sync.Mutex
	buf  []row
	gen  *flushed
	kick chan struct{}

	lastSync time.Time
}

func newWriter(d *db.DB, dir Directory, o Options, dirty func() []directory.LastReport) *writer {
	return &writer{db: d, every: o.FlushEvery, batch: o.FlushPoints, maxPending: o.MaxPending,
		accountSync: o.AccountSync, dir: dir, dirty: dirty,
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

// run flushes until ctx ends, then flushes what is left. Each round's writes run on a context the stop does not
// cancel (bounded by writeTimeout): a flush or an account sync has taken its rows out of the buffer and the dirty
// set, and a stop landing mid-write would lose them — the last round after the stop finds nothing left to write.
func (w *writer) run(ctx context.Context) {
	t := time.NewTicker(w.every)
	defer t.Stop()
	round := func(sync bool) {
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
		defer cancel()
		w.flush(wctx)
		if sync {
			w.syncAccounts(wctx)
		}
	}
	for {
		select {
		case <-ctx.Done():
			round(true)
			return
		case <-t.C:
		case <-w.kick:
		}
		round(time.Since(w.lastSync) >= w.accountSync)
	}
}

// writeTimeout bounds one round of writes (a batch and an account sync).
const writeTimeout = 5 * time.Second

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

// syncAccounts copies the latest positions and statuses of the hot cache into their accounts rows through
// the directory (one batch per call: one transaction on SQLite, two array statements on PostgreSQL), so the
// directory's queries and a restarted node see them. A row is only moved forward in time.
func (w *writer) syncAccounts(ctx context.Context) {
	w.lastSync = time.Now()
	list := w.dirty()
	if len(list) == 0 {
		return
	}
	if err := w.dir.SyncLast(ctx, list); err != nil {
		slog.Error("geo: sync last positions to accounts", "rows", len(list), "err", err)
	}
}
