package sim

import (
	"time"
)

// The school bus (docs/terminal-protocol.md "School bus"): a terminal given student cards (Options.BusCards) is a
// bus with a card reader. At each stop — every PunchEvery on average — a few students board or get off, each card
// read is reported with `bus.punch` (kind, time, the bus's position). A punch read while the bus is offline is
// kept (at most maxPunches) and sent after the next login with its own time, until the server answers it.

const maxPunches = 500

type punch struct {
	card string
	kind int // 1 boarded, 2 alighted
	at   int64
	fix  Fix
}

func (t *Terminal) cards() []string { return t.fl.opts.BusCards[t.acct.ID] }

// busStep is one stop of the bus.
func (t *Terminal) busStep(at time.Time) (next time.Time) {
	next = at.Add(expDur(t.rBus, t.fl.opts.Rates.PunchEvery))
	cards := t.cards()
	if len(cards) == 0 {
		return next
	}
	if t.aboard == nil {
		t.aboard = map[string]bool{}
	}
	fix := t.route.At(at.Sub(t.fl.start))
	// One to three students at this stop (each card once), boarding or getting off.
	order := t.rBus.Perm(len(cards))
	for _, k := range order[:1+t.rBus.IntN(min(3, len(cards)))] {
		c := cards[k]
		kind := 1
		if t.aboard[c] {
			kind = 2
		}
		t.aboard[c] = kind == 1
		if len(t.punches) < maxPunches {
			t.punches = append(t.punches, punch{card: c, kind: kind, at: at.UnixMilli(), fix: fix})
		}
	}
	t.sendPunchesLocked()
	return next
}

// sendPunchesLocked sends every kept punch; each leaves the buffer once the server answered it ("0", or a
// refusal that a retry cannot fix, e.g. an unknown card).
func (t *Terminal) sendPunchesLocked() {
	if t.state != stOnline {
		return
	}
	for _, p := range t.punches {
		t.req("bus.punch", map[string]any{"studentNum": p.card, "kind": p.kind, "time": p.at, "lat": p.fix.Lat, "lng": p.fix.Lng},
			func(f frame) {
				if f.OK() {
					t.fl.stats.BusPunches.Add(1)
				}
				if f.OK() || f.Code == "404" || f.Code == "400" {
					t.dropPunchLocked(p)
				}
			})
	}
}

func (t *Terminal) dropPunchLocked(p punch) {
	for i, q := range t.punches {
		if q == p {
			t.punches = append(t.punches[:i], t.punches[i+1:]...)
			return
		}
	}
}
