package chaos

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"
)

// Bounds are the stated limits the checker holds the measures to (docs/reliability.md).
type Bounds struct {
	Converge time.Duration // every node's presence view right after a heal
	Failover time.Duration // a terminal of a lost node logged in on another
}

// Stored is what the store holds once the phase is over: the ids of the workload's messages, alarms and jobs,
// its punches and its call records, read by the harness from PostgreSQL through the owning domains' stores (not
// from any node: a node's answer is what is being checked), and the recordings from the nodes' data directories.
type Stored struct {
	SMS map[string]bool
	SOS map[string]bool
	Job map[string]bool
	// Punches are the stored punches of the phase by the op whose stamp they carry (patrol.go): its row ids,
	// one for each time it was stored.
	Punches map[int64][]string
	// Records are the call records of the phase's bursts.
	Records []Record
}

// Record is a call record as the store holds it, with its recording as the harness finds it on disk.
type Record struct {
	CallID string
	Talker string
	BTime  time.Time // the burst's start (its grant, by the recording node's clock)
	Size   int64     // the recording's size the record states
	File   int64     // the recording's size on the node that recorded it; -1: on no node
	// Ops are the presses of the phase whose audio the recording holds (the marks of its packets, audio.go).
	Ops map[int64]bool
}

// of is the stored ids of a kind of item (nil for a kind the store is not asked about).
func (s Stored) of(k Kind) map[string]bool {
	return map[Kind]map[string]bool{KindSMS: s.SMS, KindSOS: s.SOS, KindJob: s.Job}[k]
}

// Input is one phase to check.
type Input struct {
	Entries  []Entry
	Stored   Stored
	Consoles []string // the console observers (Entry.Actor of their deliveries): each must have seen every item
	Bounds   Bounds
}

// Result is the checker's verdict on a phase: the counts of docs/reliability.md's table and each violation.
type Result struct {
	Ops             int
	Acked           int
	Lost            int // acknowledged, then missing from the store or from a console
	Duplicates      int // an item stored or shown twice: an alarm under two seqs on a console, a punch
	Redelivered     int // a message offered to its terminal again after it acknowledged (the terminal de-duplicates)
	FloorViolations int // two talkers of a group granted at overlapping times; a burst begun before its press (untold)
	Heard           int // bursts a listener heard packets of (each must have its record and recording)
	// Cut are the bursts heard without a record whose talker's node was killed before the record was due: a
	// burst is recorded on its talker's node and its row written at its end (docs/reliability.md: not claimed).
	Cut        int
	Converge   time.Duration
	Failover   time.Duration
	Violations []string
}

// OK reports whether no rule was broken.
func (r Result) OK() bool { return len(r.Violations) == 0 }

func (r *Result) violate(format string, args ...any) {
	r.Violations = append(r.Violations, fmt.Sprintf(format, args...))
}

// Check holds a phase's history against the store and the rules of issue 35.
func Check(in Input) Result {
	var r Result
	type key struct {
		kind    Kind
		id, who string
	}
	seen := map[key]bool{}           // (kind, id, observer)
	seqs := map[key]map[int64]bool{} // (kind, id, observer) → its seqs
	termCopies := map[key]int{}      // (sms, id, terminal) → deliveries
	var grants []Entry               // granted presses
	heard := map[int64][]string{}    // a press's op → the listeners that heard its burst
	live := map[key]int{}            // (punch, id, console) → live events
	var kills []Entry                // nodes killed in the phase
	for _, e := range in.Entries {
		switch e.Type {
		case TypeOp:
			r.Ops++
			if !e.Acknowledged() {
				continue
			}
			r.Acked++
			if e.Kind == KindPTT {
				grants = append(grants, e)
			}
		case TypeDelivery:
			if e.Kind == KindPTT {
				heard[e.Op] = append(heard[e.Op], e.Actor)
				continue
			}
			k := key{kind: e.Kind, id: e.ID, who: e.Actor}
			seen[k] = true
			if e.Kind == KindPunch { // an event sent live only
				live[k]++
				continue
			}
			if e.Seq == 0 { // a request to a terminal, not a durable event
				termCopies[k]++
				continue
			}
			if seqs[k] == nil {
				seqs[k] = map[int64]bool{}
			}
			seqs[k][e.Seq] = true
		case TypeKill:
			kills = append(kills, e)
		case TypeConverge:
			r.Converge = max(r.Converge, e.Took)
			if !e.OK || e.Took > in.Bounds.Converge {
				r.violate("presence on %s converged in %v (ok=%v), bound %v", e.Node, e.Took, e.OK, in.Bounds.Converge)
			}
		case TypeFailover:
			r.Failover = max(r.Failover, e.Took)
			if !e.OK || e.Took > in.Bounds.Failover {
				r.violate("terminal %s back online in %v (ok=%v), bound %v", e.Actor, e.Took, e.OK, in.Bounds.Failover)
			}
		}
	}

	// Nothing acknowledged is lost: in the store, and on every console.
	for _, e := range in.Entries {
		store := in.Stored.of(e.Kind)
		if !e.Acknowledged() || store == nil {
			continue
		}
		var missing []string
		if e.ID == "" || !store[e.ID] {
			missing = append(missing, "the store")
		}
		for _, c := range in.Consoles {
			if !e.Dup && !seen[key{kind: e.Kind, id: e.ID, who: c}] {
				missing = append(missing, c)
			}
		}
		if len(missing) > 0 {
			r.Lost++
			r.violate("op %d (%s %s by %s on %s) acknowledged but missing from %v", e.Op, e.Kind, e.ID, e.Actor, e.Node, missing)
		}
	}

	// A tone acknowledged was played: its terminal saw tone.play between the send and the reply (a tone is not
	// kept for later, so there is nothing to look for in the store).
	for _, e := range in.Entries {
		if !e.Acknowledged() || e.Kind != KindTone {
			continue
		}
		played := slices.ContainsFunc(in.Entries, func(d Entry) bool {
			return d.Type == TypeDelivery && d.Kind == KindTone && d.Actor == e.Target && !d.Acked.Before(e.Sent) && !d.Acked.After(e.Acked)
		})
		if !played {
			r.Lost++
			r.violate("op %d (tone to %s by %s on %s) acknowledged but never played", e.Op, e.Target, e.Actor, e.Node)
		}
	}

	// A punch acknowledged is stored, and none twice: its row (the reply's log id) carries its op's stamp, and
	// no other row does. The consoles see punches live only (after a reconnect they read the list again), so a
	// console that was away has not missed one; one shown twice is a duplicate.
	for _, e := range in.Entries {
		if e.Acknowledged() && e.Kind == KindPunch && !slices.Contains(in.Stored.Punches[e.Op], e.ID) {
			r.Lost++
			r.violate("op %d (punch %s by %s on %s) acknowledged but missing from the store", e.Op, e.ID, e.Actor, e.Node)
		}
	}
	for _, op := range slices.Sorted(maps.Keys(in.Stored.Punches)) {
		if ids := in.Stored.Punches[op]; len(ids) > 1 {
			r.Duplicates++
			r.violate("op %d's punch stored %d times: rows %v", op, len(ids), ids)
		}
	}
	for k, n := range live {
		if n > 1 {
			r.Duplicates++
			r.violate("punch %s shown %d times on %s", k.id, n, k.who)
		}
	}

	// A burst a listener heard has its call record, and the record its recording: the record of the press's call
	// and talker whose recording holds the press's audio. That record began with the press's grant: one that
	// began before the press is a burst the talker was granted without being told (it held the floor, silent,
	// until it pressed again).
	for _, op := range slices.Sorted(maps.Keys(heard)) {
		r.Heard++
		i := slices.IndexFunc(in.Entries, func(p Entry) bool { return p.Type == TypeOp && p.Kind == KindPTT && p.Op == op })
		if i < 0 || !in.Entries[i].Acknowledged() {
			r.violate("%v heard a burst of op %d, which was not granted", heard[op], op)
			continue
		}
		p := in.Entries[i]
		j := slices.IndexFunc(in.Stored.Records, func(c Record) bool { return c.CallID == p.ID && c.Talker == p.Actor && c.Ops[op] })
		if j < 0 && slices.ContainsFunc(kills, func(k Entry) bool {
			return k.Node == p.Node && k.Sent.After(p.Acked) && k.Sent.Before(held(p).Add(recordDue))
		}) {
			r.Cut++
			continue
		}
		if j < 0 {
			r.Lost++
			r.violate("op %d (burst of %s in group %s on %s, call %s, heard by %v) has no call record", op, p.Actor, p.Group,
				p.Node, p.ID, heard[op])
			continue
		}
		c := in.Stored.Records[j]
		if c.File <= 0 || c.File != c.Size {
			r.Lost++
			r.violate("op %d (burst of %s on %s, call %s, btime %d): its recording is %d bytes on disk (-1: none), its record says %d",
				op, p.Actor, p.Node, p.ID, c.BTime.UnixMilli(), c.File, c.Size)
		}
		if c.BTime.Before(p.Sent.Add(-time.Millisecond)) {
			r.FloorViolations++
			r.violate("op %d (press of %s on %s at %s, call %s): its burst began at %s, before the press: the server had granted it the floor untold",
				op, p.Actor, p.Node, p.Sent.Format(time.StampMilli), p.ID, c.BTime.Format(time.StampMilli))
		}
	}

	// None shown twice: an alarm is one durable event; a message's status events and a job's changes are
	// updates, not copies.
	for k, s := range seqs {
		if k.kind == KindSOS && len(s) > 1 {
			r.Duplicates++
			r.violate("alarm %s shown %d times on %s", k.id, len(s), k.who)
		}
	}
	for _, n := range termCopies {
		r.Redelivered += n - 1
	}

	// The floor: a granted press holds from its grant's reply to its release (or its revocation seen). A press
	// of a higher rank takes the floor over and the holder is told after (docs/voice.md "preempted"): the first
	// grant inside a preempted hold is its preemptor, not a second talker.
	sort.Slice(grants, func(i, j int) bool { return grants[i].Acked.Before(grants[j].Acked) })
	for i, a := range grants {
		preemptor := a.Revoked == "preempted"
		for _, b := range grants[i+1:] {
			if a.Group != b.Group || a.Actor == b.Actor {
				continue
			}
			if held(a).After(b.Acked) && preemptor {
				preemptor = false
				continue
			}
			if held(a).After(b.Acked) {
				r.FloorViolations++
				r.violate("group %s: %s granted at %s while %s held the floor (granted %s, released %s)", a.Group,
					b.Actor, b.Acked.Format(time.StampMilli), a.Actor, a.Acked.Format(time.StampMilli), stamp(a.Released))
			}
		}
	}
	return r
}

// recordDue is how soon after its end a burst's record is stored: after the release tail (250 ms, internal/call's
// ReleaseTail) and one row's write.
const recordDue = time.Second

// held is when a granted press stopped holding the floor; never released is held for ever.
func held(e Entry) time.Time {
	if e.Released.IsZero() {
		return time.Unix(1<<40, 0)
	}
	return e.Released
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.Format(time.StampMilli)
}
