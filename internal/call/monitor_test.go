package call_test

import (
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/testkit"

	"tenfour/internal/termclient"
)

func TestGroupMonitoringAndPlaybackPriority(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	ga, gb, ta, tb := w.alphaBravo()
	d := w.console("10009001")

	// Not monitoring: the dispatcher hears neither group.
	if _, err := ta.Talk(ctx, "", "", termclient.Silence(5), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for _, gid := range []string{ga, gb} {
		if err := d.Call(ctx, "monitor.start", map[string]any{"gid": gid}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Call(ctx, "monitor.start", map[string]any{"gid": ga}, nil); termclient.Code(err) != "403" {
		t.Fatalf("already monitoring: %v", err)
	}
	var st struct {
		Groups []string `json:"groups"`
	}
	if err := d.Call(ctx, "monitor.list", nil, &st); err != nil || len(st.Groups) != 2 {
		t.Fatalf("monitor list %+v %v", st, err)
	}
	// Both groups talk at once: the first burst plays, the other is shown talking.
	ra, err := ta.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	event(t, ctx, d, "voice.playing", func(m map[string]any) bool { return m["callId"] == ra.CallID })
	rb, err := tb.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	event(t, ctx, d, "floor.state", func(m map[string]any) bool { return m["callId"] == rb.CallID && m["talker"] != nil })
	if err := ta.Send(ctx, tagged(10, 'a'), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := tb.Send(ctx, tagged(10, 'b'), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := d.WaitPackets(ctx, 10); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "Bravo's first packets handled", func() bool { return w.voice().UpstreamPackets("10002001") == 10 })
	// The dispatcher switches to Bravo: from now on Bravo plays (same stream, continuous).
	if err := d.Call(ctx, "voice.focus", map[string]any{"callId": rb.CallID}, nil); err != nil {
		t.Fatal(err)
	}
	event(t, ctx, d, "voice.playing", func(m map[string]any) bool { return m["callId"] == rb.CallID })
	if err := tb.Send(ctx, tagged(10, 'B'), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	pkts, err := d.WaitPackets(ctx, 20)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WantContinuous(t, pkts)
	// Alpha's ten, then (after the switch) Bravo's second ten; Bravo's first ten were shown, not played.
	if got := string(tags(pkts)); got != "aaaaaaaaaaBBBBBBBBBB" {
		t.Fatalf("played %q", got)
	}
	// With "latest", a newer burst takes over without a click.
	if err := d.Call(ctx, "voice.focus", map[string]any{"callId": ""}, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Call(ctx, "voice.priority", map[string]any{"mode": "latest"}, nil); err != nil {
		t.Fatal(err)
	}
	event(t, ctx, d, "voice.playing", func(m map[string]any) bool { return m["callId"] == rb.CallID })
	_ = ta.ReleaseFloor(ctx, "")
	_ = tb.ReleaseFloor(ctx, "")
	if err := d.Call(ctx, "monitor.stop", map[string]any{"gid": gb}, nil); err != nil {
		t.Fatal(err)
	}
	w.waitLog(108, 110)
}

func TestMonitorLimit(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	w.account("10009001", "20", "")
	d := w.console("10009001")
	for i := range 16 {
		if err := d.Call(ctx, "monitor.start", map[string]any{"gid": w.group("G" + string(rune('a'+i)))}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Call(ctx, "monitor.start", map[string]any{"gid": w.group("One too many")}, nil); termclient.Code(err) != "406" {
		t.Fatalf("17th group: %v, want 406 maximum monitored entries reached", err)
	}
}

func TestTerminalMonitoring(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	asked := make(chan json.RawMessage, 1)
	g.account("10001004", "10", g.gid)
	t4 := g.term("10001004", func(o *termclient.Options) {
		o.OnRequest = func(typ string, data json.RawMessage) (string, any) {
			if typ == "monitor.start" {
				asked <- data
			}
			return "0", nil
		}
	})
	if err := g.d.Call(ctx, "monitor.start", map[string]any{"msId": "10001004"}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-asked:
	case <-ctx.Done():
		t.Fatal("the terminal was not asked to open its microphone")
	}
	// The terminal's microphone (no floor) reaches the dispatcher only.
	if err := t4.Send(ctx, termclient.Silence(15), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := g.d.WaitPackets(ctx, 15); err != nil {
		t.Fatal(err)
	}
	if err := g.d.Call(ctx, "monitor.start", map[string]any{"msId": "10001004"}, nil); termclient.Code(err) != "403" {
		t.Fatalf("already monitoring: %v", err)
	}
	if err := g.d.Call(ctx, "monitor.start", map[string]any{"msId": "10001001"}, nil); termclient.Code(err) != "406" {
		t.Fatalf("second terminal: %v", err)
	}
	if err := g.d.Call(ctx, "monitor.stop", map[string]any{"msId": "10001004"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := t4.WaitEvent(ctx, "monitor.stop", nil); err != nil {
		t.Fatal(err)
	}
	// A terminal in an individual call, or talking, is busy.
	r, err := invite(ctx, g.t2, map[string]any{"msId": "10001003"})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.d.Call(ctx, "monitor.start", map[string]any{"msId": "10001003"}, nil); termclient.Code(err) != "486" {
		t.Fatalf("terminal in a call: %v", err)
	}
	_ = g.t2.Call(ctx, "call.cancel", map[string]any{"callId": r.CallID}, nil)
	if _, err := g.t1.RequestFloor(ctx, "", "", false); err != nil {
		t.Fatal(err)
	}
	if err := g.d.Call(ctx, "monitor.start", map[string]any{"msId": "10001001"}, nil); termclient.Code(err) != "486" {
		t.Fatalf("talking terminal: %v", err)
	}
	// A terminal that answers busy is busy too.
	g.account("10001005", "10", g.gid)
	g.term("10001005", func(o *termclient.Options) {
		o.OnRequest = func(string, json.RawMessage) (string, any) { return "486", nil }
	})
	if err := g.d.Call(ctx, "monitor.start", map[string]any{"msId": "10001005"}, nil); termclient.Code(err) != "486" {
		t.Fatalf("terminal answered busy: %v", err)
	}
	// Terminals cannot monitor.
	if err := g.t2.Call(ctx, "monitor.start", map[string]any{"gid": g.gid}, nil); termclient.Code(err) != "107" {
		t.Fatalf("terminal monitoring: %v", err)
	}
	g.waitLog(109, 111)
}

// Playback priority "dispatcher": while a terminal's burst plays, another dispatcher's burst in a monitored
// group takes over; with "first" it would wait.
func TestDispatcherFirstPlayback(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	ga, gb := w.group("Alpha"), w.group("Bravo")
	w.account("10001001", "10", ga)
	w.account("10009001", "20", "")
	w.account("10009002", "20", "")
	ta := w.term("10001001")
	d, other := w.console("10009001"), w.console("10009002")
	for _, gid := range []string{ga, gb} {
		if err := d.Call(ctx, "monitor.start", map[string]any{"gid": gid}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Call(ctx, "voice.priority", map[string]any{"mode": "loudest"}, nil); termclient.Code(err) != "400" {
		t.Fatalf("unknown mode: %v", err)
	}
	if err := d.Call(ctx, "voice.priority", map[string]any{"mode": "dispatcher"}, nil); err != nil {
		t.Fatal(err)
	}
	ra, err := ta.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	event(t, ctx, d, "voice.playing", func(m map[string]any) bool { return m["callId"] == ra.CallID })
	rb, err := other.RequestFloor(ctx, "", gb, false)
	if err != nil {
		t.Fatal(err)
	}
	event(t, ctx, d, "voice.playing", func(m map[string]any) bool { return m["callId"] == rb.CallID })
	_ = other.ReleaseFloor(ctx, "")
	_ = ta.ReleaseFloor(ctx, "")
}
