package sim_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/directory"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// The SIP phones of these tests: a desk phone and a radio gateway (SIP accounts), and a native terminal, all in
// the group Ops.
const sipDesk, sipGateway, sipRadio = "10000180", "10000188", "10000181"

// sipGroup is a server with SIP on loopback, the accounts above and the native terminal logged in with its media;
// it returns the server, the group's id and the terminal.
func sipGroup(t *testing.T, ctx context.Context) (*testkit.World, string, *termclient.Client) {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg")
	}
	w := testkit.NewWorld(t, "sqlite", func(c *config.Config) {
		c.SIP.Addr = "127.0.0.1:0"
		testkit.LoopbackMedia(c)
	})
	testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: sipDesk, Name: "Desk phone", Type: "0", Group: "Ops", Kind: directory.KindSIP})
	testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: sipGateway, Name: "Gateway", Type: "8", Group: "Ops", Kind: directory.KindSIP})
	testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: sipRadio, Name: "Radio", Type: "10", Group: "Ops"})
	var gid string // the group's id as the console shows it (and a phone dials it)
	if err := w.DB.QueryRow(ctx, `SELECT id FROM ptt_groups WHERE customer_id = ? AND name = 'Ops'`, w.Customer).Scan(&gid); err != nil {
		t.Fatal(err)
	}
	term := w.Client(termclient.Options{UID: sipRadio, Password: testkit.Password, Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}})
	if err := term.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return w, gid, term
}

// floorWith waits for the terminal's next floor state that contains want.
func floorWith(ctx context.Context, t *testing.T, term *termclient.Client, want string) {
	t.Helper()
	if _, err := term.WaitEvent(ctx, "floor.state", func(e termclient.Event) bool {
		return strings.Contains(string(e.Data), want)
	}); err != nil {
		t.Fatalf("floor state with %s: %v", want, err)
	}
}

// The simulator's SIP phone registers with digest, calls its group, takes the floor with `*` (a native terminal
// of the group sees it talk and gets its audio), hears the grant's beep, frees the floor with `#` and hangs up.
func TestSIPPhone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w, gid, term := sipGroup(t, ctx)
	p, err := sim.RegisterSIPPhone(ctx, sim.SIPPhoneOptions{ID: sipDesk, Password: testkit.Password, Server: w.SIP.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Call(ctx, gid); err != nil {
		t.Fatal(err)
	}
	heard := p.Heard()
	p.Press('*')
	floorWith(ctx, t, term, `"msId":"`+sipDesk+`"`)
	testkit.Eventually(t, 5*time.Second, "the grant's beep", func() bool { return p.Heard() > heard })
	before := term.ReceivedCount()
	p.Talk(sim.ToneFrames(440, time.Second))
	if _, err := term.WaitPackets(ctx, before+25); err != nil {
		t.Fatal(err)
	}
	p.Press('#')
	floorWith(ctx, t, term, `"talker":null`)
	if err := p.HangUp(ctx); err != nil {
		t.Fatal(err)
	}
}

// The demo's SIP talkers: a desk phone (its keys) and a radio gateway (its voice) each call the group now and then
// and take its floor; they stop with their context.
func TestSIPTalkers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w, gid, term := sipGroup(t, ctx)
	run, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sim.RunSIPTalkers(run, sim.SIPTalkOptions{Server: w.SIP.Addr(), Password: testkit.Password, Every: 200 * time.Millisecond,
			Talkers: []sim.SIPTalker{{ID: sipDesk}, {ID: sipGateway, Gateway: true}},
			Group:   func(context.Context, string) (string, error) { return gid, nil }})
	}()
	seen := map[string]bool{}
	for !seen[sipDesk] || !seen[sipGateway] {
		e, err := term.WaitEvent(ctx, "floor.state", nil)
		if err != nil {
			t.Fatalf("the talkers took the floor: %v (seen %v)", err, seen)
		}
		for _, id := range []string{sipDesk, sipGateway} {
			seen[id] = seen[id] || strings.Contains(string(e.Data), `"msId":"`+id+`"`)
		}
	}
	stop()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("the talkers did not stop with their context")
	}
}
