package testkit_test

import (
	"context"
	"slices"
	"testing"

	"tenfour/internal/directory"
	"tenfour/internal/testkit"
)

// TestWorld: what a World provisions is what the directory reads back, and its accounts sign in with Password.
func TestWorld(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := testkit.NewWorld(t, engine)
		ctx := context.Background()
		store := directory.NewStore(w.DB)
		a, b := w.Group("Alpha"), w.Group("Bravo")
		w.Account("10001001", "10", b, a)
		w.Account("10009001", "20")
		acct, err := store.Account(ctx, directory.CustomerID(w.Customer), "10001001")
		if err != nil {
			t.Fatal(err)
		}
		if acct.Type != "10" || acct.Name != "Name 10001001" {
			t.Fatalf("account %+v", acct)
		}
		for _, g := range []int64{a, b} {
			ids, err := store.GroupTerminals(ctx, directory.CustomerID(w.Customer), directory.GroupID(g))
			if err != nil || !slices.Equal(ids, []directory.TerminalID{"10001001"}) {
				t.Fatalf("group %d: %v %v", g, ids, err)
			}
		}
		// the first group named is the default and the one it talks in
		m, err := store.Membership(ctx, w.Customer, "10001001")
		if err != nil || len(m.Groups) != 2 || m.GID != directory.GroupID(b).String() || m.PttGroup != m.GID {
			t.Fatalf("membership of 10001001: %+v %v", m, err)
		}
		term := testkit.Terminal(t, w.URL, "10001001", testkit.Password)
		if f := term.Call("ping", nil); f.Type != "pong" {
			t.Fatalf("terminal ping: %+v", f)
		}

		f := w.NewFleet("3", 3, 2)
		if f.Customer == w.Customer || len(f.Groups) != 2 || len(f.Terminals) != 3 || f.Token == "" {
			t.Fatalf("fleet %+v", f)
		}
		for i, g := range f.Groups {
			members, err := store.Members(ctx, directory.CustomerID(f.Customer), directory.GroupID(g))
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range members {
				ids = append(ids, string(m.ID))
			}
			want := []string{f.Dispatcher, f.Terminals[i]}
			if i == 0 {
				want = append(want, f.Terminals[2])
			}
			slices.Sort(ids)
			slices.Sort(want)
			if !slices.Equal(ids, want) {
				t.Fatalf("group %d members %v, want %v", i, ids, want)
			}
		}
		testkit.Console(t, w.URL, f.Token)
	})
}
