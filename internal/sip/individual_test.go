package sip_test

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
	"github.com/pion/sdp/v3"

	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// eachCallWorld runs an individual call test on each engine: a SIP world whose media runs on loopback, and 90 s
// for the test (skipped without ffmpeg, which the calls' transcoding needs).
func eachCallWorld(t *testing.T, test func(ctx context.Context, t *testing.T, w *sipWorld)) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg")
	}
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		ctx, w, _ := callWorld(t, engine, 90*time.Second)
		test(ctx, t, w)
	})
}

// dialing has the phone call id in the background; its final status comes on the channel.
func (p *softphone) dialing(id string) <-chan int {
	out := make(chan int, 1)
	go func() { out <- p.call(id) }()
	return out
}

// offeredCall waits for the individual call offered to c (its call.invite) and answers it with statuses (180
// ringing, 200 answer, 486 busy, 603 decline), returning its id.
func offeredCall(ctx context.Context, t *testing.T, c *termclient.Client, statuses ...int) string {
	t.Helper()
	e, err := c.WaitEvent(ctx, "call.invite", nil)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		CallID string `json:"callId"`
	}
	if err := e.Decode(&v); err != nil {
		t.Fatal(err)
	}
	for _, st := range statuses {
		if err := c.Call(ctx, "call.status", map[string]any{"callId": v.CallID, "status": st}, nil); err != nil {
			t.Fatalf("call.status %d: %v", st, err)
		}
	}
	return v.CallID
}

// callState waits for a call.state of callID on c in state (and, when status is not 0, with that status), and
// tells whether it says the call is full duplex.
func callState(ctx context.Context, t *testing.T, c *termclient.Client, callID, state string, status int) (duplex bool) {
	t.Helper()
	_, err := c.WaitEvent(ctx, "call.state", func(e termclient.Event) bool {
		var v struct {
			CallID string `json:"callId"`
			State  string `json:"state"`
			Status int    `json:"status"`
			Duplex bool   `json:"duplex"`
		}
		ok := e.Decode(&v) == nil && v.CallID == callID && v.State == state && (status == 0 || v.Status == status)
		duplex = ok && v.Duplex
		return ok
	})
	if err != nil {
		t.Fatalf("call %s: no state %s (%d): %v", callID, state, status, err)
	}
	return duplex
}

// talkedBy waits for a floor.state of callID on c whose talker is msID.
func talkedBy(ctx context.Context, t *testing.T, c *termclient.Client, callID, msID string) {
	t.Helper()
	if _, err := c.WaitEvent(ctx, "floor.state", func(e termclient.Event) bool {
		s := string(e.Data)
		return strings.Contains(s, `"callId":"`+callID+`"`) && strings.Contains(s, `"msId":"`+msID+`"`)
	}); err != nil {
		t.Fatalf("call %s: %s never held the floor: %v", callID, msID, err)
	}
}

// How the phone talks in talkBothWays.
type talkMode int

const (
	byKeys  talkMode = iota // `*` takes the floor, `#` frees it
	byVoice                 // its voice takes the floor (a far end with no talk keys), the silence after frees it
	onLine                  // a full-duplex call: both talk at once, no floor
)

// talkBothWays checks a connected individual call's audio both ways between the phone and c: c's talk (a tone)
// is heard by the phone above silence, and the phone's second of tone reaches c. byKeys, the phone's `*` gives it
// the floor (c sees it) after c's talk and `#` frees it; byVoice, the phone takes the floor by voice activity with
// two seconds of tone. onLine, c's floor request is granted without changing anything, and both talk at the
// same time: each hears the other while talking.
func talkBothWays(ctx context.Context, t *testing.T, p *softphone, c *termclient.Client, callID string, mode talkMode) {
	t.Helper()
	mark := p.heardCount()
	if r, err := c.RequestFloor(ctx, callID, "", false); err != nil || r.Status != "granted" {
		t.Fatalf("the other party's floor request: %+v %v", r, err)
	}
	before := c.ReceivedCount()
	played := make(chan error, 1)
	go func() { _, err := c.PlayOgg(ctx, toneOgg(t), 1); played <- err }()
	tone := time.Second
	if mode == onLine {
		p.talk(440, tone) // at the same time as c
	}
	if err := <-played; err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "the phone hears the other party", func() bool {
		_, rms := p.heardSince(mark)
		return rms > 1000
	})
	if err := c.ReleaseFloor(ctx, callID); err != nil {
		t.Fatal(err)
	}
	switch mode {
	case byKeys:
		testkit.Eventually(t, 5*time.Second, "the other party's talk fully heard", func() bool { return p.quiet(mark) > 0 })
		p.press('*')
		talkedBy(ctx, t, c, callID, phone)
		before = c.ReceivedCount()
		p.talk(440, tone)
	case byVoice:
		testkit.Eventually(t, 5*time.Second, "the other party's talk fully heard", func() bool { return p.quiet(mark) > 0 })
		tone = 2 * time.Second
		before = c.ReceivedCount()
		p.talk(440, tone)
		talkedBy(ctx, t, c, callID, phone)
	}
	if _, err := c.WaitPackets(ctx, before+100); err != nil {
		t.Fatal(err)
	}
	if n := loudFrames(opusPCM(t, c.Received()[before:])); n < 40 {
		t.Fatalf("the other party heard %d loud frames of the phone's %v of tone, want 40 at least", n, tone)
	}
	if mode == byKeys {
		p.press('#')
	}
}

// A registered phone calls a terminal by its id (INVITE digest-challenged first): it hears 180 while the
// terminal rings and gets 200 when it answers; the call carries audio both ways (half duplex: the talk keys);
// the terminal's hang-up ends it (the phone is free to call again), the phone's BYE too. A declined call is 603,
// a busy answer 486; an unknown id, another customer's and a wrong password's answer are refused (403, 401).
func TestIndividualCallFromPhone(t *testing.T) {
	eachCallWorld(t, func(ctx context.Context, t *testing.T, w *sipWorld) {
		other := w.NewCustomer("Other")
		w.AccountIn(other, "20000001", "10")
		contact := newAnsweringPhone(t, w) // where the server's BYEs go (the phones' Contact)
		c := phoneClient(t)
		if res := w.register(t, c, "UDP", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
			t.Fatalf("REGISTER: %d", res.StatusCode)
		}
		invite := w.request(sip.INVITE, phone, "UDP", terminal)
		res, err := c.Do(ctx, invite)
		if err != nil || res.StatusCode != sip.StatusUnauthorized || res.GetHeader("WWW-Authenticate") == nil {
			t.Fatalf("INVITE without credentials: %v %v, want a 401 challenge", res, err)
		}
		res, err = c.DoDigestAuth(ctx, invite, res, sipgo.DigestAuth{Username: phone, Password: "654321"})
		if err != nil || res.StatusCode != sip.StatusUnauthorized {
			t.Fatalf("INVITE with a wrong password: %v %v, want 401 again", res, err)
		}
		for _, id := range []string{"10009999", "20000001", phone} {
			if code := newSoftphone(t, w).call(id); code != sip.StatusForbidden {
				t.Fatalf("INVITE to %s: %d, want 403", id, code)
			}
		}

		term := w.groupTerminal(ctx, t)
		p := newSoftphone(t, w)
		final := p.dialing(terminal)
		callID := offeredCall(ctx, t, term, 180)
		if err := term.Call(ctx, "call.status", map[string]any{"callId": callID, "status": 200}, nil); err != nil {
			t.Fatal(err)
		}
		if code := <-final; code != sip.StatusOK || !p.rang { // p.rang is the dialing goroutine's, read after it
			t.Fatalf("the answered call: %d (180 first: %v), want 200 after 180", code, p.rang)
		}
		callState(ctx, t, term, callID, "connected", 0)
		talkBothWays(ctx, t, p, term, callID, byKeys)
		if err := term.Call(ctx, "call.bye", map[string]any{"callId": callID}, nil); err != nil {
			t.Fatal(err)
		}
		contact.gotBye(t)
		close(p.stop) // hung up by the other side: no BYE of its own

		for _, tc := range []struct {
			answer, want int
		}{{603, sip.StatusGlobalDecline}, {486, sip.StatusBusyHere}} {
			final := newSoftphone(t, w).dialing(terminal) // the first call's session is gone: not 486 at once
			offeredCall(ctx, t, term, 180, tc.answer)
			if code := <-final; code != tc.want {
				t.Fatalf("a call answered %d: %d, want %d", tc.answer, code, tc.want)
			}
		}

		p = newSoftphone(t, w)
		final = p.dialing(terminal)
		callID = offeredCall(ctx, t, term, 200)
		if code := <-final; code != sip.StatusOK {
			t.Fatalf("the second answered call: %d", code)
		}
		callState(ctx, t, term, callID, "connected", 0)
		p.hangUp()
		callState(ctx, t, term, callID, "ended", 200)
	})
}

// answeringPhone is a registered phone that takes calls: sipgo's server on its own UDP port (the Contact it
// registers, w.contact), answering each INVITE with 180 and then what the test says: 200 with its SDP (the
// softphone's media), or a refusal. Every BYE to that contact is answered 200 and counted (those of calls the
// phone placed too).
type answeringPhone struct {
	*softphone
	answers chan int                        // the next INVITE's final answer
	calls   chan *sipgo.DialogServerSession // answered calls
	byes    chan struct{}                   // a BYE came
}

func newAnsweringPhone(t *testing.T, w *sipWorld) *answeringPhone {
	t.Helper()
	p := &answeringPhone{softphone: newSoftphone(t, w), answers: make(chan int, 1), calls: make(chan *sipgo.DialogServerSession, 1),
		byes: make(chan struct{}, 8)}
	ua, err := sipgo.NewUA(sipgo.WithUserAgent("test-phone-answering"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ua.Close() })
	srv, err := sipgo.NewServer(ua)
	if err != nil {
		t.Fatal(err)
	}
	client, err := sipgo.NewClient(ua, sipgo.WithClientHostname("127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w.contact = conn.LocalAddr().(*net.UDPAddr).Port
	dialogs := sipgo.NewDialogServerCache(client, sip.ContactHeader{Address: sip.Uri{User: phone, Host: "127.0.0.1", Port: w.contact}})
	srv.OnInvite(func(req *sip.Request, tx sip.ServerTransaction) {
		d, err := dialogs.ReadInvite(req, tx)
		if err != nil {
			t.Errorf("the phone's INVITE: %v", err)
			return
		}
		_ = d.Respond(sip.StatusRinging, "Ringing", nil)
		code := <-p.answers
		if code != sip.StatusOK {
			_ = d.Respond(code, "Refused", nil)
			return
		}
		var sd sdp.SessionDescription
		if err := sd.Unmarshal(req.Body()); err != nil {
			t.Errorf("the offer: %v\n%s", err, req.Body())
			return
		}
		md := sd.MediaDescriptions[0]
		p.remote = &net.UDPAddr{IP: net.ParseIP(sd.ConnectionInformation.Address.Address), Port: md.MediaName.Port.Value}
		p.bye = d.Bye
		if err := d.RespondSDP(p.offer()); err != nil {
			t.Errorf("the phone's 200: %v", err)
			return
		}
		go p.send()
		go p.receive()
		p.calls <- d
	})
	srv.OnAck(func(req *sip.Request, tx sip.ServerTransaction) { _ = dialogs.ReadAck(req, tx) })
	srv.OnBye(func(req *sip.Request, tx sip.ServerTransaction) {
		if dialogs.ReadBye(req, tx) != nil { // a call the phone placed (softphone.call's dialog)
			_ = tx.Respond(sip.NewResponseFromRequest(req, sip.StatusOK, "OK", nil))
		}
		p.byes <- struct{}{}
	})
	go func() { _ = srv.ServeUDP(conn) }()
	t.Cleanup(func() { conn.Close() })
	return p
}

// answer has the ringing phone answer callID, which c placed: c sees it answered and acknowledges it, and the
// call is connected; the phone's dialog of it.
func (p *answeringPhone) answer(ctx context.Context, t *testing.T, c *termclient.Client, callID string) *sipgo.DialogServerSession {
	t.Helper()
	p.answers <- sip.StatusOK
	callState(ctx, t, c, callID, "answered", 0)
	if err := c.Call(ctx, "call.ack", map[string]any{"callId": callID}, nil); err != nil {
		t.Fatal(err)
	}
	d := <-p.calls
	if !callState(ctx, t, c, callID, "connected", 0) { // a phone with talk keys and a console
		t.Fatalf("call %s: not full duplex", callID)
	}
	return d
}

// gotBye waits for a BYE to the phone.
func (p *answeringPhone) gotBye(t *testing.T) {
	t.Helper()
	select {
	case <-p.byes:
	case <-time.After(5 * time.Second):
		t.Fatal("the other side hung up, the phone got no BYE")
	}
}

// A console calls a registered phone (call.invite with its id): the server INVITEs the phone at its contact,
// the phone's 180 is the console's ringing and its 200 the answer; connected, the call is full duplex: both
// talk at once and each hears the other; the console's bye reaches the phone as a BYE, the phone's BYE ends the
// call for the console, and a phone answering 486 is the console's busy. The phone calling the console is full
// duplex as well.
func TestConsoleCallsPhone(t *testing.T) {
	eachCallWorld(t, func(ctx context.Context, t *testing.T, w *sipWorld) {
		p := newAnsweringPhone(t, w)
		if res := w.register(t, phoneClient(t), "UDP", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
			t.Fatalf("REGISTER: %d", res.StatusCode)
		}
		console := w.Client(termclient.Options{Token: w.Token(dispatcher, w.Customer),
			Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}})
		if err := console.Connect(ctx); err != nil {
			t.Fatal(err)
		}
		// place calls the phone until the call rings (the phone's 180): one placed at the moment the last call's
		// session is closing rings that session instead (docs/sip.md) and is canceled
		place := func() string {
			t.Helper()
			var callID string
			testkit.Eventually(t, 15*time.Second, "a call that rings the phone", func() bool {
				var r struct {
					CallID string `json:"callId"`
				}
				if err := console.Call(ctx, "call.invite", map[string]any{"kind": "single", "msId": phone}, &r); err != nil {
					t.Fatalf("call.invite to the phone: %v", err)
				}
				quick, stop := context.WithTimeout(ctx, 2*time.Second)
				defer stop()
				if _, err := console.WaitEvent(quick, "call.state", func(e termclient.Event) bool {
					return strings.Contains(string(e.Data), `"callId":"`+r.CallID+`"`) && strings.Contains(string(e.Data), `"state":"ringing"`)
				}); err != nil {
					_ = console.Call(ctx, "call.cancel", map[string]any{"callId": r.CallID}, nil)
					return false
				}
				callID = r.CallID
				return true
			})
			return callID
		}

		callID := place()
		d := p.answer(ctx, t, console, callID)
		talkBothWays(ctx, t, p.softphone, console, callID, onLine)
		if err := console.Call(ctx, "call.bye", map[string]any{"callId": callID}, nil); err != nil {
			t.Fatal(err)
		}
		p.gotBye(t)
		if d.Context().Err() == nil {
			t.Fatal("the BYE did not end the phone's dialog")
		}
		close(p.stop)

		p = newAnsweringPhone(t, w)
		if res := w.register(t, phoneClient(t), "UDP", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
			t.Fatalf("REGISTER again: %d", res.StatusCode)
		}
		callID = place()
		p.answer(ctx, t, console, callID)
		p.hangUp()
		callState(ctx, t, console, callID, "ended", 200)

		// the phone calls the console: full duplex too
		caller := newSoftphone(t, w)
		final := caller.dialing(dispatcher)
		callID = offeredCall(ctx, t, console, 180, 200)
		if code := <-final; code != sip.StatusOK {
			t.Fatalf("the phone's call to the console: %d", code)
		}
		if !callState(ctx, t, console, callID, "connected", 0) {
			t.Fatalf("the phone's call to the console: not full duplex")
		}
		talkBothWays(ctx, t, caller, console, callID, onLine)
		caller.hangUp()
		callState(ctx, t, console, callID, "ended", 200)

		callID = place()
		p.answers <- sip.StatusBusyHere
		callState(ctx, t, console, callID, "ended", 486)
	})
}

// baresip calls a terminal by its id, answering the INVITE's challenge itself: the terminal rings and answers,
// baresip's `*` gives it the floor of the call and its microphone reaches the terminal, `#` frees it, and the
// terminal's talk is in baresip's recording; the terminal hangs up.
func TestBaresipCallsTerminal(t *testing.T) {
	ctx, w, _ := callWorld(t, "sqlite", 60*time.Second)
	b := startBaresip(ctx, t, w, "PCMU")
	term := w.groupTerminal(ctx, t)
	b.say(fmt.Sprintf("/dial sip:%s@%s:%d\n", terminal, w.host, w.port))
	callID := offeredCall(ctx, t, term, 180, 200)
	callState(ctx, t, term, callID, "connected", 0)
	b.talksTo(ctx, t, term)
	b.say("#")
	b.hears(ctx, t, term, callID, "")
	if err := term.Call(ctx, "call.bye", map[string]any{"callId": callID}, nil); err != nil {
		t.Fatal(err)
	}
}
