package db_test

import (
	"context"
	"slices"
	"testing"

	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

type row struct {
	ID   int64
	Name string
	At   int64
}

func scanRow(s db.Scanner) (row, error) {
	var r row
	err := s.Scan(&r.ID, &r.Name, &r.At)
	return r, err
}

func ids(l []row) []int64 {
	out := []int64{}
	for _, r := range l {
		out = append(out, r.ID)
	}
	return out
}

// Filter and List on every engine: the customer scope, IN lists, ranges, a search whose `_`, `%` and `\`
// match only themselves, and count + page + order.
func TestFilterList(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if _, err := d.Exec(ctx, `CREATE TABLE kit_rows (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, name TEXT NOT NULL,
			at BIGINT NOT NULL, note TEXT NOT NULL DEFAULT '')`); err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			id, customer int64
			name         string
			at           int64
		}{
			{1, 1, "North_Gate", 100}, {2, 1, "NorthXGate", 200}, {3, 1, "100% sure", 300}, {4, 1, "1000 sure", 400},
			{5, 1, `back\slash`, 500}, {6, 1, "backxslash", 600}, {7, 2, "North_Gate", 700}, {8, 1, "SOUTH gate", 800},
		} {
			if _, err := d.Exec(ctx, `INSERT INTO kit_rows (id, customer_id, name, at) VALUES (?, ?, ?, ?)`, r.id, r.customer, r.name, r.at); err != nil {
				t.Fatal(err)
			}
		}
		// A second searchable column: row 4's note, and another customer's row whose note matches too.
		for id, note := range map[int64]string{4: "dock annex", 7: "dock annex"} {
			if _, err := d.Exec(ctx, `UPDATE kit_rows SET note = ? WHERE id = ?`, note, id); err != nil {
				t.Fatal(err)
			}
		}
		list := func(f *db.Filter, order string, off, lim int) ([]int64, int) {
			t.Helper()
			l, total, err := db.List(ctx, d, db.ListQuery{Select: `id, name, at`, From: `kit_rows k`, Where: f, Order: order,
				Offset: off, Limit: lim}, scanRow)
			if err != nil {
				t.Fatal(err)
			}
			return ids(l), total
		}
		for _, c := range []struct {
			what  string
			f     *db.Filter
			want  []int64
			total int
		}{
			{"scope", db.Scope("k.customer_id", 2), []int64{7}, 1},
			{"underscore is literal", db.Scope("k.customer_id", 1).Contains("h_g", "k.name"), []int64{1}, 1},
			{"percent is literal", db.Scope("k.customer_id", 1).Contains("0%", "k.name"), []int64{3}, 1},
			{"backslash is literal", db.Scope("k.customer_id", 1).Contains(`k\s`, "k.name"), []int64{5}, 1},
			{"case-insensitive", db.Scope("k.customer_id", 1).Contains("south G", "k.name"), []int64{8}, 1},
			{"any of the columns", db.Scope("k.customer_id", 1).Contains("xs", "k.name", "k.note"), []int64{6}, 1},
			// the second column is searched, and the OR stays inside the customer's scope (customer 2's row 7 has the note too)
			{"the second column, in scope", db.Scope("k.customer_id", 1).Contains("ANNEX", "k.name", "k.note"), []int64{4}, 1},
			{"blank search adds nothing", db.Scope("k.customer_id", 2).Contains("", "k.name"), []int64{7}, 1},
			{"in", db.Scope("k.customer_id", 1).In("k.id", db.Args([]int64{8, 2, 7})), []int64{2, 8}, 2},
			{"empty in matches nothing", db.Scope("k.customer_id", 1).In("k.id", nil), []int64{}, 0},
			{"optional in", db.Scope("k.customer_id", 1).OptIn("k.id", db.Args([]int64{8, 2, 7})), []int64{2, 8}, 2},
			{"empty optional in adds nothing", db.Scope("k.customer_id", 2).OptIn("k.id", nil), []int64{7}, 1},
			{"between is inclusive", db.Scope("k.customer_id", 1).Between("k.at", 200, 400), []int64{2, 3, 4}, 3},
			{"if", db.Scope("k.customer_id", 1).If(false, "k.id = ?", 1).If(true, "k.at > ?", 500), []int64{6, 8}, 2},
			{"nil filter: every row", nil, []int64{1, 2, 3, 4, 5, 6, 7, 8}, 8},
		} {
			got, total := list(c.f, `k.id`, 0, 100)
			if !slices.Equal(got, c.want) || total != c.total {
				t.Errorf("%s: %v (total %d), want %v (total %d)", c.what, got, total, c.want, c.total)
			}
		}
		// A page in the given order, with the count of every matching row.
		if got, total := list(db.Scope("k.customer_id", 1), `k.at DESC, k.id DESC`, 2, 3); !slices.Equal(got, []int64{5, 4, 3}) || total != 7 {
			t.Errorf("page 2 of 3: %v (total %d)", got, total)
		}
		if got, total := list(db.Scope("k.customer_id", 1), `k.id`, 6, 3); !slices.Equal(got, []int64{8}) || total != 7 {
			t.Errorf("last page: %v (total %d)", got, total)
		}
		if got, total := list(db.Scope("k.customer_id", 1), `k.id`, 100, 3); len(got) != 0 || total != 7 {
			t.Errorf("beyond the end: %v (total %d)", got, total)
		}
		if got, total := list(db.Scope("k.customer_id", 1), `k.id`, 0, 0); len(got) != 7 || total != 7 {
			t.Errorf("limit 0, every row: %v (total %d)", got, total)
		}
		// Page is List newest first by (at, id).
		l, total, err := db.Page(ctx, d, "kit_rows", "id, name, at", "customer_id = ? AND at < ?", []any{1, 500}, 1, 2, scanRow)
		if err != nil || !slices.Equal(ids(l), []int64{3, 2}) || total != 4 {
			t.Errorf("Page: %v (total %d) %v", ids(l), total, err)
		}
		// A filter's arguments are a copy: a caller appending to them does not change the filter.
		f := db.Scope("k.customer_id", 1)
		_ = append(f.Args(), 99)
		if got, _ := list(f, `k.id`, 0, 1); !slices.Equal(got, []int64{1}) {
			t.Errorf("args aliased: %v", got)
		}
	})
}

func TestEscapeLike(t *testing.T) {
	for in, want := range map[string]string{`a_b`: `a\_b`, `50%`: `50\%`, `c:\x`: `c:\\x`, `plain`: `plain`} {
		if got := db.EscapeLike(in); got != want {
			t.Errorf("EscapeLike(%q) = %q, want %q", in, got, want)
		}
	}
}
