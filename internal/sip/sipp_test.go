package sip_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/emiago/sipgo/sip"

	"tenfour/internal/auth"
	"tenfour/internal/directory"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// sippRun runs SIPp (Debian's sip-tester) against w's server: the scenario testdata/<scenario>, its calls' fields
// from the injection rows (one call each), at most limit calls at once. It fails the test with SIPp's error log
// when a call failed.
func sippRun(t *testing.T, w *sipWorld, scenario string, limit int, rows ...string) {
	t.Helper()
	sipp, err := exec.LookPath("sipp")
	if err != nil {
		t.Skip("sipp is not installed (scripts/test-deps.sh installs sip-tester)")
	}
	dir := t.TempDir() // the injection file and sipp's error log
	inject := "SEQUENTIAL\n" + strings.Join(rows, "\n") + "\n"
	if err := os.WriteFile(dir+"/calls.csv", []byte(inject), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, sipp, "-sf", "testdata/"+scenario, "-inf", dir+"/calls.csv", "-m", fmt.Sprint(len(rows)),
		"-l", fmt.Sprint(limit), "-r", fmt.Sprint(limit), "-nostdin", "-i", "127.0.0.1", "-mi", "127.0.0.1",
		"-p", fmt.Sprint(testkit.FreePort(t)), "-timeout", "90s", "-timeout_error", "-recv_timeout", "20s",
		"-trace_err", "-error_file", dir+"/errors.log", w.SIP.Addr())
	if out, err := cmd.CombinedOutput(); err != nil {
		errs, _ := os.ReadFile(dir + "/errors.log")
		t.Fatalf("sipp %s: %v\n%s\n%s", scenario, err, errs, out[max(0, len(out)-3000):])
	}
}

// Load: SIPp's phones each REGISTER with digest, INVITE their group (200), talk a second and say BYE, a few
// at once; every call is answered, every phone is online, and a phone that was not part of the load still
// registers and calls its group.
func TestSIPpLoad(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg")
	}
	w := startSIP(t, "sqlite", testkit.LoopbackMedia)
	gid := w.groupID(t, "Ops")
	const calls = 8
	var rows []string
	for i := range calls {
		id := fmt.Sprint(10000300 + i)
		testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: id, Name: "Load phone " + id, Type: "8",
			Group: "Ops", Kind: directory.KindSIP})
		rows = append(rows, id+";[authentication username="+id+" password="+testkit.Password+"];"+gid)
	}
	sippRun(t, w, "load.xml", 4, rows...)
	for i := range calls {
		if id := fmt.Sprint(10000300 + i); !w.online(t, id) {
			t.Errorf("phone %s of the load is offline after its REGISTER", id)
		}
	}
	if res := w.register(t, phoneClient(t), "UDP", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
		t.Fatalf("REGISTER after the load: %d, want 200", res.StatusCode)
	}
	if code := newSoftphone(t, w).call(gid); code != sip.StatusOK {
		t.Fatalf("INVITE after the load: %d, want 200", code)
	}
}

// Malformed messages (testdata/malformed.xml): not SIP, mandatory headers missing, a CSeq that is not a number,
// a Content-Length beyond the datagram are ignored, a digest answer that is not one is answered 400; after each
// the server answers the next request (SIPp fails on any answer it does not expect), and a phone registers as
// before.
func TestSIPpMalformed(t *testing.T) {
	w := startSIP(t, "sqlite")
	sippRun(t, w, "malformed.xml", 1, phone)
	if res := w.register(t, phoneClient(t), "UDP", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
		t.Fatalf("REGISTER after the malformed messages: %d, want 200", res.StatusCode)
	}
}

// A radio gateway offers no keys (no telephone-event): its voice is its talk key. The simulator's SIP phone as a
// gateway calls its group; a second of tone takes the floor (a native terminal of the group sees it talk and gets
// its audio) and the silence after it releases the floor once the hangover has passed.
func TestVoiceActivityTakesTheFloor(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		ctx, w, gid := callWorld(t, engine, 60*time.Second)
		term := w.groupTerminal(ctx, t)
		gw := simPhoneInGroup(ctx, t, w, gid, true)
		time.Sleep(time.Second) // silence: the floor stays free
		before := term.ReceivedCount()
		gw.Talk(sim.ToneFrames(440, time.Second))
		floorTalker(ctx, t, term, gid, phone)
		if _, err := term.WaitPackets(ctx, before+25); err != nil {
			t.Fatal(err)
		}
		talked := time.Now()
		floorTalker(ctx, t, term, gid, "")
		if held := time.Since(talked); held < 500*time.Millisecond {
			t.Fatalf("the floor was freed %v after the talk's packets, want the hangover (800 ms of silence after a second of tone)", held)
		}
	})
}

// The account's talk setting (docs/sip.md "Talk keys and voice") wins over what its phone offers. Set to voice, a
// phone that offers keys talks by its voice and its keys are ignored (a gateway that forwards its radios' DTMF);
// set to keys, a gateway that offers none does not take the floor by its voice. The setting is read at each call.
func TestTalkSettingWinsOverTheOffer(t *testing.T) {
	ctx, w, gid := callWorld(t, "sqlite", 60*time.Second)
	dir := directory.NewStore(w.DB)
	if err := dir.SetSIPTalk(ctx, w.Customer, phone, directory.SIPTalkVoice); err != nil {
		t.Fatal(err)
	}
	term := w.groupTerminal(ctx, t)
	noTalker := func(what string) {
		t.Helper()
		quiet, stop := context.WithTimeout(ctx, 1500*time.Millisecond)
		defer stop()
		if _, err := term.WaitEvent(quiet, "floor.state", func(e termclient.Event) bool {
			var v struct {
				Talker *struct{} `json:"talker"`
			}
			return e.Decode(&v) == nil && v.Talker != nil
		}); err == nil {
			t.Fatalf("%s took the floor", what)
		}
	}

	keyed := simPhoneInGroup(ctx, t, w, gid, false)
	keyed.Press('*')
	noTalker("the talk key of an account set to voice")
	keyed.Talk(sim.ToneFrames(440, time.Second))
	floorTalker(ctx, t, term, gid, phone)
	floorTalker(ctx, t, term, gid, "")
	if err := keyed.HangUp(ctx); err != nil {
		t.Fatal(err)
	}

	if err := dir.SetSIPTalk(ctx, w.Customer, phone, directory.SIPTalkKeys); err != nil {
		t.Fatal(err)
	}
	gw := simPhoneInGroup(ctx, t, w, gid, true)
	gw.Talk(sim.ToneFrames(440, time.Second))
	noTalker("the voice of an account set to keys")
}

// simPhoneInGroup is the simulator's SIP phone as the account phone — a gateway (no keys offered) or a desk phone —
// registered and in a call into group gid; closed when the test ends.
func simPhoneInGroup(ctx context.Context, t *testing.T, w *sipWorld, gid string, gateway bool) *sim.SIPPhone {
	t.Helper()
	p, err := sim.RegisterSIPPhone(ctx, sim.SIPPhoneOptions{ID: phone, Password: testkit.Password, Server: w.SIP.Addr(), Gateway: gateway})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	if err := p.Call(ctx, gid); err != nil {
		t.Fatal(err)
	}
	return p
}
