package directory_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

// The store contract and the API other domains use (apiCases): the same tests on every engine (SQLite always,
// PostgreSQL with TENFOUR_TEST_PG).
func TestStore(t *testing.T) {
	for _, engine := range testkit.Engines() {
		t.Run(engine, func(t *testing.T) {
			for _, cases := range []map[string]func(*testing.T, *directory.Store, *world){storeCases, apiCases} {
				for name, fn := range cases {
					t.Run(name, func(t *testing.T) {
						d := testkit.OpenStore(t, engine)
						fn(t, directory.NewStore(d), buildWorld(t, d))
					})
				}
			}
		})
	}
}

func isNotFound(err error) bool { return errors.Is(err, db.ErrNotFound) }

func ids(ts []directory.Terminal) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.CID)
	}
	return out
}

func find(gs []*directory.Group, gid directory.GroupID) *directory.Group {
	for _, g := range gs {
		if g.GID == gid {
			return g
		}
		if c := find(g.Children, gid); c != nil {
			return c
		}
	}
	return nil
}

var storeCases = map[string]func(t *testing.T, s *directory.Store, w *world){
	// A SIP account's talk setting (docs/sip.md "Talk keys and voice"): auto until set; only the three modes; only
	// the customer's own SIP accounts.
	"sip talk": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		const desk = "11000180"
		testkit.Account(t, w.d, auth.NewAccount{CustomerID: w.alpha, ID: desk, Name: "Desk", Type: "8", Kind: directory.KindSIP})
		if talk, err := s.SIPTalk(ctx, w.alpha, desk); err != nil || talk != directory.SIPTalkAuto {
			t.Fatalf("a new SIP account talks %q (%v), want auto", talk, err)
		}
		if err := s.SetSIPTalk(ctx, w.alpha, desk, directory.SIPTalkVoice); err != nil {
			t.Fatal(err)
		}
		if err := s.SetSIPTalk(ctx, w.alpha, desk, "loud"); !errors.Is(err, directory.ErrSIPTalk) {
			t.Fatalf("an unknown mode: %v", err)
		}
		if talk, err := s.SIPTalk(ctx, w.alpha, desk); err != nil || talk != directory.SIPTalkVoice {
			t.Fatalf("after voice and a refused mode it talks %q (%v)", talk, err)
		}
		for _, c := range []struct {
			customer int64
			id       string
		}{{w.alpha, aRadio}, {w.bravo, desk}, {w.alpha, unknown}} {
			if err := s.SetSIPTalk(ctx, c.customer, c.id, directory.SIPTalkKeys); !isNotFound(err) {
				t.Fatalf("set %s of customer %d: %v, want not found", c.id, c.customer, err)
			}
			if _, err := s.SIPTalk(ctx, c.customer, c.id); !isNotFound(err) {
				t.Fatalf("read %s of customer %d: %v, want not found", c.id, c.customer, err)
			}
		}
	},
	"tree": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		tree, err := s.Tree(ctx, w.alpha, true)
		if err != nil {
			t.Fatal(err)
		}
		// Fixed roots in seqNum order, then the temp group; Sub nested in Ops.
		var roots []directory.GroupID
		for _, g := range tree {
			roots = append(roots, g.GID)
		}
		if !slices.Equal(roots, []directory.GroupID{w.aOps, w.aEmpty, w.aTmp}) {
			t.Fatalf("roots %v", roots)
		}
		ops := tree[0]
		if ops.Deep != 1 || ops.FID != 0 || len(ops.Children) != 1 || ops.Children[0].GID != w.aSub || ops.Children[0].Deep != 2 {
			t.Fatalf("ops %+v", ops)
		}
		if got := ids(ops.MsList); !slices.Equal(got, []string{aDisp, aRadio, aApp}) {
			t.Fatalf("ops members %v", got)
		}
		if ops.MemberCount != 3 || len(ops.LastGpsList) != 2 || ops.LastGpsList[0].Mid != aRadio || ops.LastGpsList[0].Lat != 41.01 {
			t.Fatalf("ops counts/gps %+v", ops)
		}
		if tmp := tree[2]; tmp.Kind != directory.KindTemp || tmp.MemberCount != 2 {
			t.Fatalf("temp %+v", tmp)
		}
		// Without GPS, lastGpsList is empty (not null); never another customer's rows.
		tree, _ = s.Tree(ctx, w.alpha, false)
		if tree[0].LastGpsList == nil || len(tree[0].LastGpsList) != 0 {
			t.Fatalf("lastGpsList %v", tree[0].LastGpsList)
		}
		if find(tree, w.bOps) != nil || find(tree, w.bTmp) != nil {
			t.Fatal("tree holds another customer's group")
		}
	},
	"terminal and tenancy of lookups": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		term, err := s.Terminal(ctx, w.alpha, aApp)
		if err != nil || term.Type != "10" || term.Grp != w.aOps.String() || term.Online != "0" || *term.Lat != 41.02 {
			t.Fatalf("terminal %+v %v", term, err)
		}
		if _, err := s.Terminal(ctx, w.alpha, bRadio); !isNotFound(err) {
			t.Fatalf("other customer's terminal: %v", err)
		}
		if _, err := s.Group(ctx, w.alpha, w.bOps); !isNotFound(err) {
			t.Fatalf("other customer's group: %v", err)
		}
		if _, err := s.GroupMembers(ctx, w.alpha, w.bOps); !isNotFound(err) {
			t.Fatalf("other customer's members: %v", err)
		}
		gs, err := s.GroupsOf(ctx, w.alpha, aApp)
		if err != nil || len(gs) != 2 {
			t.Fatalf("groups of %v %v", gs, err)
		}
		if gs, _ := s.GroupsOf(ctx, w.bravo, aApp); len(gs) != 0 {
			t.Fatalf("groups of across customers %v", gs)
		}
		mb, err := s.Membership(ctx, w.alpha, aApp)
		if err != nil || mb.PttGroup != w.aOps.String() || mb.GID != w.aOps.String() || len(mb.Groups) != 2 {
			t.Fatalf("membership %+v %v", mb, err)
		}
		if ok, _ := s.IsMember(ctx, w.alpha, w.aSub, aCam); !ok {
			t.Fatal("cam is a member of sub")
		}
		if ok, _ := s.IsMember(ctx, w.bravo, w.aSub, aCam); ok {
			t.Fatal("membership across customers")
		}
		gps, err := s.LastGPS(ctx, w.alpha)
		if err != nil || len(gps) != 2 || gps[0].Mid != aRadio {
			t.Fatalf("last gps %+v %v", gps, err)
		}
	},
	"terminals page and filter": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		list, total, err := s.Terminals(ctx, w.alpha, directory.FindTerminals{Limit: 2, Offset: 2})
		if err != nil || total != 5 || !slices.Equal(ids(list), []string{aApp, aCam}) {
			t.Fatalf("page %v %d %v", ids(list), total, err)
		}
		// Case-insensitive on both engines; LIKE wildcards in the filter are literal.
		list, total, _ = s.Terminals(ctx, w.alpha, directory.FindTerminals{Name: "rADIO", Limit: 20})
		if total != 1 || list[0].CID != aRadio {
			t.Fatalf("name filter %v", ids(list))
		}
		if _, total, _ = s.Terminals(ctx, w.alpha, directory.FindTerminals{Name: "%", Limit: 20}); total != 0 {
			t.Fatalf("%% matched %d", total)
		}
		if _, total, _ = s.Terminals(ctx, w.alpha, directory.FindTerminals{Name: "1100010", Limit: 20}); total != 4 {
			t.Fatalf("id filter %d", total)
		}
		if _, total, _ = s.Terminals(ctx, w.alpha, directory.FindTerminals{Type: "camera", Limit: 20}); total != 1 {
			t.Fatalf("type filter %d", total)
		}
		off := false
		if _, total, _ = s.Terminals(ctx, w.alpha, directory.FindTerminals{Online: &off, Limit: 20}); total != 5 {
			t.Fatalf("online filter %d", total)
		}
		if _, total, _ = s.Terminals(ctx, w.bravo, directory.FindTerminals{Name: "Radio One", Limit: 20}); total != 0 {
			t.Fatal("list across customers")
		}
	},
	"fixed groups": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		g, err := s.AddGroup(ctx, w.alpha, directory.NewGroup{Name: "Night", Parent: w.aSub})
		if err != nil || g.Deep != 3 || g.FID != w.aSub || g.SeqNum != 1 || g.Kind != directory.KindFixed {
			t.Fatalf("add %+v %v", g, err)
		}
		if _, err := s.AddGroup(ctx, w.alpha, directory.NewGroup{Name: "Night"}); !errors.Is(err, directory.ErrNameExists) {
			t.Fatalf("duplicate name: %v", err)
		}
		// Names are unique per customer: another customer may use it; a temp group's name does not clash.
		if _, err := s.AddGroup(ctx, w.bravo, directory.NewGroup{Name: "Night"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddGroup(ctx, w.alpha, directory.NewGroup{Name: "Alpha Temp"}); err != nil {
			t.Fatal(err)
		}
		for _, parent := range []directory.GroupID{w.bOps, w.aTmp, 999999} {
			if _, err := s.AddGroup(ctx, w.alpha, directory.NewGroup{Name: "X", Parent: parent}); !isNotFound(err) {
				t.Fatalf("parent %d: %v", parent, err)
			}
		}
		// Depth limit.
		parent := g.GID
		for d := g.Deep + 1; d <= directory.MaxDepth; d++ {
			c, err := s.AddGroup(ctx, w.alpha, directory.NewGroup{Name: "L" + string(rune('a'+d)), Parent: parent})
			if err != nil {
				t.Fatal(err)
			}
			parent = c.GID
		}
		if _, err := s.AddGroup(ctx, w.alpha, directory.NewGroup{Name: "too deep", Parent: parent}); !errors.Is(err, directory.ErrTooDeep) {
			t.Fatalf("too deep: %v", err)
		}

		if err := s.RenameGroup(ctx, w.alpha, w.aEmpty, "Alpha Sub"); !errors.Is(err, directory.ErrNameExists) {
			t.Fatalf("rename to existing: %v", err)
		}
		if err := s.RenameGroup(ctx, w.alpha, w.aEmpty, "Spare"); err != nil {
			t.Fatal(err)
		}
		if err := s.RenameGroup(ctx, w.alpha, w.bOps, "Stolen"); !isNotFound(err) {
			t.Fatalf("rename other customer's: %v", err)
		}
		if err := s.RenameGroup(ctx, w.alpha, w.aTmp, "Temp via nms"); !isNotFound(err) {
			t.Fatalf("rename temp as fixed: %v", err)
		}

		if err := s.DeleteGroup(ctx, w.alpha, w.aOps); !errors.Is(err, directory.ErrGroupNotEmpty) {
			t.Fatalf("delete with children: %v", err)
		}
		if err := s.DeleteGroup(ctx, w.alpha, w.aSub); !errors.Is(err, directory.ErrGroupNotEmpty) {
			t.Fatalf("delete with members/children: %v", err)
		}
		if err := s.DeleteGroup(ctx, w.bravo, w.aEmpty); !isNotFound(err) {
			t.Fatalf("delete other customer's: %v", err)
		}
		// A dispatcher talking in an empty group falls back to its default group when it is deleted.
		if _, err := s.SwitchPtt(ctx, w.alpha, aDisp, w.aEmpty, false); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteGroup(ctx, w.alpha, w.aEmpty); err != nil {
			t.Fatal(err)
		}
		if term, _ := s.Terminal(ctx, w.alpha, aDisp); term.Grp != w.aOps.String() {
			t.Fatalf("ptt after delete %q", term.Grp)
		}
		if _, err := s.Group(ctx, w.alpha, w.aEmpty); !isNotFound(err) {
			t.Fatalf("deleted group: %v", err)
		}
	},
	"save and remove members": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		// Move: leaves its other fixed groups (not temp groups), default and ptt follow.
		changed, err := s.SaveMembers(ctx, w.alpha, directory.SaveMembers{MsIDs: []string{aRadio}, Group: w.aEmpty})
		if err != nil || !slices.Equal(changed, []directory.GroupID{w.aOps, w.aEmpty}) {
			t.Fatalf("move %v %v", changed, err)
		}
		mb, _ := s.Membership(ctx, w.alpha, aRadio)
		if len(mb.Groups) != 2 || mb.Groups[0].GID != w.aEmpty || mb.Groups[1].GID != w.aTmp ||
			mb.GID != w.aEmpty.String() || mb.PttGroup != w.aEmpty.String() {
			t.Fatalf("after move %+v", mb)
		}
		// Keep: an account without groups gets it as default and ptt; one with groups keeps its own.
		if _, err := s.SaveMembers(ctx, w.alpha, directory.SaveMembers{MsIDs: []string{aLoose, aApp}, Group: w.aEmpty, KeepOld: true}); err != nil {
			t.Fatal(err)
		}
		if mb, _ := s.Membership(ctx, w.alpha, aLoose); mb.GID != w.aEmpty.String() || mb.PttGroup != w.aEmpty.String() {
			t.Fatalf("loose %+v", mb)
		}
		if mb, _ := s.Membership(ctx, w.alpha, aApp); len(mb.Groups) != 3 || mb.GID != w.aOps.String() || mb.PttGroup != w.aOps.String() {
			t.Fatalf("app kept %+v", mb)
		}
		// SetPtt switches the talk group even when keeping.
		if _, err := s.SaveMembers(ctx, w.alpha, directory.SaveMembers{MsIDs: []string{aApp}, Group: w.aSub, KeepOld: true, SetPtt: true}); err != nil {
			t.Fatal(err)
		}
		if mb, _ := s.Membership(ctx, w.alpha, aApp); mb.PttGroup != w.aSub.String() || mb.GID != w.aOps.String() {
			t.Fatalf("ptt %+v", mb)
		}
		// All or nothing: one foreign or unknown id refuses the whole call.
		before := snapshot(t, w.d)
		for _, req := range []directory.SaveMembers{
			{MsIDs: []string{aCam, bRadio}, Group: w.aOps},
			{MsIDs: []string{aCam, unknown}, Group: w.aOps},
			{MsIDs: []string{aCam}, Group: w.bOps},
			{MsIDs: []string{aCam}, Group: w.aTmp},
			{MsIDs: []string{bRadio}, Group: w.bOps}, // Bravo's own call through Alpha's scope
		} {
			if _, err := s.SaveMembers(ctx, w.alpha, req); !isNotFound(err) {
				t.Fatalf("%+v: %v", req, err)
			}
		}
		if err := s.RemoveMembers(ctx, w.alpha, w.aSub, []string{aCam, aRadio}); !errors.Is(err, directory.ErrNotMember) {
			t.Fatalf("remove non-member: %v", err)
		}
		if err := s.RemoveMembers(ctx, w.alpha, w.bOps, []string{bRadio}); !isNotFound(err) {
			t.Fatalf("remove across customers: %v", err)
		}
		if after := snapshot(t, w.d); after != before {
			t.Fatalf("refused calls changed the store:\n%s\n---\n%s", before, after)
		}
		// Removing the default group picks another fixed group; ptt falls back to the default.
		if err := s.RemoveMembers(ctx, w.alpha, w.aOps, []string{aApp}); err != nil {
			t.Fatal(err)
		}
		if mb, _ := s.Membership(ctx, w.alpha, aApp); mb.GID == w.aOps.String() || mb.GID == "" || mb.PttGroup != w.aSub.String() {
			t.Fatalf("after remove %+v", mb)
		}
		if err := s.RemoveMembers(ctx, w.alpha, w.aSub, []string{aCam}); err != nil {
			t.Fatal(err)
		}
		if mb, _ := s.Membership(ctx, w.alpha, aCam); mb.GID != "" || mb.PttGroup != "" || len(mb.Groups) != 0 {
			t.Fatalf("no groups left %+v", mb)
		}
	},
	"temp groups": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		g, err := s.CreateTemp(ctx, w.alpha, "Team", aDisp, []string{aDisp, aRadio, aApp})
		if err != nil || g.Kind != directory.KindTemp || g.Creator != aDisp || g.MemberCount != 3 || g.Deep != 1 {
			t.Fatalf("create %+v %v", g, err)
		}
		if _, err := s.CreateTemp(ctx, w.alpha, "Team", aDisp, []string{aDisp, aRadio}); !errors.Is(err, directory.ErrNameExists) {
			t.Fatalf("duplicate: %v", err)
		}
		if _, err := s.CreateTemp(ctx, w.bravo, "Team", bDisp, []string{bDisp, bRadio}); err != nil {
			t.Fatalf("same name, other customer: %v", err)
		}
		before := snapshot(t, w.d)
		if _, err := s.CreateTemp(ctx, w.alpha, "Mixed", aDisp, []string{aDisp, bRadio}); !isNotFound(err) {
			t.Fatalf("foreign member: %v", err)
		}
		if _, err := s.EditTemp(ctx, w.alpha, g.GID, directory.TempEdit{Add: []string{bLoose}}); !isNotFound(err) {
			t.Fatalf("add foreign: %v", err)
		}
		if _, err := s.EditTemp(ctx, w.alpha, g.GID, directory.TempEdit{Remove: []string{aCam}}); !errors.Is(err, directory.ErrNotMember) {
			t.Fatalf("remove non-member: %v", err)
		}
		if _, err := s.EditTemp(ctx, w.alpha, w.bTmp, directory.TempEdit{Name: "Mine"}); !isNotFound(err) {
			t.Fatalf("edit other customer's: %v", err)
		}
		if _, err := s.EditTemp(ctx, w.alpha, w.aOps, directory.TempEdit{Name: "Mine"}); !isNotFound(err) {
			t.Fatalf("edit fixed as temp: %v", err)
		}
		if _, err := s.DeleteTemp(ctx, w.alpha, w.bTmp); !isNotFound(err) {
			t.Fatalf("delete other customer's: %v", err)
		}
		if _, err := s.EditTemp(ctx, w.alpha, g.GID, directory.TempEdit{Name: "Alpha Temp"}); !errors.Is(err, directory.ErrNameExists) {
			t.Fatalf("rename to existing: %v", err)
		}
		if after := snapshot(t, w.d); after != before {
			t.Fatal("refused temp-group calls changed the store")
		}
		// A member talking in the temp group falls back to its default when removed.
		if _, err := s.SwitchPtt(ctx, w.alpha, aRadio, g.GID, true); err != nil {
			t.Fatal(err)
		}
		res, err := s.EditTemp(ctx, w.alpha, g.GID, directory.TempEdit{Name: "Team 2", Add: []string{aCam}, Remove: []string{aRadio}})
		if err != nil || res.Deleted || res.After.Name != "Team 2" || res.After.MemberCount != 3 || len(res.Removed) != 1 {
			t.Fatalf("edit %+v %v", res, err)
		}
		if term, _ := s.Terminal(ctx, w.alpha, aRadio); term.Grp != w.aOps.String() {
			t.Fatalf("ptt after leaving temp %q", term.Grp)
		}
		// Left with one member: removed.
		res, err = s.EditTemp(ctx, w.alpha, g.GID, directory.TempEdit{Remove: []string{aApp, aCam}})
		if err != nil || !res.Deleted || res.After != nil || len(res.Removed) != 2 {
			t.Fatalf("auto-remove %+v %v", res, err)
		}
		if _, err := s.Group(ctx, w.alpha, g.GID); !isNotFound(err) {
			t.Fatalf("auto-removed group still there: %v", err)
		}
		tg, err := s.TempGroups(ctx, w.alpha)
		if err != nil || len(tg) != 1 || tg[0].GID != w.aTmp || tg[0].MemberCount != 2 {
			t.Fatalf("temp groups %+v %v", tg, err)
		}
		old, err := s.DeleteTemp(ctx, w.alpha, w.aTmp)
		if err != nil || old.Name != "Alpha Temp" || len(old.MsList) != 2 {
			t.Fatalf("delete %+v %v", old, err)
		}
		if tg, _ := s.TempGroups(ctx, w.alpha); len(tg) != 0 {
			t.Fatalf("temp groups after delete %v", tg)
		}
	},
	"switch, presence and status": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		from, err := s.SwitchPtt(ctx, w.alpha, aApp, w.aSub, true)
		if err != nil || from != w.aOps {
			t.Fatalf("switch %v %v", from, err)
		}
		if _, err := s.SwitchPtt(ctx, w.alpha, aRadio, w.aSub, true); !errors.Is(err, directory.ErrNotMember) {
			t.Fatalf("switch to non-member group: %v", err)
		}
		if _, err := s.SwitchPtt(ctx, w.alpha, aRadio, w.bOps, false); !isNotFound(err) {
			t.Fatalf("switch to other customer's group: %v", err)
		}
		if _, err := s.SwitchPtt(ctx, w.alpha, bRadio, w.aOps, false); !isNotFound(err) {
			t.Fatalf("switch other customer's terminal: %v", err)
		}

		on := time.UnixMilli(1_700_000_000_000)
		if err := s.SetOnline(ctx, w.alpha, aRadio, true, on); err != nil {
			t.Fatal(err)
		}
		if err := s.SetOnline(ctx, w.bravo, aRadio, false, on); !isNotFound(err) {
			t.Fatalf("presence across customers: %v", err)
		}
		term, _ := s.Terminal(ctx, w.alpha, aRadio)
		if term.Online != "1" || term.LastOnline != on.UnixMilli() {
			t.Fatalf("online %+v", term)
		}
		if err := s.SetOnline(ctx, w.alpha, aRadio, false, on.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		term, _ = s.Terminal(ctx, w.alpha, aRadio)
		if term.Online != "0" || term.LastOffline != on.Add(time.Minute).UnixMilli() || term.LastOnline != on.UnixMilli() {
			t.Fatalf("offline %+v", term)
		}
		_ = s.SetOnline(ctx, w.alpha, aApp, true, on)
		if err := s.ResetPresence(ctx, on); err != nil {
			t.Fatal(err)
		}
		if term, _ := s.Terminal(ctx, w.alpha, aApp); term.Online != "0" {
			t.Fatal("reset presence")
		}

		before := snapshot(t, w.d)
		if err := s.SetCallSetStatus(ctx, directory.CustomerID(w.alpha), aCam, 7); err == nil {
			t.Fatal("call-set status 7 accepted")
		}
		if err := s.SetCallSetStatus(ctx, directory.CustomerID(w.alpha), bRadio, 1); !isNotFound(err) {
			t.Fatalf("call-set across customers: %v", err)
		}
		if snapshot(t, w.d) != before {
			t.Fatal("refused status changed the store")
		}
		if err := s.SetCallSetStatus(ctx, directory.CustomerID(w.alpha), aCam, 1); err != nil {
			t.Fatal(err)
		}
		if term, _ := s.Terminal(ctx, w.alpha, aCam); term.CallSetStatus != 1 {
			t.Fatalf("call-set %d", term.CallSetStatus)
		}
	},
	"rename terminal and version": func(t *testing.T, s *directory.Store, w *world) {
		ctx := context.Background()
		if err := s.RenameTerminal(ctx, w.alpha, aCam, "Gate"); err != nil {
			t.Fatal(err)
		}
		if err := s.SetVersion(ctx, w.alpha, aCam, "2.0.1"); err != nil {
			t.Fatal(err)
		}
		if term, _ := s.Terminal(ctx, w.alpha, aCam); term.Name != "Gate" || term.Ver != "2.0.1" {
			t.Fatalf("%+v", term)
		}
		if err := s.RenameTerminal(ctx, w.alpha, bRadio, "x"); !isNotFound(err) {
			t.Fatalf("rename across customers: %v", err)
		}
		if err := s.SetVersion(ctx, w.alpha, bRadio, "x"); !isNotFound(err) {
			t.Fatalf("version across customers: %v", err)
		}
	},
}
