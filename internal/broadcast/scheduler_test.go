package broadcast_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"tenfour/internal/broadcast"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/testkit"
)

type quietHub struct{}

func (quietHub) Publish(int64, string, any, realtime.Audience) {}

func (w *world) hms(d time.Duration) string { return w.clock.Now().Add(d).Format(time.TimeOnly) }

func (w *world) row(id int64) (state, missed int, reason string) {
	w.t.Helper()
	if err := w.s.DB.QueryRow(context.Background(), `SELECT state, missed_count, end_reason FROM bc_tasks WHERE id = ?`, id).
		Scan(&state, &missed, &reason); err != nil {
		w.t.Fatal(err)
	}
	return
}

// The scheduler with a controllable clock: a timed task starts on time, plays its rounds with the interval between
// them, finishes; a higher-priority timed task pre-empts a manual one, which resumes after; a start due while the
// server was down runs late when its run is not over, and is recorded as missed when it is; plans gate timed tasks.
func TestScheduler(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		dev := w.speakers(w.tokA, 2)
		f1 := w.file(w.custA, 10_000)
		// timed: in 30 s, 2 rounds of 10 s with 5 s between (25 s in all)
		var tt broadcast.Task
		w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": "Bell", "type": 1, "start_time": w.hms(30 * time.Second),
			"loop": 2, "interval_time": 5, "file_ids": []int64{f1}, "device_ids": []int64{dev[0]}, "offline": 1}, &tt)
		// a manual task of the same caster until stopped on both speakers, started before
		var mt broadcast.Task
		w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": "Music", "duration_type": 3,
			"file_ids": []int64{f1}, "device_ids": dev, "offline": 1}, &mt)
		w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/start", mt.ID), w.tokA, nil, nil)
		playing := func(d int64) *broadcast.Playing { return w.devices(w.tokA)[d].Playing }

		w.at(20 * time.Second)
		if st, _, _ := w.row(tt.ID); st != 0 {
			t.Fatal("the timed task started early")
		}
		w.at(11 * time.Second) // 1 s past its start
		if p := playing(dev[0]); p == nil || p.TaskID != tt.ID || p.PositionMs != 1000 {
			t.Fatalf("1 s after the start dev 0 plays %+v, want the timed task at 1000 ms", p)
		}
		if p := playing(dev[1]); p == nil || p.TaskID != mt.ID {
			t.Fatalf("dev 1 plays %+v, want the manual task still", p)
		}
		w.at(11 * time.Second) // 12 s: between the rounds
		if p := playing(dev[0]); p == nil || p.TaskID != tt.ID || !p.Gap {
			t.Fatalf("12 s in dev 0 plays %+v, want the interval", p)
		}
		w.at(5 * time.Second) // 17 s: round 2, 2 s in
		if p := playing(dev[0]); p == nil || p.TaskID != tt.ID || p.Gap || p.PositionMs != 2000 {
			t.Fatalf("17 s in dev 0 plays %+v, want round 2 at 2000 ms", p)
		}
		w.at(9 * time.Second) // 26 s: over
		if st, _, reason := w.row(tt.ID); st != 0 || reason != "finished" {
			t.Fatalf("after its run: state %d %q", st, reason)
		}
		// the manual task has the speaker back, at its own running position (started 66 s ago, 10 s file)
		if p := playing(dev[0]); p == nil || p.TaskID != mt.ID || p.PositionMs != 6000 {
			t.Fatalf("after the timed task dev 0 plays %+v, want the manual task at 6000 ms", p)
		}
		w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/stop", mt.ID), w.tokA, nil, nil)

		// the server is down over the next day's start: a new service on the same store comes up 3 s late and
		// plays the rest of the run
		restart := func(at time.Time) *broadcast.Service {
			s2 := broadcast.New(w.s.DB, nil, quietHub{}, broadcast.Options{})
			s2.SetClock(func() time.Time { return at })
			if err := s2.Tick(context.Background()); err != nil {
				t.Fatal(err)
			}
			return s2
		}
		w.s.Broadcast.SetClock(func() time.Time { return time.Unix(0, 0) }) // the old node sleeps (its store stays)
		start := w.clock.Now().Add(-56 * time.Second).Add(30 * time.Second) // today's start
		restart(start.Add(24*time.Hour + 3*time.Second))
		if st, missed, _ := w.row(tt.ID); st != 1 || missed != 0 {
			t.Fatalf("3 s late after a restart: state %d missed %d, want playing", st, missed)
		}
		var startedAt int64
		_ = w.s.DB.QueryRow(context.Background(), `SELECT started_at FROM bc_tasks WHERE id = ?`, tt.ID).Scan(&startedAt)
		if startedAt != start.Add(24*time.Hour).UnixMilli() {
			t.Fatalf("late run started at %d, want its due time %d", startedAt, start.Add(24*time.Hour).UnixMilli())
		}
		// it finishes; the day after the server is down past the whole run: missed, never silently lost
		restart(start.Add(24*time.Hour + time.Minute))
		restart(start.Add(48*time.Hour + time.Hour))
		if st, missed, _ := w.row(tt.ID); st != 0 || missed != 1 {
			t.Fatalf("down past the whole run: state %d missed %d, want idle and 1 missed", st, missed)
		}
		// down for three days: every start in between is counted
		restart(start.Add(5*24*time.Hour + time.Hour))
		if _, missed, _ := w.row(tt.ID); missed != 4 {
			t.Fatalf("after three more days down: %d missed, want 4", missed)
		}
	})
}

// Timed tasks of a plan run only while it is the active plan; duration types 2 and 3.
func TestSchedulerPlansAndDurations(t *testing.T) {
	w := newWorld(t, "sqlite")
	dev := w.speakers(w.tokA, 1)
	f1 := w.file(w.custA, 4000)
	var p broadcast.Plan
	w.ok("POST", "/broadcast/v1/plan", w.tokA, map[string]any{"name": "Term"}, &p)
	var tp, tdur, tuntil broadcast.Task
	w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": "Planned", "type": 1, "start_time": w.hms(10 * time.Second),
		"plan_id": p.ID, "file_ids": []int64{f1}, "device_ids": dev, "offline": 1}, &tp)
	w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": "For 15 s", "duration_type": 2, "duration": 15,
		"file_ids": []int64{f1}, "device_ids": dev, "offline": 1}, &tdur)
	w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": "Until stopped", "duration_type": 3, "interval_time": 1,
		"file_ids": []int64{f1}, "device_ids": dev, "offline": 1}, &tuntil)
	w.at(11 * time.Second)
	if st, _, _ := w.row(tp.ID); st != 0 {
		t.Fatal("a task of an inactive plan started")
	}
	w.ok("GET", fmt.Sprintf("/broadcast/v1/plan/%d/start", p.ID), w.tokA, nil, nil)
	w.at(24 * time.Hour)
	if st, _, _ := w.row(tp.ID); st != 1 {
		t.Fatal("the active plan's task did not start the next day")
	}
	w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/stop", tp.ID), w.tokA, nil, nil)
	w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/start", tdur.ID), w.tokA, nil, nil)
	w.ok("GET", fmt.Sprintf("/broadcast/v1/task/%d/start", tuntil.ID), w.tokA, nil, nil)
	w.at(14 * time.Second)
	if st, _, _ := w.row(tdur.ID); st != 1 {
		t.Fatal("duration 15 s ended before 15 s")
	}
	w.at(2 * time.Second)
	if st, _, r := w.row(tdur.ID); st != 0 || r != "finished" {
		t.Fatalf("duration 15 s after 16 s: state %d %q", st, r)
	}
	w.at(time.Hour)
	if st, _, _ := w.row(tuntil.ID); st != 1 {
		t.Fatal("until-stopped ended on its own")
	}
	if tk := w.task(w.tokA, tuntil.ID); tk.PositionMs < 0 || tk.PositionMs > 4000 {
		t.Fatalf("until-stopped position %d", tk.PositionMs)
	}
}

// countingHub counts the broadcast.task events that say a task started playing, by task.
type countingHub struct {
	mu      sync.Mutex
	started map[int64]int
	missed  int
}

func (h *countingHub) Publish(_ int64, typ string, data any, _ realtime.Audience) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch typ {
	case broadcast.EventTask:
		if tk, ok := data.(broadcast.Task); ok && tk.State == broadcast.StatePlaying {
			h.started[tk.ID]++
		}
	case broadcast.EventMissed:
		h.missed++
	}
}

// Three schedulers on one store (the nodes of a cluster while the lease moves) passing at the same moment: each
// occurrence is claimed by one of them — one run per task, one "playing" event, each missed start counted and
// announced once; on both engines.
func TestSchedulersOnOneStoreFireEachOccurrenceOnce(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		dev := w.speakers(w.tokA, 1)
		f1 := w.file(w.custA, 10_000)
		var ids []int64
		for i := range 8 {
			var tk broadcast.Task
			w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": fmt.Sprintf("Bell %d", i), "type": 1,
				"start_time": w.hms(30 * time.Second), "file_ids": []int64{f1}, "device_ids": dev, "offline": 1}, &tk)
			ids = append(ids, tk.ID)
		}
		var tm broadcast.Task // due 20 s ago... and over: its start is missed (the schedulers come up late)
		w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": "Missed", "type": 1,
			"start_time": w.hms(10 * time.Second), "file_ids": []int64{f1}, "device_ids": dev, "offline": 1}, &tm)
		w.s.Broadcast.SetClock(func() time.Time { return time.Unix(0, 0) }) // the server's own scheduler sleeps
		at := w.clock.Now().Add(31 * time.Second)
		hub := &countingHub{started: map[int64]int{}}
		var nodes []*broadcast.Service
		for range 3 {
			s := broadcast.New(w.s.DB, nil, hub, broadcast.Options{})
			s.SetClock(func() time.Time { return at })
			nodes = append(nodes, s)
		}
		var wg sync.WaitGroup
		for _, s := range nodes {
			wg.Go(func() {
				if err := s.Fire(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		for _, id := range ids {
			var started int64
			if err := w.s.DB.QueryRow(context.Background(), `SELECT started_at FROM bc_tasks WHERE id = ?`, id).Scan(&started); err != nil {
				t.Fatal(err)
			}
			if hub.started[id] != 1 || started != w.clock.Now().Add(30*time.Second).UnixMilli() {
				t.Fatalf("task %d: %d playing events (want 1), started at %d", id, hub.started[id], started)
			}
		}
		if _, missed, _ := w.row(tm.ID); missed != 1 || hub.missed != 1 {
			t.Fatalf("the missed start: counted %d, announced %d times; want once each", missed, hub.missed)
		}
	})
}

// A run that moves on by itself (the next file, the next round) tells the consoles at the scheduler's pass: the
// task with its new file and what its speakers play now (issue 33: the real-time player's status went stale, as
// nothing was said between the start and the end of a run).
func TestRunAdvanceTellsTheConsoles(t *testing.T) {
	w := newWorld(t, "sqlite")
	dev := w.speakers(w.tokA, 1)
	f1, f2 := w.file(w.custA, 10_000), w.file(w.custA, 10_000)
	var rt broadcast.Task
	w.ok("PATCH", "/broadcast/v1/real_time_task", w.tokA, map[string]any{"file_ids": []int64{f1, f2}, "device_ids": dev, "offline": 1}, &rt)
	sock := testkit.Console(t, w.s.URL, w.consA)
	defer sock.Close()
	w.ok("POST", "/broadcast/v1/real_time_task/start", w.tokA, nil, nil)
	w.at(time.Second) // the first pass sees the run on its first file
	sock.WaitEvent(broadcast.EventTask, 5*time.Second, nil)
	sock.Drain()

	w.at(10 * time.Second) // 11 s: the second file
	var task broadcast.Task
	json.Unmarshal(sock.WaitEvent(broadcast.EventTask, 5*time.Second, nil).Data, &task)
	if task.ID != rt.ID || task.FileID != f2 || task.PositionMs != 1000 {
		t.Fatalf("the task event after the first file: %+v, want task %d on file %d at 1000 ms", task, rt.ID, f2)
	}
	type devices struct {
		List []struct {
			ID      int64
			Playing *broadcast.Playing
		}
	}
	// The start's own devices event (the first file) may still be on its way: the advance's is the one on file 2.
	var devs devices
	onFile2 := func(f testkit.Frame) bool {
		var d devices
		return json.Unmarshal(f.Data, &d) == nil && len(d.List) == 1 && d.List[0].Playing != nil && d.List[0].Playing.FileID == f2
	}
	json.Unmarshal(sock.WaitEvent(broadcast.EventDevices, 5*time.Second, onFile2).Data, &devs)
	if len(devs.List) != 1 || devs.List[0].ID != dev[0] || devs.List[0].Playing == nil || devs.List[0].Playing.FileID != f2 {
		t.Fatalf("the devices event after the first file: %+v, want speaker %d on file %d", devs.List, dev[0], f2)
	}
	sock.Drain()
	w.at(time.Second) // still the second file: nothing to say
	if f, ok := sock.TryWait(300*time.Millisecond, func(f testkit.Frame) bool { return f.Type == broadcast.EventTask }); ok {
		t.Fatalf("a task event without a change: %s", f.Data)
	}
}
