package security

import (
	"testing"

	"tenfour/internal/testkit"
)

// The probe (issue 14 L4) pressed PTT on a terminal socket that had no media yet: the press was refused "502"
// but left a "connected" group call behind that never hung up. Replayed: refused presses leave no call.
func TestFloorRefusedForNoMediaLeavesNoCall(t *testing.T) {
	f := newVoiceFleet(t, "10000001", "10000002")
	console := f.Console(f.dispatcher, f.Customer)
	bare := testkit.Terminal(t, f.URL, "10000001", testkit.Password) // logged in, never sent rtc.offer
	for i := 0; i < 20; i++ {
		for _, req := range []map[string]any{{}, {"gid": f.gid}, {"gid": f.gid, "queue": true}} {
			if r := bare.Call("floor.request", req); r.Code != "502" {
				t.Fatalf("press %v without media: code %s %s, want 502", req, r.Code, r.Msg)
			}
		}
	}
	if calls := f.openCalls(console); len(calls) != 0 {
		t.Fatalf("refused presses left open calls: %v", calls)
	}
	if r := bare.Call("call.list", map[string]any{}); r.Code != "0" || string(r.Data) != `{"calls":[]}` {
		t.Fatalf("the terminal sees calls: %s %s", r.Code, r.Data)
	}
	// The same press with media opens the group's call: the checks above look where a phantom call shows.
	talker := f.terminal("10000002")
	r, err := talker.RequestFloor(f.Ctx(), "", "", false)
	if err != nil || r.Status != "granted" {
		t.Fatalf("press with media: %+v %v", r, err)
	}
	if calls := f.openCalls(console); len(calls) != 1 || calls[0]["callId"] != r.CallID {
		t.Fatalf("open calls %v, want the granted call %s", calls, r.CallID)
	}
}
