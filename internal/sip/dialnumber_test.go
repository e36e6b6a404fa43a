package sip_test

import (
	"context"
	"testing"
	"time"

	"github.com/emiago/sipgo/sip"

	sipside "tenfour/internal/sip"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// farPhone is a phone of the PBX at pbx that answers calls (the answering phone of individual_test.go, registered
// at the PBX as number instead of at tenfour).
func farPhone(t *testing.T, w *sipWorld, pbx, number string) *answeringPhone {
	t.Helper()
	atPBX := *w
	atPBX.port = portOf(t, pbx)
	p := newAnsweringPhone(t, &atPBX)
	registerAtPBX(t, &atPBX, number)
	return p
}

// A dispatcher's console dials phone numbers through its customer's trunk (call.invite {kind:"single", number}):
// without a registered trunk the call is refused 480, a malformed number 484. With the trunk registered at the
// PBX (Debian's kamailio), the number's phone at the PBX rings (the console's ringing) and answers; connected,
// the call is full duplex: the console and the phone talk at once and each hears the other; the console's bye is
// the phone's BYE, and the phone's BYE ends the next call. A busy phone is the console's 486, a number the PBX
// does not have 404, and the talk of the calls is recorded as any call's.
func TestConsoleDialsNumber(t *testing.T) {
	eachCallWorld(t, func(ctx context.Context, t *testing.T, w *sipWorld) {
		console := w.Client(termclient.Options{Token: w.Token(dispatcher, w.Customer),
			Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}})
		if err := console.Connect(ctx); err != nil {
			t.Fatal(err)
		}
		invite := func(number string) (string, error) {
			var r struct {
				CallID string `json:"callId"`
			}
			err := console.Call(ctx, "call.invite", map[string]any{"kind": "single", "number": number}, &r)
			return r.CallID, err
		}
		if _, err := invite("5550100"); termclient.Code(err) != "480" {
			t.Fatalf("a number without a trunk: %v (code %s), want 480", err, termclient.Code(err))
		}
		for _, bad := range []string{"12", "555-0100", "++5550100", "5550100+", "*5550100#", "123456789012345678901", "sip:5550100"} {
			if _, err := invite(bad); termclient.Code(err) != "484" {
				t.Fatalf("number %q: %v (code %s), want 484", bad, err, termclient.Code(err))
			}
		}

		pbx := startKamailio(t, "")
		if _, err := sipside.NewTrunkStore(w.DB).Add(ctx, sipside.TrunkConfig{CustomerID: w.Customer, Name: "pbx", Registrar: pbx,
			Username: trunkUser, Password: pbxPassword, AccountID: phone}); err != nil {
			t.Fatal(err)
		}
		if err := w.SIP.SyncTrunks(ctx); err != nil {
			t.Fatal(err)
		}
		testkit.Eventually(t, 10*time.Second, "the trunk registered", func() bool { return w.trunkStatus(t, "pbx") == "registered" })

		// dial calls number once the trunk's account is free: a moment after a call (its session closing) a dial
		// is busy, so each waits for the last to be over.
		dial := func(number string) string {
			t.Helper()
			var callID string
			testkit.Eventually(t, 10*time.Second, "the trunk free again", func() bool {
				id, err := invite(number)
				if termclient.Code(err) == "486" {
					return false
				}
				if err != nil {
					t.Fatalf("dial %s: %v", number, err)
				}
				callID = id
				return true
			})
			return callID
		}
		// connect dials number, the phone rings (the console's ringing) and answers: connected
		connect := func(p *answeringPhone, number string) string {
			t.Helper()
			callID := dial(number)
			callState(ctx, t, console, callID, "ringing", 180)
			p.answer(ctx, t, console, callID)
			return callID
		}

		// the console talks to the phone, the phone's voice to the console; the console hangs up
		p := farPhone(t, w, pbx, "5550100")
		callID := connect(p, "5550100")
		var listed struct {
			Calls []struct {
				CallID string `json:"callId"`
				Number string `json:"number"`
			} `json:"calls"`
		}
		if err := console.Call(ctx, "call.list", nil, &listed); err != nil || len(listed.Calls) != 1 || listed.Calls[0].Number != "5550100" {
			t.Fatalf("call.list during the call: %+v %v, want the number dialled", listed.Calls, err)
		}
		talkBothWays(ctx, t, p.softphone, console, callID, onLine)
		if err := console.Call(ctx, "call.bye", map[string]any{"callId": callID}, nil); err != nil {
			t.Fatal(err)
		}
		p.gotBye(t)
		callState(ctx, t, console, callID, "ended", 0)
		close(p.stop)
		talked := callID

		// the phone hangs up; a busy phone; a number nobody has at the PBX
		p = farPhone(t, w, pbx, "5550101")
		callID = connect(p, "5550101")
		p.hangUp()
		callState(ctx, t, console, callID, "ended", 200)

		callID = dial("5550101")
		callState(ctx, t, console, callID, "ringing", 180)
		p.answers <- sip.StatusBusyHere
		callState(ctx, t, console, callID, "ended", 486)

		callID = dial("5550199")
		callState(ctx, t, console, callID, "ended", 404)

		for _, talker := range []string{dispatcher, phone} { // the first call's bursts, recorded as any call's
			testkit.Eventually(t, 5*time.Second, "the record of "+talker+"'s burst", func() bool {
				return w.Count(`SELECT COUNT(*) FROM voice_records WHERE call_id = ? AND talker_id = ?`, talked, talker) >= 1
			})
		}
		// the far end's record names it by the number dialled (the trunk's account talks for it)
		if n := w.Count(`SELECT COUNT(*) FROM voice_records WHERE call_id = ? AND talker_id = ? AND talker_name LIKE '5550100 (%'`,
			talked, phone); n == 0 {
			t.Fatal("the far end's record does not name the number dialled")
		}
	})
}
