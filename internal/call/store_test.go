package call_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/call"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

// eachStore runs fn on every engine with a fresh store of two customers (cust has the group gid).
func eachStore(t *testing.T, fn func(t *testing.T, s *call.Store, cust, other int64, gid string)) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		s, cust, other, gid := storeFixture(t, engine)
		fn(t, s, cust, other, gid)
	})
}

func storeFixture(t *testing.T, engine string) (*call.Store, int64, int64, string) {
	d := testkit.OpenStore(t, engine)
	cust, other := testkit.Customer(t, d, "acme"), testkit.Customer(t, d, "other")
	gid := testkit.Group(t, d, cust, "Patrol")
	testkit.Provision(t, d, cust, "10001001", "10", gid)
	testkit.Provision(t, d, cust, "10001002", "10", gid)
	testkit.Provision(t, d, cust, "10009001", "20")
	testkit.Provision(t, d, other, "20001001", "10")
	return call.NewStore(d, directory.NewStore(d)), cust, other, strconv.FormatInt(gid, 10)
}

func TestStoreDirectoryReads(t *testing.T) {
	eachStore(t, func(t *testing.T, s *call.Store, cust, other int64, gid string) {
		ctx := context.Background()
		a, err := s.Account(ctx, cust, "10001001")
		if err != nil || a.Type != "10" || a.Status != 8 || strconv.FormatInt(a.PttGroup, 10) != gid || a.Blocked() {
			t.Fatalf("account %+v %v", a, err)
		}
		if _, err := s.Account(ctx, other, "10001001"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("another customer's account: %v", err)
		}
		g, _ := strconv.ParseInt(gid, 10, 64)
		aud, err := s.GroupAudience(ctx, cust, g)
		if err != nil || len(aud) != 2 || aud[0].ID != "10001001" || aud[1].ID != "10001002" {
			t.Fatalf("audience %+v %v", aud, err)
		}
		if aud, _ := s.GroupAudience(ctx, other, g); len(aud) != 0 {
			t.Fatalf("audience across customers: %+v", aud)
		}
		terms, err := s.Terminals(ctx, cust)
		if err != nil || len(terms) != 2 {
			t.Fatalf("terminals %+v %v", terms, err)
		}
		accts, err := s.Accounts(ctx, cust, []string{"10009001", "20001001", "10001002"})
		if err != nil || len(accts) != 2 || !accts[1].Dispatcher() {
			t.Fatalf("accounts %+v %v", accts, err)
		}
		if _, err := s.Group(ctx, other, g); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("another customer's group: %v", err)
		}
	})
}

func TestStoreRecords(t *testing.T) {
	eachStore(t, func(t *testing.T, s *call.Store, cust, other int64, gid string) {
		ctx := context.Background()
		g, _ := strconv.ParseInt(gid, 10, 64)
		base := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC).UnixMilli()
		rows := []call.Record{
			{Customer: cust, CallID: "c1", Kind: call.Group, GroupID: g, GroupName: "Patrol", TalkerID: "10001001",
				Started: base, DurationMs: 3000, Quality: "HD", Size: 100, Path: "recordings/a.ogg"},
			{Customer: cust, CallID: "c1", Kind: call.Group, GroupID: g, GroupName: "Patrol", TalkerID: "10001002",
				Started: base + 5000, DurationMs: 2000, Quality: "SD", Size: 80, Path: "recordings/b.ogg"},
			{Customer: cust, CallID: "c2", Kind: call.Single, PeerIDs: "10009001", TalkerID: "10001001",
				Started: base + 60000, DurationMs: 1000, Quality: "HD", Size: 50, Path: "recordings/c.ogg"},
			{Customer: other, CallID: "x", Kind: call.Group, TalkerID: "20001001", Started: base, DurationMs: 1,
				Quality: "HD", Size: 1, Path: "recordings/x.ogg"},
		}
		for _, r := range rows {
			if _, err := s.AddRecord(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.AddRecord(ctx, rows[0]); !db.IsUniqueViolation(err) {
			t.Fatalf("a burst is indexed once: %v", err)
		}
		q := func(rq call.RecordQuery) ([]call.Record, int) {
			rq.From, rq.To = base-1, base+3600000
			if rq.Limit == 0 {
				rq.Limit = 100
			}
			list, total, err := s.Records(ctx, cust, rq)
			if err != nil {
				t.Fatal(err)
			}
			return list, total
		}
		if list, total := q(call.RecordQuery{}); total != 3 || list[0].CallID != "c2" || list[2].TalkerID != "10001001" {
			t.Fatalf("all: %d %+v", total, list)
		}
		if _, total := q(call.RecordQuery{MsID: "10009001"}); total != 1 {
			t.Fatalf("by peer: %d", total)
		}
		if _, total := q(call.RecordQuery{GroupID: g, Kind: call.Group}); total != 2 {
			t.Fatalf("by group: %d", total)
		}
		if list, total := q(call.RecordQuery{Limit: 1, Offset: 1}); total != 3 || len(list) != 1 || list[0].Started != base+5000 {
			t.Fatalf("page 2: %d %+v", total, list)
		}
		bursts, err := s.CallRecords(ctx, cust, "c1", 0)
		if err != nil || len(bursts) != 2 || bursts[0].Started != base {
			t.Fatalf("call bursts %+v %v", bursts, err)
		}
		if one, _ := s.CallRecords(ctx, cust, "c1", base+5000); len(one) != 1 || one[0].Quality != "SD" {
			t.Fatalf("one burst %+v", one)
		}
		if none, _ := s.CallRecords(ctx, other, "c1", 0); len(none) != 0 {
			t.Fatalf("another customer's call: %+v", none)
		}
		// The orphan sweep's check: the bursts with a row, of one customer and time range.
		keys, err := s.RecordedBursts(ctx, cust, base, base+60000)
		if err != nil || len(keys) != 2 || !keys["c1-"+strconv.FormatInt(base, 10)] ||
			!keys["c1-"+strconv.FormatInt(base+5000, 10)] {
			t.Fatalf("recorded bursts %v %v", keys, err)
		}
		// Retention: a file that cannot be removed keeps its row.
		var removed []string
		n, err := s.DeleteOlder(ctx, base+10000, 10, func(p string) error {
			if p == "recordings/b.ogg" {
				return errors.New("busy")
			}
			removed = append(removed, p)
			return nil
		})
		if err != nil || n != 2 || len(removed) != 2 {
			t.Fatalf("deleted %d %v: %v", n, removed, err)
		}
		if _, total := q(call.RecordQuery{}); total != 2 {
			t.Fatalf("after retention: %d", total)
		}
	})
}

func TestStoreMutesAndMissed(t *testing.T) {
	eachStore(t, func(t *testing.T, s *call.Store, cust, other int64, _ string) {
		ctx := context.Background()
		id, err := s.AddMute(ctx, cust, "10009001", "10001001", 1)
		if err != nil {
			t.Fatal(err)
		}
		again, err := s.AddMute(ctx, cust, "10009001", "10001001", 2)
		if err != nil || again != id {
			t.Fatalf("the same pair again: %d %v (first %d)", again, err, id)
		}
		if _, err := s.AddMute(ctx, cust, "10001002", "10001001", 3); err != nil {
			t.Fatal(err)
		}
		list, err := s.Mutes(ctx, cust, "")
		if err != nil || len(list) != 2 || list[0].MuteName != "Name 10001001" {
			t.Fatalf("mutes %+v %v", list, err)
		}
		if l, _ := s.Mutes(ctx, cust, "10001002"); len(l) != 1 {
			t.Fatalf("one listener's mutes %+v", l)
		}
		if l, _ := s.Mutes(ctx, other, ""); len(l) != 0 {
			t.Fatalf("another customer's mutes %+v", l)
		}
		all, err := s.AllMutes(ctx)
		if err != nil || !all["10009001"]["10001001"] || len(all) != 2 {
			t.Fatalf("all mutes %v %v", all, err)
		}
		if _, _, err := s.DeleteMute(ctx, other, id, "", ""); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("delete another customer's entry: %v", err)
		}
		ms, mu, err := s.DeleteMute(ctx, cust, 0, "10001002", "10001001")
		if err != nil || ms != "10001002" || mu != "10001001" {
			t.Fatalf("delete by pair: %s %s %v", ms, mu, err)
		}
		if _, _, err := s.DeleteMute(ctx, cust, id, "", ""); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.Mutes(ctx, cust, ""); len(l) != 0 {
			t.Fatalf("left %+v", l)
		}

		for i, st := range []int{408, 487, 486} {
			if err := s.AddMissed(ctx, cust, call.Missed{CallID: "c" + strconv.Itoa(i), CalleeID: "10009001",
				CallerID: "10001001", CallerName: "Unit", Status: st, Time: int64(1000 + i)}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.MissedCalls(ctx, cust, "10009001", 0, 1<<62, 10)
		if err != nil || len(got) != 3 || got[0].Status != 486 || got[2].Status != 408 {
			t.Fatalf("missed %+v %v", got, err)
		}
		if l, _ := s.MissedCalls(ctx, cust, "10009001", 1001, 1001, 10); len(l) != 1 {
			t.Fatalf("in range %+v", l)
		}
		if err := s.ClearMissed(ctx, cust, "10009001", got[0].ID); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.MissedCalls(ctx, cust, "10009001", 0, 1<<62, 10); len(l) != 2 {
			t.Fatalf("after clearing one %+v", l)
		}
		if l, _ := s.MissedCalls(ctx, other, "10009001", 0, 1<<62, 10); len(l) != 0 {
			t.Fatalf("another customer's missed calls %+v", l)
		}
	})
}
