package broadcast

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TaskIn is the parameters of POST /v1/task and PATCH /v1/task/{id} (and PATCH /v1/real_time_task); a nil
// field is left out (POST: its default; spec §7: offline 0, audio_source 0, loop 1).
type TaskIn struct {
	Name         *string    `json:"name"`
	Type         *string    `json:"type"`
	PlanID       *string    `json:"plan_id"`
	Offline      *string    `json:"offline"`
	AudioSource  *string    `json:"audio_source"`
	Loop         *string    `json:"loop"`
	Volume       *string    `json:"volume"`
	DurationType *string    `json:"duration_type"`
	Duration     *string    `json:"duration"`
	IntervalTime *string    `json:"interval_time"`
	StartTime    *string    `json:"start_time"`
	Weekdays     *flex.List `json:"weekdays"`
	FileIDs      *flex.List `json:"file_ids"`
	DeviceIDs    *flex.List `json:"device_ids"`
}

func intIn(field string, v *string, lo, hi int, into *int) error {
	if v == nil {
		return nil
	}
	n, err := httpx.Int(field, *v)
	if err != nil || n < int64(lo) || n > int64(hi) {
		return httpx.BadParam(field, itoa(int64(lo))+" to "+itoa(int64(hi)))
	}
	*into = int(n)
	return nil
}

func idList(field string, l flex.List) ([]int64, error) {
	ids, err := httpx.RowIDs(field, l, MaxListLen, false)
	if ids == nil {
		ids = []int64{}
	}
	return ids, err
}

// apply merges in into t and checks the result (t holds the defaults or the stored task).
func (s *Service) apply(ctx context.Context, customerID int64, t *Task, in TaskIn) error {
	if in.Name != nil {
		n, err := nameField.Check(*in.Name)
		if err != nil {
			return err
		}
		t.Name = n
	}
	if t.Kind != KindRealTime {
		if err := intIn("type", in.Type, KindManual, KindTimed, &t.Kind); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name   string
		v      *string
		lo, hi int
		into   *int
	}{
		{"offline", in.Offline, 0, 1, &t.Offline},
		{"audio_source", in.AudioSource, 0, 0, &t.AudioSource},
		{"loop", in.Loop, 1, 10000, &t.Loop},
		{"volume", in.Volume, 0, 100, &t.Volume},
		{"duration_type", in.DurationType, DurationRounds, DurationUntil, &t.DurationType},
		{"duration", in.Duration, 1, 86400, &t.Duration},
		{"interval_time", in.IntervalTime, 0, 86400, &t.IntervalTime},
	} {
		if err := intIn(f.name, f.v, f.lo, f.hi, f.into); err != nil {
			return err
		}
	}
	if t.DurationType == DurationFor && t.Duration <= 0 {
		return httpx.BadParam("duration", "required for duration_type 2 (seconds)")
	}
	if in.PlanID != nil {
		id, err := httpx.Int("plan_id", *in.PlanID)
		if err != nil || id < 0 {
			return httpx.BadParam("plan_id", "not an id")
		}
		if id != 0 {
			if _, err := s.plan(ctx, customerID, id); err != nil {
				return notFoundAs(err, "plan_id")
			}
		}
		t.PlanID = id
	}
	if in.StartTime != nil {
		v := strings.TrimSpace(*in.StartTime)
		if len(v) == 5 {
			v += ":00"
		}
		if v != "" {
			if _, err := time.Parse(time.TimeOnly, v); err != nil {
				return httpx.BadParam("start_time", "HH:MM:SS")
			}
		}
		t.StartTime = v
	}
	if in.Weekdays != nil {
		ids, err := idList("weekdays", *in.Weekdays)
		if err != nil {
			return err
		}
		t.Weekdays = []int{}
		for _, d := range ids {
			if d < 1 || d > 7 {
				return httpx.BadParam("weekdays", "1 (Monday) to 7 (Sunday)")
			}
			t.Weekdays = append(t.Weekdays, int(d))
		}
	}
	if t.Kind == KindTimed && t.StartTime == "" {
		return httpx.BadParam("start_time", "required for a timed task")
	}
	if in.FileIDs != nil {
		ids, err := idList("file_ids", *in.FileIDs)
		if err != nil {
			return err
		}
		if _, err := s.filesByID(ctx, customerID, ids, "file_ids"); err != nil {
			return err
		}
		t.FileIDs = ids
	}
	if in.DeviceIDs != nil {
		ids, err := idList("device_ids", *in.DeviceIDs)
		if err != nil {
			return err
		}
		if err := s.checkDevices(ctx, customerID, ids); err != nil {
			return err
		}
		t.DeviceIDs = ids
	}
	if t.Kind != KindRealTime {
		if len(t.FileIDs) == 0 {
			return ErrNoFiles
		}
		if len(t.DeviceIDs) == 0 {
			return ErrNoDevices
		}
	}
	return nil
}

func newTask(c Caller, kind int) Task {
	return Task{CasterID: c.CasterID, Kind: kind, Loop: 1, Volume: DefaultVolume, DurationType: DurationRounds,
		Weekdays: []int{}, FileIDs: []int64{}, DeviceIDs: []int64{}, RunDevices: []int64{}, customerID: c.CustomerID}
}

const taskCols = `id, customer_id, caster_id, kind, name, plan_id, offline, audio_source, loop_count, volume, duration_type,
	duration_sec, interval_time, start_time, weekdays, choice_file_id, state, started_at, paused_at, paused_ms, run_devices,
	fired_until, missed_count, missed_at, ended_at, end_reason, created_at, updated_at`

func scanTask(r db.Scanner) (Task, error) {
	var t Task
	var wd, run string
	err := r.Scan(&t.ID, &t.customerID, &t.CasterID, &t.Kind, &t.Name, &t.PlanID, &t.Offline, &t.AudioSource, &t.Loop,
		&t.Volume, &t.DurationType, &t.Duration, &t.IntervalTime, &t.StartTime, &wd, &t.ChoiceFileID, &t.State,
		&t.StartedAt, &t.PausedAt, &t.PausedMs, &run, &t.FiredUntil, &t.MissedCount, &t.MissedAt, &t.EndedAt,
		&t.EndReason, &t.CreatedAt, &t.UpdatedAt)
	if err != nil {
		return t, db.NotFound(err)
	}
	t.Weekdays, t.RunDevices = splitInts(wd), splitIDs(run)
	t.Holding = []int64{}
	return t, err
}

type querier interface {
	Query(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRow(ctx context.Context, q string, args ...any) *sql.Row
}

// fillLists reads a task's files (in order) and devices.
func fillLists(ctx context.Context, q querier, t *Task) error {
	rows, err := q.Query(ctx, `SELECT file_id FROM bc_task_files WHERE task_id = ? ORDER BY pos`, t.ID)
	if t.FileIDs, err = db.Collect(rows, err, db.Int64); err != nil {
		return err
	}
	rows, err = q.Query(ctx, `SELECT device_id FROM bc_task_devices WHERE task_id = ? ORDER BY device_id`, t.ID)
	t.DeviceIDs, err = db.Collect(rows, err, db.Int64)
	return err
}

func (s *Service) task(ctx context.Context, customerID, id int64) (Task, error) {
	t, err := scanTask(s.db.QueryRow(ctx, `SELECT `+taskCols+` FROM bc_tasks WHERE customer_id = ? AND id = ?`, customerID, id))
	if err != nil {
		return t, err
	}
	return t, fillLists(ctx, s.db, &t)
}

func (s *Service) tasksWhere(ctx context.Context, cond string, args ...any) ([]Task, error) {
	rows, err := s.db.Query(ctx, `SELECT `+taskCols+` FROM bc_tasks WHERE `+cond+` ORDER BY id`, args...)
	list, err := db.Collect(rows, err, scanTask)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if err := fillLists(ctx, s.db, &list[i]); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// saveTask inserts (ID 0) or updates a task's settings and lists, in one transaction.
func (s *Service) saveTask(ctx context.Context, t *Task) error {
	now := s.Now().UnixMilli()
	t.UpdatedAt = now
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if t.ID == 0 {
			if t.Kind != KindRealTime { // real-time tasks are one per caster, bounded by MaxCasters
				var n int
				if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM bc_tasks WHERE customer_id = ? AND kind <> ?`,
					t.customerID, KindRealTime).Scan(&n); err != nil {
					return err
				}
				if n >= MaxTasks {
					return ErrTasksFull
				}
			}
			t.CreatedAt = now
			t.FiredUntil = now // a timed task never fires for times before it existed
			if err := tx.QueryRow(ctx, `INSERT INTO bc_tasks (customer_id, caster_id, kind, name, plan_id, offline, audio_source,
				loop_count, volume, duration_type, duration_sec, interval_time, start_time, weekdays, choice_file_id, fired_until,
				created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				t.customerID, t.CasterID, t.Kind, t.Name, t.PlanID, t.Offline, t.AudioSource, t.Loop, t.Volume, t.DurationType,
				t.Duration, t.IntervalTime, t.StartTime, joinInts(t.Weekdays), t.ChoiceFileID, t.FiredUntil, now, now).Scan(&t.ID); err != nil {
				return err
			}
		} else {
			if _, err := tx.Exec(ctx, `UPDATE bc_tasks SET kind = ?, name = ?, plan_id = ?, offline = ?, audio_source = ?, loop_count = ?,
				volume = ?, duration_type = ?, duration_sec = ?, interval_time = ?, start_time = ?, weekdays = ?, choice_file_id = ?,
				updated_at = ? WHERE id = ?`, t.Kind, t.Name, t.PlanID, t.Offline, t.AudioSource, t.Loop, t.Volume, t.DurationType,
				t.Duration, t.IntervalTime, t.StartTime, joinInts(t.Weekdays), t.ChoiceFileID, now, t.ID); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM bc_task_files WHERE task_id = ?`, t.ID); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM bc_task_devices WHERE task_id = ?`, t.ID); err != nil {
				return err
			}
		}
		for i, f := range t.FileIDs {
			if _, err := tx.Exec(ctx, `INSERT INTO bc_task_files (task_id, pos, file_id) VALUES (?, ?, ?)`, t.ID, i, f); err != nil {
				return err
			}
		}
		for _, d := range uniq(t.DeviceIDs) {
			if _, err := tx.Exec(ctx, `INSERT INTO bc_task_devices (task_id, device_id) VALUES (?, ?)`, t.ID, d); err != nil {
				return err
			}
		}
		return nil
	})
}

func uniq(ids []int64) []int64 {
	seen := map[int64]bool{}
	out := []int64{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// saveRun stores a task's run state.
func (s *Service) saveRun(ctx context.Context, t *Task) error {
	t.UpdatedAt = s.Now().UnixMilli()
	_, err := s.db.Exec(ctx, `UPDATE bc_tasks SET state = ?, started_at = ?, paused_at = ?, paused_ms = ?, run_devices = ?,
		fired_until = ?, missed_count = ?, missed_at = ?, ended_at = ?, end_reason = ?, choice_file_id = ?, updated_at = ? WHERE id = ?`,
		t.State, t.StartedAt, t.PausedAt, t.PausedMs, joinIDs(t.RunDevices), t.FiredUntil, t.MissedCount, t.MissedAt,
		t.EndedAt, t.EndReason, t.ChoiceFileID, t.UpdatedAt, t.ID)
	return err
}

// claimRun saves t's run state only if the row's run is still as in was (read before the change): the scheduler's
// claim. In a cluster a second node's pass over the same occurrence, or a console's start, stop or pause on
// another node meanwhile, changed the row, and this pass leaves it alone (false): an occurrence fires once.
func (s *Service) claimRun(ctx context.Context, was Task, t *Task) (bool, error) {
	t.UpdatedAt = s.Now().UnixMilli()
	n, err := s.db.Exec(ctx, `UPDATE bc_tasks SET state = ?, started_at = ?, paused_at = ?, paused_ms = ?, run_devices = ?,
		fired_until = ?, missed_count = ?, missed_at = ?, ended_at = ?, end_reason = ?, choice_file_id = ?, updated_at = ?
		WHERE id = ? AND state = ? AND started_at = ? AND paused_at = ? AND paused_ms = ? AND fired_until = ? AND missed_count = ?`,
		t.State, t.StartedAt, t.PausedAt, t.PausedMs, joinIDs(t.RunDevices), t.FiredUntil, t.MissedCount, t.MissedAt,
		t.EndedAt, t.EndReason, t.ChoiceFileID, t.UpdatedAt, t.ID,
		was.State, was.StartedAt, was.PausedAt, was.PausedMs, was.FiredUntil, was.MissedCount)
	if err != nil {
		return false, err
	}
	k, err := n.RowsAffected()
	return k == 1, err
}
