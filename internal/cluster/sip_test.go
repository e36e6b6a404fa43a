package cluster_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/directory"
	"tenfour/internal/media/libopus"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// A SIP phone registered on node 2 is online on node 1, and a dispatcher on node 1 calls it: node 2 dials the
// phone (its session there), the phone rings and answers, and the call carries audio both ways across the nodes —
// half duplex there (docs/adr/0044): the dispatcher's talk reaches the phone, the phone's `*` takes the floor and
// its talk reaches the dispatcher. The phone's hang-up ends the call on node 1; the phone stays online everywhere
// after its session logged out (its registration holds it), and a second call reaches it, ended by the
// dispatcher's bye.
func TestPhoneRegisteredOnAnotherNode(t *testing.T) {
	c := newCluster(t)
	sipAddr := "127.0.0.1:" + strconv.Itoa(testkit.FreePort(t))
	n1 := c.node("n1")
	n2 := c.node("n2", func(cfg *config.Config) { cfg.SIP.Addr, cfg.SIP.TLSAddr = sipAddr, "off" })
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	const phoneID = "10000180"
	testkit.Account(t, n1.DB, auth.NewAccount{CustomerID: f.Customer, ID: phoneID, Name: "Desk phone", Type: "0",
		Password: testkit.Password, GroupID: f.Groups[0], Kind: directory.KindSIP})
	con := dialConsole(t, n1, f.Dispatcher, f.Customer)
	linked(t, n1, n2)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := libopus.Available(); err != nil { // compiled as the SIP side starts: a call before that hears nothing
		t.Fatal(err)
	}

	phone, err := sim.RegisterSIPPhone(ctx, sim.SIPPhoneOptions{ID: phoneID, Password: testkit.Password, Server: sipAddr, Answer: true})
	if err != nil {
		t.Fatal(err)
	}
	defer phone.Close()
	testkit.Eventually(t, 5*time.Second, "node 1 sees the phone registered on node 2 online", func() bool {
		return n1.Hub.Online(phoneID) && !n1.Hub.LocalOnline(phoneID)
	})

	callID := invite(ctx, t, con, phoneID)
	waitCallState(ctx, t, "the dispatcher", con, callID, "answered", 200)
	if err := con.Call(ctx, "call.ack", map[string]any{"callId": callID}, nil); err != nil {
		t.Fatal(err)
	}
	waitCallState(ctx, t, "the dispatcher", con, callID, "connected", 202)

	heard := phone.Heard()
	if _, err := con.Talk(ctx, callID, "", termclient.Silence(50), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 5*time.Second, "the phone on node 2 hears the dispatcher on node 1", func() bool {
		return phone.Heard() >= heard+40
	})

	phone.Press('*')
	if _, err := con.WaitEvent(ctx, "floor.state", func(e termclient.Event) bool {
		var f struct {
			CallID string `json:"callId"`
			Talker *struct {
				MsID string `json:"msId"`
			} `json:"talker"`
		}
		return e.Decode(&f) == nil && f.CallID == callID && f.Talker != nil && f.Talker.MsID == phoneID
	}); err != nil {
		t.Fatalf("the phone never held the call's floor: %v", err)
	}
	before := con.ReceivedCount()
	phone.Talk(sim.ToneFrames(440, time.Second))
	if _, err := con.WaitPackets(ctx, before+40); err != nil {
		t.Fatalf("the dispatcher on node 1 did not hear the phone on node 2: %v", err)
	}
	phone.Press('#')

	if err := phone.HangUp(ctx); err != nil {
		t.Fatal(err)
	}
	waitCallState(ctx, t, "the dispatcher", con, callID, "ended", 200)
	testkit.Eventually(t, 5*time.Second, "the phone's session on node 2 logged out", func() bool { return !n2.Hub.LocalOnline(phoneID) })

	// still online on node 1 (its registration holds it): called again, it answers; the dispatcher's bye is the
	// phone's BYE
	callID = invite(ctx, t, con, phoneID)
	waitCallState(ctx, t, "the dispatcher", con, callID, "answered", 200)
	if err := con.Call(ctx, "call.ack", map[string]any{"callId": callID}, nil); err != nil {
		t.Fatal(err)
	}
	waitCallState(ctx, t, "the dispatcher", con, callID, "connected", 202)
	testkit.Eventually(t, 5*time.Second, "the phone in the second call", phone.InCall)
	if err := con.Call(ctx, "call.bye", map[string]any{"callId": callID}, nil); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 5*time.Second, "the phone got the BYE", func() bool { return !phone.InCall() })
}
