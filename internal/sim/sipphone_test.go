package sim_test

import (
	"context"
	"os/exec"
	"strconv"
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

// The simulator's SIP phone registers with digest, calls its group, takes the floor with `*` (a native terminal
// of the group sees it talk and hears its tone), hears the grant's beep, frees the floor with `#` and hangs up.
func TestSIPPhone(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg")
	}
	w := testkit.NewWorld(t, "sqlite", func(c *config.Config) {
		c.SIP.Addr = "127.0.0.1:0"
		c.Voice.Interfaces = []string{"lo"}
	})
	const phone, radio = "10000180", "10000181"
	testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: phone, Name: "Desk phone", Type: "8", Group: "Ops", Kind: directory.KindSIP})
	testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: radio, Name: "Radio", Type: "10", Group: "Ops"})
	var gid int64
	if err := w.DB.QueryRow(context.Background(), `SELECT id FROM ptt_groups WHERE customer_id = ? AND name = 'Ops'`, w.Customer).Scan(&gid); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	term := w.Client(termclient.Options{UID: radio, Password: testkit.Password, Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}})
	if err := term.Connect(ctx); err != nil {
		t.Fatal(err)
	}

	p, err := sim.RegisterSIPPhone(ctx, sim.SIPPhoneOptions{ID: phone, Password: testkit.Password, Server: w.SIP.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Call(ctx, strconv.FormatInt(gid, 10)); err != nil {
		t.Fatal(err)
	}
	talker := func(want string) {
		t.Helper()
		if _, err := term.WaitEvent(ctx, "floor.state", func(e termclient.Event) bool {
			return strings.Contains(string(e.Data), want)
		}); err != nil {
			t.Fatalf("floor state with %s: %v", want, err)
		}
	}
	heard := p.Heard()
	p.Press('*')
	talker(`"msId":"` + phone + `"`)
	testkit.Eventually(t, 5*time.Second, "the grant's beep", func() bool { return p.Heard() > heard })
	before := term.ReceivedCount()
	p.Talk(sim.ToneFrames(440, time.Second))
	if _, err := term.WaitPackets(ctx, before+25); err != nil {
		t.Fatal(err)
	}
	p.Press('#')
	talker(`"talker":null`)
	if err := p.HangUp(ctx); err != nil {
		t.Fatal(err)
	}
}
