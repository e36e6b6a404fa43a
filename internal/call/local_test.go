package call_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"

	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// An in-process party (docs/adr/0043): its session binds its LocalMedia with rtc.local — a ticket good once and
// only for a session of its own account — and is then a party like any other: it hears the group's talker and,
// holding the floor, is heard by the group. Closed, its session is told its media is gone.
func TestLocalMediaJoinsTheGroup(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	const phone = "10001004"
	g.account(phone, "10", g.gid)
	var heard atomic.Int64
	m := g.Voice.NewLocalMedia(phone, func(*rtp.Header, []byte) { heard.Add(1) })

	g.account("10001005", "10", g.gid)
	other := g.Client(termclient.Options{UID: "10001005", Password: testkit.Password})
	if err := other.Call(ctx, "rtc.local", map[string]string{"ticket": m.Ticket()}, nil); err == nil {
		t.Fatal("another account's session bound the ticket")
	}
	party := g.dial(termclient.Options{UID: phone, Password: testkit.Password, Media: termclient.MediaOptions{Local: m.Ticket()}})
	if party.Media != nil {
		t.Fatal("a local party negotiated WebRTC")
	}
	if err := party.Call(ctx, "rtc.local", map[string]string{"ticket": m.Ticket()}, nil); err == nil {
		t.Fatal("a ticket bound twice")
	}

	if _, err := g.t1.Talk(ctx, "", "", termclient.Silence(40), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "the local party hears the talker's 40 packets", func() bool { return heard.Load() == 40 })

	r, err := party.RequestFloor(ctx, "", g.gid, false)
	if err != nil || r.Status != "granted" {
		t.Fatalf("the local party's floor request: %+v %v", r, err)
	}
	for range 30 {
		m.Say(termclient.SilentPacket)
	}
	for name, c := range map[string]*termclient.Client{"T2": g.t2, "D": g.d} {
		pkts, err := c.WaitPackets(ctx, 70)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		testkit.WantContinuous(t, pkts[40:])
	}
	if err := party.ReleaseFloor(ctx, r.CallID); err != nil {
		t.Fatal(err)
	}

	m.Close()
	if _, err := party.WaitEvent(ctx, "rtc.state", func(e termclient.Event) bool {
		return strings.Contains(string(e.Data), `"disconnected"`)
	}); err != nil {
		t.Fatal(err)
	}
}
