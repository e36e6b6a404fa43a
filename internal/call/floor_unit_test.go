package call

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestFloorDecisions(t *testing.T) {
	now := time.Now()
	term := func(id string, queue bool) *Claim {
		return &Claim{Account: id, Prio: PrioTerminal, Queue: queue, At: now}
	}
	disp := func(id string) *Claim { return &Claim{Account: id, Prio: PrioDispatcher, At: now} }
	sos := func(id string) *Claim { return &Claim{Account: id, Prio: PrioEmergency, At: now} }
	afterGap := func(c *Claim) *Claim { c.At = now.Add(2 * time.Hour); return c }
	type step struct {
		req     *Claim
		release string
		want    Decision
		pre     string // pre-empted holder
		pos     int
		holder  string
		queue   []string
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"free floor is granted, busy is denied", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{req: term("b", false), want: Denied, holder: "a"},
		}},
		{"queue in arrival order, release hands over", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{req: term("b", true), want: Queued, pos: 1, holder: "a", queue: []string{"b"}},
			{req: term("c", true), want: Queued, pos: 2, holder: "a", queue: []string{"b", "c"}},
			{req: term("b", true), want: Queued, pos: 1, holder: "a", queue: []string{"b", "c"}},
			{release: "a", holder: "b", queue: []string{"c"}},
			{release: "c", holder: "b"},
			{release: "b"},
		}},
		{"dispatcher pre-empts a terminal, not another dispatcher", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{req: disp("d"), want: Granted, pre: "a", holder: "d"},
			{req: disp("e"), want: Denied, holder: "d"},
			{req: term("a", false), want: Denied, holder: "d"},
		}},
		{"emergency pre-empts a dispatcher", []step{
			{req: disp("d"), want: Granted, holder: "d"},
			{req: sos("s"), want: Granted, pre: "d", holder: "s"},
		}},
		{"higher priority waits ahead of lower", []step{
			{req: sos("s"), want: Granted, holder: "s"},
			{req: term("a", true), want: Queued, pos: 1, holder: "s", queue: []string{"a"}},
			{req: &Claim{Account: "d", Prio: PrioDispatcher, Queue: true}, want: Queued, pos: 1, holder: "s", queue: []string{"d", "a"}},
		}},
		{"the holder pressing again keeps the floor", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{req: term("a", false), want: Granted, holder: "a"},
		}},
		{"the queue is bounded", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{req: term("b", true), want: Queued, pos: 1, holder: "a", queue: []string{"b"}},
			{req: term("c", true), want: Queued, pos: 2, holder: "a", queue: []string{"b", "c"}},
			{req: term("d", true), want: Denied, holder: "a", queue: []string{"b", "c"}},
		}},
		{"nobody asked: the talker that released takes the floor again", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{release: "a"},
			{req: term("a", false), want: Granted, holder: "a"},
		}},
		{"a talker that released waits for those refused during its turn", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{req: term("b", false), want: Denied, holder: "a"},
			{release: "a"},
			{req: term("a", false), want: Denied},
			{req: term("a", false), want: Denied},
			{req: term("b", false), want: Granted, holder: "b"},
			{req: term("a", false), want: Denied, holder: "b"},
			{release: "b"},
			{req: term("b", false), want: Denied}, // now b waits for a
			{req: term("a", false), want: Granted, holder: "a"},
		}},
		{"waiting with queue: behind those who asked, then next", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{req: term("b", false), want: Denied, holder: "a"},
			{release: "a"},
			{req: term("a", true), want: Queued, pos: 1, queue: []string{"a"}},
			{req: term("b", false), want: Granted, holder: "b", queue: []string{"a"}},
			{release: "b", holder: "a"},
		}},
		{"the wait ends after the gap", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{req: term("b", false), want: Denied, holder: "a"},
			{release: "a"},
			{req: afterGap(term("a", false)), want: Granted, holder: "a"},
		}},
		{"queued ones first: the queue head takes the floor at release", []step{
			{req: term("a", false), want: Granted, holder: "a"},
			{req: term("b", true), want: Queued, pos: 1, holder: "a", queue: []string{"b"}},
			{release: "a", holder: "b"},
			{req: term("a", false), want: Denied, holder: "b"},
		}},
		{"a dispatcher does not wait for a terminal it would pre-empt", []step{
			{req: disp("d"), want: Granted, holder: "d"},
			{req: term("b", false), want: Denied, holder: "d"},
			{release: "d"},
			{req: disp("d"), want: Granted, holder: "d"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Floor{MaxQueue: 2, RetryGap: time.Hour}
			for i, s := range tc.steps {
				if s.req != nil {
					d, pre, pos := f.Request(s.req)
					preID := ""
					if pre != nil {
						preID = pre.Account
					}
					if d != s.want || preID != s.pre || pos != s.pos {
						t.Fatalf("step %d: got %v pre %q pos %d, want %v pre %q pos %d", i, d, preID, pos, s.want, s.pre, s.pos)
					}
				} else {
					f.Release(s.release)
				}
				holder := ""
				if f.Holder != nil {
					holder = f.Holder.Account
				}
				if holder != s.holder || !slices.Equal(f.QueueIDs(), s.queue) {
					t.Fatalf("step %d: holder %q queue %v, want %q %v", i, holder, f.QueueIDs(), s.holder, s.queue)
				}
			}
		})
	}
}

// A talker waiting on a free floor with its request queued gets the floor when its wait ends.
func TestFloorResumeAfterTheWait(t *testing.T) {
	f := Floor{MaxQueue: 8, RetryGap: time.Hour}
	now := time.Now()
	f.Request(&Claim{Account: "a", Prio: PrioTerminal, At: now})
	f.Request(&Claim{Account: "b", Prio: PrioTerminal, At: now})
	f.Release("a")
	if d, _, _ := f.Request(&Claim{Account: "a", Prio: PrioTerminal, Queue: true, At: now}); d != Queued {
		t.Fatalf("waiting talker: %v, want queued", d)
	}
	if until := f.Yielding(); until.Sub(now) < time.Hour-time.Minute {
		t.Fatalf("wait ends %v", until)
	}
	if c := f.Resume(now); c != nil {
		t.Fatalf("resumed %v before the wait ended", c.Account)
	}
	if c := f.Resume(now.Add(2 * time.Hour)); c == nil || c.Account != "a" || f.Holder != c || len(f.Queue) != 0 {
		t.Fatalf("resume: %v, holder %v queue %v", c, f.Holder, f.QueueIDs())
	}
}

// BenchmarkFloorDecision is one request and release on a floor with a queue of waiting terminals: the
// decision the floor controller makes under its lock.
func BenchmarkFloorDecision(b *testing.B) {
	f := Floor{MaxQueue: 8}
	f.Request(&Claim{Account: "holder", Prio: PrioDispatcher})
	for i := range 6 {
		f.Request(&Claim{Account: fmt.Sprint("q", i), Prio: PrioTerminal, Queue: true})
	}
	c := &Claim{Account: "t", Prio: PrioTerminal, Queue: true, At: time.Now()}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		f.Request(c)
		f.Release(c.Account)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}

// leasesAt is a cluster's floor leases as this node sees them: live or not (the rest answers as a free floor).
type leasesAt struct{ live bool }

func (l leasesAt) Take(context.Context, int64, int, time.Time) bool { return true }
func (l leasesAt) Decided(int64)                                    {}
func (l leasesAt) Live(int64) bool                                  { return l.live }
func (l leasesAt) Release(int64)                                    {}
func (l leasesAt) Outranked(int64, int, int64) bool                 { return false }
func (l leasesAt) Advertise(int64, int, time.Time)                  {}
func (l leasesAt) Withdraw(int64)                                   {}
func (l leasesAt) Asked(int64, int)                                 {}

// A press is refused, the floor left as it was, when it cannot be granted without a second talker or a talker
// that let go: its group's lease ran out while it was decided (docs/reliability.md finding 9: the lossy node
// granted a press and revoked it at once, after another node had granted one), or the client's release, sent
// after it, was handled first (finding 8: a node resumed from a pause granted a press its terminal had given up
// and released, which then held the group's floor untold).
func TestPressRefusedOnARunOutLeaseOrAfterItsRelease(t *testing.T) {
	for _, tc := range []struct {
		name     string
		live     bool
		released uint64 // the client's latest release
	}{
		{"lease ran out while the press was decided", false, 0},
		{"release sent after the press, handled first", true, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Service{leases: leasesAt{live: tc.live}}
			c := &Call{ID: "c1", Kind: Group, Group: 7, floor: s.newFloor()}
			cl := &client{acct: Account{ID: "a"}, released: tc.released}
			claim := &Claim{Account: "a", Client: cl, Prio: PrioTerminal, At: time.Now(), Arrival: 7}
			if _, err := s.pressLocked(nil, c, cl.acct, claim, false); !errors.Is(err, ErrFloorBusy) {
				t.Fatalf("press: %v, want refused busy", err)
			}
			if c.floor.Holder != nil || len(c.floor.Queue) != 0 || c.burst != nil {
				t.Fatalf("floor changed: holder %v, queue %v", c.floor.Holder, c.floor.QueueIDs())
			}
		})
	}
}
