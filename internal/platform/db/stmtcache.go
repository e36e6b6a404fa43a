package db

import (
	"context"
	"database/sql"
	"log/slog"
	"strings"
	"sync"
)

// maxStmts bounds a pool's statement cache. Query texts are constants in the code, except IN lists built
// with Placeholders(n); once the cache is full, further texts simply run unprepared.
const maxStmts = 1024

// stmtCache keeps one prepared *sql.Stmt per query text for a pool. A nil cache caches nothing.
type stmtCache struct {
	pool *sql.DB
	mu   sync.RWMutex
	m    map[string]*sql.Stmt
	shut bool
}

func newStmtCache(pool *sql.DB) *stmtCache {
	return &stmtCache{pool: pool, m: map[string]*sql.Stmt{}}
}

func (c *stmtCache) lookup(q string) (*sql.Stmt, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	st, ok := c.m[q]
	return st, ok && st != nil
}

// cacheable leaves out texts with several statements (a prepared statement runs only the first).
func (c *stmtCache) cacheable(q string) bool {
	return !strings.Contains(strings.TrimRight(strings.TrimSpace(q), ";"), ";")
}

// get returns the prepared statement for q, preparing it on first use; nil when q is not cached (the caller
// runs it unprepared). A text that fails to prepare is remembered as such and its error comes from running it.
func (c *stmtCache) get(ctx context.Context, q string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	st, ok := c.m[q]
	full := len(c.m) >= maxStmts
	c.mu.RUnlock()
	if ok || full || !c.cacheable(q) {
		return st
	}
	st, err := c.pool.PrepareContext(context.WithoutCancel(ctx), q)
	if err != nil {
		st = nil // a syntax error, or a closed pool: run it unprepared and let that report
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shut {
		if st != nil {
			_ = st.Close()
		}
		return nil
	}
	if prev, ok := c.m[q]; ok { // another goroutine prepared it meanwhile
		if st != nil {
			_ = st.Close()
		}
		return prev
	}
	c.m[q] = st
	if len(c.m) == maxStmts {
		slog.Warn("db: statement cache full; further query texts run unprepared", "size", maxStmts)
	}
	return st
}

func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.shut = true
	for _, st := range c.m {
		if st != nil {
			_ = st.Close()
		}
	}
	c.m = nil
}
