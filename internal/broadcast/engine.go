package broadcast

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
	"tenfour/internal/platform/timerange"
)

// run is a task that is playing or paused, laid out in time.
type run struct {
	t        Task
	priority int
	tl       Timeline
	files    []File // in playing order
	devices  []int64
}

// elapsed is how far into its timeline the run is at now.
func (r run) elapsed(now int64) int64 {
	end := now
	if r.t.State == StatePaused {
		end = r.t.PausedAt
	}
	return end - r.t.StartedAt - r.t.PausedMs
}

// beats tells whether a wins a device over b: the caster's priority, then the newer start, then the newer task.
func (a run) beats(b run) bool {
	if a.priority != b.priority {
		return a.priority > b.priority
	}
	if a.t.StartedAt != b.t.StartedAt {
		return a.t.StartedAt > b.t.StartedAt
	}
	return a.t.ID > b.t.ID
}

// playlist is the task's files in playing order: the real-time task starts from its chosen file.
func playlist(t Task, files []File) []File {
	if t.Kind != KindRealTime || t.ChoiceFileID == 0 {
		return files
	}
	for i, f := range files {
		if f.ID == t.ChoiceFileID {
			return append(slices.Clone(files[i:]), files[:i]...)
		}
	}
	return files
}

func timeline(t Task, files []File) Timeline {
	tl := Timeline{Interval: int64(t.IntervalTime) * 1000, Type: t.DurationType, Rounds: t.Loop, Duration: int64(t.Duration) * 1000}
	for _, f := range files {
		tl.Lengths = append(tl.Lengths, f.Length)
	}
	return tl
}

// loadRun lays a task out.
func (s *Service) loadRun(ctx context.Context, t Task) (run, error) {
	files, err := s.filesByID(ctx, t.customerID, t.FileIDs, "file_ids")
	if err != nil {
		return run{}, err
	}
	files = playlist(t, files)
	r := run{t: t, tl: timeline(t, files), files: files, priority: DefaultPriority}
	if err := s.db.QueryRow(ctx, `SELECT priority FROM bc_casters WHERE id = ?`, t.CasterID).Scan(&r.priority); err != nil {
		return run{}, err
	}
	r.devices = t.RunDevices
	if t.Offline == 1 { // an offline task plays on each of its devices, whenever it comes online
		r.devices = t.DeviceIDs
	}
	return r, nil
}

// runs lays out the customer's tasks that are playing or paused.
func (s *Service) runs(ctx context.Context, customerID int64) ([]run, error) {
	tasks, err := s.tasksWhere(ctx, `customer_id = ? AND state <> 0`, customerID)
	if err != nil {
		return nil, err
	}
	out := make([]run, 0, len(tasks))
	for _, t := range tasks {
		r, err := s.loadRun(ctx, t)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// decision is what every device of a customer plays now, and which run holds it.
type decision struct {
	playing map[int64]Playing
	holder  map[int64]run // device → the winning run
}

// decide gives each device to the best run that wants it (one thing per device).
func decide(runs []run, now int64, volumes map[int64]int) decision {
	d := decision{playing: map[int64]Playing{}, holder: map[int64]run{}}
	for _, r := range runs {
		for _, dev := range r.devices {
			if cur, held := d.holder[dev]; !held || r.beats(cur) {
				d.holder[dev] = r
			}
		}
	}
	for dev, r := range d.holder {
		el := r.elapsed(now)
		p := r.tl.At(el)
		pl := Playing{seg: r.t.StartedAt + r.t.PausedMs + el - p.Position, TaskID: r.t.ID, TaskKind: r.t.Kind, CasterID: r.t.CasterID, Priority: r.priority, Volume: r.t.Volume,
			Paused: r.t.State == StatePaused, Gap: p.Gap, PositionMs: p.Position}
		if !p.Done && p.Index < len(r.files) {
			pl.FileID, pl.File = r.files[p.Index].ID, r.files[p.Index].Name
		}
		if v, ok := volumes[dev]; ok && v >= 0 { // the task's volume scaled by the device's own
			pl.Volume = r.t.Volume * v / 100
		}
		d.playing[dev] = pl
	}
	return d
}

// live fills a task's current file, position and the devices it holds.
func (d decision) live(t *Task, r *run, now int64) {
	t.Holding = []int64{}
	for dev, h := range d.holder {
		if h.t.ID == t.ID {
			t.Holding = append(t.Holding, dev)
		}
	}
	slices.Sort(t.Holding)
	if r != nil && t.State != StateIdle {
		p := r.tl.At(r.elapsed(now))
		t.PositionMs = p.Position
		if !p.Done && p.Index < len(r.files) {
			t.FileID = r.files[p.Index].ID
		}
	}
}

func (s *Service) volumes(ctx context.Context, customerID int64) (map[int64]int, error) {
	rows, err := s.db.Query(ctx, `SELECT id, ao_volume FROM bc_devices WHERE customer_id = ?`, customerID)
	type pair struct{ id, v int64 }
	list, err := db.Collect(rows, err, func(r db.Scanner) (pair, error) { var p pair; return p, r.Scan(&p.id, &p.v) })
	out := make(map[int64]int, len(list))
	for _, p := range list {
		out[p.id] = int(p.v)
	}
	return out, err
}

// state is the customer's decision now.
func (s *Service) state(ctx context.Context, customerID int64) ([]run, decision, error) {
	runs, err := s.runs(ctx, customerID)
	if err != nil {
		return nil, decision{}, err
	}
	runs = append(runs, s.pageRuns(customerID)...)
	vols, err := s.volumes(ctx, customerID)
	if err != nil {
		return nil, decision{}, err
	}
	return runs, decide(runs, s.Now().UnixMilli(), vols), nil
}

// Lost is a device a task wanted and did not get, and why (spec: the loser is told why).
type Lost struct {
	DeviceID   int64  `json:"device_id"`
	TaskID     int64  `json:"task_id"`      // the task that lost the device
	ByTaskID   int64  `json:"by_task_id"`   // the task that holds it
	ByCasterID int64  `json:"by_caster_id"` // and its caster
	Reason     string `json:"reason"`       // "priority": a caster of higher priority; "newer": same priority, started later
}

// changed publishes what a change did: the devices that now play something else, the tasks that lost devices.
func (s *Service) changed(ctx context.Context, customerID int64, before decision) {
	_, after, err := s.state(ctx, customerID)
	if err != nil {
		slog.ErrorContext(ctx, "broadcast: state after a change", "err", err)
		return
	}
	var devs []map[string]any
	var lost []Lost
	for dev, p := range after.playing {
		if q, ok := before.playing[dev]; !ok || q.TaskID != p.TaskID || q.Paused != p.Paused || q.FileID != p.FileID || q.Volume != p.Volume {
			pl := p
			devs = append(devs, map[string]any{"id": dev, "playing": &pl})
		}
		if q, ok := before.holder[dev]; ok && q.t.ID != p.TaskID {
			if _, still := s.stillRunning(after, q.t.ID); still {
				lost = append(lost, lostTo(dev, q, after.holder[dev]))
			}
		}
	}
	for dev := range before.playing {
		if _, ok := after.playing[dev]; !ok {
			devs = append(devs, map[string]any{"id": dev, "playing": (*Playing)(nil)})
		}
	}
	s.syncSpeakers(customerID, after)
	s.publishDevices(customerID, devs)
	if len(lost) > 0 {
		s.hub.Publish(customerID, EventPreempted, map[string]any{"list": lost}, realtime.Consoles)
	}
}

func (s *Service) stillRunning(d decision, taskID int64) (run, bool) {
	for _, r := range d.holder {
		if r.t.ID == taskID {
			return r, true
		}
	}
	return run{}, false
}

func lostTo(dev int64, loser, winner run) Lost {
	reason := "newer"
	if winner.priority != loser.priority {
		reason = "priority"
	}
	return Lost{DeviceID: dev, TaskID: loser.t.ID, ByTaskID: winner.t.ID, ByCasterID: winner.t.CasterID, Reason: reason}
}

// losses lists the devices r wants that another run holds.
func losses(d decision, r run) []Lost {
	out := []Lost{}
	for _, dev := range r.devices {
		if h, ok := d.holder[dev]; ok && h.t.ID != r.t.ID {
			out = append(out, lostTo(dev, r, h))
		}
	}
	return out
}

// Tick is one pass of the scheduler at the service's clock (Fire, then SyncSpeakers): runs that reached their
// end finish, timed tasks whose start came start or are recorded as missed, and this node's speakers are told
// what they play. Tests move the clock and call it.
func (s *Service) Tick(ctx context.Context) error {
	if err := s.Fire(ctx); err != nil {
		return err
	}
	s.SyncSpeakers(ctx)
	return nil
}

// Fire is the scheduler's decision, once per cluster (docs/adr/0024): runs that reached their end finish, and
// timed tasks whose start came (since the last pass, or while the server was down) start — or, when their whole
// run lies in the past, are recorded as missed. Every write is a claim on the row as it was read (claimRun): a
// row another node's pass or a console's action changed meanwhile is left to them, so an occurrence fires once
// and its events go out once even if two nodes pass at the same moment (a lease moving).
func (s *Service) Fire(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now().UnixMilli()
	// 1. finished runs
	playing, err := s.tasksWhere(ctx, `state <> 0`)
	if err != nil {
		return err
	}
	touched := map[int64]decision{}
	before := func(c int64) {
		if _, ok := touched[c]; !ok {
			_, d, err := s.state(ctx, c)
			if err == nil {
				touched[c] = d
			}
		}
	}
	segs := map[int64]segment{} // where each playing run is now, for the next pass
	var advanced []Task
	for _, t := range playing {
		r, err := s.loadRun(ctx, t)
		if err != nil {
			return err
		}
		if t.State == StatePlaying && !r.tl.At(r.elapsed(now)).Done {
			segs[t.ID] = r.segment(now)
			if was, seen := s.segs[t.ID]; seen && was != segs[t.ID] {
				advanced = append(advanced, t)
			}
		}
		if t.State == StatePlaying && r.tl.At(r.elapsed(now)).Done {
			before(t.customerID)
			was := t
			t.State, t.EndedAt, t.EndReason, t.PausedAt = StateIdle, t.StartedAt+t.PausedMs+r.tl.Total(), "finished", 0
			if ok, err := s.claimRun(ctx, was, &t); err != nil {
				return err
			} else if ok {
				s.publishTask(ctx, t)
			}
		}
	}
	// 2. timed tasks due (plan 0 or the active plan)
	due, err := s.tasksWhere(ctx, `kind = 1 AND fired_until < ? AND (plan_id = 0 OR plan_id IN (SELECT id FROM bc_plans WHERE active = ?))`, now, true)
	if err != nil {
		return err
	}
	zones := map[int64]*time.Location{}
	for _, t := range due {
		loc, ok := zones[t.customerID]
		if !ok {
			if loc, err = timerange.Zone(ctx, s.db, t.customerID); err != nil {
				return err
			}
			zones[t.customerID] = loc
		}
		occ := Occurrences(t.StartTime, t.Weekdays, loc, t.FiredUntil, now)
		if len(occ) > 0 {
			before(t.customerID)
		}
		r, err := s.loadRun(ctx, t)
		if err != nil {
			return err
		}
		was := t
		total := r.tl.Total()
		var started, missed []int64
		for _, o := range occ {
			if total == 0 || o+total > now { // still within its run: it plays from where it would be
				s.begin(ctx, &t, o)
				started = append(started, o)
			} else {
				t.MissedCount++
				t.MissedAt = o
				missed = append(missed, o)
			}
		}
		t.FiredUntil = now
		claimed, err := s.claimRun(ctx, was, &t)
		if err != nil {
			return err
		}
		if !claimed { // another node fired these occurrences (or a console changed the task meanwhile)
			continue
		}
		for _, o := range started {
			slog.InfoContext(ctx, "broadcast: timed task started", "task", t.ID, "due", o, "late_ms", now-o)
		}
		for i, o := range missed {
			count := was.MissedCount + i + 1
			s.hub.Publish(t.customerID, EventMissed, map[string]any{"task_id": t.ID, "due": o, "missed_count": count}, realtime.Consoles)
			slog.WarnContext(ctx, "broadcast: timed task missed", "task", t.ID, "due", o)
		}
		if len(occ) > 0 {
			s.publishTask(ctx, t)
		}
	}
	for c, d := range touched {
		s.changed(ctx, c, d)
	}
	s.segs = segs
	s.advanced(ctx, advanced)
	return nil
}

// segment is where a run is: which file of which round, or the interval after that round.
type segment struct {
	round int64
	index int
	gap   bool
}

func (r run) segment(now int64) segment {
	el := r.elapsed(now)
	p := r.tl.At(el)
	return segment{round: el / max(r.tl.round()+r.tl.Interval, 1), index: p.Index, gap: p.Gap}
}

// advanced tells the consoles of runs that moved on by themselves since the last pass (a next file, a new round,
// the interval): no action changed them, so nothing else would, and a console's player and speaker list showed the
// file they had left (issue 33: the real-time player's status went stale). Each task goes out with its new file
// and position, and what its devices play now.
func (s *Service) advanced(ctx context.Context, tasks []Task) {
	byCustomer := map[int64][]int64{}
	for _, t := range tasks {
		s.publishTask(ctx, t)
		byCustomer[t.customerID] = append(byCustomer[t.customerID], t.ID)
	}
	for c, ids := range byCustomer {
		_, d, err := s.state(ctx, c)
		if err != nil {
			slog.ErrorContext(ctx, "broadcast: state of advanced runs", "err", err)
			continue
		}
		var devs []map[string]any
		for dev, p := range d.playing {
			if slices.Contains(ids, p.TaskID) {
				pl := p
				devs = append(devs, map[string]any{"id": dev, "playing": &pl})
			}
		}
		s.publishDevices(c, devs)
	}
}

// publishDevices tells the customer's consoles what the listed devices play now ({id, playing}), in id order.
func (s *Service) publishDevices(customerID int64, devs []map[string]any) {
	if len(devs) == 0 {
		return
	}
	slices.SortFunc(devs, func(a, b map[string]any) int { return cmp.Compare(a["id"].(int64), b["id"].(int64)) })
	s.hub.Publish(customerID, EventDevices, map[string]any{"list": devs}, realtime.Consoles)
}

// SyncSpeakers tells this node's connected speakers what they play now, from the task rows in the store: on
// every node of a cluster, each for the speakers whose connection it holds (docs/adr/0024). Speakers are told at
// every new file, round or interval; a change made on another node reaches them at the next pass.
func (s *Service) SyncSpeakers(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.speakerCustomers() {
		if _, d, err := s.state(ctx, c); err == nil {
			s.syncSpeakers(c, d)
		}
	}
}

// begin starts a run of t at `at` on its devices (offline 0: those online now). The caller saves it.
func (s *Service) begin(ctx context.Context, t *Task, at int64) {
	t.State, t.StartedAt, t.PausedAt, t.PausedMs, t.EndedAt, t.EndReason = StatePlaying, at, 0, 0, 0, ""
	t.RunDevices = t.DeviceIDs
	if t.Offline == 0 {
		online := []int64{}
		for _, id := range t.DeviceIDs {
			var on bool
			if err := s.db.QueryRow(ctx, `SELECT online FROM bc_devices WHERE id = ?`, id).Scan(&on); err == nil && on {
				online = append(online, id)
			}
		}
		t.RunDevices = online
	}
}

// Run ticks the scheduler and this node's speakers every second until ctx ends (a node alone; a pass due while
// the server was down runs at the first tick after the start: Fire reads what is due from the store).
func (s *Service) Run(ctx context.Context) {
	ticker.NowAndEvery(ctx, time.Second, func() {
		if err := s.Tick(ctx); err != nil && ctx.Err() == nil {
			slog.ErrorContext(ctx, "broadcast: scheduler pass", "err", err)
		}
	})
}

// RunScheduler fires timed tasks and ends finished runs every second until ctx ends: in a cluster on one node at
// a time (App.single "broadcast-scheduler").
func (s *Service) RunScheduler(ctx context.Context) {
	ticker.NowAndEvery(ctx, time.Second, func() {
		if err := s.Fire(ctx); err != nil && ctx.Err() == nil {
			slog.ErrorContext(ctx, "broadcast: scheduler pass", "err", err)
		}
	})
}

// RunSpeakers tells this node's speakers what they play every second until ctx ends: on every node of a cluster.
func (s *Service) RunSpeakers(ctx context.Context) {
	ticker.NowAndEvery(ctx, time.Second, func() { s.SyncSpeakers(ctx) })
}
