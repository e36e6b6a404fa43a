package oplog_test

import (
	"context"
	"testing"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

// An entry's detail (template key and parameters) is stored and listed with it; an entry written without one
// lists without one (older rows keep their plain-text remark), and same-millisecond rows list by id, newest first.
func TestDetailStoredAndListedByTimeThenID(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		cust := testkit.Customer(t, d, "oplog")
		l := oplog.New(d, nil)
		ctx := context.Background()
		l.Write(ctx, cust, "10000001", "Dispatcher", oplog.Online, "console online")
		l.Write(ctx, cust, "10000001", "Dispatcher", oplog.SwitchGroup, "10000101 switched to group 4 (from 6)",
			oplog.D("switched", "terminal", "10000101", "group", "4", "from", "6"))
		list, total, err := l.List(ctx, cust, oplog.Query{Limit: 10})
		if err != nil || total != 2 || len(list) != 2 {
			t.Fatalf("list %v total %d err %v", list, total, err)
		}
		sw, plain := list[0], list[1]
		if sw.Type != oplog.SwitchGroup || sw.Detail == nil || sw.Detail.Key != "switched" ||
			sw.Detail.Params["group"] != "4" || sw.Detail.Params["from"] != "6" || sw.Detail.Params["terminal"] != "10000101" {
			t.Fatalf("switch entry %+v detail %+v", sw, sw.Detail)
		}
		if sw.Remark != "10000101 switched to group 4 (from 6)" {
			t.Fatalf("remark %q: the spec's field stays", sw.Remark)
		}
		if plain.Detail != nil || plain.Remark != "console online" {
			t.Fatalf("plain entry %+v", plain)
		}

		// Rows of the same millisecond: by id, newest first.
		if _, err := d.Exec(ctx, `UPDATE oplog SET at = 1000 WHERE customer_id = ?`, cust); err != nil {
			t.Fatal(err)
		}
		list, _, err = l.List(ctx, cust, oplog.Query{Limit: 10})
		if err != nil || len(list) != 2 || list[0].ID <= list[1].ID && len(list[0].ID) == len(list[1].ID) {
			t.Fatalf("same-time rows not newest id first: %+v", list)
		}
	})
}
