package broadcast_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tenfour/internal/broadcast"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// A task on three simulated speakers: each fetches and decodes the file's audio (level above silence) and
// reports an advancing position; pause, resume and stop reach all three within 500 ms.
func TestTaskOnThreeSimulatedSpeakers(t *testing.T) {
	testkit.NeedFFmpeg(t)
	w, ctx := newLiveWorld(t)
	orgPass := md5hex("Org-Secret-1")
	org, ids, _ := w.speakerOrg(ctx, "Yard", "300", orgPass, 3)
	// a wrong password is refused
	bad := &sim.Speaker{URL: w.s.URL, OrgID: org.ID, Code: "yard-0", Password: md5hex("nope")}
	if err := bad.Run(ctx); err == nil || !has(err.Error(), "refused: 2 ") {
		t.Fatalf("wrong org password: %v, want refused 2 (incorrect password)", err)
	}
	devs := func() map[int64]broadcast.Device { return w.devices(w.tokA) }
	testkit.Eventually(t, 10*time.Second, "three speakers online", func() bool {
		d := devs()
		return d[ids[0]].Online == 1 && d[ids[1]].Online == 1 && d[ids[2]].Online == 1
	})
	f := w.tone(440, 5*time.Second)
	var task broadcast.Task
	w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": "Tone", "file_ids": []int64{f.ID}, "device_ids": ids, "duration_type": 3}, &task)
	w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/start", task.ID), w.tokA, nil, nil)

	all := func(what string, within time.Duration, cond func(rep *broadcast.Report) bool) time.Duration {
		t.Helper()
		start := time.Now()
		testkit.Eventually(t, within, what, func() bool {
			d := devs()
			for _, id := range ids {
				if d[id].Reported == nil || !cond(d[id].Reported) {
					return false
				}
			}
			return true
		})
		return time.Since(start)
	}
	all("three speakers playing the tone", 30*time.Second, func(rep *broadcast.Report) bool {
		return rep.State == "playing" && rep.FileID == f.ID && rep.TaskID == task.ID && rep.Level > 0.1
	})
	first := devs()
	time.Sleep(1500 * time.Millisecond)
	later := devs()
	for _, id := range ids {
		a, b := first[id].Reported, later[id].Reported
		// the file plays round after round (duration type 3): the advance is counted around its length
		if adv := (b.PositionMs - a.PositionMs + f.Length) % f.Length; adv < 500 || b.Level < 0.1 {
			t.Fatalf("speaker %d: position %d → %d, level %.3f: want advancing and loud", id, a.PositionMs, b.PositionMs, b.Level)
		}
	}
	for _, step := range []struct {
		verb, state string
	}{{"pause", "paused"}, {"resume", "playing"}, {"stop", "idle"}} {
		start := time.Now()
		w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/%s", task.ID, step.verb), w.tokA, nil, nil)
		all(step.verb+" reaches the speakers", 5*time.Second, func(rep *broadcast.Report) bool { return rep.State == step.state })
		if took := time.Since(start); took > 500*time.Millisecond {
			t.Fatalf("%s took %v to reach all three speakers, want within 500 ms", step.verb, took)
		}
	}

	// An offline task reaches a speaker that comes online later, where the run is; the speaker going away is
	// offline for the consoles.
	var late broadcast.Device
	w.ok("POST", "/broadcast/v1/device", w.tokA, map[string]any{"org_id": org.ID, "name": "late", "code": "yard-late"}, &late)
	var off broadcast.Task
	w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": "Offline", "file_ids": []int64{f.ID}, "device_ids": []int64{late.ID},
		"duration_type": 3, "offline": 1}, &off)
	w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/start", off.ID), w.tokA, nil, nil)
	time.Sleep(1500 * time.Millisecond)
	lctx, lcancel := context.WithCancel(ctx)
	sp := &sim.Speaker{URL: w.s.URL, OrgID: org.ID, Code: "yard-late", Password: orgPass}
	done := make(chan struct{})
	go func() { _ = sp.Run(lctx); close(done) }()
	testkit.Eventually(t, 30*time.Second, "the late speaker plays the offline task where it is", func() bool {
		rep := devs()[late.ID].Reported
		return rep != nil && rep.State == "playing" && rep.TaskID == off.ID && rep.PositionMs >= 1000 && rep.Level > 0.1
	})
	lcancel()
	<-done
	testkit.Eventually(t, 5*time.Second, "the late speaker offline after it left", func() bool { return devs()[late.ID].Online == 0 })
}

// Live paging: a console speaks over its WebRTC microphone path; the speakers it pages receive the packets,
// pre-empting a lower-priority task (which goes on where it is after the page), never a higher-priority one (the
// page is told why); the page ends and the speakers return to their tasks.
func TestLivePaging(t *testing.T) {
	testkit.NeedFFmpeg(t)
	w, ctx := newLiveWorld(t)
	orgPass := md5hex("Org-Secret-2")
	_, dev, speakers := w.speakerOrg(ctx, "Hall", "400", orgPass, 3)
	testkit.Eventually(t, 10*time.Second, "speakers online", func() bool {
		for _, sp := range speakers {
			if !sp.Online() {
				return false
			}
		}
		return true
	})
	f := w.tone(330, 5*time.Second).ID
	// casters of priority 3 and 7, each with a task on its speakers
	login := func(code string, prio int) string {
		pw := md5hex(code + "-pw")
		w.ok("POST", "/broadcast/v1/caster", w.tokA, map[string]any{"name": code, "code": code, "call_number": code, "password": pw, "priority": prio}, nil)
		var li struct{ Token string }
		w.ok("POST", "/broadcast/v1/login", "", map[string]any{"username": code, "password": pw}, &li)
		return li.Token
	}
	low, high := login("low3", 3), login("high7", 7)
	var tLow, tHigh broadcast.Task
	w.ok("POST", "/broadcast/v1/task", low, map[string]any{"name": "Low", "file_ids": []int64{f}, "device_ids": []int64{dev[0], dev[1]}, "duration_type": 3, "offline": 1}, &tLow)
	w.ok("POST", "/broadcast/v1/task", high, map[string]any{"name": "High", "file_ids": []int64{f}, "device_ids": []int64{dev[1]}, "duration_type": 3, "offline": 1}, &tHigh)
	w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/start", tLow.ID), low, nil, nil)
	w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/start", tHigh.ID), high, nil, nil)

	// the console of A (priority 5), its WebRTC connected as for PTT
	if _, err := w.s.DB.Exec(ctx, `UPDATE sessions SET socket_login_at = created_at WHERE socket_login_at = 0`); err != nil {
		t.Fatal(err)
	}
	con, err := termclient.Dial(ctx, termclient.Options{URL: w.s.URL, Token: w.consA, Media: termclient.MediaOptions{Loopback: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer con.Close()
	w.api().Run(t, []testkit.Scenario{
		{Name: "paging without media", Method: "POST", Path: "/broadcast/v1/paging/start", Token: "A", Params: map[string]any{"device_ids": dev}, Code: "1015"},
		{Name: "paging nothing", Method: "POST", Path: "/broadcast/v1/paging/start", Token: "A", Params: map[string]any{}, Code: "1013"},
		{Name: "stop without a page", Method: "GET", Path: "/broadcast/v1/paging/stop", Token: "A", Code: "1009"},
	})
	cctx, ccancel := context.WithTimeout(ctx, 20*time.Second)
	defer ccancel()
	if err := con.Connect(cctx); err != nil {
		t.Fatal(err)
	}
	var act broadcast.Action
	w.ok("POST", "/broadcast/v1/paging/start", w.tokA, map[string]any{"device_ids": []int64{dev[0], dev[1]}}, &act)
	if len(act.Lost) != 1 || act.Lost[0].DeviceID != dev[1] || act.Lost[0].ByTaskID != tHigh.ID || act.Lost[0].Reason != "priority" {
		t.Fatalf("page lost %+v, want dev 1 to the priority-7 task", act.Lost)
	}
	testkit.Eventually(t, 5*time.Second, "speaker 0 switched to the page", func() bool { return speakers[0].Status().State == "live" })
	// real speech (the simulator's clip: Opus hybrid fullband 20 ms frames, as a browser's microphone sends), which
	// the speakers decode and measure
	clips, err := sim.LoadClips("")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = con.Media.Send(ctx, clips.Long.Packets, 20*time.Millisecond) }()
	var loudest float64
	testkit.Eventually(t, 10*time.Second, "the console's speech reaches speaker 0, decoded and above silence", func() bool {
		st := speakers[0].Status()
		loudest = max(loudest, st.Level)
		return st.Packets >= 30 && st.Decoded == st.Packets && loudest > 0.02
	})
	if st := speakers[0].Status(); st.Decoded != st.Packets {
		t.Fatalf("speaker 0 decoded %d of %d frames", st.Decoded, st.Packets)
	}
	testkit.Eventually(t, 5*time.Second, "the server hears speaker 0 report the page's level", func() bool {
		rep := w.devices(w.tokA)[dev[0]].Reported
		return rep != nil && rep.State == "live" && rep.Decoded > 0 && rep.Level > 0
	})
	t.Logf("speaker 0: loudest live level %.3f", loudest)
	if st := speakers[1].Status(); st.State != "playing" || st.TaskID != tHigh.ID || st.Packets != 0 {
		t.Fatalf("speaker 1 (priority-7 task) during the page: %+v", st)
	}
	if st := speakers[2].Status(); st.State != "idle" || st.Packets != 0 {
		t.Fatalf("speaker 2 (not paged): %+v", st)
	}
	w.ok("GET", "/broadcast/v1/paging/stop", w.tokA, nil, nil)
	testkit.Eventually(t, 5*time.Second, "speaker 0 back on the low task", func() bool {
		st := speakers[0].Status()
		return st.State == "playing" && st.TaskID == tLow.ID && st.Level > 0.1
	})
}
