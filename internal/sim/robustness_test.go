package sim_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/config"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/testkit"
)

// rawTerminal is a terminal's raw socket (testkit.RawSocket), its messages read as frames.
type rawTerminal struct {
	*testkit.RawSocket
	t testing.TB
}

func dialRaw(t testing.TB, s *testkit.Server) *rawTerminal {
	t.Helper()
	return &rawTerminal{RawSocket: testkit.DialRaw(t, wsclient.URL(s.URL)), t: t}
}

// dialRawKept is dialRaw for a connection that outlives the test (a fuzz run's; the server closes it).
func dialRawKept(t testing.TB, s *testkit.Server) *rawTerminal {
	t.Helper()
	return &rawTerminal{RawSocket: testkit.DialRawKept(t, wsclient.URL(s.URL)), t: t}
}

func (r *rawTerminal) text(s string) {
	r.t.Helper()
	if err := r.Send(websocket.MessageText, []byte(s)); err != nil {
		r.t.Fatal(err)
	}
}

// next reads the next frame.
func (r *rawTerminal) next(timeout time.Duration) (testkit.Frame, error) {
	var f testkit.Frame
	b, err := r.Read(timeout)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("server sent a non-JSON frame %q", b)
	}
	return f, nil
}

// reply reads frames until the one answering id (or, for id 0, the first reply or error frame), skipping
// events; it fails on a "500" anywhere.
func (r *rawTerminal) reply(id int64) testkit.Frame {
	r.t.Helper()
	for {
		f, err := r.next(5 * time.Second)
		if err != nil {
			r.t.Fatalf("waiting for the reply to %d: %v", id, err)
		}
		if f.Code == "500" {
			r.t.Fatalf("internal error: %+v", f)
		}
		if id != 0 && f.Re == id || id == 0 && (f.Re != 0 || f.Type == "error" || f.Code != "") {
			return f
		}
	}
}

// alive checks the connection still answers (an application-level ping with an id).
func (r *rawTerminal) alive(id int64) {
	r.t.Helper()
	r.text(fmt.Sprintf(`{"id":%d,"type":"ping"}`, id))
	if f := r.reply(id); f.Type != "pong" {
		r.t.Fatalf("ping %d: %+v", id, f)
	}
}

// TestTerminalGarbage sends garbage, oversized and out-of-order messages from a terminal over a real socket:
// each gets a coded error (never a 500), nothing crashes, and the terminal still works afterwards.
func TestTerminalGarbage(t *testing.T) {
	s := demoServer(t)
	r := dialRaw(t, s)

	// Before login.
	before := []struct {
		name, frame, code string
		id                int64
	}{
		{"not JSON", `hello`, "400", 0},
		{"truncated JSON", `{"id":5,"type":"gps.re`, "400", 0},
		{"JSON array", `[1,2,3]`, "400", 0},
		{"JSON null", `null`, "400", 0},
		{"malformed type", `{"id":2,"type":"../etc/passwd"}`, "400", 2},
		{"empty type", `{"id":3,"type":""}`, "400", 3},
		{"type too long", `{"id":4,"type":"` + strings.Repeat("a", 100) + `"}`, "400", 4},
		{"data not an object", `{"id":6,"type":"gps.report","data":[1]}`, "400", 6},
		{"request before login", `{"id":7,"type":"gps.report","data":{"lat":41,"lng":29}}`, "105", 7},
		{"SOS before login", `{"id":8,"type":"sos.raise","data":{}}`, "105", 8},
		{"floor before login", `{"id":9,"type":"floor.request","data":{}}`, "105", 9},
		// Too deep to parse at all, so its id cannot be read back either: the error comes without `re`.
		{"deeply nested data", `{"id":10,"type":"gps.report","data":` + strings.Repeat(`{"a":`, 10500) + "1" + strings.Repeat("}", 10500) + `}`, "400", 0},
	}
	for _, c := range before {
		r.text(c.frame)
		f := r.reply(c.id)
		if f.Code != c.code {
			t.Errorf("%s: code %q (%s), want %s", c.name, f.Code, f.Msg, c.code)
		}
	}
	// A reply to a request the server never sent, and a negative id: ignored, not fatal.
	r.text(`{"re":424242,"type":"call.set","code":"0"}`)
	r.text(`{"id":-3,"type":"ping"}`)
	if f := r.reply(0); f.Code != "400" {
		t.Errorf("negative id: %+v", f)
	}
	r.alive(11)

	// Login, then everything a confused or hostile terminal might send.
	r.text(`{"id":20,"type":"session.login","data":{"client":"terminal","uid":"10000101","auth":"123456"}}`)
	if f := r.reply(20); f.Code != "0" {
		t.Fatalf("login: %+v", f)
	}
	after := []struct {
		name, frame string
		id          int64
		codes       string // acceptable codes, comma-separated
	}{
		{"second login", `{"id":21,"type":"session.login","data":{"client":"terminal","uid":"10000102","auth":"123456"}}`, 21, "400"},
		{"unknown type", `{"id":22,"type":"foo.bar","data":{}}`, 22, "400"},
		{"position not a number", `{"id":23,"type":"gps.report","data":{"lat":"north","lng":29}}`, 23, "400"},
		{"latitude out of range", `{"id":24,"type":"gps.report","data":{"lat":95,"lng":29}}`, 24, "400"},
		{"no position", `{"id":25,"type":"gps.report","data":{}}`, 25, "400"},
		{"empty batch", `{"id":26,"type":"gps.report","data":{"points":[]}}`, 26, "400"},
		{"batch of garbage", `{"id":27,"type":"gps.report","data":{"points":[{"lat":"x"},{"lng":1}]}}`, 27, "400"},
		{"fix from the future", fmt.Sprintf(`{"id":28,"type":"gps.report","data":{"lat":41,"lng":29,"time":%d}}`, time.Now().Add(24*time.Hour).UnixMilli()), 28, "400"},
		{"battery 150", `{"id":29,"type":"status.report","data":{"battery":150}}`, 29, "400"},
		{"status without values", `{"id":30,"type":"status.report","data":{}}`, 30, "400"},
		{"SOS at nowhere", `{"id":31,"type":"sos.raise","data":{"lat":"x","lng":"y"}}`, 31, "400"},
		{"SOS type garbage", `{"id":32,"type":"sos.raise","data":{"type":"<script>"}}`, 32, "400"},
		{"cancel no alarm", `{"id":33,"type":"sos.cancel","data":{"id":"abc"}}`, 33, "400"},
		{"switch to a word", `{"id":34,"type":"group.switch","data":{"gid":"abc"}}`, 34, "400"},
		{"switch to an unknown group", `{"id":35,"type":"group.switch","data":{"gid":"999999"}}`, 35, "404"},
		{"switch another terminal", `{"id":36,"type":"group.switch","data":{"gid":"1","msId":"10000102"}}`, 36, "107,404,24"},
		{"check in garbage", `{"id":37,"type":"lonework.checkin","data":{"workId":"x"}}`, 37, "400"},
		{"floor without media", `{"id":38,"type":"floor.request","data":{}}`, 38, "502"},
		{"floor of an unknown call", `{"id":39,"type":"floor.request","data":{"callId":"nope"}}`, 39, "404,502"},
		{"answer an unknown call", `{"id":40,"type":"call.status","data":{"callId":"nope","status":200}}`, 40, "503"}, // spec §4 503 noSessionId (internal/call status.go)
		{"garbage SDP", `{"id":41,"type":"rtc.offer","data":{"type":"offer","sdp":"v=garbage"}}`, 41, "400"},
		// Accepted: a candidate may come before the offer, and the server creates the peer on first use.
		{"candidate before the offer", `{"id":42,"type":"rtc.candidate","data":{"candidate":"garbage"}}`, 42, "0,400"},
		{"SMS to another terminal", `{"id":43,"type":"sms.send","data":{"to":"10000102","content":"hi"}}`, 43, "404"},
		{"SMS with a control character", "{\"id\":50,\"type\":\"sms.send\",\"data\":{\"content\":\"a\\u0007b\"}}", 50, "10"},
		{"terminal stuns another", `{"id":44,"type":"call.set","data":{"msId":"10000102","status":1}}`, 44, "107"},
		{"terminal sets params", `{"id":45,"type":"param.set","data":{"msId":"10000102","params":{"gpsInterval":"1s"}}}`, 45, "107"},
		{"terminal makes a temp group", `{"id":46,"type":"tempGroup.create","data":{"name":"x","msIds":["10000102"]}}`, 46, "107"},
		{"sync (the consoles' durable events)", `{"id":47,"type":"sync","data":{"after":0}}`, 47, "107"},
		{"wrong field types", `{"id":48,"type":"call.invite","data":{"kind":7,"msId":[1]}}`, 48, "400"},
		{"a binary-looking string", "{\"id\":49,\"type\":\"gps.report\",\"data\":{\"lat\":\"\\u0000\\u0001\",\"lng\":1}}", 49, "400"},
	}
	for _, c := range after {
		r.text(c.frame)
		f := r.reply(c.id)
		if !strings.Contains(","+c.codes+",", ","+f.Code+",") {
			t.Errorf("%s: code %q (%s), want one of %s", c.name, f.Code, f.Msg, c.codes)
		}
	}
	// A binary message is read like text.
	if err := r.Send(websocket.MessageBinary, []byte(`{"id":60,"type":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	if f := r.reply(60); f.Type != "pong" {
		t.Errorf("binary ping: %+v", f)
	}
	// A flood: the rate limit answers 429 and the connection survives.
	for i := range 150 {
		r.text(fmt.Sprintf(`{"id":%d,"type":"status.report","data":{"battery":50}}`, 100+i))
	}
	limited, answered := 0, map[int64]bool{}
	for len(answered) < 150 { // handlers run concurrently: replies come in any order
		f := r.reply(0)
		if f.Re < 100 || f.Re >= 250 || answered[f.Re] {
			t.Fatalf("flood: unexpected %+v", f)
		}
		answered[f.Re] = true
		if f.Code == "429" {
			limited++
		} else if f.Code != "0" {
			t.Errorf("flood %d: %+v", f.Re, f)
		}
	}
	if limited == 0 {
		t.Error("150 requests at once were all accepted: no rate limit")
	}
	// The terminal still works: a good position is accepted (after the limiter refills).
	deadline := time.Now().Add(5 * time.Second)
	for id := int64(300); ; id++ {
		r.text(fmt.Sprintf(`{"id":%d,"type":"gps.report","data":{"lat":41.02,"lng":28.97}}`, id))
		f := r.reply(id)
		if f.Code == "0" {
			break
		}
		if f.Code != "429" || time.Now().After(deadline) {
			t.Fatalf("good report after the garbage: %+v", f)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Oversized: the server closes that connection (1009) and serves the next one.
	r.text(`{"id":400,"type":"gps.report","data":{"pad":"` + strings.Repeat("x", 70<<10) + `"}}`)
	var closeErr error
	for closeErr == nil {
		_, closeErr = r.next(5 * time.Second)
	}
	if st := websocket.CloseStatus(closeErr); st != websocket.StatusMessageTooBig {
		t.Errorf("oversized frame: closed with %v (%v), want 1009", st, closeErr)
	}
	r2 := dialRaw(t, s)
	r2.text(`{"id":1,"type":"session.login","data":{"client":"terminal","uid":"10000101","auth":"123456"}}`)
	if f := r2.reply(1); f.Code != "0" {
		t.Fatalf("login after the oversized frame: %+v", f)
	}
	r2.alive(2)

	// A wrong password: coded refusal, then the server closes the connection.
	r3 := dialRaw(t, s)
	r3.text(`{"id":1,"type":"session.login","data":{"client":"terminal","uid":"10000103","auth":"999999"}}`)
	if f := r3.reply(1); f.Code != "2" {
		t.Errorf("wrong password: %+v", f)
	}
	if _, err := r3.next(5 * time.Second); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Errorf("after a refused login: %v, want a policy-violation close", err)
	}
}

// FuzzTerminalFrame sends arbitrary bytes as one message from a logged-in terminal over a real socket: the
// server must answer with codes other than 500 and keep the connection (or close it with a protocol code).
// The realtime package's FuzzDecodeFrame covers the frame decoder alone; this covers every handler behind it.
func FuzzTerminalFrame(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"type":"gps.report","data":{"lat":41,"lng":29,"speed":3,"direction":90,"time":0}}`,
		`{"id":1,"type":"gps.report","data":{"points":[{"lat":41,"lng":29},{"lat":"41.1","lng":"29.1"}]}}`,
		`{"id":1,"type":"status.report","data":{"battery":"55","signal":3}}`,
		`{"id":1,"type":"sos.raise","data":{"lat":41000000,"lng":29000000,"type":"1"}}`,
		`{"id":1,"type":"sos.cancel","data":{"id":1}}`,
		`{"id":1,"type":"group.switch","data":{"gid":1}}`,
		`{"id":1,"type":"group.list"}`,
		`{"id":1,"type":"lonework.checkin","data":{"workId":7}}`,
		`{"id":1,"type":"lonework.get"}`,
		`{"id":1,"type":"floor.request","data":{"gid":"1","queue":true}}`,
		`{"id":1,"type":"floor.release","data":{"callId":""}}`,
		`{"id":1,"type":"call.status","data":{"callId":"x","status":180}}`,
		`{"id":1,"type":"call.list"}`,
		`{"id":1,"type":"rtc.config"}`,
		`{"id":1,"type":"sync","data":{"after":0}}`,
		`{"re":99,"type":"call.set","code":"0","data":{}}`,
		`{"id":1,"type":"session.login","data":{"client":"console","token":"x"}}`,
		`{"id":1e400,"type":"ping"}`,
		`{"id":"1","type":"ping"}`,
		"\x00\xff\xfe",
		``,
	} {
		f.Add([]byte(seed))
	}
	fz := &fuzzTerminal{s: testkit.Start(f, func(c *config.Config) {
		c.Demo = true
		testkit.LoopbackMedia(c)
	})}
	f.Cleanup(func() { // before the server stops: nobody reads this connection to finish a close handshake
		if fz.r != nil {
			fz.r.CloseNow()
		}
	})
	f.Fuzz(func(t *testing.T, msg []byte) { fz.one(t, msg) })
}

// fuzzTerminal keeps one logged-in terminal connection across fuzz inputs (a login costs a password hash).
type fuzzTerminal struct {
	s    *testkit.Server
	r    *rawTerminal
	ping int64
}

func (fz *fuzzTerminal) one(t *testing.T, msg []byte) {
	if fz.r == nil {
		fz.r = dialRawKept(t, fz.s)
		fz.r.text(`{"id":1,"type":"session.login","data":{"client":"terminal","uid":"10000101","auth":"123456"}}`)
		if f := fz.r.reply(1); f.Code != "0" {
			t.Fatalf("login: %+v", f)
		}
	}
	r := fz.r
	r.t = t
	fz.ping++
	id := int64(1)<<50 + fz.ping // never an id the input uses
	err := r.Send(websocket.MessageText, msg)
	if err == nil {
		err = r.Send(websocket.MessageText, []byte(fmt.Sprintf(`{"id":%d,"type":"ping"}`, id)))
	}
	for err == nil {
		var f testkit.Frame
		if f, err = r.next(10 * time.Second); err != nil {
			break
		}
		if f.Code == "500" {
			t.Fatalf("input %q: internal error %+v", msg, f)
		}
		if f.Re == id {
			return // still connected and answering
		}
	}
	// The server closed the connection: only for an oversized frame (1009) or a policy reason (1008).
	fz.r.CloseNow()
	fz.r = nil
	switch websocket.CloseStatus(err) {
	case websocket.StatusMessageTooBig, websocket.StatusPolicyViolation:
	default:
		t.Fatalf("input %q: connection ended: %v", msg, err)
	}
}
