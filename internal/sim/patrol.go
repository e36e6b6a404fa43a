package sim

import (
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"time"
)

// Patrol: a terminal on a plan's class walks its route as people do (docs/terminal-protocol.md "Patrol"). Every
// Rates.PatrolEvery it reads its orders (patrol.orders) and punches the next point that is due by the server's
// clock, one at a time, in route order. How each order is walked is drawn once per order from the fleet seed:
// most are walked in time, some end late (the last point after the class), some skip a point.

// Walk kinds.
const (
	walkOnTime = iota
	walkLate
	walkSkip
)

// walk is how a terminal walks one order.
type walk struct {
	kind   int
	skip   int           // walkSkip: the index of the point left out
	lateBy time.Duration // walkLate: how long after the class the last point is punched
	method []string      // per point: nfc, qr or gps
	// sent marks the points whose punch went out (the answer may come after the next look at the orders);
	// a refused punch is tried again.
	sent map[int]bool
}

// orderView is what the simulator reads of an order (patrol.orders).
type orderView struct {
	ID        int64 `json:"orderId"`
	StartTime int64 `json:"startTime"`
	EndTime   int64 `json:"endTime"`
	JudgeTime int64 `json:"judgeTime"`
	State     int   `json:"state"`
	Points    []struct {
		PointID  int64   `json:"pointId"`
		NfcValue string  `json:"nfcValue"`
		Lat      float64 `json:"lat"`
		Lng      float64 `json:"lng"`
		State    int     `json:"state"`
	} `json:"points"`
}

// Shares of the orders walked late and with a point skipped.
const (
	lateShare = 0.15
	skipShare = 0.15
)

// drawWalk decides how the terminal walks order id of n points: from the fleet seed, the account and the order,
// so the same order is walked the same way at every step and in every run.
func drawWalk(seed uint64, account string, id int64, n int) *walk {
	h := fnv.New64a()
	h.Write([]byte(account))
	r := rand.New(rand.NewPCG(seed^uint64(id)*0x9e3779b97f4a7c15, h.Sum64()))
	w := &walk{kind: walkOnTime, sent: map[int]bool{}}
	switch x := r.Float64(); {
	case x < skipShare && n > 1:
		w.kind, w.skip = walkSkip, r.IntN(n)
	case x < skipShare+lateShare:
		w.kind = walkLate
		w.lateBy = time.Duration(3+r.IntN(15)) * time.Minute
	}
	methods := []string{"nfc", "qr", "gps"}
	for range n {
		w.method = append(w.method, methods[r.IntN(len(methods))])
	}
	return w
}

// due is when point i of n is punched in an order's window (ms): spread evenly through the class; a late walk
// punches its last point lateBy after the class.
func (w *walk) due(o orderView, i, n int) int64 {
	if w.kind == walkLate && i == n-1 {
		return o.EndTime + w.lateBy.Milliseconds()
	}
	return o.StartTime + (o.EndTime-o.StartTime)*int64(i+1)/int64(n+1)
}

func (t *Terminal) patrolEvery(r Rates) time.Duration {
	if t.prof.Console || r.PatrolEvery <= 0 {
		return 0
	}
	return r.PatrolEvery
}

func (t *Terminal) patrolStep(at time.Time) (next time.Time) {
	next = at.Add(t.fl.opts.Rates.PatrolEvery)
	if t.state != stOnline {
		return next
	}
	t.req("patrol.orders", struct{}{}, func(f frame) {
		var r struct {
			ServerTime int64       `json:"serverTime"`
			List       []orderView `json:"list"`
		}
		if f.OK() && json.Unmarshal(f.Data, &r) == nil {
			t.patrolLocked(r.ServerTime, r.List)
			t.fl.stats.PatrolLooks.Add(1)
		}
	})
	return next
}

// patrolLocked punches the next due point of the first open order.
func (t *Terminal) patrolLocked(now int64, orders []orderView) {
	if t.walks == nil {
		t.walks = map[int64]*walk{}
	}
	open := map[int64]bool{}
	for _, o := range orders {
		if o.State != 0 || now < o.StartTime || now >= o.JudgeTime || len(o.Points) == 0 {
			continue
		}
		open[o.ID] = true
		w := t.walks[o.ID]
		if w == nil {
			w = drawWalk(t.fl.opts.Seed, t.acct.ID, o.ID, len(o.Points))
			t.walks[o.ID] = w
			switch w.kind {
			case walkLate:
				t.fl.stats.PatrolLate.Add(1)
			case walkSkip:
				t.fl.stats.PatrolSkips.Add(1)
			}
		}
		for i, p := range o.Points {
			if p.State != 0 || w.sent[i] || (w.kind == walkSkip && i == w.skip) {
				continue
			}
			if now < w.due(o, i, len(o.Points)) {
				break // the next point is not due yet: the route is walked in order
			}
			punch := map[string]any{"method": w.method[i], "value": p.NfcValue}
			if w.method[i] == "gps" {
				// "I am here" a few metres from the point
				punch = map[string]any{"method": "gps", "lat": round6(p.Lat + 0.00003), "lng": round6(p.Lng), "pointId": p.PointID}
			}
			w.sent[i] = true
			t.req("patrol.punch", punch, func(f frame) {
				if f.OK() {
					t.fl.stats.Punches.Add(1)
				} else {
					delete(w.sent, i)
				}
			})
			return
		}
	}
	for id := range t.walks {
		if !open[id] {
			delete(t.walks, id)
		}
	}
}
