package broadcast_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tenfour/internal/broadcast"
	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// A task on three simulated speakers: each fetches and decodes the file's audio (level above silence) and
// reports an advancing position; pause, resume and stop reach all three within 500 ms.
func TestTaskOnThreeSimulatedSpeakers(t *testing.T) {
	needFFmpeg(t)
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
