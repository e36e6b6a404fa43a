package sim_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/sim"
	"tenfour/internal/tenant"
	"tenfour/internal/testkit"
)

// demoServer starts a real server with the demo data, media on loopback.
func demoServer(t *testing.T) *testkit.Server {
	t.Helper()
	// The data directory outlives the server: recordings of bursts cut by the fleet's stop are finished in the
	// background after the server's cleanup (testkit does not wait for them), so t.TempDir's removal could fail.
	dir, err := os.MkdirTemp("", "simtest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for i := 0; os.RemoveAll(dir) != nil && i < 50; i++ {
			time.Sleep(20 * time.Millisecond)
		}
	})
	return testkit.Start(t, func(c *config.Config) {
		c.Demo = true
		c.DataDir = dir
		testkit.LoopbackMedia(c)
	})
}

// demoConsole starts a demo server and logs Demo Fleet's dispatcher (10000001) in on its socket: the opening of
// the scenarios a console watches.
func demoConsole(t *testing.T) (*testkit.Server, *testkit.Socket) {
	t.Helper()
	s := demoServer(t)
	cust, err := tenant.ByName(context.Background(), s.DB, "Demo Fleet")
	if err != nil {
		t.Fatal(err)
	}
	return s, s.Console("10000001", cust)
}

// until reads the console's frames until fn says it has seen enough, or fails after timeout.
func until(t *testing.T, c *testkit.Socket, timeout time.Duration, what string, fn func(testkit.Frame) bool) {
	t.Helper()
	if err := within(c, timeout, fn); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// within is until without failing: it returns why fn was not satisfied in time.
func within(c *testkit.Socket, timeout time.Duration, fn func(testkit.Frame) bool) error {
	deadline := time.Now().Add(timeout)
	for _, f := range c.Events {
		if fn(f) {
			c.Events = nil
			return nil
		}
	}
	c.Events = nil
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return errors.New("timed out")
		}
		f, err := c.TryRead(left)
		if err != nil {
			return err
		}
		if fn(f) {
			return nil
		}
	}
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// TestFleetOf50 is issue 5's "done when": a real server and 50 simulated terminals — all come online,
// positions flow to a console socket, a talk burst from one is received by another, a stunned terminal cannot
// talk.
func TestFleetOf50(t *testing.T) {
	s, con := demoConsole(t)
	// 10000101…10000150: radios, PMR/DMR, gateways, SOS buttons, cameras, apps (10000150 is a spare one).
	accts := append(sim.FleetAccounts()[:49], sim.DemoSpare()[0])
	f := testkit.RunFleet(t, sim.Options{URL: s.URL, Accounts: accts, Seed: 7, Rates: sim.Quiet, GPSInterval: time.Second,
		Loopback: true, KeepPayloads: true})

	// All come online: the console sees each one's presence, and then positions of every one that reports.
	online, positioned := map[string]bool{}, map[string]bool{}
	// Each login costs the server a password hash: on a loaded machine under -race, 50 can take minutes.
	until(t, con, 180*time.Second, "50 terminals online with positions", func(fr testkit.Frame) bool {
		switch fr.Type {
		case "presence":
			var p struct {
				MsID   string `json:"msId"`
				Online string `json:"online"`
			}
			if json.Unmarshal(fr.Data, &p) == nil && p.Online == "1" {
				online[p.MsID] = true
			}
		case "gps":
			var g struct {
				List []struct {
					MsID string   `json:"msId"`
					Lat  *float64 `json:"lat"`
					Lng  *float64 `json:"lng"`
				} `json:"list"`
			}
			if json.Unmarshal(fr.Data, &g) == nil {
				for _, l := range g.List {
					if l.Lat != nil && l.Lng != nil && *l.Lat > 40.9 && *l.Lat < 41.2 && *l.Lng > 28.8 && *l.Lng < 29.2 {
						positioned[l.MsID] = true
					}
				}
			}
		}
		for _, a := range accts {
			if !online[a.ID] || !positioned[a.ID] {
				return false
			}
		}
		return true
	})
	if got := f.Stats().Online.Load(); got != 50 {
		t.Fatalf("fleet counts %d online", got)
	}

	// A talk burst from one is received by another: two radios of Patrol North.
	talker, listener := f.Terminal("10000101"), f.Terminal("10000102")
	ctx := ctxFor(t, 60*time.Second)
	testkit.Eventually(t, 10*time.Second, "talk groups known", func() bool { return talker.PttGroup() != "" && listener.PttGroup() != "" })
	if talker.PttGroup() != listener.PttGroup() {
		t.Fatalf("talk groups %s and %s differ", talker.PttGroup(), listener.PttGroup())
	}
	lm, err := listener.ConnectMedia(ctx)
	if err != nil {
		t.Fatal(err)
	}
	clip := f.Clips().Short[0]
	code, err := talker.Talk(ctx, clip)
	if err != nil || code != "" {
		t.Fatalf("talk: code %q, %v", code, err)
	}
	pkts, err := lm.WaitPackets(ctx, len(clip.Packets)/2)
	if err != nil {
		t.Fatal(err)
	}
	speech := 0
	for _, p := range pkts {
		if len(p.Payload) > 10 { // a 20 ms silence frame is 3 bytes; speech is tens of bytes
			speech++
		}
	}
	if speech < len(clip.Packets)/2 {
		t.Fatalf("%d of %d received packets carry speech", speech, len(pkts))
	}
	until(t, con, 10*time.Second, "the console sees the burst", testkit.Event("floor.state", `"msId":"10000101"`))

	// A stunned terminal cannot talk: the console stuns 10000103, the terminal acknowledges, its floor
	// request is denied (606); revived, it talks again.
	stunned := f.Terminal("10000103")
	if r := con.Call("call.set", map[string]any{"msId": "10000103", "status": 1}); r.Code != "0" {
		t.Fatalf("stun: %s %s", r.Code, r.Msg)
	}
	if stunned.CallSet() != 1 {
		t.Fatalf("terminal call-set status %d after stun", stunned.CallSet())
	}
	code, err = stunned.Talk(ctx, clip)
	if err != nil || code != "606" {
		t.Fatalf("stunned talk: code %q, %v (want 606)", code, err)
	}
	if r := con.Call("call.set", map[string]any{"msId": "10000103", "status": 8}); r.Code != "0" {
		t.Fatalf("revive: %s %s", r.Code, r.Msg)
	}
	if code, err = stunned.Talk(ctx, clip); err != nil || code != "" {
		t.Fatalf("revived talk: code %q, %v", code, err)
	}
	t.Log(f.Stats())
}
