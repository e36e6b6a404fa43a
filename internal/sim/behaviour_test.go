package sim_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// fakeServer is a socket endpoint a test scripts by hand: it accepts one terminal's login, answers its
// routine requests, and hands every frame it receives to the test.
type fakeServer struct {
	t      *testing.T
	url    string
	ws     chan *websocket.Conn
	frames chan testkit.Frame
}

func newFakeServer(t *testing.T) *fakeServer {
	fs := &fakeServer{t: t, ws: make(chan *websocket.Conn, 4), frames: make(chan testkit.Frame, 256)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		ctx := context.Background()
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var f testkit.Frame
			_ = json.Unmarshal(b, &f)
			var data any = struct{}{}
			switch f.Type {
			case "session.login":
				var l struct {
					UID string `json:"uid"`
				}
				_ = json.Unmarshal(f.Data, &l)
				data = map[string]any{"msId": l.UID, "customerId": 1, "protocol": 1}
				fs.ws <- ws
			case "group.list":
				data = map[string]any{"groups": []map[string]string{{"gid": "1", "name": "One"}, {"gid": "2", "name": "Two"}},
					"pttGroup": "1", "gId": "1"}
			case "call.list":
				data = map[string]any{"calls": []any{}}
			}
			if f.ID != 0 {
				raw, _ := json.Marshal(data)
				out, _ := json.Marshal(testkit.Frame{Re: f.ID, Type: f.Type, Code: "0", Data: raw})
				_ = ws.Write(ctx, websocket.MessageText, out)
			}
			fs.frames <- f
		}
	}))
	t.Cleanup(srv.Close)
	fs.url = srv.URL
	return fs
}

func (fs *fakeServer) conn() *websocket.Conn {
	select {
	case ws := <-fs.ws:
		return ws
	case <-time.After(10 * time.Second):
		fs.t.Fatal("the terminal did not log in")
		return nil
	}
}

// send writes a server→terminal frame.
func (fs *fakeServer) send(ws *websocket.Conn, f testkit.Frame) {
	fs.t.Helper()
	b, _ := json.Marshal(f)
	if err := ws.Write(context.Background(), websocket.MessageText, b); err != nil {
		fs.t.Fatal(err)
	}
}

// ask sends a server→terminal request and returns the terminal's reply code.
func (fs *fakeServer) ask(ws *websocket.Conn, id int64, typ string, data any) string {
	fs.t.Helper()
	raw, _ := json.Marshal(data)
	fs.send(ws, testkit.Frame{ID: id, Type: typ, Data: raw})
	return fs.await(func(f testkit.Frame) bool { return f.Re == id }, 5*time.Second).Code
}

// await returns the first frame from the terminal matching fn.
func (fs *fakeServer) await(fn func(testkit.Frame) bool, timeout time.Duration) testkit.Frame {
	fs.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case f := <-fs.frames:
			if fn(f) {
				return f
			}
		case <-deadline:
			fs.t.Fatal("timed out waiting for a frame from the terminal")
			return testkit.Frame{}
		}
	}
}

// TestTerminalObeys scripts the server side: remote control, messages, tones, SOS stop, lone-worker checks
// and monitoring requests are answered the way docs/terminal-protocol.md says a terminal answers them.
func TestTerminalObeys(t *testing.T) {
	fs := newFakeServer(t)
	rates := sim.Quiet
	rates.AnswerShare, rates.AnswerDelay = 1, time.Second // every message is answered, within a second
	f := testkit.RunFleet(t, sim.Options{URL: fs.url, Seed: 1, Rates: rates, GPSInterval: time.Minute,
		Accounts: []sim.Account{{ID: "30000001", Password: "123456", Type: "6"}}})
	ws := fs.conn()
	term := f.Terminal("30000001")
	testkit.Eventually(t, 5*time.Second, "the talk group from group.list", func() bool { return term.PttGroup() == "1" })

	cases := []struct {
		typ  string
		data any
		code string
		then func() bool
	}{
		{"call.set", map[string]any{"status": 1, "by": "10000001"}, "0", func() bool { return term.CallSet() == 1 }},
		{"call.set", map[string]any{"status": "8"}, "0", func() bool { return term.CallSet() == 8 }},
		{"call.set", map[string]any{"status": 9}, "400", func() bool { return term.CallSet() == 8 }},
		{"group.switch", map[string]any{"gid": "2", "name": "Two", "from": "1", "by": "10000001"}, "0",
			func() bool { return term.PttGroup() == "2" }},
		{"sms.deliver", map[string]any{"id": "1", "from": "10000001", "content": "Return to base", "time": 1}, "0",
			func() bool { return term.Inbox() == 1 }},
		{"sos.stop", map[string]any{"id": "4", "by": "10000001"}, "0", nil},
		{"sms.deliver", map[string]any{"id": "1", "content": "Return to base"}, "0", // a repeat: not shown twice
			func() bool { return term.Inbox() == 1 }},
		{"tone.play", map[string]any{"toneId": "3", "name": "Evacuate"}, "0", nil},
		{"turn.config", map[string]any{"iceServers": []any{}}, "400", func() bool { return term.TURNServers() == 0 }},
		{"turn.config", map[string]any{"iceServers": []any{map[string]any{"urls": []string{"turn:127.0.0.1:3478?transport=udp"},
			"username": "1:30000001", "credential": "c"}}}, "0", func() bool { return term.TURNServers() == 1 }},
		{"video.start", map[string]any{"id": "1"}, "400", nil},          // unknown to this terminal: refused
		{"monitor.start", map[string]any{"by": "10000001"}, "486", nil}, // no media connection open: busy
	}
	for i, c := range cases {
		if code := fs.ask(ws, int64(100+i), c.typ, c.data); code != c.code {
			t.Errorf("%s %v: code %q, want %q", c.typ, c.data, code, c.code)
		}
		if c.then != nil && !c.then() {
			t.Errorf("%s %v: not applied", c.typ, c.data)
		}
	}
	// The message is answered, to its sender.
	answer := fs.await(func(f testkit.Frame) bool { return f.Type == "sms.send" }, 5*time.Second)
	var a struct{ To, Content string }
	if json.Unmarshal(answer.Data, &a) != nil || a.To != "10000001" || a.Content == "" {
		t.Errorf("answer %s", answer.Data)
	}
	// An event it does not know changes nothing.
	fs.send(ws, testkit.Frame{Type: "something.new", Data: json.RawMessage(`{"x":1}`)})
	// key.changed: the customer's secret key is kept until the next one; an empty one clears it (ADR 0021).
	fs.send(ws, testkit.Frame{Type: "key.changed", Data: json.RawMessage(`{"keyId":"3","secretKey":"3FJ9T0QW6ZP2XK8M4RB7N1CDV5HL9YSE"}`)})
	testkit.Eventually(t, 5*time.Second, "the secret key kept", func() bool { return term.SecretKey() == "3FJ9T0QW6ZP2XK8M4RB7N1CDV5HL9YSE" })
	fs.send(ws, testkit.Frame{Type: "key.changed", Data: json.RawMessage(`{"keyId":"","secretKey":""}`)})
	testkit.Eventually(t, 5*time.Second, "the secret key cleared", func() bool { return term.SecretKey() == "" })

	// param.set: positions every second from now on.
	if code := fs.ask(ws, 200, "param.set", map[string]any{"params": map[string]string{"gpsInterval": "1s"},
		"seconds": map[string]int{"gpsInterval": 1}}); code != "0" {
		t.Fatalf("param.set: %s", code)
	}
	isGPS := func(f testkit.Frame) bool { return f.Type == "gps.report" }
	first := fs.await(isGPS, 3*time.Second)
	second := fs.await(isGPS, 3*time.Second)
	var p1, p2 struct {
		Lat, Lng float64
		Time     int64
	}
	_ = json.Unmarshal(first.Data, &p1)
	_ = json.Unmarshal(second.Data, &p2)
	if gap := p2.Time - p1.Time; gap < 900 || gap > 1100 {
		t.Errorf("positions %d ms apart after gpsInterval 1s", gap)
	}
	if p1.Lat < 40.9 || p1.Lat > 41.2 || p1.Lng < 28.8 || p1.Lng > 29.2 {
		t.Errorf("position %v,%v is not in Istanbul", p1.Lat, p1.Lng)
	}
	// param.get: the intervals it runs now, the one just set and its defaults.
	fs.send(ws, testkit.Frame{ID: 201, Type: "param.get", Data: json.RawMessage(`{}`)})
	got := fs.await(func(f testkit.Frame) bool { return f.Re == 201 }, 5*time.Second)
	if got.Code != "0" || string(got.Data) != `{"params":{"gpsInterval":"1s","heartbeat":"1m","statusInterval":"1m"}}` {
		t.Errorf("param.get: %s %s", got.Code, got.Data)
	}

	// lonework.check: acknowledged at once, checked in a few seconds later (this fleet never forgets).
	if code := fs.ask(ws, 300, "lonework.check", map[string]any{"workId": 5, "countdown": 8, "deadline": 0}); code != "0" {
		t.Fatalf("lonework.check: %s", code)
	}
	in := fs.await(func(f testkit.Frame) bool { return f.Type == "lonework.checkin" }, 10*time.Second)
	if string(in.Data) != `{"workId":"5"}` {
		t.Errorf("check-in %s", in.Data)
	}
}

// TestMain: every simulated terminal the fleet provisions make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
