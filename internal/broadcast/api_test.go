package broadcast_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/broadcast"
	"tenfour/internal/testkit"
)

var state = []string{"bc_orgs", "bc_casters", "bc_devices", "bc_files", "bc_plans",
	"SELECT id, kind, name, plan_id, state, started_at, paused_at, paused_ms, volume, choice_file_id FROM bc_tasks",
	"bc_task_files", "bc_task_devices"}

func (w *world) api() testkit.APITest {
	return testkit.APITest{Server: w.s, State: state, Success: "200", Token: func(a string) string {
		switch a {
		case "A":
			return w.tokA
		case "B":
			return w.tokB
		case "consoleA":
			return w.consA
		}
		return a
	}}
}

// Login, the broadcast user and casters: every way in and every refusal (spec §4, §5, §7).
func TestLoginAndCasters(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		pw := md5hex("Speak-Up-42")
		w.api().Run(t, []testkit.Scenario{
			{Name: "sys user is the console's caster", Method: "GET", Path: "/broadcast/v1/sys/user", Token: "A", Code: "200",
				Contains: []string{`"user_code":"` + w.dispA + `"`}},
			{Name: "a console session is not a broadcast token", Method: "GET", Path: "/broadcast/v1/sys/user", Token: "consoleA", Code: "401", Status: 401},
			{Name: "no token", Method: "GET", Path: "/broadcast/v1/org", Code: "401", Status: 401},
			{Name: "bad token", Method: "GET", Path: "/broadcast/v1/org", Token: "nope", Code: "401"},
			{Name: "login without user name", Method: "POST", Path: "/broadcast/v1/login", Params: map[string]any{"password": pw}, Code: "400"},
			{Name: "secret without a console session", Method: "POST", Path: "/broadcast/v1/login",
				Params: map[string]any{"username": w.dispA, "password": "{secret}"}, Code: "102", Changes: true},
			{Name: "missing password is secret", Method: "POST", Path: "/broadcast/v1/login", Params: map[string]any{"username": w.dispA},
				Code: "102", Changes: true},
			{Name: "secret with another account's session", Method: "POST", Path: "/broadcast/v1/login", Token: "consoleA",
				Params: map[string]any{"username": "99999999", "password": "{secret}"}, Code: "102", Changes: true},
			{Name: "secret with a broadcast token is not a console session", Method: "POST", Path: "/broadcast/v1/login", Token: "A",
				Params: map[string]any{"username": w.dispA, "password": "{secret}"}, Code: "102", Changes: true},
			{Name: "caster created", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "200",
				Params:   map[string]any{"name": "Gate PA", "code": "gate-pa", "call_number": "801", "password": pw, "priority": 7},
				Contains: []string{`"priority":7`}},
			{Name: "caster default priority 5", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "200",
				Params:   map[string]any{"name": "Hall", "code": "hall", "call_number": "802", "user_id": "", "password": "{secret}"},
				Contains: []string{`"priority":5`}},
			{Name: "caster code taken", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "1002",
				Params: map[string]any{"name": "X", "code": "gate-pa", "call_number": "803"}},
			{Name: "caster call number taken", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "1003",
				Params: map[string]any{"name": "X", "code": "x1", "call_number": "801"}},
			{Name: "caster priority out of range", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "400",
				Params: map[string]any{"name": "X", "code": "x1", "call_number": "809", "priority": 10}},
			{Name: "caster password not md5", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "400",
				Params: map[string]any{"name": "X", "code": "x1", "call_number": "809", "password": "plain"}},
			{Name: "caster without name", Method: "POST", Path: "/broadcast/v1/caster", Token: "A", Code: "400",
				Params: map[string]any{"code": "x1", "call_number": "809"}},
			{Name: "caster by code", Method: "GET", Path: "/broadcast/v1/caster", Token: "A", Params: map[string]any{"code": "gate-pa"},
				Code: "200", Contains: []string{`"total":1`, `"code":"gate-pa"`}},
			{Name: "caster of another customer is not seen", Method: "GET", Path: "/broadcast/v1/caster", Token: w.login2(),
				Params: map[string]any{"code": "gate-pa"}, Code: "200", Contains: []string{`"total":0`}},
			{Name: "md5 login", Method: "POST", Path: "/broadcast/v1/login", Params: map[string]any{"username": "gate-pa", "password": pw},
				Code: "200", Changes: true, Contains: []string{`"token"`, `"user_code":"gate-pa"`}},
			{Name: "md5 login, wrong password", Method: "POST", Path: "/broadcast/v1/login",
				Params: map[string]any{"username": "gate-pa", "password": md5hex("wrong")}, Code: "2", Status: 401},
			{Name: "md5 login, unknown name", Method: "POST", Path: "/broadcast/v1/login",
				Params: map[string]any{"username": "nobody", "password": pw}, Code: "2"},
			{Name: "md5 login, upper-case md5", Method: "POST", Path: "/broadcast/v1/login",
				Params: map[string]any{"username": "gate-pa", "password": strings.ToUpper(pw)}, Code: "200", Changes: true},
			{Name: "login, password not md5", Method: "POST", Path: "/broadcast/v1/login",
				Params: map[string]any{"username": "gate-pa", "password": "Speak-Up-42"}, Code: "400"},
			{Name: "caster without password cannot log in with md5", Method: "POST", Path: "/broadcast/v1/login",
				Params: map[string]any{"username": "hall", "password": pw}, Code: "2"},
		})
		// spec §6: broadcast only for account type "1"
		if _, err := w.s.DB.Exec(context.Background(), `UPDATE accounts SET acct_type = '-2' WHERE id = ?`, w.dispA); err != nil {
			t.Fatal(err)
		}
		w.api().Run(t, []testkit.Scenario{
			{Name: "account type -2 refused", Method: "GET", Path: "/broadcast/v1/sys/user", Token: "A", Code: "107"},
			{Name: "account type -2 cannot log in", Method: "POST", Path: "/broadcast/v1/login", Token: "consoleA",
				Params: map[string]any{"username": w.dispA, "password": "{secret}"}, Code: "107"},
		})
	})
}

// login2 signs customer B's dispatcher in (its caster is ensured by the console session).
func (w *world) login2() string {
	if w.tokB == "" {
		w.tokB = w.login(w.dispB, w.consB) // B's caster exists before the scenarios
	}
	return w.tokB
}

// Console login creates the caster (spec §4).
func TestCasterEnsuredAtConsoleLogin(t *testing.T) {
	w := newWorld(t, "sqlite")
	var n int
	count := func() int {
		if err := w.s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM bc_casters WHERE code = ?`, w.dispA).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	_, id, cons := w.customer("Fresh")
	sock := testkit.Console(t, w.s.URL, cons)
	defer sock.Close()
	testkit.Eventually(t, 5*time.Second, "caster of a console that logged in", func() bool {
		var m int
		_ = w.s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM bc_casters WHERE code = ? AND priority = 5`, id).Scan(&m)
		return m == 1
	})
	if count() != 1 {
		t.Fatalf("caster of A: %d", n)
	}
}

// Organisations and devices: nesting, unique codes per customer, refusals, tenancy, volumes.
func TestOrgsAndDevices(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		w.login2()
		var root, child, grand broadcast.Org
		w.ok("POST", "/broadcast/api/v1/org", w.tokA, map[string]any{"name": "Campus", "code": "campus", "call_number": "100", "password": md5hex("x")}, &root)
		w.ok("POST", "/broadcast/v1/org", w.tokA, map[string]any{"parent_id": root.ID, "name": "North", "code": "north", "call_number": "110"}, &child)
		w.ok("POST", "/broadcast/v1/org", w.tokA, map[string]any{"parent_id": child.ID, "name": "Gym", "code": "gym", "call_number": "111"}, &grand)
		// the same codes are free for another customer
		w.ok("POST", "/broadcast/api/v1/org", w.tokB, map[string]any{"name": "Campus", "code": "campus", "call_number": "100"}, nil)
		var d1, d2 broadcast.Device
		w.ok("POST", "/broadcast/v1/device", w.tokA, map[string]any{"org_id": child.ID, "name": "Door", "code": "spk-1"}, &d1)
		w.ok("POST", "/broadcast/v1/device", w.tokA, map[string]any{"org_id": grand.ID, "name": "Court", "code": "spk-2"}, &d2)
		if d1.AoVolume != 60 || d1.Online != 0 {
			t.Fatalf("new device %+v: want volume 60 (spec §9), offline", d1)
		}
		p := func(id int64) string { return fmt.Sprint(id) }
		w.api().Run(t, []testkit.Scenario{
			{Name: "org list", Method: "GET", Path: "/broadcast/v1/org", Token: "A", Params: map[string]any{"page": 1, "limit": 1000},
				Code: "200", Contains: []string{`"total":3`}},
			{Name: "org list of B", Method: "GET", Path: "/broadcast/v1/org", Token: "B", Code: "200", Contains: []string{`"total":1`}},
			{Name: "org limit too big", Method: "GET", Path: "/broadcast/v1/org", Token: "A", Params: map[string]any{"limit": 1001}, Code: "400"},
			{Name: "org code taken", Method: "POST", Path: "/broadcast/v1/org", Token: "A", Code: "1002",
				Params: map[string]any{"parent_id": root.ID, "name": "N2", "code": "north", "call_number": "120"}},
			{Name: "org call number taken", Method: "POST", Path: "/broadcast/v1/org", Token: "A", Code: "1003",
				Params: map[string]any{"parent_id": root.ID, "name": "N2", "code": "n2", "call_number": "110"}},
			{Name: "org unknown parent", Method: "POST", Path: "/broadcast/v1/org", Token: "A", Code: "400",
				Params: map[string]any{"parent_id": 999999, "name": "N2", "code": "n2", "call_number": "120"}},
			{Name: "org without name", Method: "POST", Path: "/broadcast/v1/org", Token: "A", Code: "400",
				Params: map[string]any{"code": "n2", "call_number": "120"}},
			{Name: "org bad code", Method: "POST", Path: "/broadcast/v1/org", Token: "A", Code: "400",
				Params: map[string]any{"name": "N2", "code": "n 2", "call_number": "120"}},
			{Name: "org renamed", Method: "PATCH", Path: "/broadcast/v1/org/" + p(child.ID), Token: "A", Code: "200",
				Params: map[string]any{"name": "North wing"}, Contains: []string{`"name":"North wing"`}},
			{Name: "org edit to a taken call number stores nothing", Method: "PATCH", Path: "/broadcast/v1/org/" + p(child.ID), Token: "A",
				Code: "1003", Params: map[string]any{"name": "Half-way", "call_number": "100"}},
			{Name: "org moved under its own descendant", Method: "PATCH", Path: "/broadcast/v1/org/" + p(root.ID), Token: "A",
				Code: "1010", Params: map[string]any{"parent_id": grand.ID}},
			{Name: "org of another customer", Method: "PATCH", Path: "/broadcast/v1/org/" + p(root.ID), Token: "B", Code: "404",
				Params: map[string]any{"name": "Mine"}},
			{Name: "org with devices not deleted", Method: "DELETE", Path: "/broadcast/v1/org/" + p(grand.ID), Token: "A", Code: "1004"},
			{Name: "org with sub-orgs not deleted", Method: "DELETE", Path: "/broadcast/v1/org/" + p(root.ID), Token: "A", Code: "1005"},
			{Name: "device code taken", Method: "POST", Path: "/broadcast/v1/device", Token: "A", Code: "1002",
				Params: map[string]any{"org_id": child.ID, "name": "X", "code": "spk-1"}},
			{Name: "device in another customer's org", Method: "POST", Path: "/broadcast/v1/device", Token: "B", Code: "400",
				Params: map[string]any{"org_id": child.ID, "name": "X", "code": "spk-9"}},
			{Name: "device without org", Method: "POST", Path: "/broadcast/v1/device", Token: "A", Code: "400",
				Params: map[string]any{"name": "X", "code": "spk-9"}},
			{Name: "devices of an org", Method: "GET", Path: "/broadcast/v1/device", Token: "A", Params: map[string]any{"org_id": child.ID},
				Code: "200", Contains: []string{`"total":1`, `"code":"spk-1"`}},
			{Name: "devices of B", Method: "GET", Path: "/broadcast/v1/device", Token: "B", Code: "200", Contains: []string{`"total":0`}},
			{Name: "device renamed and moved", Method: "PATCH", Path: "/broadcast/v1/device/" + p(d1.ID), Token: "A", Code: "200",
				Params: map[string]any{"name": "Main door", "org_id": root.ID}, Contains: []string{`"name":"Main door"`}},
			{Name: "device edit to a taken code stores nothing", Method: "PATCH", Path: "/broadcast/v1/device/" + p(d1.ID), Token: "A",
				Code: "1002", Params: map[string]any{"name": "Half-way", "code": "spk-2"}},
			{Name: "device edit with a bad code", Method: "PATCH", Path: "/broadcast/v1/device/" + p(d1.ID), Token: "A", Code: "400",
				Params: map[string]any{"name": "Half-way", "code": "spk 1"}},
			{Name: "device volume", Method: "PATCH", Path: "/broadcast/v1/device/" + p(d1.ID) + "/volume", Token: "A", Code: "200",
				Params: map[string]any{"ao_volume": 75}, Contains: []string{`"ao_volume":75`}},
			{Name: "device volume out of range", Method: "PATCH", Path: "/broadcast/v1/device/" + p(d1.ID) + "/volume", Token: "A",
				Code: "400", Params: map[string]any{"ao_volume": 101}},
			{Name: "device volume missing", Method: "PATCH", Path: "/broadcast/v1/device/" + p(d1.ID) + "/volume", Token: "A",
				Code: "400", Params: map[string]any{}},
			{Name: "device volume of another customer", Method: "PATCH", Path: "/broadcast/v1/device/" + p(d1.ID) + "/volume",
				Token: "B", Code: "404", Params: map[string]any{"ao_volume": 10}},
			{Name: "batch volume of an org subtree", Method: "POST", Path: "/broadcast/v1/device/batch_volume", Token: "A", Code: "200",
				Params: map[string]any{"group_id": child.ID, "ao_volume": 30}, Contains: []string{fmt.Sprintf(`"device_ids":[%d]`, d2.ID)}},
			{Name: "batch volume of listed devices", Method: "POST", Path: "/broadcast/v1/device/batch_volume", Token: "A", Code: "200",
				Params: map[string]any{"device_ids": []int64{d1.ID, d2.ID}, "ao_volume": 40}},
			{Name: "batch volume with an unknown device", Method: "POST", Path: "/broadcast/v1/device/batch_volume", Token: "A",
				Code: "400", Params: map[string]any{"device_ids": []int64{d1.ID, 999999}, "ao_volume": 40}},
			{Name: "batch volume of nothing", Method: "POST", Path: "/broadcast/v1/device/batch_volume", Token: "A",
				Code: "1013", Params: map[string]any{"ao_volume": 40}},
			{Name: "device of another customer not deleted", Method: "DELETE", Path: "/broadcast/v1/device/" + p(d2.ID), Token: "B", Code: "404"},
			{Name: "device deleted", Method: "DELETE", Path: "/broadcast/v1/device/" + p(d2.ID), Token: "A", Code: "200"},
			{Name: "empty org deleted", Method: "DELETE", Path: "/broadcast/v1/org/" + p(grand.ID), Token: "A", Code: "200"},
			{Name: "unknown org", Method: "DELETE", Path: "/broadcast/v1/org/" + p(grand.ID), Token: "A", Code: "404"},
		})
		var page struct{ List []broadcast.Device }
		w.ok("GET", "/broadcast/v1/device", w.tokA, map[string]any{"org_id": root.ID}, &page)
		if len(page.List) != 1 || page.List[0].AoVolume != 40 || page.List[0].Name != "Main door" || page.List[0].Code != "spk-1" {
			t.Fatalf("devices of the root after the edits (the refused ones stored nothing): %+v", page.List)
		}
		var orgs struct{ List []broadcast.Org }
		w.ok("GET", "/broadcast/v1/org", w.tokA, nil, &orgs)
		for _, o := range orgs.List {
			if o.ID == child.ID && (o.Name != "North wing" || o.CallNumber != "110") {
				t.Fatalf("the org after a refused edit: %+v, want North wing, 110", o)
			}
		}
	})
}

// md5 logins go through the sign-in throttle: wrong guesses from one address run out (101), unknown names too
// (the lockout of one caster is TestBroadcastTokens's; the replay of the probe's guesses internal/security's).
func TestLoginThrottled(t *testing.T) {
	w := newWorld(t, "sqlite")
	pw := md5hex("Right-1")
	w.ok("POST", "/broadcast/v1/caster", w.tokA, map[string]any{"name": "T", "code": "throttled", "call_number": "5", "password": pw}, nil)
	w.s.Auth.SetLimits(auth.DefaultLimits())
	busy := false
	for i := 0; i < 40 && !busy; i++ {
		name := "throttled"
		if i%2 == 1 {
			name = fmt.Sprintf("nobody%d", i)
		}
		r := w.doHdr("POST", "/broadcast/v1/login", "", map[string]any{"username": name, "password": md5hex(fmt.Sprint("wrong", i))})
		switch r.Code {
		case "2", "107": // wrong, or the caster locked by the fifth wrong one
		case "101":
			busy = true
		default:
			t.Fatalf("guess %d: %s %s", i, r.Code, r.Msg)
		}
	}
	if !busy {
		t.Fatal("40 wrong guesses from one address were never refused busy (101)")
	}
}

// TestMain: the organisations' and gateways' credentials make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
