package sim_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// TestPassiveTerminalStaysStill: a passive terminal (serve --demo-fleet-quiet) reports its position and status once
// at login and then nothing, even with a report interval that would send five positions a second; a dispatcher's
// message is not answered.
func TestPassiveTerminalStaysStill(t *testing.T) {
	fs := newFakeServer(t)
	testkit.RunFleet(t, sim.Options{URL: fs.url, Seed: 1, Passive: true, GPSInterval: 200 * time.Millisecond,
		Rates:    sim.Rates{AnswerShare: 1, AnswerDelay: time.Second}, // overridden: a passive fleet's rates are Quiet
		Accounts: []sim.Account{{ID: "30000001", Password: "123456", Type: "6"}}})
	ws := fs.conn()
	raw, _ := json.Marshal(map[string]any{"id": "1", "from": "10000001", "content": "Report"})
	fs.send(ws, testkit.Frame{ID: 100, Type: "sms.deliver", Data: raw})
	// The login's reports come when the fleet gets to it (a loaded machine may take seconds), before or after the
	// message's acknowledgement: every frame is counted, none is skipped while waiting. From then on, 3 s (fifteen
	// report intervals) must bring nothing more.
	counts := map[string]int{}
	ack := ""
	first := time.After(30 * time.Second)
	for counts["gps.report"] == 0 || counts["status.report"] == 0 || ack == "" {
		select {
		case f := <-fs.frames:
			if f.Re == 100 {
				ack = f.Code
			} else {
				counts[f.Type]++
			}
		case <-first:
			t.Fatalf("no report at login or no acknowledgement within 30 s: %v, ack %q", counts, ack)
		}
	}
	if ack != "0" {
		t.Fatalf("sms.deliver: %s", ack)
	}
	deadline := time.After(3 * time.Second)
	for done := false; !done; {
		select {
		case f := <-fs.frames:
			counts[f.Type]++
		case <-deadline:
			done = true
		}
	}
	if counts["gps.report"] != 1 || counts["status.report"] != 1 {
		t.Errorf("%d gps.report, %d status.report; want one of each (at login)", counts["gps.report"], counts["status.report"])
	}
	for _, typ := range []string{"sms.send", "floor.request", "sos.raise", "group.switch"} {
		if counts[typ] > 0 {
			t.Errorf("a passive terminal sent %s on its own", typ)
		}
	}
}

// TestPassiveFleetAnswersEveryCall: radios of a passive fleet answer every individual call and reply once in it
// (with this seed, a lively fleet's 10000126 and 10000127 would decline their first call).
func TestPassiveFleetAnswersEveryCall(t *testing.T) {
	s, con := demoConsole(t)
	ids := []string{"10000104", "10000126", "10000127"}
	var accts []sim.Account
	for _, a := range sim.FleetAccounts() {
		for _, id := range ids {
			if a.ID == id {
				accts = append(accts, a)
			}
		}
	}
	// Reaction: the answer and the reply come in tenths of their seconds (what is proven is that they come).
	f := testkit.RunFleet(t, sim.Options{URL: s.URL, Accounts: accts, Seed: 11, Loopback: true, Passive: true, Reaction: 0.1})
	for _, id := range ids {
		testkit.Eventually(t, 20*time.Second, id+" online", f.Terminal(id).Online)
	}
	for _, id := range ids {
		r := con.Call("call.invite", map[string]any{"kind": "single", "msId": id})
		if r.Code != "0" {
			t.Fatalf("invite %s: %s %s", id, r.Code, r.Msg)
		}
		var inv struct {
			CallID string `json:"callId"`
		}
		_ = json.Unmarshal(r.Data, &inv)
		state := ""
		until(t, con, 45*time.Second, "the call answered or ended", func(fr testkit.Frame) bool {
			var c struct{ CallID, State string }
			if fr.Type != "call.state" || json.Unmarshal(fr.Data, &c) != nil || c.CallID != inv.CallID {
				return false
			}
			state = c.State
			return c.State == "answered" || c.State == "ended"
		})
		if state != "answered" {
			t.Fatalf("%s: the call %s", id, state)
		}
		if r := con.Call("call.ack", map[string]any{"callId": inv.CallID}); r.Code != "0" {
			t.Fatalf("ack: %s %s", r.Code, r.Msg)
		}
		until(t, con, 30*time.Second, id+" talking in the call", func(fr testkit.Frame) bool {
			d := string(fr.Data)
			return fr.Type == "floor.state" && strings.Contains(d, inv.CallID) && strings.Contains(d, `"msId":"`+id+`"`)
		})
		if r := con.Call("call.bye", map[string]any{"callId": inv.CallID}); r.Code != "0" {
			t.Fatalf("bye: %s %s", r.Code, r.Msg)
		}
	}
}
