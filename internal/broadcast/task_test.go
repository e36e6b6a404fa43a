package broadcast_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tenfour/internal/broadcast"
	"tenfour/internal/testkit"
)

// file stores a library row of the given length (the engine needs only lengths; uploads are TestLibrary's).
func (w *world) file(customer int64, ms int64) int64 {
	w.t.Helper()
	var id int64
	err := w.s.DB.WriteRow(context.Background(), `INSERT INTO bc_files (customer_id, group_id, original_name, name, length_ms, size, created_at)
		VALUES (?, 0, 'f.mp3', ?, ?, ?, 1) RETURNING id`, customer, fmt.Sprintf("%032x.mp3", time.Now().UnixNano()), ms, ms*16).Scan(&id)
	if err != nil {
		w.t.Fatal(err)
	}
	return id
}

// speakers creates an org with n devices of customer A.
func (w *world) speakers(tok string, n int) []int64 {
	w.t.Helper()
	seq++
	var org broadcast.Org
	w.ok("POST", "/broadcast/api/v1/org", tok, map[string]any{"name": "Zone", "code": fmt.Sprintf("z%d", seq), "call_number": fmt.Sprintf("9%d", seq)}, &org)
	var ids []int64
	for i := 0; i < n; i++ {
		var d broadcast.Device
		w.ok("POST", "/broadcast/v1/device", tok, map[string]any{"org_id": org.ID, "name": fmt.Sprintf("Speaker %d", i+1),
			"code": fmt.Sprintf("s%d-%d", seq, i)}, &d)
		ids = append(ids, d.ID)
	}
	return ids
}

func (w *world) devices(tok string) map[int64]broadcast.Device {
	w.t.Helper()
	var p struct{ List []broadcast.Device }
	w.ok("GET", "/broadcast/v1/device", tok, nil, &p)
	out := map[int64]broadcast.Device{}
	for _, d := range p.List {
		out[d.ID] = d
	}
	return out
}

func (w *world) task(tok string, id int64) broadcast.Task {
	w.t.Helper()
	var p struct{ List []broadcast.Task }
	w.ok("GET", "/broadcast/v1/task", tok, nil, &p)
	for _, t := range p.List {
		if t.ID == id {
			return t
		}
	}
	w.t.Fatalf("task %d not listed", id)
	return broadcast.Task{}
}

func path(f string, a ...any) string { return fmt.Sprintf(f, a...) }

// Tasks: every call and refusal of create/update/delete/start/stop/pause/resume, positions, one thing per
// device by caster priority then newest, the loser told why; plans; the real-time player.
func TestTasks(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		w.login2()
		dev := w.speakers(w.tokA, 3)
		devB := w.speakers(w.tokB, 1)
		f1, f2 := w.file(w.custA, 10_000), w.file(w.custA, 20_000)
		fB := w.file(w.custB, 5000)
		if err := w.s.Broadcast.SetOnline(context.Background(), w.custA, dev[2], true); err != nil {
			t.Fatal(err)
		}
		base := testkit.Variants(map[string]any{"name": "Morning bell", "file_ids": []int64{f1, f2}, "device_ids": []int64{dev[0], dev[1]},
			"offline": 1})
		var t1 broadcast.Task
		w.api().Run(t, []testkit.Scenario{
			{Name: "no files", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"file_ids": nil}), Code: "1012"},
			{Name: "no devices", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"device_ids": []int64{}}), Code: "1013"},
			{Name: "no name", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"name": nil}), Code: "400"},
			{Name: "unknown file", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"file_ids": []int64{f1, 999999}}), Code: "400"},
			{Name: "another customer's file", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"file_ids": []int64{fB}}), Code: "400"},
			{Name: "another customer's device", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"device_ids": devB}), Code: "400"},
			{Name: "volume out of range", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"volume": 101}), Code: "400"},
			{Name: "loop 0", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"loop": 0}), Code: "400"},
			{Name: "duration type 4", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"duration_type": 4}), Code: "400"},
			{Name: "duration type 2 without duration", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"duration_type": 2}), Code: "400"},
			{Name: "timed without start time", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"type": 1}), Code: "400"},
			{Name: "timed with a bad start time", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"type": 1, "start_time": "25:00"}), Code: "400"},
			{Name: "weekday 8", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"type": 1, "start_time": "08:00", "weekdays": []int{1, 8}}), Code: "400"},
			{Name: "unknown plan", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"plan_id": 999999}), Code: "400"},
			{Name: "audio source 1", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(map[string]any{"audio_source": 1}), Code: "400"},
			{Name: "created with the defaults", Method: "POST", Path: "/broadcast/v1/task", Token: "A", Params: base(nil), Code: "200",
				Contains: []string{`"loop":1`, `"volume":60`, `"duration_type":1`, `"audio_source":0`, `"state":0`},
				Check:    func(t *testing.T, r testkit.Reply) { r.Into(t, &t1) }},
		})
		id := t1.ID
		w.api().Run(t, []testkit.Scenario{
			{Name: "edited", Method: "PATCH", Path: path("/broadcast/v1/task/%d", id), Token: "A", Params: map[string]any{"volume": 80, "loop": 3}, Code: "200",
				Contains: []string{`"volume":80`, `"loop":3`, fmt.Sprintf(`"file_ids":[%d,%d]`, f1, f2)}},
			{Name: "edit refused", Method: "PATCH", Path: path("/broadcast/v1/task/%d", id), Token: "A", Params: map[string]any{"volume": -1}, Code: "400"},
			{Name: "edit of another customer's", Method: "PATCH", Path: path("/broadcast/v1/task/%d", id), Token: "B", Params: map[string]any{"volume": 1}, Code: "404"},
			{Name: "started", Method: "GET", Path: path("/broadcast/v1/task/%d/start", id), Token: "A", Code: "200", Changes: true,
				Contains: []string{`"state":1`, fmt.Sprintf(`"holding":[%d,%d]`, dev[0], dev[1]), `"lost":[]`}},
			{Name: "start twice", Method: "GET", Path: path("/broadcast/v1/task/%d/start", id), Token: "A", Code: "1009"},
			{Name: "resume a playing task", Method: "GET", Path: path("/broadcast/v1/task/%d/resume", id), Token: "A", Code: "1009"},
			{Name: "edit while playing", Method: "PATCH", Path: path("/broadcast/v1/task/%d", id), Token: "A", Params: map[string]any{"volume": 10}, Code: "1011"},
			{Name: "delete while playing", Method: "DELETE", Path: path("/broadcast/v1/task/%d", id), Token: "A", Code: "1011"},
			{Name: "file in use not deleted", Method: "DELETE", Path: path("/broadcast/v1/file/%d", f1), Token: "A", Code: "1007"},
			{Name: "another customer cannot stop it", Method: "GET", Path: path("/broadcast/v1/task/%d/stop", id), Token: "B", Code: "404"},
			{Name: "unknown action", Method: "GET", Path: path("/broadcast/v1/task/%d/rewind", id), Token: "A", Code: "404"},
		})
		w.at(3 * time.Second)
		if tk := w.task(w.tokA, id); tk.FileID != f1 || tk.PositionMs != 3000 {
			t.Fatalf("3 s in: file %d at %d ms, want %d at 3000", tk.FileID, tk.PositionMs, f1)
		}
		w.at(8 * time.Second)
		if tk := w.task(w.tokA, id); tk.FileID != f2 || tk.PositionMs != 1000 {
			t.Fatalf("11 s in: file %d at %d ms, want %d at 1000", tk.FileID, tk.PositionMs, f2)
		}
		ds := w.devices(w.tokA)
		if p := ds[dev[0]].Playing; p == nil || p.TaskID != id || p.FileID != f2 || p.PositionMs != 1000 || p.Volume != 80*60/100 {
			t.Fatalf("device 1 plays %+v", p)
		}
		w.api().Run(t, []testkit.Scenario{
			{Name: "paused", Method: "GET", Path: path("/broadcast/v1/task/%d/pause", id), Token: "A", Code: "200", Changes: true, Contains: []string{`"state":2`}},
			{Name: "pause twice", Method: "GET", Path: path("/broadcast/v1/task/%d/pause", id), Token: "A", Code: "1009"},
		})
		w.at(time.Minute) // paused time does not count
		w.ok("GET", path("/broadcast/v1/task/%d/resume", id), w.tokA, nil, nil)
		w.at(time.Second)
		if tk := w.task(w.tokA, id); tk.FileID != f2 || tk.PositionMs != 2000 || tk.State != 1 {
			t.Fatalf("after pause and resume: %+v", tk)
		}

		// offline 0: only the devices online at the start (dev[2]); offline 1 would take all
		var t2 broadcast.Task
		w.ok("POST", "/broadcast/v1/task", w.tokA, base(map[string]any{"offline": 0, "device_ids": []int64{dev[1], dev[2]}, "name": "Online only"}), &t2)
		var act broadcast.Action
		w.ok("GET", path("/broadcast/v1/task/%d/start", t2.ID), w.tokA, nil, &act)
		if len(act.Task.RunDevices) != 1 || act.Task.RunDevices[0] != dev[2] {
			t.Fatalf("offline 0 run devices %v, want [%d]", act.Task.RunDevices, dev[2])
		}
		w.ok("GET", path("/broadcast/v1/task/%d/stop", t2.ID), w.tokA, nil, nil)

		// same priority: the newer start wins dev[1] and the older task is told why
		var t3 broadcast.Task
		w.ok("POST", "/broadcast/v1/task", w.tokA, base(map[string]any{"device_ids": []int64{dev[1]}, "name": "Newer"}), &t3)
		w.at(time.Second)
		w.ok("GET", path("/broadcast/v1/task/%d/start", t3.ID), w.tokA, nil, &act)
		if len(act.Lost) != 0 || len(act.Task.Holding) != 1 {
			t.Fatalf("newer start: %+v", act)
		}
		if tk := w.task(w.tokA, id); len(tk.Holding) != 1 || tk.Holding[0] != dev[0] {
			t.Fatalf("older task holds %v, want only %d", tk.Holding, dev[0])
		}
		// a caster of priority 7 takes dev[0] from both; a priority-5 start later still loses to it, with the reason
		pw := md5hex("Gate-Speaker-7")
		w.ok("POST", "/broadcast/v1/caster", w.tokA, map[string]any{"name": "Gate", "code": fmt.Sprintf("gate%d", w.custA), "call_number": "700", "password": pw, "priority": 7}, nil)
		var li struct{ Token string }
		w.ok("POST", "/broadcast/v1/login", "", map[string]any{"username": fmt.Sprintf("gate%d", w.custA), "password": pw}, &li)
		var t4 broadcast.Task
		w.ok("POST", "/broadcast/v1/task", li.Token, base(map[string]any{"device_ids": []int64{dev[0]}, "name": "Alarm", "duration_type": 3}), &t4)
		w.ok("GET", path("/broadcast/v1/task/%d/start", t4.ID), li.Token, nil, &act)
		if ds := w.devices(w.tokA); ds[dev[0]].Playing == nil || ds[dev[0]].Playing.TaskID != t4.ID || ds[dev[0]].Playing.Priority != 7 {
			t.Fatalf("dev 0 plays %+v, want the priority-7 task", ds[dev[0]].Playing)
		}
		var t5 broadcast.Task
		w.ok("POST", "/broadcast/v1/task", w.tokA, base(map[string]any{"device_ids": []int64{dev[0]}, "name": "Late"}), &t5)
		w.ok("GET", path("/broadcast/v1/task/%d/start", t5.ID), w.tokA, nil, &act)
		if len(act.Lost) != 1 || act.Lost[0].DeviceID != dev[0] || act.Lost[0].ByTaskID != t4.ID || act.Lost[0].Reason != "priority" {
			t.Fatalf("a priority-5 start on the priority-7 speaker: lost %+v", act.Lost)
		}
		// the priority-7 task ends: the speaker goes to the best remaining run (the newest priority-5 one), then back
		// to the first task, which kept running meanwhile
		w.ok("GET", path("/broadcast/v1/task/%d/stop", t4.ID), li.Token, nil, nil)
		if p := w.devices(w.tokA)[dev[0]].Playing; p == nil || p.TaskID != t5.ID {
			t.Fatalf("after the priority-7 stop dev 0 plays %+v, want task %d", p, t5.ID)
		}
		w.ok("GET", path("/broadcast/v1/task/%d/stop", t5.ID), w.tokA, nil, nil)
		if p := w.devices(w.tokA)[dev[0]].Playing; p == nil || p.TaskID != id || p.FileID != f2 || p.PositionMs != 3000 {
			t.Fatalf("after the others stopped dev 0 plays %+v, want task %d file %d at 3000 ms", p, id, f2)
		}
		for _, x := range []int64{id, t3.ID} {
			w.ok("GET", path("/broadcast/v1/task/%d/stop", x), w.tokA, nil, nil)
		}
		if ds := w.devices(w.tokA); ds[dev[0]].Playing != nil || ds[dev[1]].Playing != nil {
			t.Fatal("devices still play after every task stopped")
		}
		w.api().Run(t, []testkit.Scenario{
			{Name: "stop an idle task", Method: "GET", Path: path("/broadcast/v1/task/%d/stop", id), Token: "A", Code: "1009"},
			{Name: "pause an idle task", Method: "GET", Path: path("/broadcast/v1/task/%d/pause", id), Token: "A", Code: "1009"},
			{Name: "delete of another customer's", Method: "DELETE", Path: path("/broadcast/v1/task/%d", id), Token: "B", Code: "404"},
			{Name: "deleted", Method: "DELETE", Path: path("/broadcast/v1/task/%d", id), Token: "A", Code: "200"},
			{Name: "deleted twice", Method: "DELETE", Path: path("/broadcast/v1/task/%d", id), Token: "A", Code: "404"},
			{Name: "task list", Method: "GET", Path: "/broadcast/v1/task", Token: "A", Code: "200", Contains: []string{`"total":4`}},
			{Name: "task list of B", Method: "GET", Path: "/broadcast/v1/task", Token: "B", Code: "200", Contains: []string{`"total":0`}},
		})
	})
}

// Plans (spec §9: one active) and the real-time player (spec §7 real_time_task, §9 volume 60, duration_type 1).
func TestPlansAndRealTime(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		w.login2()
		dev := w.speakers(w.tokA, 2)
		f1, f2, f3 := w.file(w.custA, 10_000), w.file(w.custA, 20_000), w.file(w.custA, 30_000)
		var p1, p2 broadcast.Plan
		w.ok("POST", "/broadcast/v1/plan", w.tokA, map[string]any{"name": "Weekdays"}, &p1)
		w.ok("POST", "/broadcast/v1/plan", w.tokA, map[string]any{"name": "Exams"}, &p2)
		w.ok("POST", "/broadcast/v1/task", w.tokA, map[string]any{"name": "Bell", "type": 1, "start_time": "08:00", "plan_id": p1.ID,
			"file_ids": []int64{f1}, "device_ids": dev}, nil)
		w.api().Run(t, []testkit.Scenario{
			{Name: "plan started", Method: "GET", Path: path("/broadcast/v1/plan/%d/start", p1.ID), Token: "A", Code: "200", Contains: []string{`"active":1`}},
			{Name: "another plan started: the first stops", Method: "GET", Path: path("/broadcast/v1/plan/%d/start", p2.ID), Token: "A", Code: "200",
				Check: func(t *testing.T, r testkit.Reply) {
					var n int
					if err := w.s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM bc_plans WHERE customer_id = ? AND active = ?`, w.custA, true).Scan(&n); err != nil || n != 1 {
						t.Fatalf("%d active plans (%v), want 1", n, err)
					}
				}},
			{Name: "the plan (page 1, limit 1) is the active one", Method: "GET", Path: "/broadcast/v1/plan", Token: "A",
				Params: map[string]any{"page": 1, "limit": 1}, Code: "200", Contains: []string{`"total":2`, fmt.Sprintf(`"id":%d`, p2.ID), `"active":1`}},
			{Name: "unknown plan", Method: "GET", Path: "/broadcast/v1/plan/999999/start", Token: "A", Code: "404"},
			{Name: "another customer's plan", Method: "GET", Path: path("/broadcast/v1/plan/%d/start", p1.ID), Token: "B", Code: "404"},
			{Name: "plan renamed", Method: "PATCH", Path: path("/broadcast/v1/plan/%d", p2.ID), Token: "A", Params: map[string]any{"name": "Exam week"}, Code: "200"},
			{Name: "plan without name", Method: "POST", Path: "/broadcast/v1/plan", Token: "A", Params: map[string]any{}, Code: "400"},
			{Name: "plan with tasks not deleted", Method: "DELETE", Path: path("/broadcast/v1/plan/%d", p1.ID), Token: "A", Code: "1014"},
			{Name: "plan stopped", Method: "GET", Path: path("/broadcast/v1/plan/%d/stop", p2.ID), Token: "A", Code: "200", Contains: []string{`"active":0`}},
			{Name: "empty plan deleted", Method: "DELETE", Path: path("/broadcast/v1/plan/%d", p2.ID), Token: "A", Code: "200"},

			{Name: "real-time task defaults", Method: "GET", Path: "/broadcast/v1/real_time_task", Token: "A", Code: "200", Changes: true,
				Contains: []string{`"volume":60`, `"duration_type":1`, `"type":2`}},
			{Name: "real-time start without files", Method: "POST", Path: "/broadcast/v1/real_time_task/start", Token: "A", Code: "1012"},
			{Name: "real-time next without files", Method: "GET", Path: "/broadcast/v1/real_time_task/next", Token: "A", Code: "1012"},
			{Name: "real-time set", Method: "PATCH", Path: "/broadcast/v1/real_time_task", Token: "A", Code: "200",
				Params:   map[string]any{"file_ids": []int64{f1, f2, f3}, "device_ids": []int64{dev[0]}, "volume": 70},
				Contains: []string{fmt.Sprintf(`"choice_file_id":%d`, f1), `"volume":70`}},
			{Name: "real-time set a bad volume", Method: "PATCH", Path: "/broadcast/v1/real_time_task", Token: "A", Code: "400", Params: map[string]any{"volume": 200}},
			{Name: "real-time choice", Method: "PATCH", Path: "/broadcast/v1/real_time_task/choice", Token: "A", Code: "200",
				Params: map[string]any{"choice_file_id": f2}, Contains: []string{fmt.Sprintf(`"choice_file_id":%d`, f2)}},
			{Name: "real-time choice not in the list", Method: "PATCH", Path: "/broadcast/v1/real_time_task/choice", Token: "A", Code: "400",
				Params: map[string]any{"choice_file_id": 999999}},
			{Name: "real-time start", Method: "POST", Path: "/broadcast/v1/real_time_task/start", Token: "A", Code: "200",
				Contains: []string{`"state":1`, fmt.Sprintf(`"file_id":%d`, f2)}},
			{Name: "real-time next", Method: "GET", Path: "/broadcast/v1/real_time_task/next", Token: "A", Code: "200",
				Contains: []string{fmt.Sprintf(`"file_id":%d`, f3), `"position_ms":0`}},
			{Name: "real-time next wraps", Method: "GET", Path: "/broadcast/v1/real_time_task/next", Token: "A", Code: "200",
				Contains: []string{fmt.Sprintf(`"file_id":%d`, f1)}},
			{Name: "real-time prev", Method: "GET", Path: "/broadcast/v1/real_time_task/prev", Token: "A", Code: "200",
				Contains: []string{fmt.Sprintf(`"file_id":%d`, f3)}},
			{Name: "real-time settings while playing", Method: "PATCH", Path: "/broadcast/v1/real_time_task", Token: "A", Code: "1011", Params: map[string]any{"volume": 10}},
			{Name: "real-time pause", Method: "GET", Path: "/broadcast/v1/real_time_task/pause", Token: "A", Code: "200", Contains: []string{`"state":2`}},
			{Name: "real-time start resumes", Method: "POST", Path: "/broadcast/v1/real_time_task/start", Token: "A", Code: "200", Contains: []string{`"state":1`}},
			{Name: "real-time stop", Method: "GET", Path: "/broadcast/v1/real_time_task/stop", Token: "A", Code: "200", Contains: []string{`"state":0`}},
			{Name: "real-time stop twice", Method: "GET", Path: "/broadcast/v1/real_time_task/stop", Token: "A", Code: "1009"},
			{Name: "the real-time task is not in the task list", Method: "GET", Path: "/broadcast/v1/task", Token: "A", Code: "200", Contains: []string{`"total":1`}},
			{Name: "B has its own real-time task", Method: "GET", Path: "/broadcast/v1/real_time_task", Token: "B", Code: "200", Changes: true, Contains: []string{`"file_ids":[]`}},
		})
	})
}
