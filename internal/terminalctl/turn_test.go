package terminalctl_test

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/testkit"
)

// freeUDPPort is a UDP port nothing listens on right now.
func freeUDPPort(t *testing.T) int {
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port
}

// POST /ds/turn/send relays TURN credentials of the embedded server to a terminal and answers once it
// acknowledged them; every refusal on both engines.
func TestTurnSend(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		port := freeUDPPort(t)
		s := testkit.StartOn(t, engine, func(c *config.Config) {
			c.Voice.TURNPort, c.Voice.TURNSecret, c.Voice.Interfaces = port, "turn-test-secret", []string{"lo"}
		})
		a, b := testkit.NewFleet(t, s.DB, "1", 2, 1), testkit.NewFleet(t, s.DB, "2", 1, 1)
		tok := a.Token
		msID := a.Terminals[0]
		term := testkit.Terminal(t, s.URL, msID, testkit.Password)

		done := make(chan testkit.Reply, 1)
		go func() {
			done <- testkit.Do(t, s.URL, http.MethodPost, "/ds/turn/send", tok, map[string]any{"msId": msID})
		}()
		req := term.WaitEvent("turn.config", 5*time.Second, nil)
		var d struct {
			ICEServers []struct {
				URLs       []string `json:"urls"`
				Username   string   `json:"username"`
				Credential string   `json:"credential"`
			} `json:"iceServers"`
			By string `json:"by"`
		}
		req.Into(t, &d)
		if len(d.ICEServers) != 1 || !strings.HasPrefix(d.ICEServers[0].URLs[0], "turn:") ||
			!strings.HasSuffix(d.ICEServers[0].Username, ":"+msID) || d.ICEServers[0].Credential == "" || d.By != a.Dispatcher {
			t.Fatalf("turn.config %s", req.Data)
		}
		select {
		case r := <-done:
			t.Fatalf("answered before the terminal acknowledged: %+v", r)
		case <-time.After(100 * time.Millisecond):
		}
		term.Reply(req, "0", nil)
		if r := <-done; r.Code != "0" || !strings.Contains(string(r.Body), d.ICEServers[0].Username) {
			t.Fatalf("turn/send: %s %s", r.Code, r.Body)
		}

		termTok := s.Token(msID, a.Customer)
		testkit.APITest{Server: s}.Run(t, []testkit.Scenario{
			{Name: "msId required", Method: "POST", Path: "/ds/turn/send", Token: tok, Code: "400", Status: 400},
			{Name: "offline terminal", Method: "POST", Path: "/ds/turn/send", Token: tok, Code: "4",
				Params: map[string]any{"msId": a.Terminals[1]}},
			{Name: "another customer's terminal", Method: "POST", Path: "/ds/turn/send", Token: tok, Code: "404",
				Params: map[string]any{"msId": b.Terminals[0]}},
			{Name: "a dispatcher is no terminal", Method: "POST", Path: "/ds/turn/send", Token: tok, Code: "404",
				Params: map[string]any{"msId": a.Dispatcher}},
			{Name: "a terminal's token", Method: "POST", Path: "/ds/turn/send", Token: termTok, Code: "107",
				Params: map[string]any{"msId": msID}},
		})

		// Refused by the terminal: its code reaches the caller.
		go func() {
			done <- testkit.Do(t, s.URL, http.MethodPost, "/ds/turn/send", tok, map[string]any{"msId": msID})
		}()
		term.Reply(term.WaitEvent("turn.config", 5*time.Second, func(f testkit.Frame) bool { return f.ID != req.ID }), "16", nil)
		if r := <-done; r.Code != "16" {
			t.Fatalf("refused by the terminal: %+v", r)
		}
	})
}

// Without the embedded TURN server there is nothing to send.
func TestTurnSendWithoutTURN(t *testing.T) {
	s := testkit.Start(t)
	a := testkit.NewFleet(t, s.DB, "1", 1, 1)
	testkit.Terminal(t, s.URL, a.Terminals[0], testkit.Password)
	if r := s.Do(http.MethodPost, "/ds/turn/send", a.Token, map[string]any{"msId": a.Terminals[0]}); r.Code != "409" {
		t.Fatalf("TURN off: %+v", r)
	}
}
