package call_test

import (
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/termclient"
)

// Under the default playback priority (the console sent no voice.priority), the group a dispatcher works in
// plays before a group it only monitors, and a burst in another group never cuts it away mid-burst — not even
// one in the dispatcher's own ptt group (issue 15 item 4: "latest" cut away from the dispatcher's talk group).
func TestDefaultPlaybackKeepsTheDispatchersGroup(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	gp, ga, gb := w.group("Own"), w.group("Alpha"), w.group("Bravo")
	w.account("10001001", "10", ga)
	w.account("10002001", "10", gb)
	w.account("10003001", "10", gp)
	w.account("10009001", "20", gp) // the dispatcher's ptt group is Own
	ta, tb, tp := w.term("10001001"), w.term("10002001"), w.term("10003001")
	d := w.console("10009001")
	if err := d.Call(ctx, "monitor.start", map[string]any{"gid": gb}, nil); err != nil {
		t.Fatal(err)
	}
	// A monitored group talks: the dispatcher hears it.
	rb, err := tb.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	event(t, ctx, d, "voice.playing", func(m map[string]any) bool { return m["callId"] == rb.CallID })
	// The dispatcher talks to Alpha and Alpha answers: the answer plays, Bravo (still talking) is only shown.
	if _, err := d.Talk(ctx, "", ga, termclient.Silence(5), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	ra, err := ta.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	event(t, ctx, d, "voice.playing", func(m map[string]any) bool { return m["callId"] == ra.CallID })
	// Someone starts talking in the dispatcher's ptt group while Alpha's answer goes on: Alpha keeps playing.
	rp, err := tp.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	// floor.state follows the playback decision on the same connection: once it is here, a switch would be too.
	event(t, ctx, d, "floor.state", func(m map[string]any) bool { return m["callId"] == rp.CallID && m["talker"] != nil })
	for _, e := range d.Events() {
		var m map[string]any
		if e.Type == "voice.playing" && json.Unmarshal(e.Data, &m) == nil && m["callId"] != ra.CallID {
			t.Fatalf("the dispatcher was cut away from Alpha's answer to %v", m)
		}
	}
	// Only when Alpha stops does the dispatcher's own group play.
	if err := ta.ReleaseFloor(ctx, ra.CallID); err != nil {
		t.Fatal(err)
	}
	event(t, ctx, d, "voice.playing", func(m map[string]any) bool { return m["callId"] == rp.CallID })
	_ = tp.ReleaseFloor(ctx, "")
	_ = tb.ReleaseFloor(ctx, "")
}
