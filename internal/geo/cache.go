package geo

import (
	"hash/maphash"
	"sync"

	"tenfour/internal/directory"
)

// Live is a terminal's latest known state as consoles see it: the `gps` event item, getLastGps row and
// gps_{x}.bin record. Position fields are absent until the first fix; battery and signal until reported.
type Live struct {
	MsID      string   `json:"msId"`
	Lat       *float64 `json:"lat,omitempty"`
	Lng       *float64 `json:"lng,omitempty"`
	Speed     *float64 `json:"speed,omitempty"`
	Direction *float64 `json:"direction,omitempty"`
	Altitude  *float64 `json:"altitude,omitempty"`
	Time      int64    `json:"time,omitempty"` // time of the last fix (ms)
	Battery   *int     `json:"battery,omitempty"`
	Signal    *int     `json:"signal,omitempty"`
}

// entry is one terminal's hot state. Every field is guarded by its shard's lock.
type entry struct {
	id       string
	customer int64
	fix      Point
	hasFix   bool
	battery  int // -1 unknown
	signal   int // -1 unknown

	inside map[int64]fenceMark // fence id → containment at the last fix, for transition detection

	logAt    int64 // last log 101 entry (ms)
	logCount int   // reports since then

	posDirty, statusDirty bool // not yet copied to the accounts row
}

type fenceMark struct {
	ver    int64
	inside bool
}

func (e *entry) live() Live {
	l := Live{MsID: e.id}
	if e.hasFix {
		p := e.fix
		l.Lat, l.Lng, l.Speed, l.Direction, l.Altitude, l.Time = &p.Lat, &p.Lng, &p.Speed, &p.Direction, &p.Altitude, p.Time
	}
	if e.battery >= 0 {
		b := e.battery
		l.Battery = &b
	}
	if e.signal >= 0 {
		s := e.signal
		l.Signal = &s
	}
	return l
}

const shardCount = 64

// cache keeps the latest position of every terminal in memory, sharded by terminal so concurrent reports of
// different terminals rarely contend.
type cache struct {
	seed   maphash.Seed
	shards [shardCount]shard
}

type shard struct {
	mu    sync.Mutex
	m     map[string]*entry
	dirty []*entry // entries whose accounts row is behind
}

func newCache() *cache {
	c := &cache{seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].m = map[string]*entry{}
	}
	return c
}

func (c *cache) shard(id string) *shard {
	return &c.shards[maphash.String(c.seed, id)%shardCount]
}

// with runs fn on the terminal's entry (created if missing) under its shard's lock.
func (c *cache) with(id string, customer int64, fn func(e *entry)) {
	sh := c.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.m[id]
	if e == nil {
		e = &entry{id: id, customer: customer, battery: -1, signal: -1}
		sh.m[id] = e
	}
	if e.customer != customer {
		// A terminal moved to another customer (or an id was reused): forget what belonged to the old one.
		*e = entry{id: id, customer: customer, battery: -1, signal: -1}
	}
	wasDirty := e.posDirty || e.statusDirty
	fn(e)
	if !wasDirty && (e.posDirty || e.statusDirty) {
		sh.dirty = append(sh.dirty, e)
	}
}

// lastFix returns a terminal's latest position, when the terminal is the customer's and has one.
func (c *cache) lastFix(id string, customer int64) (Point, bool) {
	sh := c.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.m[id]
	if e == nil || e.customer != customer || !e.hasFix {
		return Point{}, false
	}
	return e.fix, true
}

// customer returns the live state of every terminal of a customer that has a fix or a status.
func (c *cache) customer(customer int64) []Live {
	var out []Live
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		for _, e := range sh.m {
			if e.customer == customer && (e.hasFix || e.battery >= 0 || e.signal >= 0) {
				out = append(out, e.live())
			}
		}
		sh.mu.Unlock()
	}
	return out
}

// takeDirty returns the entries whose accounts row is behind and marks them clean.
func (c *cache) takeDirty() []directory.LastReport {
	var out []directory.LastReport
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		for _, e := range sh.dirty {
			r := directory.LastReport{ID: directory.TerminalID(e.id), Customer: directory.CustomerID(e.customer)}
			if e.posDirty && e.hasFix {
				f := directory.Fix(e.fix)
				r.Fix = &f
			}
			if e.statusDirty {
				r.Status = &directory.Status{Battery: e.battery, Signal: e.signal}
			}
			out = append(out, r)
			e.posDirty, e.statusDirty = false, false
		}
		sh.dirty = sh.dirty[:0]
		sh.mu.Unlock()
	}
	return out
}

// load takes a state read from the directory at start-up; later reports win.
func (c *cache) load(st directory.LastState) {
	c.with(string(st.ID), int64(st.Customer), func(e *entry) {
		if st.Fix != nil && (!e.hasFix || e.fix.Time < st.Fix.Time) {
			e.fix, e.hasFix = Point(*st.Fix), true
		}
		if e.battery < 0 {
			e.battery = st.Battery
		}
		if e.signal < 0 {
			e.signal = st.Signal
		}
	})
}
