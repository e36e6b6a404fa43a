package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"tenfour/internal/indoor/radio"
)

// Indoor walkers (Options.Indoor): terminals that walk through the demo building (radio.Demo, radio.DemoRoute) at
// a walking pace instead of moving outdoors. Every IndoorInterval (default 1 s) a walker reports the beacons it
// hears where it is — the path-loss model with the demo channel's noise: Gaussian dB noise, dropped readings,
// multipath outliers (radio.DemoChannel) — as `indoor.report` (docs/terminal-protocol.md "Indoor positioning"),
// and sends no GPS fixes while inside. Walkers start spread along the route, so two never walk together.

// DefaultIndoorInterval is how often an indoor walker reports its scan.
const DefaultIndoorInterval = time.Second

// IndoorWalkSpeed is the walkers' pace (m/s) and IndoorStairs the time a flight of stairs takes.
const (
	IndoorWalkSpeed = 1.2
	IndoorStairs    = 8 * time.Second
)

// sIndoor is the indoor walkers' random stream (their scans' noise).
const sIndoor = sUpload + 100

type indoorWalk struct {
	walk   *radio.Walk
	bd     radio.Building
	offset float64 // seconds along the route at the fleet's start
	rng    *rand.Rand
}

// newIndoorWalk places walker k of n along the demo route.
func newIndoorWalk(k, n int, rng *rand.Rand) *indoorWalk {
	w := radio.NewWalk(radio.DemoRoute(), IndoorWalkSpeed, IndoorStairs.Seconds())
	return &indoorWalk{walk: w, bd: radio.Demo(), offset: w.Period() * float64(k) / float64(max(n, 1)), rng: rng}
}

// Where is where the walker is at elapsed time since the fleet's start.
func (iw *indoorWalk) Where(elapsed time.Duration) radio.Point {
	return iw.walk.At(iw.offset + elapsed.Seconds())
}

// IndoorAt is where an indoor walker is at a time (ok false for a terminal that does not walk indoors): tests
// compare the server's estimate with it.
func (t *Terminal) IndoorAt(at time.Time) (radio.Point, bool) {
	if t.indoor == nil {
		return radio.Point{}, false
	}
	return t.indoor.Where(at.Sub(t.fl.start)), true
}

// startIndoor plans the walker's scans.
func (t *Terminal) startIndoor(first time.Time) {
	every := t.fl.opts.IndoorInterval
	if every <= 0 {
		every = DefaultIndoorInterval
	}
	var step func(at time.Time)
	step = func(at time.Time) {
		if t.fl.stopping.Load() {
			return
		}
		t.mu.Lock()
		if t.state == stOnline && t.powered {
			p := t.indoor.Where(at.Sub(t.fl.start))
			readings := radio.DemoChannel.Scan(t.indoor.rng, t.indoor.bd, p)
			// Counted before it leaves: the server's answer (and the console's indoor.position) can arrive before
			// a count made after the send, and a reader comparing positions to scans would see one scan short.
			if len(readings) > 0 {
				t.fl.stats.IndoorReports.Add(1)
				if !t.req("indoor.report", map[string]any{"readings": readings}, nil) {
					t.fl.stats.IndoorReports.Add(-1)
				}
			}
		}
		t.mu.Unlock()
		next := at.Add(every)
		t.fl.sched.at(next, func() { step(next) })
	}
	t.fl.sched.at(first, func() { step(first) })
}

// Walkers is the result of IndoorWalkers: the fleet's accounts (with any demo account a walker needed added) and
// the walkers' ids.
type Walkers struct {
	Accounts []Account
	IDs      []string
}

// IndoorWalkers reads a comma list of walker accounts for a fleet of accts: a walker must be one of them or a
// demo account (DemoAccounts; the people's accounts 10000161…10000176 are the usual ones), which is added.
func IndoorWalkers(list string, accts []Account) (Walkers, error) {
	w := Walkers{Accounts: accts}
	have := map[string]bool{}
	for _, a := range accts {
		have[a.ID] = true
	}
	demo := map[string]Account{}
	for _, a := range DemoAccounts() {
		demo[a.ID] = a
	}
	for _, id := range strings.Split(list, ",") {
		if id = strings.TrimSpace(id); id == "" {
			continue
		}
		if !have[id] {
			a, ok := demo[id]
			if !ok {
				return Walkers{}, fmt.Errorf("--indoor %s: not among the fleet's accounts nor a demo account", id)
			}
			w.Accounts = append(w.Accounts, a)
			have[id] = true
		}
		w.IDs = append(w.IDs, id)
	}
	return w, nil
}

// DemoWalkers are the demo accounts the in-process demo fleet walks through the demo building (not in a quiet
// fleet: the browser suite drives its own).
var DemoWalkers = []string{"10000168", "10000169"}
