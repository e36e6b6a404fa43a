package sim_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// TestLivelyFleet runs 30 demo terminals with everything sped up and checks, from a console, that the fleet
// does what a fleet does on its own: talks (floor granted to terminals), raises SOS, drops off and comes back,
// switches groups; and that a radio answers a dispatcher's individual call and replies in it.
func TestLivelyFleet(t *testing.T) {
	s, con := demoConsole(t)
	// 30 terminals of every kind: radios, PMR, a gateway, SOS buttons, cameras, apps.
	accts := accountsWhere(sim.FleetAccounts(), func(id string) bool {
		n, _ := strconv.Atoi(id[5:])
		return n <= 112 || n >= 121 && n <= 125 || n == 131 || n >= 134 && n <= 140 || n >= 143 && n <= 146
	})
	f := testkit.RunFleet(t, sim.Options{URL: s.URL, Accounts: accts, Seed: 11, Loopback: true,
		GPSInterval: 2 * time.Second, MediaIdle: 3 * time.Second,
		Rates: sim.Rates{TalkEvery: 5 * time.Second, SOSEvery: 40 * time.Second, DropEvery: 20 * time.Second,
			Offline: 4 * time.Second, SwitchEvery: 10 * time.Second, UploadEvery: time.Minute}})

	seen := map[string]bool{}
	offline := map[string]bool{}
	err := within(con, 90*time.Second, func(fr testkit.Frame) bool {
		d := string(fr.Data)
		switch fr.Type {
		case "floor.state":
			if strings.Contains(d, `"talker":{`) {
				seen["talk"] = true
			}
		case "sos.alarm":
			seen["sos"] = true
		case "member.switched":
			seen["switch"] = true
		case "media.added": // a camera's snapshot in the media cloud
			seen["upload"] = true
		case "presence":
			var p struct {
				MsID   string `json:"msId"`
				Online string `json:"online"`
			}
			_ = json.Unmarshal(fr.Data, &p)
			if p.Online == "0" {
				offline[p.MsID] = true
			} else if offline[p.MsID] {
				seen["back"] = true
			}
		}
		return seen["talk"] && seen["sos"] && seen["switch"] && seen["back"] && seen["upload"]
	})
	if err != nil {
		t.Fatalf("the console saw only %v of talk, sos, switch, back, upload: %v (%s)", seen, err, f.Stats())
	}

	// A dispatcher calls radios one by one until one answers (each answers three times in four).
	answered := ""
	for _, id := range []string{"10000104", "10000105", "10000106", "10000109", "10000110", "10000111", "10000113", "10000114"} {
		r := con.Call("call.invite", map[string]any{"kind": "single", "msId": id})
		if r.Code != "0" {
			continue // busy talking, or offline just now
		}
		var inv struct {
			CallID string `json:"callId"`
		}
		_ = json.Unmarshal(r.Data, &inv)
		state := ""
		until(t, con, 45*time.Second, "the call answered or ended (rings out after 30 s)", func(fr testkit.Frame) bool {
			var c struct {
				CallID, State string
			}
			if fr.Type != "call.state" || json.Unmarshal(fr.Data, &c) != nil || c.CallID != inv.CallID {
				return false
			}
			state = c.State
			return c.State == "answered" || c.State == "ended"
		})
		if state != "answered" {
			continue
		}
		if r := con.Call("call.ack", map[string]any{"callId": inv.CallID}); r.Code != "0" {
			t.Fatalf("ack: %s %s", r.Code, r.Msg)
		}
		// The radio replies in the call: it takes the call's floor (unless its network drops first).
		talked := false
		until(t, con, 30*time.Second, "the callee talking in the call", func(fr testkit.Frame) bool {
			d := string(fr.Data)
			if !strings.Contains(d, inv.CallID) {
				return false
			}
			talked = fr.Type == "floor.state" && strings.Contains(d, `"msId":"`+id+`"`)
			return talked || fr.Type == "call.state" && strings.Contains(d, `"state":"ended"`)
		})
		if talked {
			answered = id
			break
		}
	}
	if answered == "" {
		t.Fatal("no radio answered an individual call")
	}
	st := f.Stats()
	t.Log(st)
	// Refusals the fleet can meet in normal life; anything else means it speaks the protocol wrong.
	normal := map[string]bool{"floor.request:486": true, "floor.request:606": true, "group.switch:486": true,
		"floor.release:404": true, "call.status:404": true, "call.status:409": true, "call.bye:404": true, "call.bye:409": true,
		"sos.cancel:91": true, "rtc.close:404": true,
		"gps.report:101": true, "session.login:101": true, // a busy server (documented: a full password-check queue)
		"session.login:?": true} // a login timing out under load
	for k := range st.Refused() {
		if !normal[k] {
			t.Errorf("refused: %s", k)
		}
	}
}
