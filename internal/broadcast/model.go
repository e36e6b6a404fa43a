// Package broadcast is the public-address service (spec §7 "Broadcast service", docs/adr/0018): organisations
// with their speakers (devices), casters with priorities, the music library, tasks (manual, timed, real-time)
// and plans, served under /broadcast/v1 with the {code: 200} envelope, and the engine that decides what each
// speaker plays.
package broadcast

import (
	"net/http"
	"strconv"
	"strings"

	"tenfour/internal/platform/httpx"
)

// Spec §9 and the service's own limits.
const (
	DefaultVolume   = 60  // spec §9: default volumes 60
	DefaultPriority = 5   // spec §9: default caster priority 5
	FilesPerGroup   = 100 // spec §9: files limit 100
	DefaultPage     = 1000
	MaxNameLen      = 64
	MaxCodeLen      = 32
	MaxListLen      = 1000 // files or devices of one task
	// What one customer may hold (docs/adr/0018 "Limits"): each bounds the rows a customer can make the server
	// keep and read on every engine decision. A creation beyond them is refused (1016, 1017, 1018).
	MaxOrgs    = 1000 // organisations (GET /v1/org's default page shows them all)
	MaxCasters = 1000 // casters, console casters included (each has a real-time task of its own)
	MaxTasks   = 1000 // manual and timed tasks (real-time tasks are bounded by the casters)
	// Secret is the password the console sends when it has none (spec §5, §9; auth.NoPassword): it never opens a
	// session by itself, only together with the caller's live console session (docs/adr/0018).
	Secret = "{secret}"
)

// Task kinds.
const (
	KindManual   = 0
	KindTimed    = 1
	KindRealTime = 2
)

// Task states.
const (
	StateIdle    = 0
	StatePlaying = 1
	StatePaused  = 2
)

// Duration types (spec §3 task duration_type; §9 real-time default 1).
const (
	DurationRounds = 1 // play the file list `loop` times
	DurationFor    = 2 // play for `duration` seconds
	DurationUntil  = 3 // play until stopped
)

// The service's error codes (spec §8: a broadcast failure carries the server's code, else 500).
var (
	ErrToken         = httpx.E(http.StatusUnauthorized, "401", "broadcast.errors.token", "broadcast token missing or expired")
	ErrAccountType   = httpx.E(http.StatusForbidden, "107", "broadcast.errors.accountType", "broadcast needs account type 1")
	ErrCodeTaken     = httpx.E(http.StatusConflict, "1002", "broadcast.errors.codeTaken", "code already in use")
	ErrCallTaken     = httpx.E(http.StatusConflict, "1003", "broadcast.errors.callNumberTaken", "call number already in use")
	ErrOrgHasDevices = httpx.E(http.StatusConflict, "1004", "broadcast.errors.orgHasDevices", "the organisation still has devices")
	ErrOrgHasChild   = httpx.E(http.StatusConflict, "1005", "broadcast.errors.orgHasChildren", "the organisation still has sub-organisations")
	ErrFilesFull     = httpx.E(http.StatusConflict, "1006", "broadcast.errors.filesFull", "at most 100 files per group")
	ErrFileInUse     = httpx.E(http.StatusConflict, "1007", "broadcast.errors.fileInUse", "a task uses the file")
	ErrBadAudio      = httpx.E(http.StatusBadRequest, "1008", "broadcast.errors.badAudio", "not an MP3, WAV, Ogg or FLAC audio file")
	ErrTaskState     = httpx.E(http.StatusConflict, "1009", "broadcast.errors.taskState", "the task is not in a state that allows this")
	ErrOrgLoop       = httpx.E(http.StatusBadRequest, "1010", "broadcast.errors.orgLoop", "an organisation cannot be its own ancestor")
	ErrTaskRunning   = httpx.E(http.StatusConflict, "1011", "broadcast.errors.taskRunning", "stop the task first")
	ErrNoFiles       = httpx.E(http.StatusBadRequest, "1012", "broadcast.errors.noFiles", "choose at least one file")
	ErrNoDevices     = httpx.E(http.StatusBadRequest, "1013", "broadcast.errors.noDevices", "choose at least one device")
	ErrPlanHasTasks  = httpx.E(http.StatusConflict, "1014", "broadcast.errors.planHasTasks", "the plan still has tasks")
	ErrOrgsFull      = httpx.E(http.StatusConflict, "1016", "broadcast.errors.orgsFull", "at most 1000 organisations per customer")
	ErrCastersFull   = httpx.E(http.StatusConflict, "1017", "broadcast.errors.castersFull", "at most 1000 casters per customer")
	ErrTasksFull     = httpx.E(http.StatusConflict, "1018", "broadcast.errors.tasksFull", "at most 1000 tasks per customer")
	ErrFileExists    = httpx.E(http.StatusConflict, "1019", "broadcast.errors.fileExists", "the group has a file of that name")
	ErrNotFound      = httpx.E(http.StatusNotFound, "404", "errors.notFound", "not found")
	ErrTranscoder    = httpx.E(http.StatusInternalServerError, "500", "broadcast.errors.transcoder", "the audio tool failed")
)

// Org is an organisation (spec §3 org/group): a node of the customer's tree of speakers.
type Org struct {
	ID         int64  `json:"id"`
	ParentID   int64  `json:"parent_id"`
	Name       string `json:"name"`
	Code       string `json:"code"`
	CallNumber string `json:"call_number"`
	CreatedAt  int64  `json:"created_at"`
	Devices    int    `json:"device_count"`
}

// Caster is someone who may broadcast (spec §3 caster: user_id, name, code, call_number, priority default 5).
type Caster struct {
	ID         int64  `json:"id"`
	UserID     string `json:"user_id"`
	Name       string `json:"name"`
	Code       string `json:"code"`
	CallNumber string `json:"call_number"`
	Priority   int    `json:"priority"`
	CreatedAt  int64  `json:"created_at"`
}

// Device is a speaker (spec §3: id, org_id, name, code, online, ao_volume) and what it plays now.
type Device struct {
	ID        int64    `json:"id"`
	OrgID     int64    `json:"org_id"`
	Name      string   `json:"name"`
	Code      string   `json:"code"`
	Online    int      `json:"online"` // 1 online, 0 offline
	AoVolume  int      `json:"ao_volume"`
	SeenAt    int64    `json:"seen_at"`
	CreatedAt int64    `json:"created_at"`
	Playing   *Playing `json:"playing,omitempty"`
	// Reported is what the connected speaker last said it plays (the speaker protocol's status).
	Reported *Report `json:"reported,omitempty"`
}

// Playing is what a device should play now: a task's file at a position (the engine's decision).
type Playing struct {
	TaskID     int64  `json:"task_id"`
	TaskKind   int    `json:"task_kind"`
	CasterID   int64  `json:"caster_id"`
	Priority   int    `json:"priority"`
	FileID     int64  `json:"file_id"`
	File       string `json:"file"` // stored name: /broadcast/music/{file}
	PositionMs int64  `json:"position_ms"`
	Gap        bool   `json:"gap,omitempty"` // between rounds (interval_time)
	Volume     int    `json:"volume"`
	Paused     bool   `json:"paused,omitempty"`
	// seg is when (server ms, run time mapped to the clock) the current file segment began: it changes at every
	// new file, round, resume or restart, which is when a speaker must be told again.
	seg int64
}

// File is a library file (spec §3 media file: id, original_name, name, length in ms, size).
type File struct {
	ID           int64  `json:"id"`
	GroupID      int64  `json:"group_id"`
	OriginalName string `json:"original_name"`
	Name         string `json:"name"`
	Length       int64  `json:"length"` // ms
	Size         int64  `json:"size"`
	URL          string `json:"url"`
	CreatedAt    int64  `json:"created_at"`
}

// Plan groups timed tasks; at most one is active per customer (spec §9 plans limit 1).
type Plan struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Active    int    `json:"active"`
	Tasks     int    `json:"task_count"`
	CreatedAt int64  `json:"created_at"`
}

// Task is a broadcast task (spec §3 task: id, plan_id, offline, audio_source, loop, volume, duration_type,
// interval_time; real-time task: choice_file_id) with its run state.
type Task struct {
	ID           int64   `json:"id"`
	CasterID     int64   `json:"caster_id"`
	Kind         int     `json:"type"` // 0 manual, 1 timed, 2 real-time
	Name         string  `json:"name"`
	PlanID       int64   `json:"plan_id"`
	Offline      int     `json:"offline"`
	AudioSource  int     `json:"audio_source"`
	Loop         int     `json:"loop"`
	Volume       int     `json:"volume"`
	DurationType int     `json:"duration_type"`
	Duration     int     `json:"duration"` // seconds (duration_type 2)
	IntervalTime int     `json:"interval_time"`
	StartTime    string  `json:"start_time,omitempty"`
	Weekdays     []int   `json:"weekdays"`
	ChoiceFileID int64   `json:"choice_file_id,omitempty"`
	FileIDs      []int64 `json:"file_ids"`
	DeviceIDs    []int64 `json:"device_ids"`
	State        int     `json:"state"` // 0 idle, 1 playing, 2 paused
	StartedAt    int64   `json:"started_at"`
	PausedAt     int64   `json:"paused_at,omitempty"`
	PausedMs     int64   `json:"paused_ms"`
	RunDevices   []int64 `json:"run_devices"`
	FiredUntil   int64   `json:"-"`
	MissedCount  int     `json:"missed_count"`
	MissedAt     int64   `json:"missed_at,omitempty"`
	EndedAt      int64   `json:"ended_at,omitempty"`
	EndReason    string  `json:"end_reason,omitempty"`
	CreatedAt    int64   `json:"created_at"`
	UpdatedAt    int64   `json:"updated_at"`
	// Live (filled by the engine): the current file and position, and the devices this task holds now.
	FileID     int64   `json:"file_id,omitempty"`
	PositionMs int64   `json:"position_ms"`
	Holding    []int64 `json:"holding"`

	customerID int64
}

func joinIDs(ids []int64) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	return b.String()
}

func splitIDs(s string) []int64 {
	out := []int64{}
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func joinInts(v []int) string {
	ids := make([]int64, len(v))
	for i, n := range v {
		ids[i] = int64(n)
	}
	return joinIDs(ids)
}

func splitInts(s string) []int {
	ids := splitIDs(s)
	out := make([]int, len(ids))
	for i, n := range ids {
		out[i] = int(n)
	}
	return out
}

func errRequired(field string) error { return httpx.BadParam(field, "required") }

func errBad(field, why string) error { return httpx.BadParam(field, why) }
