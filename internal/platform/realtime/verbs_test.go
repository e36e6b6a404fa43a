package realtime

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tenfour/internal/testkit/probe"
)

type echoReq struct {
	N int    `json:"n"`
	S string `json:"s"`
}

func TestVerbsGuardDecodeAndReply(t *testing.T) {
	r := newRig(t)
	echo := func(_ context.Context, c *Conn, req echoReq) (any, error) {
		return map[string]any{"n": req.N, "s": req.S, "kind": c.Kind()}, nil
	}
	r.hub.Register(
		On("test.console", ConsoleOnly, echo),
		On("test.terminal", TerminalOnly, echo),
		On("test.any", Anyone, echo),
	)
	con := r.login("1001", 1, Console, "tok")
	term := r.login("1002", 1, Terminal, "")
	for _, tc := range []struct {
		c        *probe.Socket
		typ      string
		data     any
		code     string
		contains string
	}{
		{con, "test.console", map[string]any{"n": 1, "s": "a"}, "0", `"kind":"console"`},
		{term, "test.console", map[string]any{"n": 1}, "107", ""},
		{term, "test.terminal", map[string]any{"n": 2}, "0", `"n":2`},
		{con, "test.terminal", map[string]any{}, "107", ""},
		{con, "test.any", nil, "0", `"n":0`},
		{term, "test.any", map[string]any{"n": "x"}, "400", ""},
		// the role guard runs before decoding: a terminal's malformed console request is still a 107
		{term, "test.console", map[string]any{"n": "x"}, "107", ""},
		// durable events are the consoles': a terminal may not replay them
		{term, "sync", map[string]any{"after": 0}, "107", ""},
		{con, "sync", map[string]any{"after": 0}, "0", `"more":false`},
	} {
		f := tc.c.Call(tc.typ, tc.data)
		if f.Code != tc.code || !strings.Contains(string(f.Data), tc.contains) {
			t.Errorf("%s %v: %+v, want code %s", tc.typ, tc.data, f, tc.code)
		}
		if tc.code == "400" && !strings.Contains(f.Msg, "n") {
			t.Errorf("%s: the 400 does not name the field: %q", tc.typ, f.Msg)
		}
	}
}

func TestVerbsIndexAndUndeclaredMessages(t *testing.T) {
	r := newRig(t)
	noop := func(context.Context, *Conn, struct{}) (any, error) { return struct{}{}, nil }
	r.hub.Register(On("test.ask", Anyone, noop), Event("test.news", ConsoleOnly), Ask("test.ask", TerminalOnly))
	var got []string
	for _, v := range r.hub.Verbs() {
		got = append(got, fmt.Sprintf("%s|%s|%s", v.Type, v.Dir, v.Role))
	}
	want := []string{
		"ping|client → server request|console, terminal",
		"session.login|client → server request|console, terminal",
		"session.replaced|server → client event|console, terminal",
		"sync|client → server request|console",
		"test.ask|client → server request|console, terminal",
		"test.ask|server → client request|terminal",
		"test.news|server → client event|console",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("index:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, bad := range []Verb{Event("test.news", Anyone), On("ping", Anyone, noop), Event("bad type", Anyone)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%+v) accepted", bad)
				}
			}()
			r.hub.Register(bad)
		}()
	}

	con := r.login("1001", 1, Console, "tok")
	term := r.login("1002", 1, Terminal, "")
	r.hub.Publish(1, "test.news", map[string]int{}, Consoles) // declared
	con.WaitEvent("test.news", 5*time.Second, nil)
	if u := r.hub.Undeclared(); len(u) != 0 {
		t.Fatalf("declared event noted: %v", u)
	}
	r.hub.Publish(1, "test.news", map[string]int{}, Everyone) // declared for consoles only
	r.hub.SendTo("1002", "test.other", nil)                   // not declared at all
	term.WaitEvent("test.other", 5*time.Second, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = r.hub.Conn("1001").Request(ctx, "test.ask", nil) // declared for terminals only
	want = []string{
		"test.ask (server → client request) to a console",
		"test.news (server → client event) to a terminal",
		"test.other (server → client event) to a terminal",
	}
	if got := r.hub.Undeclared(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("undeclared %q, want %q", got, want)
	}
}

// A handler that answers early (Answer) has its reply on the wire before an event it sends after, and its return
// value is not sent as a second reply; one that does not is answered when it returns, after that event — the
// order that let a floor revocation overtake its grant (internal/call, docs/reliability.md finding 9).
func TestAnswerOrdersTheReplyBeforeLaterEvents(t *testing.T) {
	r := newRig(t)
	r.hub.Register(
		On("test.early", Anyone, func(ctx context.Context, c *Conn, _ struct{}) (any, error) {
			if !Answer(ctx, map[string]any{"v": "early"}, nil) {
				t.Error("the first Answer of a socket request was not written")
			}
			if Answer(ctx, map[string]any{"v": "twice"}, nil) {
				t.Error("a request was answered twice")
			}
			_ = c.Send("test.after", map[string]any{})
			return map[string]any{"v": "returned"}, nil
		}),
		On("test.late", Anyone, func(ctx context.Context, c *Conn, _ struct{}) (any, error) {
			_ = c.Send("test.after", map[string]any{})
			return map[string]any{"v": "returned"}, nil
		}),
		Event("test.after", Anyone),
	)
	if Answer(context.Background(), nil, nil) {
		t.Fatal("Answer outside a socket handler wrote something")
	}
	con := r.login("1001", 1, Console, "tok")
	for _, tc := range []struct {
		typ   string
		order string // the frames as they arrived
	}{
		{"test.early", `reply {"v":"early"}, test.after`},
		{"test.late", `test.after, reply {"v":"returned"}`},
	} {
		id := con.Request(tc.typ, nil)
		var got []string
		for len(got) < 2 {
			f := con.Read(wait)
			if f.Re == id {
				got = append(got, "reply "+string(f.Data))
			} else if f.Type == "test.after" {
				got = append(got, f.Type)
			}
		}
		if strings.Join(got, ", ") != tc.order {
			t.Errorf("%s: frames %q, want %s", tc.typ, got, tc.order)
		}
		if f, err := con.TryRead(200 * time.Millisecond); err == nil {
			t.Errorf("%s: a frame more: %+v", tc.typ, f)
		}
	}
}
