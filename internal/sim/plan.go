package sim

import (
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"time"
)

// Random streams of a terminal: one per kind of decision, so each chain of behaviour draws from its own
// sequence and the schedule does not depend on how chains, the server and goroutines interleave.
const (
	sTalk uint64 = iota + 1
	sSOS
	sDrop
	sSwitch
	sBattery
	sGPS
	sReact
	sRoute
	sUpload
	sPatrol
	sJob
	sBus
)

// streams derives a terminal's random sources from the fleet seed and its account id (not its position in
// the fleet: the same account behaves the same in a fleet of 50 or of 10,000).
func streams(seed uint64, id string) func(n uint64) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(id))
	sum := h.Sum64()
	return func(n uint64) *rand.Rand { return rand.New(rand.NewPCG(seed^(n*0x9e3779b97f4a7c15), sum)) }
}

// Each step of a behaviour chain draws a fixed set of values, whatever happens next.
type talkPlan struct {
	gap          time.Duration
	choice, frac float64
	queue        bool
}

func drawTalk(r *rand.Rand, mean time.Duration) talkPlan {
	p := talkPlan{gap: expDur(r, mean)}
	p.choice, p.queue, p.frac = r.Float64(), r.Float64() < 0.2, r.Float64()
	return p
}

type sosPlan struct {
	gap, cancelAfter      time.Duration
	cancel, talk, manDown bool
}

func drawSOS(r *rand.Rand, mean time.Duration) sosPlan {
	p := sosPlan{gap: expDur(r, mean)}
	p.cancel = r.Float64() < 0.3 // a false alarm the worker cancels
	p.cancelAfter = uniform(r, 15*time.Second, 2*time.Minute)
	p.talk = r.Float64() < 0.4 // calls for help on the radio too
	p.manDown = r.Float64() < 0.1
	return p
}

type dropPlan struct{ off, gap time.Duration }

func drawDrop(r *rand.Rand, rates Rates) dropPlan {
	off := uniform(r, min(15*time.Second, rates.Offline/2), rates.Offline)
	return dropPlan{off: off, gap: expDur(r, rates.DropEvery)}
}

type switchPlan struct {
	gap  time.Duration
	pick int
}

func drawSwitch(r *rand.Rand, mean time.Duration) switchPlan {
	return switchPlan{gap: expDur(r, mean), pick: r.IntN(1 << 30)}
}

func (t *Terminal) talkMean(r Rates) time.Duration {
	if t.prof.Talk <= 0 || r.TalkEvery <= 0 {
		return 0
	}
	return time.Duration(float64(r.TalkEvery) / t.prof.Talk)
}

func (t *Terminal) sosMean(r Rates) time.Duration {
	if t.prof.SOS <= 0 || r.SOSEvery <= 0 {
		return 0
	}
	return time.Duration(float64(r.SOSEvery) / t.prof.SOS)
}

func (t *Terminal) switchMean(r Rates) time.Duration {
	if t.prof.Console || r.SwitchEvery <= 0 {
		return 0
	}
	return r.SwitchEvery
}

// Planned is one spontaneous action of a terminal's schedule.
type Planned struct {
	At   time.Duration // after the terminal's first login attempt
	What string        // talk, sos, drop, back, switch, upload
}

// Plan is what the terminal will try to do on its own within horizon, computed from fresh copies of its
// random sources: the live fleet follows the same schedule (whether each try succeeds depends on the server
// and the others — a busy floor, an open alarm).
func (t *Terminal) Plan(horizon time.Duration) []Planned {
	stream := streams(t.fl.opts.Seed, t.acct.ID)
	r := t.fl.opts.Rates
	var out []Planned
	// every plans kind at each time a stream's draws place it within horizon: the first after expDur(mean),
	// each next one gap later (the gap drawn as the live terminal draws it, with the rest of its choices).
	every := func(src uint64, kind string, mean time.Duration, gap func(*rand.Rand, time.Duration) time.Duration) {
		if mean <= 0 {
			return
		}
		rs := stream(src)
		for at := expDur(rs, mean); at < horizon; at += gap(rs, mean) {
			out = append(out, Planned{at, kind})
		}
	}
	every(sTalk, "talk", t.talkMean(r), func(rs *rand.Rand, mean time.Duration) time.Duration { return drawTalk(rs, mean).gap })
	every(sSOS, "sos", t.sosMean(r), func(rs *rand.Rand, mean time.Duration) time.Duration { return drawSOS(rs, mean).gap })
	if r.DropEvery > 0 {
		rs := stream(sDrop)
		for at := expDur(rs, r.DropEvery); at < horizon; {
			p := drawDrop(rs, r)
			out = append(out, Planned{at, "drop"}, Planned{at + p.off, "back"})
			at += p.off + p.gap
		}
	}
	every(sSwitch, "switch", t.switchMean(r), func(rs *rand.Rand, mean time.Duration) time.Duration { return drawSwitch(rs, mean).gap })
	every(sUpload, "upload", t.uploadMean(r), expDur)
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}
