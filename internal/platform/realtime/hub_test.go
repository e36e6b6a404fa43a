package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/testkit/probe"
)

func TestRequestsBeforeLoginAreRefused(t *testing.T) {
	r := newRig(t)
	r.hub.Register(OnRaw("echo.it", Anyone, func(ctx context.Context, c *Conn, data json.RawMessage) (any, error) { return data, nil }))
	c := r.dial()
	for _, typ := range []string{"echo.it", "sync", "nothing.here"} {
		if f := c.Call(typ, map[string]any{"after": 0}); f.Code != "105" || f.Type != typ {
			t.Fatalf("%s before login: %+v", typ, f)
		}
	}
	// ping needs no login, and the connection is still usable for one.
	c.Send(probe.Frame{ID: 50, Type: "ping"})
	if f := c.ReplyTo(50); f.Type != "pong" {
		t.Fatalf("ping: %+v", f)
	}
	if f := c.Call("session.login", map[string]any{"uid": "1001", "customer": 1}); f.Code != "0" {
		t.Fatalf("login after refused requests: %+v", f)
	}
	if f := c.Call("echo.it", map[string]any{"x": 1}); f.Code != "0" || string(f.Data) != `{"x":1}` {
		t.Fatalf("echo after login: %+v", f)
	}
}

func TestLoginReply(t *testing.T) {
	r := newRig(t)
	c := r.dial()
	f := c.Call("session.login", map[string]any{"uid": "1001", "customer": 1, "kind": Terminal})
	var res struct {
		MsID       string `json:"msId"`
		CustomerID int64  `json:"customerId"`
		Kind       Kind   `json:"kind"`
		Protocol   int    `json:"protocol"`
		ServerTime int64  `json:"serverTime"`
	}
	if err := json.Unmarshal(f.Data, &res); err != nil || f.Code != "0" {
		t.Fatalf("login: %+v %v", f, err)
	}
	if res.MsID != "1001" || res.CustomerID != 1 || res.Kind != Terminal || res.Protocol != 1 || res.ServerTime == 0 {
		t.Fatalf("login reply %+v", res)
	}
	// A second login on the same connection is refused without closing it.
	if f := c.Call("session.login", map[string]any{"uid": "1002", "customer": 1}); f.Code != "400" {
		t.Fatalf("second login: %+v", f)
	}
	if f := c.Call("ping", nil); f.Type != "pong" {
		t.Fatalf("after second login: %+v", f)
	}
	if r.hub.Conn("1001") == nil || r.hub.Online("1002") {
		t.Fatal("the first login must stay the connection's account")
	}
}

func TestLoginRefusalReachesClientThenCloses(t *testing.T) {
	r := newRig(t)
	c := r.dial()
	f := c.Call("session.login", map[string]any{"fail": "105"})
	if f.Code != "105" || f.Type != "session.login" {
		t.Fatalf("refused login: %+v", f)
	}
	if code := c.CloseStatus(10 * time.Second); code != websocket.StatusPolicyViolation {
		t.Fatalf("close code %d", code)
	}
}

func TestLoginTimeoutClosesIdleConnections(t *testing.T) {
	r := newRig(t)
	r.hub.loginTimeout = 150 * time.Millisecond
	idle := r.dial()
	logged := r.login("1001", 1, Console, "t1")
	if code := idle.CloseStatus(10 * time.Second); code != websocket.StatusPolicyViolation {
		t.Fatalf("idle close code %d", code)
	}
	// The logged-in connection outlives the window.
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		if f := logged.Call("ping", nil); f.Type != "pong" {
			t.Fatalf("logged-in ping: %+v", f)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestUnknownType(t *testing.T) {
	r := newRig(t)
	c := r.login("1001", 1, Console, "t")
	f := c.Call("no.such.thing", nil)
	if f.Code != "400" || f.Re == 0 || f.Type != "no.such.thing" {
		t.Fatalf("unknown type: %+v", f)
	}
	if f.Msg == "" || f.Key != "errors.unknownType" {
		t.Fatalf("unknown type: %+v", f)
	}
}

func TestMalformedFramesGetCodedErrorsAndConnectionStays(t *testing.T) {
	r := newRig(t)
	c := r.login("1001", 1, Console, "t")
	cases := []struct {
		raw    string
		wantRe int64
	}{
		{`not json`, 0},
		{`[1,2,3]`, 0},
		{`null`, 0},
		{`"text"`, 0},
		{`{"id":"7","type":"ping"}`, 0},
		{`{"id":3,"type":"bad type"}`, 3},
		{`{"id":4,"type":"a.b","data":[1]}`, 4},
		{`{"id":5,"type":"a.b","data":"x"}`, 5},
		{`{"id":6,"type":""}`, 6},
		{`{"id":8,"type":"` + strings.Repeat("a", 65) + `"}`, 8},
		{`{"id":-1,"type":"a.b"}`, 0},
		{`{"id":9,"type":"a..b"}`, 9},
		{`{"id":10,"type":"1a"}`, 10},
		{`{"id":11,"type":"a.b"`, 0},
		{`{"id":12,"type":"a.b","data":{"x":}}`, 0},
	}
	for _, tc := range cases {
		c.SendRaw([]byte(tc.raw))
		f := c.Read(5 * time.Second)
		if f.Type != "error" || f.Code != "400" || f.Re != tc.wantRe {
			t.Fatalf("%s: got %+v", tc.raw, f)
		}
	}
	// Still logged in and served.
	if f := c.Call("ping", nil); f.Type != "pong" {
		t.Fatalf("after malformed frames: %+v", f)
	}
	if f := c.Call("sync", map[string]any{"after": 0}); f.Code != "0" {
		t.Fatalf("sync after malformed frames: %+v", f)
	}
}

func TestMessageCap(t *testing.T) {
	r := newRig(t)
	r.hub.Register(OnRaw("size.of", Anyone, func(ctx context.Context, c *Conn, data json.RawMessage) (any, error) {
		return map[string]int{"n": len(data)}, nil
	}))
	c := r.login("1001", 1, Console, "t")
	frame := func(size int) []byte {
		head, tail := `{"id":1,"type":"size.of","data":{"pad":"`, `"}}`
		return []byte(head + strings.Repeat("x", size-len(head)-len(tail)) + tail)
	}
	c.SendRaw(frame(MaxMessage))
	if f := c.ReplyTo(1); f.Code != "0" {
		t.Fatalf("a frame of exactly 64 KiB must pass: %+v", f)
	}
	c.SendRaw(frame(MaxMessage + 1))
	if code := c.CloseStatus(10 * time.Second); code != websocket.StatusMessageTooBig {
		t.Fatalf("oversized frame: close code %d", code)
	}
}

func TestRateLimit(t *testing.T) {
	r := newRig(t)
	c := r.login("1001", 1, Console, "t")
	const n = QueueLen - 6 // replies to a flood larger than the queue would drop the client as slow
	for i := 1; i <= n; i++ {
		c.Send(probe.Frame{ID: int64(i), Type: "ping"})
	}
	limited, ok := 0, 0
	for i := 1; i <= n; i++ {
		f := c.ReplyTo(int64(i))
		switch {
		case f.Type == "pong":
			ok++
		case f.Code == "429":
			limited++
		default:
			t.Fatalf("reply %d: %+v", i, f)
		}
	}
	// The burst passes (the login took one token); what comes faster than 50/s after it is refused.
	if ok < RateBurst-1 || limited < n-RateBurst-RatePerSecond {
		t.Fatalf("ok %d limited %d", ok, limited)
	}
}

func TestOriginAllowlist(t *testing.T) {
	r := newRig(t, "console.example.com")
	host := strings.TrimPrefix(r.srv.URL, "http://")
	for _, tc := range []struct {
		origin string
		ok     bool
	}{
		{"", true}, // terminals send no Origin
		{"http://" + host, true},
		{"https://console.example.com", true},
		{"https://evil.example.net", false},
		{"https://console.example.com.evil.net", false},
	} {
		h := http.Header{}
		if tc.origin != "" {
			h.Set("Origin", tc.origin)
		}
		ws, err := probe.TryDial(t, r.url, probe.Options{Header: h})
		if tc.ok != (err == nil) {
			t.Fatalf("origin %q: err %v", tc.origin, err)
		}
		if err != nil && !strings.Contains(err.Error(), "403") {
			t.Fatalf("origin %q: want 403, got %v", tc.origin, err)
		}
		if ws != nil {
			ws.CloseNow()
		}
	}
}

func TestOrderedDelivery(t *testing.T) {
	r := newRig(t)
	c := r.login("1001", 1, Console, "t")
	const n = QueueLen - 10
	for i := range n {
		if i%2 == 0 {
			r.hub.Publish(1, "test.tick", map[string]int{"i": i}, Everyone)
		} else {
			r.hub.SendTo("1001", "test.tick", map[string]int{"i": i})
		}
	}
	for i := range n {
		f := c.Read(5 * time.Second)
		var d struct{ I int }
		_ = json.Unmarshal(f.Data, &d)
		if f.Type != "test.tick" || d.I != i {
			t.Fatalf("frame %d: %+v", i, f)
		}
	}
}

// firstEvent: the first frame s reads is the event typ.
func firstEvent(t *testing.T, who string, s *probe.Socket, typ string) {
	t.Helper()
	if f := s.Read(5 * time.Second); f.Type != typ {
		t.Fatalf("%s got %+v first, want %s", who, f, typ)
	}
}

// nothingMore: no other event reached the sockets (a ping is answered next).
func nothingMore(t *testing.T, socks ...*probe.Socket) {
	t.Helper()
	for _, s := range socks {
		if f := s.Call("ping", nil); f.Type != "pong" {
			t.Fatalf("leaked event: %+v", f)
		}
	}
}

func TestPublishIsScopedToCustomerAndFilter(t *testing.T) {
	r := newRig(t)
	a := r.login("1001", 1, Console, "t")
	term := r.login("1002", 1, Terminal, "")
	other := r.login("2001", 2, Console, "u")
	r.hub.Publish(1, "test.one", map[string]int{"v": 1}, Consoles)
	r.hub.Publish(2, "test.two", map[string]int{"v": 2}, Everyone)
	r.hub.Publish(1, "test.three", map[string]int{"v": 3}, Terminals)
	firstEvent(t, "the console", a, "test.one")
	firstEvent(t, "the other customer's console", other, "test.two")
	firstEvent(t, "the terminal", term, "test.three")
	nothingMore(t, a, other)
	if got := r.hub.Accounts(1); len(got) != 2 {
		t.Fatalf("accounts %v", got)
	}
}

// A call's events reach every console and the audience's terminals, and no other terminal, by account and
// never across customers.
func TestPublishToConsolesAndAudience(t *testing.T) {
	r := newRig(t)
	console := r.login("1001", 1, Console, "t")
	member := r.login("1002", 1, Terminal, "")
	outsider := r.login("1003", 1, Terminal, "")
	foreign := r.login("2002", 2, Terminal, "")
	r.hub.Publish(1, "test.call", map[string]int{"v": 1}, ConsolesAnd(map[string]bool{"1002": true, "2002": true}))
	r.hub.Publish(1, "test.where", map[string]int{"v": 2}, Where(func(c *Conn) bool { return c.Principal().AccountID == "1003" }))
	firstEvent(t, "the console", console, "test.call")
	firstEvent(t, "the audience's terminal", member, "test.call")
	firstEvent(t, "the terminal outside the audience", outsider, "test.where")
	nothingMore(t, console, member, foreign)
}

// A console that falls behind by more than its queue (a login storm's presence frames) keeps its connection
// and receives every frame in order. (A console behind by more than ConsoleSpillBytes is dropped: see
// TestSlowConsumerIsDroppedWhileOthersKeepReceiving.)
func TestConsoleSpillsInOrder(t *testing.T) {
	r := newRig(t)
	console := r.login("1001", 1, Console, "a")
	conn := r.hub.Conn("1001")
	const n = QueueLen * 8
	for i := range n { // nobody reads meanwhile
		r.hub.Publish(1, "test.tick", map[string]int{"i": i}, Consoles)
	}
	r.hub.SendTo("1001", "test.last", map[string]int{"i": n})
	for i := 0; i <= n; i++ {
		f := console.Read(10 * time.Second)
		var d struct{ I int }
		_ = json.Unmarshal(f.Data, &d)
		if d.I != i || (i == n) != (f.Type == "test.last") {
			t.Fatalf("console frame %d: %s %+v", i, f.Type, d)
		}
	}
	select {
	case <-conn.Done():
		t.Fatal("console dropped")
	default:
	}
}

func TestSlowConsumerIsDroppedWhileOthersKeepReceiving(t *testing.T) {
	r := newRig(t)
	slow := r.login("1001", 1, Console, "a")
	slow.Stall()
	fast := r.login("1002", 1, Console, "b")
	slowConn := r.hub.Conn("1001")

	var got atomic.Int64
	readerDone := make(chan error, 1)
	go func() {
		for want := int64(0); ; want++ {
			f, err := fast.TryRead(10 * time.Second)
			if err != nil {
				readerDone <- err
				return
			}
			var d struct{ I int64 }
			_ = json.Unmarshal(f.Data, &d)
			if f.Type == "test.stop" {
				readerDone <- nil
				return
			}
			if d.I != want {
				readerDone <- fmt.Errorf("fast client: frame %d, want %d", d.I, want)
				return
			}
			got.Store(want + 1)
		}
	}()

	// The slow client never reads. Publish until the hub drops it, pacing on the fast client only: if the
	// hub ever waited for the slow one, this loop could not finish.
	pad := strings.Repeat("p", 16<<10)
	deadline := time.Now().Add(20 * time.Second)
	var sent int64
	for ; ; sent++ {
		select {
		case <-slowConn.Done():
		default:
			if time.Now().After(deadline) {
				t.Fatalf("slow consumer still connected after %d events", sent)
			}
			for got.Load() < sent-64 {
				select {
				case err := <-readerDone:
					t.Fatalf("fast client stopped: %v", err)
				default:
				}
				time.Sleep(50 * time.Microsecond)
			}
			start := time.Now()
			r.hub.Publish(1, "test.tick", map[string]any{"i": sent, "pad": pad}, Everyone)
			if d := time.Since(start); d > time.Second {
				t.Fatalf("Publish blocked for %v", d)
			}
			continue
		}
		break
	}
	// Dropped: the slow client reads again, so the server's closing handshake (bounded by a timeout) finishes.
	slow.Resume()
	r.hub.Publish(1, "test.stop", map[string]any{}, Everyone)
	if err := <-readerDone; err != nil {
		t.Fatal(err)
	}
	if got.Load() != sent {
		t.Fatalf("fast client got %d of %d", got.Load(), sent)
	}
	if code := slow.CloseStatus(10 * time.Second); code != CloseSlow {
		t.Fatalf("slow close code %d", code)
	}
	// What the slow client did receive is an in-order prefix.
	received := slow.Drain()
	for i, f := range received {
		var d struct{ I int }
		_ = json.Unmarshal(f.Data, &d)
		if d.I != i {
			t.Fatalf("slow client frame %d carries %d", i, d.I)
		}
	}
	if len(received) >= int(sent) {
		t.Fatalf("slow client got everything (%d)", len(received))
	}
	probe.Eventually(t, wait, "slow connection unregistered", func() bool { return !r.hub.Online("1001") })
	if f := fast.Call("ping", nil); f.Type != "pong" {
		t.Fatalf("fast client after: %+v", f)
	}
}

// A durable event the store cannot take (its table gone, as when the database restarts under a write) still
// reaches the clients connected now, live and without a sequence number; the caller gets the error.
func TestDurableEventThatCannotBeStoredIsSentLive(t *testing.T) {
	r := newRig(t)
	c := r.login("1001", 1, Console, "t")
	if _, err := r.db.Exec(context.Background(), `ALTER TABLE events RENAME TO events_away`); err != nil {
		t.Fatal(err)
	}
	if _, err := r.hub.PublishDurable(context.Background(), 1, "test.durable", map[string]int{"i": 7}, Consoles); err == nil {
		t.Fatal("no error from an event that was not stored")
	}
	f := c.WaitEvent("test.durable", wait, nil)
	if f.Seq != 0 || string(f.Data) != `{"i":7}` {
		t.Fatalf("live event %+v", f)
	}
}

func TestDurableEventsReplayAfterReconnect(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	c := r.login("1001", 1, Console, "t")
	var last int64
	for i := range 5 {
		seq, err := r.hub.PublishDurable(ctx, 1, "test.durable", map[string]int{"i": i}, Consoles)
		if err != nil {
			t.Fatal(err)
		}
		f := c.WaitEvent("test.durable", wait, nil)
		if f.Seq != seq {
			t.Fatalf("event seq %d, want %d", f.Seq, seq)
		}
		last = f.Seq
	}
	c.Close()
	probe.Eventually(t, wait, "logout", func() bool { return !r.hub.Online("1001") })

	// Away: more than a replay page and more than a live queue's worth, plus another customer's events.
	const away = 3*QueueLen + 17
	var want []int64
	for i := range away {
		seq, err := r.hub.PublishDurable(ctx, 1, "test.durable", map[string]int{"i": 5 + i}, Consoles)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.hub.PublishDurable(ctx, 2, "test.other", map[string]int{"i": i}, Everyone); err != nil {
			t.Fatal(err)
		}
		want = append(want, seq)
	}

	c = r.login("1001", 1, Console, "t")
	syncID := c.Request("sync", json.RawMessage(fmt.Sprintf(`{"after":%d}`, last)))
	var gotSeqs []int64
	for {
		f := c.Read(5 * time.Second)
		if f.Re == syncID {
			var res struct {
				Last int64 `json:"last"`
				More bool  `json:"more"`
			}
			_ = json.Unmarshal(f.Data, &res)
			if f.Code != "0" || res.Last != want[len(want)-1] || res.More {
				t.Fatalf("sync reply %+v", f)
			}
			break
		}
		if f.Type != "test.durable" {
			t.Fatalf("replayed %+v", f)
		}
		var d struct{ I int }
		_ = json.Unmarshal(f.Data, &d)
		if d.I != 5+len(gotSeqs) {
			t.Fatalf("replayed frame %d carries %d", len(gotSeqs), d.I)
		}
		gotSeqs = append(gotSeqs, f.Seq)
	}
	if fmt.Sprint(gotSeqs) != fmt.Sprint(want) {
		t.Fatalf("replayed %d seqs, want %d (nothing lost, in order)", len(gotSeqs), len(want))
	}
	if !r.hub.Online("1001") {
		t.Fatal("a long replay must not drop the client as slow")
	}
	if f := c.Call("sync", map[string]any{"after": -1}); f.Code != "400" {
		t.Fatalf("negative after: %+v", f)
	}
	if f := c.Call("sync", map[string]any{}); f.Code != "400" {
		t.Fatalf("missing after: %+v", f)
	}
}

func TestServerRequest(t *testing.T) {
	r := newRig(t)
	term := r.login("1002", 1, Terminal, "")
	type result struct {
		data json.RawMessage
		err  error
	}
	ask := func(ctx context.Context) chan result {
		ch := make(chan result, 1)
		go func() {
			d, err := r.hub.Request(ctx, "1002", "test.ask", map[string]string{"q": "?"})
			ch <- result{d, err}
		}()
		return ch
	}

	t.Run("ack", func(t *testing.T) {
		ch := ask(context.Background())
		req := term.WaitEvent("test.ask", wait, nil)
		if req.ID == 0 || string(req.Data) != `{"q":"?"}` {
			t.Fatalf("request frame %+v", req)
		}
		term.Send(probe.Frame{Re: req.ID, Type: req.Type, Code: "0", Data: json.RawMessage(`{"a":1}`)})
		res := <-ch
		if res.err != nil || string(res.data) != `{"a":1}` {
			t.Fatalf("ack: %s %v", res.data, res.err)
		}
	})
	t.Run("refused", func(t *testing.T) {
		ch := ask(context.Background())
		req := term.WaitEvent("test.ask", wait, nil)
		term.Send(probe.Frame{Re: req.ID, Type: req.Type, Code: "16", Msg: "busy"})
		res := <-ch
		if e, _ := httpx.AsError(res.err); e.Code != "16" {
			t.Fatalf("refused: %v", res.err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		ch := ask(ctx)
		req := term.WaitEvent("test.ask", wait, nil)
		res := <-ch
		if !errors.Is(res.err, ErrTimeout) {
			t.Fatalf("timeout: %v", res.err)
		}
		// A late acknowledgement, and a duplicate, are ignored without wedging the connection.
		term.Send(probe.Frame{Re: req.ID, Type: req.Type, Code: "0"})
		term.Send(probe.Frame{Re: req.ID, Type: req.Type, Code: "0"})
		if f := term.Call("ping", nil); f.Type != "pong" {
			t.Fatalf("after late ack: %+v", f)
		}
	})
	t.Run("duplicate replies", func(t *testing.T) {
		ch := ask(context.Background())
		req := term.WaitEvent("test.ask", wait, nil)
		for range 3 {
			term.Send(probe.Frame{Re: req.ID, Type: req.Type, Code: "0"})
		}
		if res := <-ch; res.err != nil {
			t.Fatal(res.err)
		}
		if f := term.Call("ping", nil); f.Type != "pong" {
			t.Fatalf("after duplicates: %+v", f)
		}
	})
	t.Run("offline", func(t *testing.T) {
		if _, err := r.hub.Request(context.Background(), "nobody", "test.ask", nil); !errors.Is(err, ErrNotOnline) {
			t.Fatalf("offline: %v", err)
		}
	})
	t.Run("disconnect", func(t *testing.T) {
		ch := ask(context.Background())
		term.WaitEvent("test.ask", wait, nil)
		term.Close()
		if res := <-ch; !errors.Is(res.err, ErrNotOnline) {
			t.Fatalf("disconnect: %v", res.err)
		}
	})
}

func TestRepeatLoginReplacesOldConnection(t *testing.T) {
	r := newRig(t)
	var log hookLog
	r.hub.SetHooks(Hooks{
		OnLogin: func(ctx context.Context, c *Conn, replaced bool) {
			log.add(fmt.Sprintf("in %s %v", c.Principal().AccountID, replaced))
		},
		OnLogout: func(ctx context.Context, c *Conn, replaced bool) {
			log.add(fmt.Sprintf("out %s %v", c.Principal().AccountID, replaced))
		},
	})
	first := r.login("1002", 1, Terminal, "")
	firstConn := r.hub.Conn("1002")
	before := time.Now().UnixMilli()
	second := r.login("1002", 1, Terminal, "")
	// The replaced session learns where and when the new login came from (the console says so on its login page).
	var by Replaced
	if f := first.WaitEvent("session.replaced", wait, nil); json.Unmarshal(f.Data, &by) != nil || by.MsID != "1002" ||
		by.IP != "127.0.0.1" || by.Time < before || by.Time > time.Now().UnixMilli() {
		t.Fatalf("replaced event %+v: %+v", f, by)
	}
	if code := first.CloseStatus(10 * time.Second); code != CloseReplaced {
		t.Fatalf("old connection close code %d", code)
	}
	probe.Eventually(t, wait, "logout hook", func() bool { return len(log.list()) == 3 })
	// The new connection's login hook and the replaced one's logout hook run on different connections' loops:
	// either may come first.
	if got := log.list(); got[0] != "in 1002 false" || !slices.Contains(got, "in 1002 true") || !slices.Contains(got, "out 1002 true") {
		t.Fatalf("hooks %s", got)
	}
	if c := r.hub.Conn("1002"); c == nil || c == firstConn {
		t.Fatal("the new connection must be the account's")
	}
	r.hub.Publish(1, "test.x", map[string]int{}, Everyone)
	if f := second.WaitEvent("test.x", wait, nil); f.Type != "test.x" {
		t.Fatal(f)
	}
	second.Close()
	probe.Eventually(t, wait, "final logout", func() bool { return len(log.list()) == 4 })
	if got := log.list()[3]; got != "out 1002 false" {
		t.Fatalf("last hook %s", got)
	}
	if r.hub.Online("1002") {
		t.Fatal("still online")
	}
}

func TestConsoleOfAnotherSignInReplacesSameSignInJoins(t *testing.T) {
	r := newRig(t)
	var log hookLog
	r.hub.OnLogin(func(ctx context.Context, c *Conn, replaced bool) { log.add(fmt.Sprintf("in %v", replaced)) })
	r.hub.OnLogout(func(ctx context.Context, c *Conn, replaced bool) { log.add(fmt.Sprintf("out %v", replaced)) })
	w1 := r.login("1001", 1, Console, "tokA")
	w2 := r.login("1001", 1, Console, "tokA") // a second window of the same sign-in
	r.hub.Publish(1, "test.both", map[string]int{}, Everyone)
	w1.WaitEvent("test.both", wait, nil)
	w2.WaitEvent("test.both", wait, nil)
	if got := fmt.Sprint(log.list()); got != "[in false]" {
		t.Fatalf("hooks after second window %s", got)
	}
	if !r.hub.SendTo("1001", "test.direct", map[string]int{}) {
		t.Fatal("SendTo")
	}
	w1.WaitEvent("test.direct", wait, nil)
	w2.WaitEvent("test.direct", wait, nil)

	other := r.login("1001", 1, Console, "tokB") // another device
	for _, w := range []*probe.Socket{w1, w2} {
		w.WaitEvent("session.replaced", wait, nil)
		if code := w.CloseStatus(10 * time.Second); code != CloseReplaced {
			t.Fatalf("window close code %d", code)
		}
	}
	probe.Eventually(t, wait, "hooks", func() bool { return len(log.list()) == 4 })
	if got := fmt.Sprint(log.list()); got != "[in false in true out true out true]" {
		t.Fatalf("hooks %s", got)
	}
	if f := other.Call("ping", nil); f.Type != "pong" {
		t.Fatal(f)
	}
}

func TestHooksAccumulate(t *testing.T) {
	r := newRig(t)
	var log hookLog
	r.hub.SetHooks(Hooks{OnLogin: func(ctx context.Context, c *Conn, _ bool) { log.add("a") }})
	r.hub.OnLogin(func(ctx context.Context, c *Conn, _ bool) { log.add("b") })
	r.hub.SetHooks(Hooks{OnLogin: func(ctx context.Context, c *Conn, _ bool) { log.add("c") }})
	r.login("1001", 1, Console, "t")
	if got := strings.Join(log.list(), ""); got != "abc" {
		t.Fatalf("hooks ran %q", got)
	}
}

func TestInflightCapAndHandlerPanic(t *testing.T) {
	r := newRig(t)
	release := make(chan struct{})
	var started atomic.Int64
	r.hub.Register(OnRaw("test.block", Anyone, func(ctx context.Context, c *Conn, data json.RawMessage) (any, error) {
		started.Add(1)
		<-release
		return nil, nil
	}))
	r.hub.Register(OnRaw("test.panic", Anyone, func(ctx context.Context, c *Conn, data json.RawMessage) (any, error) {
		panic("boom")
	}))
	c := r.login("1001", 1, Console, "t")
	const n = MaxInflight + 8
	for i := 1; i <= n; i++ {
		c.Send(probe.Frame{ID: int64(i), Type: "test.block"})
	}
	probe.Eventually(t, wait, "handlers started", func() bool { return started.Load() == MaxInflight })
	limited := 0
	for range n - MaxInflight {
		f := c.Read(5 * time.Second)
		if f.Code != "429" {
			t.Fatalf("over the in-flight cap: %+v", f)
		}
		limited++
	}
	close(release)
	for range MaxInflight {
		if f := c.Read(5 * time.Second); f.Code != "0" {
			t.Fatalf("released: %+v", f)
		}
	}
	if f := c.Call("test.panic", nil); f.Code != "500" {
		t.Fatalf("panic: %+v", f)
	}
	if f := c.Call("ping", nil); f.Type != "pong" {
		t.Fatalf("after panic: %+v", f)
	}
}

func TestHandlerOutlivesItsConnection(t *testing.T) {
	r := newRig(t)
	release := make(chan struct{})
	finished := make(chan error, 1)
	r.hub.Register(OnRaw("test.slow", Anyone, func(ctx context.Context, c *Conn, data json.RawMessage) (any, error) {
		<-release
		finished <- ctx.Err() // the store write after a relay must not fail because the console left
		return nil, nil
	}))
	c := r.login("1001", 1, Console, "t")
	c.Send(probe.Frame{ID: 1, Type: "test.slow"})
	probe.Eventually(t, wait, "handler running", func() bool { return len(r.hub.Accounts(1)) == 1 })
	c.Close()
	probe.Eventually(t, wait, "logout", func() bool { return !r.hub.Online("1001") })
	close(release)
	if err := <-finished; err != nil {
		t.Fatalf("handler context ended with the connection: %v", err)
	}
}

func TestCloseAllIsGraceful(t *testing.T) {
	r := newRig(t)
	var outs atomic.Int64
	r.hub.OnLogout(func(ctx context.Context, c *Conn, replaced bool) { outs.Add(1) })
	clients := []*probe.Socket{r.login("1001", 1, Console, "t"), r.login("1002", 1, Terminal, ""), r.dial()}
	r.hub.CloseAll()
	for i, c := range clients {
		if code := c.CloseStatus(10 * time.Second); code != websocket.StatusGoingAway {
			t.Fatalf("client %d close code %d", i, code)
		}
	}
	done := make(chan struct{})
	go func() { r.hub.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not return after CloseAll")
	}
	if outs.Load() != 2 {
		t.Fatalf("logout hooks %d", outs.Load())
	}
	if _, err := probe.TryDial(t, r.url, probe.Options{}); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("dial after CloseAll: %v", err)
	}
}

func TestHandleRejectsReservedTypes(t *testing.T) {
	h := NewHub(nil, nil)
	for _, typ := range []string{"session.login", "ping", "sync", "bad type", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Handle(%q) accepted", typ)
				}
			}()
			h.Handle(typ, func(context.Context, *Conn, json.RawMessage) (any, error) { return nil, nil })
		}()
	}
}

func TestConcurrentPublishersAndLogins(t *testing.T) {
	// Races between fan-out, logins, replacements and closes (run with -race).
	r := newRig(t)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				r.hub.Publish(1, "test.noise", map[string]int{}, Consoles)
				r.hub.SendTo("1001", "test.noise", map[string]int{})
				_ = r.hub.Accounts(1)
				time.Sleep(500 * time.Microsecond) // enough to race, not enough to outrun the clients' readers
			}
		}
	}()
	for i := range 10 {
		c := r.login("1001", 1, Console, fmt.Sprintf("tok%d", i%3))
		if i%2 == 0 {
			c.CloseNow()
		}
	}
	close(stop)
	wg.Wait()
}

func TestLoginTakesTokenFromURLOrCookie(t *testing.T) {
	r := newRig(t)
	for _, tc := range []struct {
		name, query, cookie, body, want string
	}{
		{"url", "?token=fromurl", "", "", "fromurl"},
		{"cookie", "", "fromcookie", "", "fromcookie"},
		{"payload wins", "?token=fromurl", "", "frombody", "frombody"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.cookie != "" {
				h.Set("Cookie", "token="+tc.cookie)
			}
			c := probe.Dial(t, r.url+tc.query, probe.Options{Header: h})
			uid := "tok-" + tc.name
			data := map[string]any{"uid": uid, "customer": 1}
			if tc.body != "" {
				data["token"] = tc.body
			}
			if f := c.Call("session.login", data); f.Code != "0" {
				t.Fatal(f)
			}
			if got := r.hub.Conn(uid).Principal().Token; got != tc.want {
				t.Fatalf("token %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNothingIsServedAfterARefusedLogin(t *testing.T) {
	r := newRig(t)
	c := r.dial()
	// A burst of attempts on one connection: only the first is examined. The server may have closed the
	// connection before the later ones are written.
	c.Send(probe.Frame{ID: 1, Type: "session.login", Data: json.RawMessage(`{"fail":"2"}`)})
	_ = c.TrySend(probe.Frame{ID: 2, Type: "session.login", Data: json.RawMessage(`{"uid":"1001","customer":1}`)})
	_ = c.TrySend(probe.Frame{ID: 3, Type: "ping"})
	if f := c.ReplyTo(1); f.Code != "2" {
		t.Fatal(f)
	}
	if code := c.CloseStatus(10 * time.Second); code != websocket.StatusPolicyViolation {
		t.Fatalf("close %d", code)
	}
	for _, f := range c.Drain() {
		if f.Re == 2 || f.Re == 3 {
			t.Fatalf("served after a refused login: %+v", f)
		}
	}
	if r.hub.Online("1001") {
		t.Fatal("the second attempt logged in")
	}
}

// The login reply carries the customer's newest durable seq, so a console that has seen no event yet still
// knows where `sync` must start after a reconnect; another customer's events do not move it.
func TestLoginReplyCarriesLastSeq(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	var want int64
	for i := range 3 {
		seq, err := r.hub.PublishDurable(ctx, 1, "test.durable", map[string]int{"i": i}, Consoles)
		if err != nil {
			t.Fatal(err)
		}
		want = seq
		if _, err := r.hub.PublishDurable(ctx, 2, "test.other", map[string]int{"i": i}, Everyone); err != nil {
			t.Fatal(err)
		}
	}
	c := r.dial()
	f := c.Call("session.login", map[string]any{"uid": "1001", "customer": 1, "kind": Console, "token": "t"})
	var reply struct {
		LastSeq int64 `json:"lastSeq"`
	}
	if err := json.Unmarshal(f.Data, &reply); err != nil || f.Code != "0" {
		t.Fatalf("login reply %+v: %v", f, err)
	}
	if reply.LastSeq != want {
		t.Fatalf("lastSeq %d, want %d (customer 1's newest event)", reply.LastSeq, want)
	}
}

// CloseSessions closes exactly the logged-in connections whose principal the session owner names, with 4001;
// the others keep serving.
func TestCloseSessionsClosesOnlyTheMatchingConnections(t *testing.T) {
	r := newRig(t)
	a1 := r.login("1001", 1, Console, "ta")
	a2 := r.login("1001", 1, Console, "ta") // a second window of the same sign-in
	b := r.login("1002", 1, Console, "tb")
	term := r.login("2001", 1, Terminal, "tt")
	if n := r.hub.CloseSessions(func(p identity.Principal) bool { return p.Token == "ta" }); n != 2 {
		t.Fatalf("closed %d connections, want 2", n)
	}
	for _, c := range []*probe.Socket{a1, a2} {
		if code := c.CloseStatus(wait); code != CloseSessionEnded {
			t.Errorf("closed with %d, want %d", code, CloseSessionEnded)
		}
	}
	for _, c := range []*probe.Socket{b, term} {
		if f := c.Call("ping", nil); f.Type != "pong" {
			t.Errorf("an unmatched connection stopped answering: %+v", f)
		}
	}
}
