package geo_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"tenfour/internal/geo"
	"tenfour/internal/testkit"
)

// A fence drawn around terminals already breaking its rule (issue 15 item 10): the create and set replies place
// the fence's terminals by their latest positions, and alarmBreaches raises the fence alarm for those already in
// breach through the engine's path — once, however often it is asked.
func TestFenceOccupantsAndAlarmOnBreaches(t *testing.T) { testkit.EachEngine(t, fenceOccupants) }

type occupancy struct {
	geo.Fence
	Occupants []geo.Occupant `json:"occupants"`
	Breaching []geo.Occupant `json:"breaching"`
}

func msIDs(list []geo.Occupant) []string {
	out := []string{}
	for _, o := range list {
		out = append(out, o.MsID)
	}
	return out
}

func fenceOccupants(t *testing.T, engine string) {
	s := testkit.StartOn(t, engine)
	a, b := seed(t, s.DB, 4), seed(t, s.DB, 1)
	tokA, tokB := a.Token, b.Token
	in, out, far, silent := a.Terminals[0], a.Terminals[1], a.Terminals[2], a.Terminals[3]
	now := time.Now().UnixMilli()
	// polygonA is lat 40..41, lng 28..29: one terminal inside, one outside, one never reported.
	for id, at := range map[string][2]float64{in: {40.5, 28.5}, out: {41.5, 28.5}, far: {40.2, 28.9}} {
		term := testkit.Terminal(t, s.URL, id, testkit.Password)
		if r := term.Call("gps.report", map[string]any{"lat": at[0], "lng": at[1], "time": now}); r.Code != "0" {
			t.Fatalf("report %s: %s %s", id, r.Code, r.Msg)
		}
		term.Close()
	}
	con := testkit.Console(t, s.URL, tokA)

	create := func(typ string, ids ...string) occupancy {
		t.Helper()
		var f occupancy
		s.Do("POST", "/ds/fence/create", tokA, map[string]any{"name": "Yard " + typ, "type": typ, "shape": "rectangle",
			"geometry": polygonA, "msIds": ids}).Into(t, &f)
		return f
	}
	keepOut := create("out", in, out, silent)
	if !slices.Equal(msIDs(keepOut.Occupants), []string{in}) || !slices.Equal(msIDs(keepOut.Breaching), []string{in}) {
		t.Fatalf("keep-out fence: occupants %v breaching %v, want [%s] [%s]", keepOut.Occupants, keepOut.Breaching, in, in)
	}
	if o := keepOut.Occupants[0]; o.Name != "Name "+in || o.Lat != 40.5 || o.Lng != 28.5 || o.Time != now {
		t.Errorf("occupant %+v", o)
	}
	stayIn := create("in", in, out)
	if !slices.Equal(msIDs(stayIn.Occupants), []string{in}) || !slices.Equal(msIDs(stayIn.Breaching), []string{out}) {
		t.Fatalf("in fence: occupants %v breaching %v", stayIn.Occupants, stayIn.Breaching)
	}
	// Assigning one more terminal answers with the placement too.
	var set occupancy
	s.Do("POST", "/ds/fence/set", tokA, map[string]any{"fenceid": keepOut.FenceID, "add": []string{far}}).Into(t, &set)
	if !slices.Equal(msIDs(set.Breaching), []string{in, far}) {
		t.Fatalf("after set: breaching %v", set.Breaching)
	}

	alarm := func(tok string, params map[string]any, code string) []geo.Alarm {
		t.Helper()
		r := s.Do("POST", "/ds/fence/alarmBreaches", tok, params)
		if r.Code != code {
			t.Fatalf("alarmBreaches %v: code %s (%s), want %s", params, r.Code, r.Msg, code)
		}
		var res struct{ List []geo.Alarm }
		if code == "0" {
			r.Into(t, &res)
		}
		return res.List
	}
	// Only one of them first; then the rest.
	got := alarm(tokA, map[string]any{"fenceid": keepOut.FenceID, "msIds": []string{far}}, "0")
	if len(got) != 1 || got[0].MsID != far || got[0].Type != geo.AlarmEnter || got[0].FenceName != "Yard out" || got[0].Lat != 40.2 {
		t.Fatalf("alarm on %s: %+v", far, got)
	}
	ev := con.WaitEvent("fence.alarm", 2*time.Second, nil)
	var pushed geo.Alarm
	if err := json.Unmarshal(ev.Data, &pushed); err != nil || ev.Seq == 0 || pushed.ID != got[0].ID {
		t.Fatalf("fence.alarm %s (seq %d), want alarm %s", ev.Data, ev.Seq, got[0].ID)
	}
	got = alarm(tokA, map[string]any{"fenceid": keepOut.FenceID}, "0")
	if len(got) != 1 || got[0].MsID != in || got[0].Type != geo.AlarmEnter {
		t.Fatalf("alarm on the rest: %+v", got)
	}
	if got := alarm(tokA, map[string]any{"fenceid": keepOut.FenceID}, "0"); len(got) != 0 {
		t.Errorf("asked again: %+v", got)
	}
	// The "in" fence alarms on the one outside it, as having left.
	got = alarm(tokA, map[string]any{"fenceid": stayIn.FenceID}, "0")
	if len(got) != 1 || got[0].MsID != out || got[0].Type != geo.AlarmLeave {
		t.Fatalf("in fence: %+v", got)
	}
	// The engine does not raise again for a terminal that stays where it is.
	term := testkit.Terminal(t, s.URL, in, testkit.Password)
	if r := term.Call("gps.report", map[string]any{"lat": 40.51, "lng": 28.5, "time": now + 1000}); r.Code != "0" {
		t.Fatalf("report: %s", r.Msg)
	}
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM fence_alarms WHERE terminal_id = ?`, in); n != 1 {
		t.Errorf("alarms of %s: %d, want 1", in, n)
	}

	alarm(tokB, map[string]any{"fenceid": keepOut.FenceID}, "404")
	alarm(tokA, map[string]any{"fenceid": keepOut.FenceID, "msIds": []string{b.Terminals[0]}}, "0")
	alarm(tokA, map[string]any{}, "400")
	// A terminal's session may not raise alarms.
	termTok, err := s.Sessions.Create(context.Background(), far, a.Customer)
	if err != nil {
		t.Fatal(err)
	}
	alarm(termTok, map[string]any{"fenceid": keepOut.FenceID}, "107")
	if n := testkit.Count(t, s.DB, `SELECT COUNT(*) FROM fence_alarms WHERE customer_id = ?`, a.Customer); n != 3 {
		t.Errorf("alarms stored: %d, want 3", n)
	}
}
