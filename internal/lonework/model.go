// Package lonework owns lone-worker protection (spec §3 "Lone work", §4 lone worker states and reasons, §5 lone
// worker rules, §7 loneWork calls): plans that put 1 to 4 terminals under watch for a time window, an engine that
// prompts each terminal at every interval and raises an alarm with its reason when the worker does not answer in
// time, goes offline, runs out of battery, has a weak signal or is busy, and the alarm records dispatchers handle.
package lonework

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/platform/httpx"
)

// WorkID is a plan's id; AlarmID a lone-work alarm's. Both travel as strings in JSON.
type (
	WorkID  int64
	AlarmID int64
)

func (id WorkID) String() string                 { return strconv.FormatInt(int64(id), 10) }
func (id WorkID) MarshalJSON() ([]byte, error)   { return []byte(`"` + id.String() + `"`), nil }
func (id *WorkID) UnmarshalJSON(b []byte) error  { return unmarshalID((*int64)(id), b) }
func (id AlarmID) String() string                { return strconv.FormatInt(int64(id), 10) }
func (id AlarmID) MarshalJSON() ([]byte, error)  { return []byte(`"` + id.String() + `"`), nil }
func (id *AlarmID) UnmarshalJSON(b []byte) error { return unmarshalID((*int64)(id), b) }

func unmarshalID(dst *int64, b []byte) error {
	n, err := strconv.ParseInt(strings.Trim(string(b), `"`), 10, 64)
	if err != nil {
		return httpx.BadParam("id", "not an id")
	}
	*dst = n
	return nil
}

// Status is a plan's status (spec §4: normal, alarm, over).
type Status int

const (
	StatusNormal Status = 0 // no unhandled alarm
	StatusAlarm  Status = 1 // at least one alarm nobody has handled (remarked) yet
	StatusOver   Status = 2 // the work ended and every alarm was handled
)

// WorkState is where a plan is in time (spec §4: waiting/on plan, in progress/working, over).
type WorkState int

const (
	Waiting WorkState = 0
	Working WorkState = 1
	Done    WorkState = 2
)

// Reason is why a lone-work alarm was raised (spec §4).
type Reason int

const (
	ReasonBatteryOff Reason = 1 // the terminal went offline with its battery (nearly) empty
	ReasonOffline    Reason = 2 // the terminal went offline for longer than the grace period
	ReasonWeakSignal Reason = 3 // the terminal's signal was weak when a check was due
	ReasonBusy       Reason = 4 // the terminal answered the check prompt "busy" (486)
	ReasonNoReply    Reason = 5 // the worker did not check in before the countdown ran out
)

// Valid tells whether r is a known reason.
func (r Reason) Valid() bool { return r >= ReasonBatteryOff && r <= ReasonNoReply }

// Limits (spec §5 lone worker rules, §9 "lone worker max 4 terminals, duration max one day").
const (
	MaxTerminals     = 4
	MaxDuration      = 24 * 60 // minutes
	DefaultCountdown = 60      // seconds the worker has to answer a prompt
	MinCountdown     = 10
	MaxCountdown     = 600
	MaxRemark        = 200
)

// Plan is one terminal's lone work (spec §3).
type Plan struct {
	ID         WorkID    `json:"id"`
	MsID       string    `json:"msId"`
	MsName     string    `json:"msName"`
	Date       string    `json:"date"`     // planned start day, YYYY-MM-DD in the customer's zone
	Time       string    `json:"time"`     // planned start time, HH:mm in the customer's zone
	STime      int64     `json:"sTime"`    // planned start (ms)
	ETime      int64     `json:"eTime"`    // planned end = sTime + duration (ms)
	Duration   int       `json:"duration"` // minutes
	Interval   int       `json:"interval"` // minutes between checks
	Countdown  int       `json:"countdown"`
	Enabled    int       `json:"enabled"` // 1 or 0
	Status     Status    `json:"status"`
	WorkState  WorkState `json:"workState"`
	RealStart  int64     `json:"realStart"` // 0 = not started
	RealStop   int64     `json:"realStop"`  // 0 = not stopped
	AlarmCount int       `json:"alarmCount"`
	NextCheck  int64     `json:"nextCheck"`  // when the next prompt is due (ms); 0 when not working
	Deadline   int64     `json:"deadline"`   // a prompt is waiting for the worker until then (ms); 0 = none
	ServerTime int64     `json:"serverTime"` // the server clock when this was read, for countdowns
	CreatedBy  string    `json:"createdBy"`
	CreatedAt  int64     `json:"createdAt"`

	flags      int
	customerID int64
}

// end is the planned end.
func (p Plan) end() int64 { return p.STime + int64(p.Duration)*60000 }

// workState derives the work state at now.
func (p Plan) workState(now int64) WorkState {
	switch {
	case p.RealStop != 0:
		return Done
	case p.RealStart != 0:
		return Working
	case p.Enabled == 0 && now >= p.end():
		return Done
	}
	return Waiting
}

// Editable tells whether a plan may be edited: only while waiting with status normal (spec §4: no edit while in
// progress, in alarm or over).
func (p Plan) Editable(now int64) bool {
	return p.workState(now) == Waiting && p.Status == StatusNormal
}

// Alarm is one lone-work alarm (spec §3: workId, msId, alarmTime, id, remark).
type Alarm struct {
	ID          AlarmID `json:"id"`
	WorkID      WorkID  `json:"workId"`
	MsID        string  `json:"msId"`
	MsName      string  `json:"msName"`
	Reason      Reason  `json:"reason"`
	AlarmTime   int64   `json:"alarmTime"`
	Remark      string  `json:"remark"`
	Handler     string  `json:"handler"` // msId of the dispatcher who handled it (updateAlarm)
	HandlerName string  `json:"handlerName"`
	HandleTime  int64   `json:"handleTime"` // 0 = unhandled
}

// Error codes of the lone-worker rules (docs/safety.md).
var (
	ErrNoTerminal     = httpx.E(http.StatusBadRequest, "80", "errors.lonework.noTerminal", "select at least one terminal")
	ErrTooMany        = httpx.E(http.StatusBadRequest, "81", "errors.lonework.tooManyTerminals", "at most 4 terminals")
	ErrDurationNeeded = httpx.E(http.StatusBadRequest, "82", "errors.lonework.durationRequired", "duration is required (whole minutes, at least 1)")
	ErrDurationLong   = httpx.E(http.StatusBadRequest, "83", "errors.lonework.durationTooLong", "duration is at most one day")
	ErrIntervalNeeded = httpx.E(http.StatusBadRequest, "84", "errors.lonework.intervalRequired", "interval is required (whole minutes, at least 1)")
	ErrIntervalLong   = httpx.E(http.StatusBadRequest, "85", "errors.lonework.intervalAboveDuration", "interval is above the duration")
	ErrWhenNeeded     = httpx.E(http.StatusBadRequest, "86", "errors.lonework.dateTimeRequired", "date and time are required")
	ErrSameEnds       = httpx.E(http.StatusBadRequest, "87", "errors.lonework.beginEqualsEnd", "begin and end time must differ")
	ErrNotEditable    = httpx.E(http.StatusConflict, "88", "errors.lonework.notEditable", "no edit while in progress, in alarm or over")
	ErrOverlap        = httpx.E(http.StatusConflict, "89", "errors.lonework.overlap", "the terminal already has lone work at that time")
	ErrNotWorking     = httpx.E(http.StatusConflict, "96", "errors.lonework.notWorking", "the lone work is not in progress")
	ErrPast           = httpx.E(http.StatusBadRequest, "97", "errors.lonework.past", "the lone work would end in the past")
)

// Input is a plan's editable fields, parsed and checked.
type Input struct {
	Start     int64 // ms
	Duration  int   // minutes
	Interval  int   // minutes
	Countdown int   // seconds
	Enabled   bool
}

// RawInput is what add/update receive (every scalar a string, see httpx.Decode). Start: sTime (ms), or date
// (YYYY-MM-DD) + time (HH:mm) in the customer's zone. Length: duration (minutes, alias wTime), or eTime (ms).
// Interval: interval (minutes, alias hb).
type RawInput struct {
	STime     string `json:"sTime"`
	Date      string `json:"date"`
	Time      string `json:"time"`
	ETime     string `json:"eTime"`
	Duration  string `json:"duration"`
	WTime     string `json:"wTime"`
	Interval  string `json:"interval"`
	HB        string `json:"hb"`
	Countdown string `json:"countdown"`
	Enabled   string `json:"enabled"`
}

func minutes(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}

// Check applies spec §5 to raw input; loc is the customer's zone and now the server clock.
func (r RawInput) Check(loc *time.Location, now time.Time) (Input, error) {
	var in Input
	switch {
	case strings.TrimSpace(r.STime) != "":
		ms, err := strconv.ParseInt(strings.TrimSpace(r.STime), 10, 64)
		if err != nil || ms <= 0 {
			return in, httpx.BadParam("sTime", "milliseconds")
		}
		in.Start = ms
	case strings.TrimSpace(r.Date) != "" && strings.TrimSpace(r.Time) != "":
		t, err := time.ParseInLocation("2006-01-02 15:04", strings.TrimSpace(r.Date)+" "+strings.TrimSpace(r.Time), loc)
		if err != nil {
			if t, err = time.ParseInLocation("2006-01-02 15:04:05", strings.TrimSpace(r.Date)+" "+strings.TrimSpace(r.Time), loc); err != nil {
				return in, httpx.BadParam("date/time", "YYYY-MM-DD and HH:mm")
			}
		}
		in.Start = t.UnixMilli()
	default:
		return in, ErrWhenNeeded
	}
	dur := strings.TrimSpace(r.Duration)
	if dur == "" {
		dur = strings.TrimSpace(r.WTime)
	}
	switch {
	case dur != "":
		d, ok := minutes(dur)
		if !ok || d < 0 {
			return in, ErrDurationNeeded
		}
		if d == 0 {
			return in, ErrSameEnds
		}
		in.Duration = d
	case strings.TrimSpace(r.ETime) != "":
		end, err := strconv.ParseInt(strings.TrimSpace(r.ETime), 10, 64)
		if err != nil {
			return in, httpx.BadParam("eTime", "milliseconds")
		}
		if end == in.Start {
			return in, ErrSameEnds
		}
		if end < in.Start || (end-in.Start)%60000 != 0 {
			return in, ErrDurationNeeded
		}
		in.Duration = int((end - in.Start) / 60000)
	default:
		return in, ErrDurationNeeded
	}
	if in.Duration > MaxDuration {
		return in, ErrDurationLong
	}
	iv := strings.TrimSpace(r.Interval)
	if iv == "" {
		iv = strings.TrimSpace(r.HB)
	}
	n, ok := minutes(iv)
	if iv == "" || !ok || n < 1 {
		return in, ErrIntervalNeeded
	}
	if n > in.Duration {
		return in, ErrIntervalLong
	}
	in.Interval = n
	in.Countdown = DefaultCountdown
	if c := strings.TrimSpace(r.Countdown); c != "" {
		v, err := strconv.Atoi(c)
		if err != nil || v < MinCountdown || v > MaxCountdown || v > in.Interval*60 {
			return in, httpx.BadParam("countdown", "10 to 600 seconds, not above the interval")
		}
		in.Countdown = v
	}
	switch strings.TrimSpace(r.Enabled) {
	case "", "1", "true":
		in.Enabled = true
	case "0", "false":
	default:
		return in, httpx.BadParam("enabled", "1 or 0")
	}
	if in.Start+int64(in.Duration)*60000 <= now.UnixMilli() {
		return in, ErrPast
	}
	return in, nil
}

// checkTerminals applies "at least one terminal, at most 4" and drops duplicates.
func checkTerminals(ids []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || seen[id] {
			continue
		}
		if len(id) > 32 {
			return nil, httpx.BadParam("msIds", "not a terminal id")
		}
		seen[id] = true
		out = append(out, id)
	}
	if len(out) == 0 {
		return nil, ErrNoTerminal
	}
	if len(out) > MaxTerminals {
		return nil, ErrTooMany
	}
	return out, nil
}
