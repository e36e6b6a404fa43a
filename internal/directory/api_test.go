package directory_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

func accountIDs(as []directory.Account) []directory.TerminalID {
	out := []directory.TerminalID{}
	for _, a := range as {
		out = append(out, a.ID)
	}
	return out
}

// apiCases are the API other domains use (run by TestStore).
var apiCases = map[string]func(t *testing.T, s *directory.Store, w *world){
	"accounts": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		ca := directory.CustomerID(w.alpha)
		a, err := s.Account(ctx, ca, aApp)
		if err != nil || a.ID != aApp || a.Customer != ca || a.Type != "10" || a.AcctType != "1" || a.Name != "App One" ||
			a.CallSetStatus != 8 || a.TalkGroup != w.aOps || a.Lat == nil || *a.Lat != 41.02 || a.Dispatcher() {
			t.Fatalf("account %+v %v", a, err)
		}
		if a, err := s.Account(ctx, ca, aLoose); err != nil || a.TalkGroup != directory.Root || a.Lat != nil {
			t.Fatalf("account without group or position %+v %v", a, err)
		}
		if a, err := s.Account(ctx, ca, aDisp); err != nil || !a.Dispatcher() {
			t.Fatalf("dispatcher %+v %v", a, err)
		}
		for _, id := range []directory.TerminalID{bRadio, unknown} {
			if _, err := s.Account(ctx, ca, id); !isNotFound(err) {
				t.Fatalf("account %s: %v", id, err)
			}
		}
		// The talk group is the ptt group when there is one, else the default group.
		if _, err := s.SwitchPtt(ctx, w.alpha, aApp, w.aSub, true); err != nil {
			t.Fatal(err)
		}
		if a, _ := s.Account(ctx, ca, aApp); a.TalkGroup != w.aSub {
			t.Fatalf("talk group after a switch %v", a.TalkGroup)
		}

		if _, err := s.CheckTerminal(ctx, ca, aRadio); err != nil {
			t.Fatal(err)
		}
		for _, id := range []directory.TerminalID{aDisp, bRadio, unknown} {
			if _, err := s.CheckTerminal(ctx, ca, id); !isNotFound(err) {
				t.Fatalf("check terminal %s: %v", id, err)
			}
		}

		list, err := s.Accounts(ctx, ca, []directory.TerminalID{aCam, unknown, bRadio, aDisp, aCam})
		if err != nil || !slices.Equal(accountIDs(list), []directory.TerminalID{aDisp, aCam}) {
			t.Fatalf("accounts %v %v", accountIDs(list), err)
		}
		if list, err := s.Accounts(ctx, ca, nil); err != nil || len(list) != 0 {
			t.Fatalf("no ids %v %v", list, err)
		}
		all, err := s.AllTerminals(ctx, ca)
		if err != nil || !slices.Equal(accountIDs(all), []directory.TerminalID{aRadio, aApp, aCam, aLoose}) {
			t.Fatalf("all terminals %v %v", accountIDs(all), err)
		}

		names, err := s.Names(ctx, ca, []directory.TerminalID{aApp, bRadio, unknown, aDisp, aApp})
		if err != nil || !maps.Equal(names, map[directory.TerminalID]string{aApp: "App One", aDisp: "Alpha Dispatcher"}) {
			t.Fatalf("names %v %v", names, err)
		}
	},
	"groups": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		ca, cb := directory.CustomerID(w.alpha), directory.CustomerID(w.bravo)
		g, err := s.GroupInfo(ctx, ca, w.aSub)
		if err != nil || g.GID != w.aSub || g.FID != w.aOps || g.Name != "Alpha Sub" || g.Kind != directory.KindFixed {
			t.Fatalf("group info %+v %v", g, err)
		}
		if _, err := s.GroupInfo(ctx, ca, w.bOps); !isNotFound(err) {
			t.Fatalf("another customer's group: %v", err)
		}
		names, err := s.GroupNames(ctx, ca, []directory.GroupID{w.aOps, w.bOps, w.aTmp, 999999})
		if err != nil || !maps.Equal(names, map[directory.GroupID]string{w.aOps: "Alpha Ops", w.aTmp: "Alpha Temp"}) {
			t.Fatalf("group names %v %v", names, err)
		}

		// Terminals of a group leave dispatchers out; members keep them.
		for gid, want := range map[directory.GroupID][]directory.TerminalID{
			w.aOps: {aRadio, aApp}, w.aTmp: {aRadio}, w.aEmpty: {},
		} {
			got, err := s.GroupTerminals(ctx, ca, gid)
			if err != nil || got == nil || !slices.Equal(got, want) {
				t.Fatalf("terminals of %v: %v %v", gid, got, err)
			}
		}
		members, err := s.Members(ctx, ca, w.aOps)
		if err != nil || !slices.Equal(accountIDs(members), []directory.TerminalID{aDisp, aRadio, aApp}) {
			t.Fatalf("members %v %v", accountIDs(members), err)
		}

		// The audience adds whoever talks in the group without being a member.
		if _, err := s.SwitchPtt(ctx, w.alpha, aLoose, w.aSub, false); err != nil {
			t.Fatal(err)
		}
		aud, err := s.Audience(ctx, ca, w.aSub)
		if err != nil || !slices.Equal(accountIDs(aud), []directory.TerminalID{aApp, aCam, aLoose}) {
			t.Fatalf("audience %v %v", accountIDs(aud), err)
		}
		if m, _ := s.Members(ctx, ca, w.aSub); !slices.Equal(accountIDs(m), []directory.TerminalID{aApp, aCam}) {
			t.Fatalf("members of sub %v", accountIDs(m))
		}

		// Another customer's group is not found, whichever way it is asked for.
		for name, fn := range map[string]func() error{
			"terminals": func() error { _, err := s.GroupTerminals(ctx, cb, w.aOps); return err },
			"members":   func() error { _, err := s.Members(ctx, cb, w.aOps); return err },
			"audience":  func() error { _, err := s.Audience(ctx, cb, w.aOps); return err },
			"unknown":   func() error { _, err := s.GroupTerminals(ctx, ca, 999999); return err },
		} {
			if err := fn(); !isNotFound(err) {
				t.Fatalf("%s across customers: %v", name, err)
			}
		}
	},
	"last positions and statuses": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		ca := directory.CustomerID(w.alpha)
		at := time.Now().UnixMilli() + 60_000
		fix := &directory.Fix{Lat: 41.015, Lng: 28.9795, Speed: 4.5, Direction: 90, Altitude: 30, Time: at}
		if err := s.SyncLast(ctx, []directory.LastReport{
			{ID: aCam, Customer: ca, Fix: fix, Status: &directory.Status{Battery: 55, Signal: 3}},
			{ID: aRadio, Customer: ca, Status: &directory.Status{Battery: 80, Signal: 4}},
			// Another customer's id under this customer changes nothing.
			{ID: bRadio, Customer: ca, Fix: fix, Status: &directory.Status{Battery: 1, Signal: 1}},
		}); err != nil {
			t.Fatal(err)
		}
		term, _ := s.Terminal(ctx, w.alpha, aCam)
		if term.Battery != 55 || term.Signal != 3 || *term.Lat != 41.015 || term.LastGps != at || term.Speed != 4.5 {
			t.Fatalf("synced %+v", term)
		}
		// A position only moves forward in time.
		old := *fix
		old.Lat, old.Time = 10, at-1
		if err := s.SyncLast(ctx, []directory.LastReport{{ID: aCam, Customer: ca, Fix: &old}}); err != nil {
			t.Fatal(err)
		}
		gps, _ := s.LastGPS(ctx, w.alpha)
		if last := gps[len(gps)-1]; last.Mid != aCam || last.Lat != 41.015 || last.Direction != 90 || last.Altitude != 30 {
			t.Fatalf("an older position overwrote a newer one: %+v", last)
		}
		if b, _ := s.Terminal(ctx, w.bravo, bRadio); b.Battery != -1 || *b.Lat != 38.42 {
			t.Fatalf("another customer's terminal changed: %+v", b)
		}

		st, err := s.LastStatus(ctx, ca, []directory.TerminalID{aCam, aRadio, aApp, bRadio})
		if err != nil || !maps.Equal(st, map[directory.TerminalID]directory.Status{aCam: {Battery: 55, Signal: 3},
			aRadio: {Battery: 80, Signal: 4}, aApp: {Battery: -1, Signal: -1}}) {
			t.Fatalf("last status %v %v", st, err)
		}

		states, err := s.LastStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		byID := map[directory.TerminalID]directory.LastState{}
		for _, st := range states {
			byID[st.ID] = st
		}
		if c := byID[aCam]; c.Customer != ca || c.Fix == nil || *c.Fix != *fix || c.Battery != 55 {
			t.Fatalf("start-up state of the camera %+v", c)
		}
		if r := byID[aRadio]; r.Fix == nil || r.Fix.Lat != 41.01 || r.Signal != 4 {
			t.Fatalf("start-up state of the radio %+v", r)
		}
		if _, ok := byID[aLoose]; ok {
			t.Fatal("an account with neither position nor status was loaded")
		}
		if len(byID) != 4 { // aRadio, aApp, aCam, bRadio
			t.Fatalf("start-up states %v", slices.Collect(maps.Keys(byID)))
		}
	},
	"icon and colour": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		ca := directory.CustomerID(w.alpha)
		icon := func(id string) (avatar, key string) {
			if err := w.d.QueryRow(ctx, `SELECT avatar, map_icon FROM accounts WHERE id = ?`, id).Scan(&avatar, &key); err != nil {
				t.Fatal(err)
			}
			return
		}
		// All or none: one id of another customer sets nothing.
		if err := s.SetIcon(ctx, ca, []directory.TerminalID{aApp, bRadio}, "/img/a.png", "truck"); !isNotFound(err) {
			t.Fatalf("icon across customers: %v", err)
		}
		if a, k := icon(aApp); a != "" || k != "" {
			t.Fatalf("refused icon stored %q %q", a, k)
		}
		if err := s.SetIcon(ctx, ca, []directory.TerminalID{aApp, aCam, aApp}, "/img/a.png", "truck"); err != nil {
			t.Fatal(err)
		}
		if a, k := icon(aCam); a != "/img/a.png" || k != "truck" {
			t.Fatalf("icon %q %q", a, k)
		}
		if term, _ := s.Terminal(ctx, w.alpha, aApp); term.Avatar != "/img/a.png" {
			t.Fatalf("avatar %q", term.Avatar)
		}

		if err := s.SetGroupColor(ctx, ca, w.bOps, "#ff0000"); !isNotFound(err) {
			t.Fatalf("colour across customers: %v", err)
		}
		if err := s.SetGroupColor(ctx, ca, w.aOps, "#ff0000"); err != nil {
			t.Fatal(err)
		}
		if g, _ := s.Group(ctx, w.alpha, w.aOps); g.Color != "#ff0000" {
			t.Fatalf("colour %q", g.Color)
		}
	},
	"provision": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		hash := testkit.PasswordHash(t)
		cust := directory.CustomerID(testkit.Customer(t, w.d, "Fleet"))
		fleet := directory.Fleet{Customer: cust, Now: 1_700_000_000_000,
			Groups: []directory.FleetGroup{{Name: "Top", Color: "#111111"}, {Name: "Child", Parent: "Top"}, {Name: "Other"}},
			Accounts: []directory.FleetAccount{
				{ID: "33000001", Type: "20", Name: "Boss", Model: "Console", Admin: true, PasswordHash: hash, Groups: []string{"Top", "Other"}},
				{ID: "33000101", Type: "6", Name: "Radio", Model: "T320", PasswordHash: hash, Groups: []string{"Child"},
					Status: &directory.Status{Battery: 70, Signal: 2}, Fix: &directory.Fix{Lat: 41, Lng: 29, Speed: 3, Time: 1_700_000_000_500}},
				{ID: "33000102", Type: "10", Name: "App", PasswordHash: hash},
			}}
		var gids map[string]directory.GroupID
		if err := w.d.InTx(ctx, func(tx *db.Tx) error {
			var err error
			gids, err = directory.Provision(ctx, tx, fleet)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		tree, err := s.Tree(ctx, int64(cust), true)
		if err != nil || len(tree) != 2 || tree[0].Name != "Top" || len(tree[0].Children) != 1 || tree[1].SeqNum != 2 {
			t.Fatalf("tree %+v %v", tree, err)
		}
		child := tree[0].Children[0]
		if child.GID != gids["Child"] || child.SeqNum != 1 || !slices.Equal(ids(child.MsList), []string{"33000101"}) ||
			len(child.LastGpsList) != 1 || child.LastGpsList[0].Time != 1_700_000_000_500 {
			t.Fatalf("child %+v", child)
		}
		if !slices.Equal(ids(tree[0].MsList), []string{"33000001"}) || !slices.Equal(ids(tree[1].MsList), []string{"33000001"}) {
			t.Fatalf("dispatcher's groups %v %v", ids(tree[0].MsList), ids(tree[1].MsList))
		}
		boss, _ := s.Account(ctx, cust, "33000001")
		radio, _ := s.Terminal(ctx, int64(cust), "33000101")
		app, _ := s.Terminal(ctx, int64(cust), "33000102")
		if boss.TalkGroup != gids["Top"] || radio.Battery != 70 || radio.Speed != 3 || radio.Grp != gids["Child"].String() ||
			app.Battery != -1 || app.Lat != nil || app.Grp != "" {
			t.Fatalf("accounts %+v %+v %+v", boss, radio, app)
		}
		if err := w.d.InTx(ctx, func(tx *db.Tx) error {
			n, c, err := directory.AccountsInRange(ctx, tx, "33000001", "33000102")
			if err != nil || n != 3 || c != cust {
				t.Fatalf("range %d %d %v", n, c, err)
			}
			n, c, err = directory.AccountsInRange(ctx, tx, "34000000", "34000099")
			if err != nil || n != 0 || c != 0 {
				t.Fatalf("empty range %d %d %v", n, c, err)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}

		// Nothing half-way: a fleet naming a group it does not have stores nothing.
		before := snapshot(t, w.d)
		bad := directory.Fleet{Customer: cust, Groups: []directory.FleetGroup{{Name: "New"}},
			Accounts: []directory.FleetAccount{{ID: "33000201", Type: "6", Name: "X", PasswordHash: hash, Groups: []string{"Nope"}}}}
		err = w.d.InTx(ctx, func(tx *db.Tx) error { _, err := directory.Provision(ctx, tx, bad); return err })
		if err == nil || errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown group: %v", err)
		}
		if snapshot(t, w.d) != before {
			t.Fatal("a refused fleet was stored in part")
		}
	},
}
