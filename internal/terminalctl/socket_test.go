package terminalctl_test

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/testkit"
)

// world is testkit.Tenants (fleet A of two terminals with its console, fleet B of one); msID is A's first.
type world struct {
	*testkit.Tenants
	msID string
}

func newWorld(t *testing.T, engine string) *world {
	t.Helper()
	tn := testkit.NewTenants(t, engine, 2)
	return &world{Tenants: tn, msID: tn.A.Terminals[0]}
}

func (w *world) status(t *testing.T, msID string) int {
	t.Helper()
	var st int
	if err := w.DB.QueryRow(context.Background(), `SELECT call_set_status FROM accounts WHERE id = ?`, msID).Scan(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// quiet proves a terminal received nothing: the next frame it reads is the reply to its ping.
func quiet(t *testing.T, term *testkit.Socket) {
	t.Helper()
	if f := term.Call("ping", nil); f.Type != "pong" {
		t.Fatal(f)
	}
	for _, e := range term.Events {
		if e.Type == "call.set" || e.Type == "param.set" {
			t.Fatalf("relayed: %+v", e)
		}
	}
}

func TestCallSetTakesEffectOnAcknowledgement(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		term := testkit.Terminal(t, w.URL, w.msID, testkit.Password)
		for _, tc := range []struct {
			status any
			want   int
		}{{1, 1}, {"0", 0}, {8, 8}} {
			id := w.ConsoleA.Request("call.set", map[string]any{"msId": w.msID, "status": tc.status})
			req := term.WaitEvent("call.set", 5*time.Second, nil)
			var d struct {
				Status int    `json:"status"`
				By     string `json:"by"`
			}
			req.Into(t, &d)
			if d.Status != tc.want || d.By != w.A.Dispatcher {
				t.Fatalf("relayed %+v", d)
			}
			if got := w.status(t, w.msID); tc.want != 8 && got == tc.want {
				t.Fatal("stored before the terminal acknowledged")
			}
			term.Reply(req, "0", nil)
			reply := w.ConsoleA.ReplyTo(id)
			var res struct {
				MsID   string `json:"msId"`
				Status int    `json:"status"`
			}
			reply.Into(t, &res)
			if reply.Code != "0" || res.MsID != w.msID || res.Status != tc.want {
				t.Fatalf("reply %+v", reply)
			}
			if got := w.status(t, w.msID); got != tc.want {
				t.Fatalf("stored %d, want %d", got, tc.want)
			}
			ev := w.ConsoleA.WaitEvent("terminal.updated", 5*time.Second, nil)
			var u struct {
				CID           string            `json:"cid"`
				CallSetStatus int               `json:"callSetStatus"`
				Name          string            `json:"name"`
				Params        map[string]string `json:"params"`
			}
			ev.Into(t, &u)
			if u.CID != w.msID || u.CallSetStatus != tc.want || u.Name == "" || u.Params == nil {
				t.Fatalf("terminal.updated %s", ev.Data)
			}
		}
		if n := w.Count(`SELECT COUNT(*) FROM oplog WHERE type = 9 AND account_id = ? AND remark LIKE ?`,
			w.A.Dispatcher, "%"+w.msID+"%"); n != 3 {
			t.Fatalf("log 9 entries %d", n)
		}
	})
}

func TestCallSetNotAcknowledgedChangesNothing(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		// Offline.
		if r := w.ConsoleA.ReplyTo(w.ConsoleA.Request("call.set", map[string]any{"msId": w.msID, "status": 0})); r.Code != "4" {
			t.Fatalf("offline: %+v", r)
		}
		term := testkit.Terminal(t, w.URL, w.msID, testkit.Password)
		// Refused by the terminal: its code reaches the console.
		id := w.ConsoleA.Request("call.set", map[string]any{"msId": w.msID, "status": 0})
		term.Reply(term.WaitEvent("call.set", 5*time.Second, nil), "16", nil)
		if r := w.ConsoleA.ReplyTo(id); r.Code != "16" {
			t.Fatalf("refused: %+v", r)
		}
		// No acknowledgement in time.
		w.Hub.SetAckTimeout(150 * time.Millisecond)
		id = w.ConsoleA.Request("call.set", map[string]any{"msId": w.msID, "status": 1})
		term.WaitEvent("call.set", 5*time.Second, nil)
		if r := w.ConsoleA.ReplyTo(id); r.Code != "408" {
			t.Fatalf("timeout: %+v", r)
		}
		if got := w.status(t, w.msID); got != 8 {
			t.Fatalf("status changed to %d", got)
		}
		if n := w.Count(`SELECT COUNT(*) FROM oplog WHERE type = 9`); n != 0 {
			t.Fatalf("logged %d", n)
		}
	})
}

func TestRemoteControlRefusesBadInputWithoutRelaying(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		term := testkit.Terminal(t, w.URL, w.msID, testkit.Password)
		other := testkit.Terminal(t, w.URL, w.B.Terminals[0], testkit.Password)
		cases := []struct {
			name, typ string
			data      map[string]any
			code      string
		}{
			{"status 2", "call.set", map[string]any{"msId": w.msID, "status": 2}, "400"},
			{"status text", "call.set", map[string]any{"msId": w.msID, "status": "stun"}, "400"},
			{"no status", "call.set", map[string]any{"msId": w.msID}, "400"},
			{"no msId", "call.set", map[string]any{"status": 1}, "400"},
			{"unknown terminal", "call.set", map[string]any{"msId": "19999999", "status": 1}, "404"},
			{"other customer's terminal", "call.set", map[string]any{"msId": w.B.Terminals[0], "status": 0}, "404"},
			{"a dispatcher", "call.set", map[string]any{"msId": w.A.Dispatcher, "status": 0}, "404"},
			{"bad unit", "param.set", map[string]any{"msId": w.msID, "params": map[string]any{"gpsInterval": "30x"}}, "400"},
			{"no unit", "param.set", map[string]any{"msId": w.msID, "params": map[string]any{"gpsInterval": "30"}}, "400"},
			{"number", "param.set", map[string]any{"msId": w.msID, "params": map[string]any{"gpsInterval": 30}}, "400"},
			{"fraction", "param.set", map[string]any{"msId": w.msID, "params": map[string]any{"heartbeat": "1.5m"}}, "400"},
			{"out of range", "param.set", map[string]any{"msId": w.msID, "params": map[string]any{"gpsInterval": "25h"}}, "400"},
			{"unknown parameter", "param.set", map[string]any{"msId": w.msID, "params": map[string]any{"volume": "5s"}}, "400"},
			{"one bad among good", "param.set", map[string]any{"msId": w.msID, "params": map[string]any{"gpsInterval": "30s", "heartbeat": "0s"}}, "400"},
			{"no params", "param.set", map[string]any{"msId": w.msID, "params": map[string]any{}}, "400"},
			{"params not an object", "param.set", map[string]any{"msId": w.msID, "params": "gpsInterval=30s"}, "400"},
			{"other customer's terminal params", "param.set", map[string]any{"msId": w.B.Terminals[0], "params": map[string]any{"gpsInterval": "30s"}}, "404"},
		}
		for _, tc := range cases {
			if r := w.ConsoleA.ReplyTo(w.ConsoleA.Request(tc.typ, tc.data)); r.Code != tc.code {
				t.Errorf("%s: %+v, want %s", tc.name, r, tc.code)
			}
		}
		quiet(t, term)
		quiet(t, other)
		if n := w.Count(`SELECT COUNT(*) FROM terminal_params`); n != 0 {
			t.Fatal("params stored from bad input")
		}
		if got := w.status(t, w.B.Terminals[0]); got != 8 {
			t.Fatal("other customer's terminal changed")
		}
	})
}

func TestTerminalsMayNotRemoteControl(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		term := testkit.Terminal(t, w.URL, w.msID, testkit.Password)
		peer := testkit.Terminal(t, w.URL, w.A.Terminals[1], testkit.Password)
		for _, typ := range []string{"call.set", "param.set", "param.get"} {
			r := term.ReplyTo(term.Request(typ, map[string]any{"msId": w.A.Terminals[1], "status": 0,
				"params": map[string]any{"gpsInterval": "30s"}}))
			if r.Code != "107" {
				t.Fatalf("%s from a terminal: %+v", typ, r)
			}
		}
		quiet(t, peer)
	})
}

func TestParamSetStoresAcknowledgedParams(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		term := testkit.Terminal(t, w.URL, w.msID, testkit.Password)
		id := w.ConsoleA.Request("param.set", map[string]any{"msId": w.msID, "params": map[string]any{"gpsInterval": "30s", "heartbeat": "5M"}})
		req := term.WaitEvent("param.set", 5*time.Second, nil)
		var d struct {
			Params  map[string]string `json:"params"`
			Seconds map[string]int64  `json:"seconds"`
		}
		req.Into(t, &d)
		if d.Params["gpsInterval"] != "30s" || d.Params["heartbeat"] != "5m" || d.Seconds["heartbeat"] != 300 || d.Seconds["gpsInterval"] != 30 {
			t.Fatalf("relayed %s", req.Data)
		}
		if n := w.Count(`SELECT COUNT(*) FROM terminal_params`); n != 0 {
			t.Fatal("stored before the acknowledgement")
		}
		term.Reply(req, "0", nil)
		r := w.ConsoleA.ReplyTo(id)
		if r.Code != "0" || !testkit.Has(r, `"heartbeat":"5m"`) {
			t.Fatalf("reply %+v", r)
		}
		ev := w.ConsoleA.WaitEvent("terminal.updated", 5*time.Second, nil)
		if !testkit.Has(ev, `"params":{"gpsInterval":"30s","heartbeat":"5m"}`) {
			t.Fatalf("terminal.updated %s", ev.Data)
		}
		// A later change keeps the others.
		id = w.ConsoleA.Request("param.set", map[string]any{"msId": w.msID, "params": map[string]any{"gpsInterval": "1m"}})
		term.Reply(term.WaitEvent("param.set", 5*time.Second, nil), "0", nil)
		r = w.ConsoleA.ReplyTo(id)
		if !testkit.Has(r, `"params":{"gpsInterval":"1m","heartbeat":"5m"}`) {
			t.Fatalf("second reply %s", r.Data)
		}
		if n := w.Count(`SELECT COUNT(*) FROM oplog WHERE type = 9 AND remark LIKE '%gpsInterval=1m%'`); n != 1 {
			t.Fatal("log 9 missing")
		}
		// Refused: nothing stored.
		id = w.ConsoleA.Request("param.set", map[string]any{"msId": w.msID, "params": map[string]any{"gpsInterval": "2h"}})
		term.Reply(term.WaitEvent("param.set", 5*time.Second, nil), "16", nil)
		if r := w.ConsoleA.ReplyTo(id); r.Code != "16" {
			t.Fatal(r)
		}
		if n := w.Count(`SELECT COUNT(*) FROM terminal_params WHERE value = '2h'`); n != 0 {
			t.Fatal("refused params stored")
		}
	})
}

// param.get opens the set-param dialog with the terminal's intervals: what a connected terminal reports (checked
// like a param.set, over the stored ones), else what it acknowledged before.
func TestParamGetAsksTheTerminalThenTheStore(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		if _, err := w.DB.Exec(context.Background(), `INSERT INTO terminal_params (account_id, name, value, updated_at)
			VALUES (?, 'heartbeat', '5m', 1), (?, 'statusInterval', '1h', 1)`, w.msID, w.msID); err != nil {
			t.Fatal(err)
		}
		get := func(msID string) int64 { return w.ConsoleA.Request("param.get", map[string]any{"msId": msID}) }
		want := func(id int64, code, data string) {
			t.Helper()
			if r := w.ConsoleA.ReplyTo(id); r.Code != code || (data != "" && string(r.Data) != data) {
				t.Fatalf("param.get: %s %s, want %s %s", r.Code, r.Data, code, data)
			}
		}
		stored := `{"msId":"` + w.msID + `","params":{"heartbeat":"5m","statusInterval":"1h"},"reported":false}`
		want(get(w.msID), "0", stored) // offline

		term := testkit.Terminal(t, w.URL, w.msID, testkit.Password)
		id := get(w.msID)
		term.Reply(term.WaitEvent("param.get", 5*time.Second, nil), "0", map[string]any{"params": map[string]any{
			"gpsInterval": "15s", "heartbeat": "90S", "statusInterval": "25h", "volume": "3s"}})
		want(id, "0", `{"msId":"`+w.msID+`","params":{"gpsInterval":"15s","heartbeat":"90s","statusInterval":"1h"},"reported":true}`)

		for _, code := range []string{"400", "0"} { // a terminal that cannot say: refuses, or answers no params
			id = get(w.msID)
			term.Reply(term.WaitEvent("param.get", 5*time.Second, nil), code, nil)
			want(id, "0", stored)
		}

		want(get(w.B.Terminals[0]), "404", "")
		want(get(w.A.Dispatcher), "404", "")
		want(get(""), "400", "")
	})
}

func TestLoginReminder(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		term := testkit.Terminal(t, w.URL, w.msID, testkit.Password)
		id := w.ConsoleA.Request("call.set", map[string]any{"msId": w.msID, "status": 1})
		term.Reply(term.WaitEvent("call.set", 5*time.Second, nil), "0", nil)
		w.ConsoleA.ReplyTo(id)
		id = w.ConsoleA.Request("param.set", map[string]any{"msId": w.msID, "params": map[string]any{"heartbeat": "30s"}})
		term.Reply(term.WaitEvent("param.set", 5*time.Second, nil), "0", nil)
		w.ConsoleA.ReplyTo(id)
		term.Close()
		testkit.Eventually(t, 5*time.Second, "offline", func() bool { return !w.Hub.Online(w.msID) })

		term = testkit.Terminal(t, w.URL, w.msID, testkit.Password)
		req := term.WaitEvent("call.set", 5*time.Second, nil)
		if !testkit.Has(req, `"status":1`) {
			t.Fatalf("reminder %s", req.Data)
		}
		term.Reply(req, "0", nil)
		req = term.WaitEvent("param.set", 5*time.Second, nil)
		if !testkit.Has(req, `"heartbeat":"30s"`) {
			t.Fatalf("params reminder %s", req.Data)
		}
		term.Reply(req, "0", nil)
		// An active terminal without parameters is reminded of nothing.
		fresh := testkit.Terminal(t, w.URL, w.A.Terminals[1], testkit.Password)
		quiet(t, fresh)
	})
}
