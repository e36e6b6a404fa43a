package broadcast

import (
	"context"
	"log/slog"
	"sync"

	"tenfour/internal/media/ffchild"
	"tenfour/internal/platform/clock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/quota"
	"tenfour/internal/platform/realtime"
)

// Hub is what the service needs of the socket hub (a *realtime.Hub).
type Hub interface {
	Publish(customerID int64, typ string, data any, to realtime.Audience)
}

var _ Hub = (*realtime.Hub)(nil)

// Console events (docs/console-socket.md "Broadcast").
const (
	EventTask      = "broadcast.task"      // a task changed (created, edited, started, paused, resumed, stopped, finished): Task
	EventTaskGone  = "broadcast.taskGone"  // {id}: a task was deleted
	EventDevices   = "broadcast.devices"   // {list:[{id, playing|null}]}: what devices play changed
	EventDevice    = "broadcast.device"    // Device: a device was added, edited, changed volume or went on/offline
	EventPreempted = "broadcast.preempted" // {list:[Lost]}: running tasks lost devices to others, and why
	EventMissed    = "broadcast.missed"    // {task_id, due, missed_count}: a timed start passed while the server was down
)

// Options configure the service.
type Options struct {
	// MusicDir is where library files are stored (served as /broadcast/music/{name}).
	MusicDir string
	// FFmpeg is the transcoder's path ("" = "ffmpeg" on PATH).
	FFmpeg string
	// MaxUpload bounds an uploaded audio file (default 100 MB).
	MaxUpload int64
	// Jobs is the server's one limiter of ffmpeg work clients ask for (upload transcodes here; docs/adr/0030);
	// nil: a limiter of the package's own with ffchild.DefaultLimits.
	Jobs *ffchild.Limiter
	// Quota is the customers' storage quota the library's files count against (nil: unlimited; quota.go).
	Quota *quota.Quota
	// Pager is the voice service, which carries a console's microphone to the speakers it pages (paging.go;
	// nil: paging answers that the console's audio is not connected).
	Pager Pager
}

// Service is the broadcast service.
type Service struct {
	clock.Clock // SetClock and Now: tests move time instead of sleeping

	db   *db.DB
	auth Auth // credentials and sessions (access.go)
	hub  Hub
	opt  Options

	// mu serializes run-state changes: REST actions and scheduler passes.
	mu sync.Mutex
	// segs is where each playing run was at the scheduler's last pass (Fire, under mu): a run found elsewhere
	// has advanced by itself and its consoles are told.
	segs map[int64]segment

	spOnce sync.Once
	sp     *speakers // connected speakers (speaker.go)

	pager Pager // the voice service (paging.go)
	pg    pages // live pages by caster
}

// New builds the service. a (*auth.Service) signs callers in and keeps every password; nil (a tool, a test of
// the store alone) signs nobody in.
func New(d *db.DB, a Auth, hub Hub, opt Options) *Service {
	if opt.FFmpeg == "" {
		opt.FFmpeg = "ffmpeg"
	}
	if opt.MaxUpload <= 0 {
		opt.MaxUpload = 100 << 20
	}
	return &Service{db: d, auth: a, hub: hub, opt: opt, pager: opt.Pager, pg: pages{by: map[int64]*page{}}}
}

// Verbs declares the console events.
func (s *Service) Verbs() []realtime.Verb {
	return realtime.Events(realtime.ConsoleOnly,
		EventTask, EventTaskGone, EventDevices, EventDevice, EventPreempted, EventMissed, EventPageEnded)
}

// AtLogin is the hub's login hook: a console of account type "1" gets its caster (spec §4).
func (s *Service) AtLogin(ctx context.Context, c *realtime.Conn, _ bool) {
	p := c.Principal()
	if !p.IsDispatcher() || p.AcctType != "1" {
		return
	}
	if _, err := s.EnsureCaster(context.WithoutCancel(ctx), p); err != nil {
		slog.ErrorContext(ctx, "broadcast: ensure caster at login", "account", p.AccountID, "err", err)
	}
}

// withLive fills a task's live fields.
func (s *Service) withLive(ctx context.Context, t Task) Task {
	runs, d, err := s.state(ctx, t.customerID)
	if err != nil {
		slog.ErrorContext(ctx, "broadcast: task state", "task", t.ID, "err", err)
		return t
	}
	for i := range runs {
		if runs[i].t.ID == t.ID {
			d.live(&t, &runs[i], s.Now().UnixMilli())
			return t
		}
	}
	d.live(&t, nil, 0)
	return t
}

func (s *Service) publishTask(ctx context.Context, t Task) {
	s.hub.Publish(t.customerID, EventTask, s.withLive(ctx, t), realtime.Consoles)
}

// --- task actions ---

// CreateTask stores a manual or timed task.
func (s *Service) CreateTask(ctx context.Context, c Caller, in TaskIn) (Task, error) {
	t := newTask(c, KindManual)
	if err := s.apply(ctx, c.CustomerID, &t, in); err != nil {
		return t, err
	}
	if t.Name == "" {
		return t, errRequired("name")
	}
	if err := s.saveTask(ctx, &t); err != nil {
		return t, err
	}
	s.publishTask(ctx, t)
	return s.withLive(ctx, t), nil
}

// UpdateTask edits an idle task.
func (s *Service) UpdateTask(ctx context.Context, c Caller, id int64, in TaskIn) (Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.task(ctx, c.CustomerID, id)
	if err != nil || t.Kind == KindRealTime {
		return t, notFoundIf(err)
	}
	if t.State != StateIdle {
		return t, ErrTaskRunning
	}
	wasTimed, wasStart := t.Kind == KindTimed, t.StartTime
	if err := s.apply(ctx, c.CustomerID, &t, in); err != nil {
		return t, err
	}
	if err := s.saveTask(ctx, &t); err != nil {
		return t, err
	}
	if t.Kind == KindTimed && (!wasTimed || wasStart != t.StartTime) { // a new schedule counts from now
		t.FiredUntil = s.Now().UnixMilli()
		if err := s.saveRun(ctx, &t); err != nil {
			return t, err
		}
	}
	s.publishTask(ctx, t)
	return s.withLive(ctx, t), nil
}

func notFoundIf(err error) error {
	if err == nil {
		return db.ErrNotFound
	}
	return err
}

// DeleteTask removes an idle task.
func (s *Service) DeleteTask(ctx context.Context, c Caller, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.task(ctx, c.CustomerID, id)
	if err != nil || t.Kind == KindRealTime {
		return notFoundIf(err)
	}
	if t.State != StateIdle {
		return ErrTaskRunning
	}
	if _, err := s.db.Exec(ctx, `DELETE FROM bc_tasks WHERE customer_id = ? AND id = ? AND state = 0`, c.CustomerID, id); err != nil {
		return err
	}
	s.hub.Publish(c.CustomerID, EventTaskGone, map[string]any{"id": id}, realtime.Consoles)
	return nil
}

// Action is what start/stop/pause/resume answer: the task, and the devices it wanted but did not get.
type Action struct {
	Task Task   `json:"task"`
	Lost []Lost `json:"lost"`
}

// Act runs a task action: start, stop, pause, resume (spec §7 GET /v1/task/{id}/start|stop|pause|resume).
func (s *Service) Act(ctx context.Context, c Caller, id int64, verb string) (Action, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.task(ctx, c.CustomerID, id)
	if err != nil {
		return Action{}, err
	}
	if t.Kind == KindRealTime && t.CasterID != c.CasterID {
		return Action{}, db.ErrNotFound
	}
	return s.act(ctx, t, verb)
}

// act runs verb on t. The caller holds mu.
func (s *Service) act(ctx context.Context, t Task, verb string) (Action, error) {
	_, before, err := s.state(ctx, t.customerID)
	if err != nil {
		return Action{}, err
	}
	now := s.Now().UnixMilli()
	switch verb {
	case "start":
		if t.State != StateIdle {
			return Action{}, ErrTaskState
		}
		if len(t.FileIDs) == 0 {
			return Action{}, ErrNoFiles
		}
		if len(t.DeviceIDs) == 0 {
			return Action{}, ErrNoDevices
		}
		s.begin(ctx, &t, now)
	case "restart": // the real-time player's next/prev/choice: the run starts again at the chosen file
		if t.State == StateIdle {
			return Action{}, ErrTaskState
		}
		t.StartedAt, t.PausedMs = now, 0
		if t.State == StatePaused {
			t.PausedAt = now
		}
	case "stop":
		if t.State == StateIdle {
			return Action{}, ErrTaskState
		}
		t.State, t.EndedAt, t.EndReason, t.PausedAt = StateIdle, now, "stopped", 0
	case "pause":
		if t.State != StatePlaying {
			return Action{}, ErrTaskState
		}
		t.State, t.PausedAt = StatePaused, now
	case "resume":
		if t.State != StatePaused {
			return Action{}, ErrTaskState
		}
		t.State, t.PausedMs, t.PausedAt = StatePlaying, t.PausedMs+now-t.PausedAt, 0
	default:
		return Action{}, db.ErrNotFound
	}
	if err := s.saveRun(ctx, &t); err != nil {
		return Action{}, err
	}
	runs, after, err := s.state(ctx, t.customerID)
	if err != nil {
		return Action{}, err
	}
	act := Action{Task: t, Lost: []Lost{}}
	for i := range runs {
		if runs[i].t.ID == t.ID {
			after.live(&act.Task, &runs[i], now)
			act.Lost = losses(after, runs[i])
		}
	}
	if t.State == StateIdle {
		after.live(&act.Task, nil, now)
	}
	s.hub.Publish(t.customerID, EventTask, act.Task, realtime.Consoles)
	s.changed(ctx, t.customerID, before)
	return act, nil
}

// --- real-time task (one per caster) ---

// RealTime returns the caller's real-time task, creating it with the defaults (spec §9: volume 60,
// duration_type 1).
func (s *Service) RealTime(ctx context.Context, c Caller) (Task, error) {
	list, err := s.tasksWhere(ctx, `customer_id = ? AND caster_id = ? AND kind = 2`, c.CustomerID, c.CasterID)
	if err != nil {
		return Task{}, err
	}
	if len(list) > 0 {
		return s.withLive(ctx, list[0]), nil
	}
	t := newTask(c, KindRealTime)
	t.Name = "real-time"
	if err := s.saveTask(ctx, &t); err != nil {
		if db.IsUniqueViolation(err) { // created meanwhile
			return s.RealTime(ctx, c)
		}
		return t, err
	}
	return s.withLive(ctx, t), nil
}

// UpdateRealTime sets the real-time task's files, devices and settings (not while it plays).
func (s *Service) UpdateRealTime(ctx context.Context, c Caller, in TaskIn) (Task, error) {
	t, err := s.RealTime(ctx, c)
	if err != nil {
		return t, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, err = s.task(ctx, c.CustomerID, t.ID); err != nil {
		return t, err
	}
	if t.State != StateIdle {
		return t, ErrTaskRunning
	}
	in.Type, in.PlanID, in.StartTime, in.Weekdays = nil, nil, nil, nil
	if err := s.apply(ctx, c.CustomerID, &t, in); err != nil {
		return t, err
	}
	if !containsID(t.FileIDs, t.ChoiceFileID) {
		t.ChoiceFileID = 0
		if len(t.FileIDs) > 0 {
			t.ChoiceFileID = t.FileIDs[0]
		}
	}
	if err := s.saveTask(ctx, &t); err != nil {
		return t, err
	}
	s.publishTask(ctx, t)
	return s.withLive(ctx, t), nil
}

func containsID(ids []int64, id int64) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// RealTimeAct runs the player: start (or resume when paused), stop, pause, next, prev, or choice of a file.
func (s *Service) RealTimeAct(ctx context.Context, c Caller, verb string, choice int64) (Action, error) {
	t, err := s.RealTime(ctx, c)
	if err != nil {
		return Action{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, err = s.task(ctx, c.CustomerID, t.ID); err != nil {
		return Action{}, err
	}
	switch verb {
	case "start":
		if t.State == StatePaused {
			return s.act(ctx, t, "resume")
		}
		if t.ChoiceFileID == 0 && len(t.FileIDs) > 0 {
			t.ChoiceFileID = t.FileIDs[0]
		}
		return s.act(ctx, t, "start")
	case "stop", "pause":
		return s.act(ctx, t, verb)
	case "next", "prev", "choice":
		if len(t.FileIDs) == 0 {
			return Action{}, ErrNoFiles
		}
		i := indexOf(t.FileIDs, t.ChoiceFileID)
		switch verb {
		case "next":
			i = (i + 1) % len(t.FileIDs)
		case "prev":
			i = (i - 1 + len(t.FileIDs)) % len(t.FileIDs)
		default:
			if i = indexOf(t.FileIDs, choice); !containsID(t.FileIDs, choice) {
				return Action{}, errBad("choice_file_id", "not one of the task's files")
			}
		}
		t.ChoiceFileID = t.FileIDs[i]
		if t.State == StateIdle {
			if err := s.saveRun(ctx, &t); err != nil {
				return Action{}, err
			}
			s.publishTask(ctx, t)
			return Action{Task: s.withLive(ctx, t), Lost: []Lost{}}, nil
		}
		return s.act(ctx, t, "restart")
	}
	return Action{}, db.ErrNotFound
}

func indexOf(ids []int64, id int64) int {
	for i, v := range ids {
		if v == id {
			return i
		}
	}
	return 0
}

// --- plans ---

// ActivatePlan makes a plan the customer's only active one (spec §9 plans limit 1); its timed tasks count their
// schedule from now.
func (s *Service) ActivatePlan(ctx context.Context, c Caller, id int64, active bool) (Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.plan(ctx, c.CustomerID, id); err != nil {
		return Plan{}, err
	}
	now := s.Now().UnixMilli()
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if active {
			if _, err := tx.Exec(ctx, `UPDATE bc_plans SET active = ? WHERE customer_id = ? AND id <> ?`, false, c.CustomerID, id); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE bc_tasks SET fired_until = ? WHERE customer_id = ? AND plan_id = ?`, now, c.CustomerID, id); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `UPDATE bc_plans SET active = ? WHERE customer_id = ? AND id = ?`, active, c.CustomerID, id)
		return err
	})
	if err != nil {
		return Plan{}, err
	}
	return s.plan(ctx, c.CustomerID, id)
}

// --- devices ---

// SetOnline records a speaker going on or offline (the speaker protocol) and tells the consoles.
func (s *Service) SetOnline(ctx context.Context, customerID, deviceID int64, online bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, before, err := s.state(ctx, customerID)
	if err != nil {
		return err
	}
	res, err := s.db.Exec(ctx, `UPDATE bc_devices SET online = ?, seen_at = ? WHERE customer_id = ? AND id = ?`,
		online, s.Now().UnixMilli(), customerID, deviceID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return db.ErrNotFound
	}
	if d, err := s.device(ctx, customerID, deviceID); err == nil {
		s.hub.Publish(customerID, EventDevice, d, realtime.Consoles)
	}
	s.changed(ctx, customerID, before)
	return nil
}

// DevicesPlaying fills what each device plays now.
func (s *Service) devicesPlaying(ctx context.Context, customerID int64, list []Device) error {
	_, d, err := s.state(ctx, customerID)
	if err != nil {
		return err
	}
	rep := s.reported(customerID)
	for i := range list {
		if p, ok := d.playing[list[i].ID]; ok {
			list[i].Playing = &p
		}
		if r, ok := rep[list[i].ID]; ok {
			list[i].Reported = &r
		}
	}
	return nil
}

var consoles = realtime.Consoles
