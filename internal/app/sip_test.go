package app_test

import (
	"net"
	"strings"
	"testing"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/testkit"
)

// The demo's SIP address is a default, not the operator's choice: a second demo on the machine (make run beside
// make test) must start without SIP, while an address the operator named and cannot have stops the server.
func TestTakenSIPAddress(t *testing.T) {
	taken, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.LocalAddr().String()

	for args, want := range map[string]config.SIP{
		"--demo":                    {Addr: config.DemoSIPAddr, Optional: true},
		"--demo --sip-addr " + addr: {Addr: addr},
		"--sip-addr " + addr:        {Addr: addr},
		"--demo --sip-addr off":     {},
	} {
		if c, err := config.ParseServe(strings.Fields(args)); err != nil || c.SIP != want {
			t.Errorf("serve %s: SIP %+v (%v), want %+v", args, c.SIP, err, want)
		}
	}

	s := testkit.Start(t, func(c *config.Config) { c.SIP = config.SIP{Addr: addr, Optional: true} })
	if s.SIP == nil || s.SIP.Addr() != "" {
		t.Fatalf("the demo's taken address: want a server without SIP listeners")
	}

	cfg := config.Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), SIP: config.SIP{Addr: addr}}
	if _, err := app.New(cfg, testkit.OpenStore(t, "sqlite")); err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("a named address that is taken: got %v, want the bind error", err)
	}
}
