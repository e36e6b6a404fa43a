package message_test

import (
	"strings"
	"testing"
	"time"

	"tenfour/internal/testkit"
)

// world is testkit.Tenants: fleet A (the test's terminals) with its console, and fleet B (one terminal).
type world = testkit.Tenants

func newWorld(t *testing.T, engine string, terminals int) *world {
	t.Helper()
	return testkit.NewTenants(t, engine, terminals)
}

type deliver struct {
	ID, From, FromName, GID, Content string
	Time                             int64
}

type status struct {
	ID, From, MsID, GID, Content, State string
	Recipients, Delivered               int
}

type result struct {
	ID                            string
	Recipients, Online, Delivered int
	State                         string
}

func TestSendToTerminalIsStoredFirstThenAcknowledged(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine, 1)
		// The terminal acknowledges only after the check below: a loaded machine must not run out the ack time.
		w.Hub.SetAckTimeout(30 * time.Second)
		term := testkit.Terminal(t, w.URL, w.A.Terminals[0], testkit.Password)

		id := w.ConsoleA.Request("sms.send", map[string]any{"msId": w.A.Terminals[0], "content": "Go to gate 4\nNow"})
		req := term.WaitEvent("sms.deliver", 5*time.Second, nil)
		var d deliver
		req.Into(t, &d)
		if d.Content != "Go to gate 4\nNow" || d.From != w.A.Dispatcher || d.FromName == "" || d.ID == "" || d.Time == 0 || d.GID != "" {
			t.Fatalf("deliver %+v", d)
		}
		// Durable before it reached the terminal.
		if n := w.Count(`SELECT COUNT(*) FROM messages WHERE id = ? AND delivered = FALSE`, d.ID); n != 1 {
			t.Fatalf("message not stored before delivery (%d)", n)
		}
		term.Reply(req, "0", map[string]any{})

		reply := w.ConsoleA.ReplyTo(id)
		if reply.Code != "0" {
			t.Fatalf("reply %+v", reply)
		}
		var res result
		reply.Into(t, &res)
		if res.ID != d.ID || res.Recipients != 1 || res.Online != 1 || res.Delivered != 1 || res.State != "delivered" {
			t.Fatalf("reply %+v %+v", reply, res)
		}
		ev := w.ConsoleA.WaitEvent("sms.status", 5*time.Second, nil)
		var st status
		ev.Into(t, &st)
		if ev.Seq == 0 || st.ID != d.ID || st.State != "delivered" || st.MsID != w.A.Terminals[0] || st.Content != d.Content {
			t.Fatalf("status %+v %+v", ev, st)
		}
		if n := w.Count(`SELECT COUNT(*) FROM messages WHERE id = ? AND delivered = TRUE AND delivered_count = 1`, d.ID); n != 1 {
			t.Fatal("delivery not recorded")
		}
		if n := w.Count(`SELECT COUNT(*) FROM oplog WHERE type = 103 AND account_id = ? AND remark LIKE ?`,
			w.A.Dispatcher, "%"+w.A.Terminals[0]+"%"); n != 1 {
			t.Fatalf("log 103 entries %d", n)
		}
	})
}

func TestOfflineTerminalGetsItAtNextLogin(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine, 1)
		msID := w.A.Terminals[0]
		var ids []string
		for _, text := range []string{"first", "second", "third"} {
			reply := w.ConsoleA.ReplyTo(w.ConsoleA.Request("sms.send", map[string]any{"msId": msID, "content": text}))
			if reply.Code != "4" || !strings.Contains(reply.Msg, "not online") {
				t.Fatalf("offline terminal: %+v", reply)
			}
			ev := w.ConsoleA.WaitEvent("sms.status", 5*time.Second, nil)
			var st status
			ev.Into(t, &st)
			if st.State != "pending" || st.Delivered != 0 {
				t.Fatalf("status %+v", st)
			}
			ids = append(ids, st.ID)
		}
		term := testkit.Terminal(t, w.URL, msID, testkit.Password)
		for i, text := range []string{"first", "second", "third"} {
			req := term.WaitEvent("sms.deliver", 5*time.Second, nil)
			var d deliver
			req.Into(t, &d)
			if d.Content != text || d.ID != ids[i] {
				t.Fatalf("pending %d: %+v", i, d)
			}
			term.Reply(req, "0", nil)
			ev := w.ConsoleA.WaitEvent("sms.status", 5*time.Second, nil)
			var st status
			ev.Into(t, &st)
			if st.ID != ids[i] || st.State != "delivered" {
				t.Fatalf("status after login %+v", st)
			}
		}
		testkit.Eventually(t, 5*time.Second, "all delivered", func() bool {
			return w.Count(`SELECT COUNT(*) FROM message_recipients WHERE account_id = ? AND delivered_at = 0`, msID) == 0
		})
		// Nothing is delivered twice on the next login.
		term.Close()
		testkit.Eventually(t, 5*time.Second, "offline", func() bool { return !w.Hub.Online(msID) })
		term = testkit.Terminal(t, w.URL, msID, testkit.Password)
		if f := term.Call("ping", nil); f.Type != "pong" || len(term.Events) != 0 {
			t.Fatalf("redelivered: %+v %+v", f, term.Events)
		}
	})
}

func TestUnacknowledgedMessageTimesOutAndStaysPending(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine, 1)
		w.Hub.SetAckTimeout(150 * time.Millisecond)
		msID := w.A.Terminals[0]
		term := testkit.Terminal(t, w.URL, msID, testkit.Password)

		id := w.ConsoleA.Request("sms.send", map[string]any{"msId": msID, "content": "are you there?"})
		term.WaitEvent("sms.deliver", 5*time.Second, nil) // never acknowledged
		if reply := w.ConsoleA.ReplyTo(id); reply.Code != "408" {
			t.Fatalf("timeout reply %+v", reply)
		}
		w.Hub.SetAckTimeout(5 * time.Second)
		id = w.ConsoleA.Request("sms.send", map[string]any{"msId": msID, "content": "refused"})
		req := term.WaitEvent("sms.deliver", 5*time.Second, nil)
		term.Reply(req, "3", nil)
		if reply := w.ConsoleA.ReplyTo(id); reply.Code != "16" {
			t.Fatalf("refused reply %+v", reply)
		}
		// The next login gets both again.
		term.Close()
		testkit.Eventually(t, 5*time.Second, "offline", func() bool { return !w.Hub.Online(msID) })
		w.Hub.SetAckTimeout(5 * time.Second)
		term = testkit.Terminal(t, w.URL, msID, testkit.Password)
		for _, want := range []string{"are you there?", "refused"} {
			req := term.WaitEvent("sms.deliver", 5*time.Second, nil)
			var d deliver
			req.Into(t, &d)
			if d.Content != want {
				t.Fatalf("redelivery %q, want %q", d.Content, want)
			}
			term.Reply(req, "0", nil)
		}
		testkit.Eventually(t, 5*time.Second, "delivered", func() bool {
			return w.Count(`SELECT COUNT(*) FROM messages WHERE delivered = TRUE`) == 2
		})
	})
}

func TestGroupMessageCountsAndLaterDelivery(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine, 3)
		w.Hub.SetAckTimeout(300 * time.Millisecond)
		t0 := testkit.Terminal(t, w.URL, w.A.Terminals[0], testkit.Password)
		t1 := testkit.Terminal(t, w.URL, w.A.Terminals[1], testkit.Password) // online, never acknowledges
		// Terminals[2] is offline; the dispatcher is a member too but is no recipient.

		id := w.ConsoleA.Request("sms.send", map[string]any{"gid": w.A.Groups[0], "content": "all units: report"})
		req := t0.WaitEvent("sms.deliver", 5*time.Second, nil)
		var d deliver
		req.Into(t, &d)
		if d.GID == "" || d.Content != "all units: report" {
			t.Fatalf("group deliver %+v", d)
		}
		t0.Reply(req, "0", nil)
		t1.WaitEvent("sms.deliver", 5*time.Second, nil)

		reply := w.ConsoleA.ReplyTo(id)
		var res result
		reply.Into(t, &res)
		if reply.Code != "0" || res.Recipients != 3 || res.Online != 2 || res.Delivered != 1 || res.State != "partial" {
			t.Fatalf("group reply %+v %+v", reply, res)
		}
		w.Hub.SetAckTimeout(5 * time.Second)
		t2 := testkit.Terminal(t, w.URL, w.A.Terminals[2], testkit.Password)
		req = t2.WaitEvent("sms.deliver", 5*time.Second, nil)
		t2.Reply(req, "0", nil)
		ev := w.ConsoleA.WaitEvent("sms.status", 5*time.Second, func(f testkit.Frame) bool {
			return strings.Contains(string(f.Data), `"delivered":2`)
		})
		var st status
		ev.Into(t, &st)
		if st.State != "partial" || st.GID == "" || st.Recipients != 3 {
			t.Fatalf("status %+v", st)
		}
		if n := w.Count(`SELECT COUNT(*) FROM message_recipients WHERE account_id = ?`, w.A.Dispatcher); n != 0 {
			t.Fatal("the dispatcher was made a recipient")
		}
	})
}

func TestSendRefusesBadInputAndStoresNothing(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine, 1)
		msID := w.A.Terminals[0]
		cases := []struct {
			name string
			data map[string]any
			code string
		}{
			{"empty", map[string]any{"msId": msID, "content": ""}, "11"},
			{"blank", map[string]any{"msId": msID, "content": " \n "}, "11"},
			{"missing content", map[string]any{"msId": msID}, "11"},
			{"control character", map[string]any{"msId": msID, "content": "ring\u0007"}, "10"},
			{"bidi override", map[string]any{"msId": msID, "content": "abc\u202edef"}, "10"},
			{"replacement character", map[string]any{"msId": msID, "content": "x\ufffd"}, "10"},
			{"too long", map[string]any{"msId": msID, "content": strings.Repeat("a", 1001)}, "400"},
			{"content not a string", map[string]any{"msId": msID, "content": 5}, "400"},
			{"no target", map[string]any{"content": "hi"}, "400"},
			{"both targets", map[string]any{"msId": msID, "gid": w.A.Groups[0], "content": "hi"}, "400"},
			{"bad gid", map[string]any{"gid": "abc", "content": "hi"}, "400"},
			{"unknown terminal", map[string]any{"msId": "19999999", "content": "hi"}, "404"},
			{"other customer's terminal", map[string]any{"msId": w.B.Terminals[0], "content": "hi"}, "404"},
			{"other customer's group", map[string]any{"gid": w.B.Groups[0], "content": "hi"}, "404"},
			{"a dispatcher", map[string]any{"msId": w.A.Dispatcher, "content": "hi"}, "404"},
			{"unknown group", map[string]any{"gid": 99999, "content": "hi"}, "404"},
		}
		for _, tc := range cases {
			if reply := w.ConsoleA.ReplyTo(w.ConsoleA.Request("sms.send", tc.data)); reply.Code != tc.code {
				t.Errorf("%s: %+v, want code %s", tc.name, reply, tc.code)
			}
		}
		if n := w.Count(`SELECT COUNT(*) FROM messages`); n != 0 {
			t.Fatalf("%d messages stored from bad input", n)
		}
		if n := w.Count(`SELECT COUNT(*) FROM oplog WHERE type = 103`); n != 0 {
			t.Fatal("bad input logged")
		}
		// Numeric ids are accepted like strings.
		if reply := w.ConsoleA.ReplyTo(w.ConsoleA.Request("sms.send", map[string]any{"gid": w.A.Groups[0], "content": "ok"})); reply.Code != "0" {
			t.Fatalf("numeric gid: %+v", reply)
		}
	})
}

func TestTerminalWritesOnlyToDispatchersAndGroups(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine, 2)
		term := testkit.Terminal(t, w.URL, w.A.Terminals[0], testkit.Password)
		if reply := term.ReplyTo(term.Request("sms.send", map[string]any{"msId": w.A.Terminals[1], "content": "hi"})); reply.Code != "404" {
			t.Fatalf("terminal sms.send to a terminal: %+v", reply)
		}
	})
}

func TestOtherCustomerSeesNoStatus(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine, 1)
		other := w.Console(w.B.Dispatcher, w.B.Customer)
		w.ConsoleA.ReplyTo(w.ConsoleA.Request("sms.send", map[string]any{"msId": w.A.Terminals[0], "content": "private"}))
		w.ConsoleA.WaitEvent("sms.status", 5*time.Second, nil)
		if f := other.Call("ping", nil); f.Type != "pong" {
			t.Fatal(f)
		}
		for _, e := range other.Events {
			if e.Type == "sms.status" || strings.Contains(string(e.Data), "private") {
				t.Fatalf("other customer received %+v", e)
			}
		}
		// Nor on sync.
		f := other.Call("sync", map[string]any{"after": 0})
		for _, e := range other.Events {
			if e.Type == "sms.status" {
				t.Fatalf("other customer replayed %+v", e)
			}
		}
		if f.Code != "0" {
			t.Fatal(f)
		}
	})
}
