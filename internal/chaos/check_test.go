package chaos_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tenfour/internal/chaos"
)

var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

var consoles = []string{"console@n1", "console@n2"}

// healthy is a phase where every rule holds: an SMS, an SOS and a job acknowledged, stored and seen by both consoles
// (the SMS also offered twice to its terminal, which de-duplicates), a tone played by its terminal, two presses one
// after the other in a group (the first heard by a listener, recorded), a punch acknowledged and stored once (and
// shown live on the console that was there), another sent without a reply and stored too, presence converged and
// a terminal failed over within the bounds.
func healthy() chaos.Input {
	es := []chaos.Entry{
		{Type: chaos.TypeFault, Name: "kill n2", Sent: at(0), Acked: at(5000)},
		{Type: chaos.TypeOp, Op: 1, Kind: chaos.KindSMS, Node: "n1", Actor: "console@n1", Target: "30000001", ID: "m1", Code: "0", Sent: at(10), Acked: at(40)},
		{Type: chaos.TypeDelivery, Op: 1, Kind: chaos.KindSMS, Actor: "30000001", ID: "m1", Acked: at(30)},
		{Type: chaos.TypeDelivery, Op: 1, Kind: chaos.KindSMS, Actor: "30000001", ID: "m1", Acked: at(6000)},
		{Type: chaos.TypeDelivery, Kind: chaos.KindSMS, Actor: "console@n1", ID: "m1", Seq: 7, Acked: at(50)},
		{Type: chaos.TypeDelivery, Kind: chaos.KindSMS, Actor: "console@n2", ID: "m1", Seq: 7, Acked: at(51)},
		{Type: chaos.TypeDelivery, Kind: chaos.KindSMS, Actor: "console@n2", ID: "m1", Seq: 7, Acked: at(52)}, // a replayed seq: applied once
		{Type: chaos.TypeOp, Op: 2, Kind: chaos.KindSOS, Node: "n2", Actor: "30000002", ID: "a1", Code: "0", Sent: at(100), Acked: at(120)},
		{Type: chaos.TypeDelivery, Kind: chaos.KindSOS, Actor: "console@n1", ID: "a1", Seq: 8, Acked: at(130)},
		{Type: chaos.TypeDelivery, Kind: chaos.KindSOS, Actor: "console@n2", ID: "a1", Seq: 8, Acked: at(131)},
		{Type: chaos.TypeOp, Op: 7, Kind: chaos.KindSOS, Node: "n2", Actor: "30000004", ID: "a0", Code: "0", Dup: true, Sent: at(150), Acked: at(160)}, // open since an earlier phase
		{Type: chaos.TypeOp, Op: 3, Kind: chaos.KindPTT, Node: "n1", Actor: "30000001", Group: "g1", ID: "c1", Code: "0", Sent: at(200), Acked: at(210), Released: at(700)},
		{Type: chaos.TypeOp, Op: 4, Kind: chaos.KindPTT, Node: "n3", Actor: "30000003", Group: "g1", Code: "0", Sent: at(690), Acked: at(710), Released: at(900)},
		{Type: chaos.TypeOp, Op: 5, Kind: chaos.KindPTT, Node: "n3", Actor: "30000003", Group: "g1", Code: "denied", Sent: at(300), Acked: at(310)},
		{Type: chaos.TypeOp, Op: 6, Kind: chaos.KindGPS, Node: "n3", Actor: "30000003", Code: "0", Sent: at(300), Acked: at(310)},
		{Type: chaos.TypeConverge, Node: "n1", Took: 800 * time.Millisecond, OK: true},
		{Type: chaos.TypeFailover, Actor: "30000002", Node: "n2", Took: 4 * time.Second, OK: true},
		{Type: chaos.TypeOp, Op: 9, Kind: chaos.KindJob, Node: "n1", Actor: "console@n1", Target: "30000001", ID: "j1", Code: "0", Sent: at(400), Acked: at(420)},
		{Type: chaos.TypeDelivery, Kind: chaos.KindJob, Actor: "console@n1", ID: "j1", Seq: 11, Acked: at(421)},
		{Type: chaos.TypeDelivery, Kind: chaos.KindJob, Actor: "console@n1", ID: "j1", Seq: 12, Acked: at(450)}, // delivered: an update
		{Type: chaos.TypeDelivery, Kind: chaos.KindJob, Actor: "console@n2", ID: "j1", Seq: 11, Acked: at(422)},
		{Type: chaos.TypeOp, Op: 10, Kind: chaos.KindTone, Node: "n2", Actor: "console@n2", Target: "30000003", Code: "0", Sent: at(500), Acked: at(530)},
		{Type: chaos.TypeDelivery, Kind: chaos.KindTone, Actor: "30000003", Acked: at(520)},
		{Type: chaos.TypeDelivery, Op: 3, Kind: chaos.KindPTT, Actor: "30000003", Acked: at(240)},
		{Type: chaos.TypeOp, Op: 11, Kind: chaos.KindPunch, Node: "n2", Actor: "30000002", ID: "p1", Code: "0", Sent: at(600), Acked: at(620)},
		{Type: chaos.TypeDelivery, Kind: chaos.KindPunch, Actor: "console@n1", ID: "p1", Acked: at(621)},
		{Type: chaos.TypeOp, Op: 12, Kind: chaos.KindPunch, Node: "n2", Actor: "30000002", Sent: at(800)}, // no reply, stored all the same
	}
	return chaos.Input{
		Entries: es,
		Stored: chaos.Stored{SMS: map[string]bool{"m1": true}, SOS: map[string]bool{"a1": true, "a0": true}, Job: map[string]bool{"j1": true},
			Punches: map[int64][]string{11: {"p1"}, 12: {"p2"}},
			Records: []chaos.Record{
				{CallID: "c1", Talker: "30000001", BTime: at(205), Size: 900, File: 900, Ops: map[int64]bool{3: true}},
				{CallID: "c1", Talker: "30000003", BTime: at(695), Size: 400, File: 400, Ops: map[int64]bool{4: true}},
			}},
		Consoles: consoles,
		Bounds:   chaos.Bounds{Converge: 5 * time.Second, Failover: 15 * time.Second},
	}
}

func TestCheckerPassesAHealthyPhase(t *testing.T) {
	r := chaos.Check(healthy())
	if !r.OK() {
		t.Fatalf("violations in a healthy phase: %v", r.Violations)
	}
	if r.Ops != 11 || r.Acked != 9 || r.Redelivered != 1 || r.Heard != 1 || r.Converge != 800*time.Millisecond || r.Failover != 4*time.Second {
		t.Fatalf("counts: %+v", r)
	}
}

// Each case breaks one rule of a healthy phase; the checker must see exactly that.
// A higher rank's press takes the floor over: the holder learns it just after the preemptor's grant.
func TestCheckerTakesAPreemptionForOneTalker(t *testing.T) {
	in := healthy()
	in.Entries[11].Revoked = "preempted"
	in.Entries[12].Acked = at(650)
	if r := chaos.Check(in); !r.OK() {
		t.Fatalf("a preemption counted as a second talker: %v", r.Violations)
	}
}

// A burst is recorded on its talker's node, its row written at its end: a kill of that node between the grant and
// the record's due time (a second after the release) cuts it, which the checker counts and does not claim; a kill
// later does not excuse a missing record.
func TestCheckerTakesABurstCutByAKillOfItsNode(t *testing.T) {
	in := healthy()
	in.Stored.Records = in.Stored.Records[1:]
	in.Entries = append(in.Entries, chaos.Entry{Type: chaos.TypeKill, Node: "n1", Sent: at(900)})
	if r := chaos.Check(in); !r.OK() || r.Cut != 1 || r.Heard != 1 {
		t.Fatalf("a burst cut by its node's kill: %+v", r)
	}
	in.Entries[len(in.Entries)-1].Sent = at(1800)
	if r := chaos.Check(in); r.OK() || r.Cut != 0 || r.Lost != 1 {
		t.Fatalf("a kill after the record was due excused its loss: %+v", r)
	}
	in.Entries[len(in.Entries)-1].Node, in.Entries[len(in.Entries)-1].Sent = "n3", at(900)
	if r := chaos.Check(in); r.OK() || r.Cut != 0 || r.Lost != 1 {
		t.Fatalf("a kill of another node excused a loss: %+v", r)
	}
}

func TestCheckerFindsEachViolation(t *testing.T) {
	drop := func(in *chaos.Input, match func(chaos.Entry) bool) {
		var kept []chaos.Entry
		for _, e := range in.Entries {
			if !match(e) {
				kept = append(kept, e)
			}
		}
		in.Entries = kept
	}
	type violation struct {
		name  string
		spoil func(*chaos.Input)
		want  func(chaos.Result) bool
	}
	cases := []violation{
		{"acked tone never played", func(in *chaos.Input) {
			drop(in, func(e chaos.Entry) bool { return e.Kind == chaos.KindTone && e.Type == chaos.TypeDelivery })
		}, func(r chaos.Result) bool { return r.Lost == 1 }},
		{"a tone played only after its reply is not its play", func(in *chaos.Input) {
			for i, e := range in.Entries {
				if e.Kind == chaos.KindTone && e.Type == chaos.TypeDelivery {
					in.Entries[i].Acked = at(600)
				}
			}
		}, func(r chaos.Result) bool { return r.Lost == 1 }},
		{"alarm shown twice", func(in *chaos.Input) {
			in.Entries = append(in.Entries, chaos.Entry{Type: chaos.TypeDelivery, Kind: chaos.KindSOS, Actor: "console@n2", ID: "a1", Seq: 9, Acked: at(140)})
		}, func(r chaos.Result) bool { return r.Duplicates == 1 }},
		{"overlapping grants", func(in *chaos.Input) { in.Entries[12].Acked = at(650) },
			func(r chaos.Result) bool { return r.FloorViolations == 1 }},
		{"a grant never released overlaps every later one", func(in *chaos.Input) { in.Entries[11].Released = time.Time{} },
			func(r chaos.Result) bool { return r.FloorViolations == 1 }},
		{"a preempted holder's second overlapping grant", func(in *chaos.Input) {
			in.Entries[11].Revoked = "preempted"
			in.Entries[12].Acked, in.Entries[12].Released = at(650), at(660)
			in.Entries = append(in.Entries, chaos.Entry{Type: chaos.TypeOp, Op: 8, Kind: chaos.KindPTT, Actor: "30000002", Group: "g1", Code: "0", Sent: at(660), Acked: at(680), Released: at(690)})
		}, func(r chaos.Result) bool { return r.FloorViolations == 1 }},
		{"presence converged too late", func(in *chaos.Input) { in.Entries[15].Took = 6 * time.Second },
			func(r chaos.Result) bool { return r.Converge == 6*time.Second }},
		{"presence never converged", func(in *chaos.Input) { in.Entries[15].OK = false },
			func(r chaos.Result) bool { return true }},
		{"failover too late", func(in *chaos.Input) { in.Entries[16].Took = 16 * time.Second },
			func(r chaos.Result) bool { return r.Failover == 16*time.Second }},
		{"terminal never back", func(in *chaos.Input) { in.Entries[16].OK = false },
			func(r chaos.Result) bool { return true }},
		{"a new alarm (not a duplicate raise) never on a console", func(in *chaos.Input) { in.Entries[10].Dup = false },
			func(r chaos.Result) bool { return r.Lost == 1 }},
		{"acked punch not in the store", func(in *chaos.Input) { delete(in.Stored.Punches, 11) },
			func(r chaos.Result) bool { return r.Lost == 1 }},
		{"acked punch stored, but as another row than its reply named", func(in *chaos.Input) { in.Stored.Punches[11] = []string{"p9"} },
			func(r chaos.Result) bool { return r.Lost == 1 }},
		{"acked punch stored twice", func(in *chaos.Input) { in.Stored.Punches[11] = append(in.Stored.Punches[11], "p3") },
			func(r chaos.Result) bool { return r.Duplicates == 1 }},
		{"punch without a reply stored twice", func(in *chaos.Input) { in.Stored.Punches[12] = append(in.Stored.Punches[12], "p3") },
			func(r chaos.Result) bool { return r.Duplicates == 1 }},
		{"punch shown twice on a console", func(in *chaos.Input) {
			in.Entries = append(in.Entries, chaos.Entry{Type: chaos.TypeDelivery, Kind: chaos.KindPunch, Actor: "console@n1", ID: "p1", Acked: at(900)})
		}, func(r chaos.Result) bool { return r.Duplicates == 1 }},
		{"a heard burst without its call record", func(in *chaos.Input) { in.Stored.Records = in.Stored.Records[1:] },
			func(r chaos.Result) bool { return r.Lost == 1 }},
		{"a heard burst whose audio is in another talker's record", func(in *chaos.Input) { in.Stored.Records[0].Talker = "30000003" },
			func(r chaos.Result) bool { return r.Lost == 1 }},
		{"a heard burst whose call's record of its talker holds other audio", func(in *chaos.Input) { in.Stored.Records[0].Ops = map[int64]bool{2: true} },
			func(r chaos.Result) bool { return r.Lost == 1 }},
		{"a heard burst recorded in a burst begun before its press", func(in *chaos.Input) { in.Stored.Records[0].BTime = at(150) },
			func(r chaos.Result) bool { return r.FloorViolations == 1 && r.Lost == 0 }},
		{"a heard burst's recording on no node", func(in *chaos.Input) { in.Stored.Records[0].File = -1 },
			func(r chaos.Result) bool { return r.Lost == 1 }},
		{"a heard burst's recording empty", func(in *chaos.Input) { in.Stored.Records[0].File = 0 },
			func(r chaos.Result) bool { return r.Lost == 1 }},
		{"a heard burst's recording shorter than its record says", func(in *chaos.Input) { in.Stored.Records[0].File = 512 },
			func(r chaos.Result) bool { return r.Lost == 1 }},
		{"a burst heard of a press never granted", func(in *chaos.Input) {
			in.Entries = append(in.Entries, chaos.Entry{Type: chaos.TypeDelivery, Op: 5, Kind: chaos.KindPTT, Actor: "30000001", Acked: at(320)})
		}, func(r chaos.Result) bool { return r.Heard == 2 }},
	}
	// Each kind the store keeps: acknowledged, then missing from the store, or from one console.
	lost := func(r chaos.Result) bool { return r.Lost == 1 }
	for _, k := range []struct {
		kind    chaos.Kind
		id, con string
		stored  func(chaos.Stored) map[string]bool
	}{
		{chaos.KindSMS, "m1", "console@n2", func(s chaos.Stored) map[string]bool { return s.SMS }},
		{chaos.KindSOS, "a1", "console@n1", func(s chaos.Stored) map[string]bool { return s.SOS }},
		{chaos.KindJob, "j1", "console@n2", func(s chaos.Stored) map[string]bool { return s.Job }},
	} {
		cases = append(cases,
			violation{"acked " + string(k.kind) + " not in the store", func(in *chaos.Input) { delete(k.stored(in.Stored), k.id) }, lost},
			violation{"acked " + string(k.kind) + " never on " + k.con, func(in *chaos.Input) {
				drop(in, func(e chaos.Entry) bool { return e.Kind == k.kind && e.Actor == k.con })
			}, lost})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := healthy()
			c.spoil(&in)
			r := chaos.Check(in)
			if len(r.Violations) != 1 || !c.want(r) {
				t.Fatalf("want exactly this violation, got %+v", r)
			}
		})
	}
}

// What a workload writes is what the checker reads.
func TestHistoryRoundTrip(t *testing.T) {
	file := filepath.Join(t.TempDir(), "h.jsonl")
	h, err := chaos.NewHistory(file)
	if err != nil {
		t.Fatal(err)
	}
	want := healthy().Entries
	for _, e := range want {
		h.Add(e)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := chaos.ReadHistory(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries back, want %d", len(got), len(want))
	}
	for i := range want {
		if !got[i].Acked.Equal(want[i].Acked) || got[i].Took != want[i].Took || got[i].ID != want[i].ID || got[i].Type != want[i].Type {
			t.Fatalf("entry %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
