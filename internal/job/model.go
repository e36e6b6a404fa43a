// Package job owns job tickets (spec §3 "Job ticket", §4 job ticket states, §7 /ds/job/* and findJobReport): a
// dispatcher sends a task (text, address, position) to one or several terminals; each assignee's ticket is
// stored before it is sent, delivered over the socket with an acknowledgement (and again at the terminal's next
// login until acknowledged), and then accepted or rejected, started and completed by the worker. Every change is
// stored with its history, pushed to the consoles as a durable event and written to the operation log.
package job

import (
	"net/http"
	"strconv"

	"tenfour/internal/platform/httpx"
)

// State is a ticket's execution state (spec §4: unsettled, accepted, rejected, working, completed/over).
type State int

const (
	Unsettled State = 0 // sent, the worker has not answered yet
	Accepted  State = 1
	Rejected  State = 2 // final
	Working   State = 3
	Over      State = 4 // completed; final
)

// Valid tells whether s is one of the five states.
func (s State) Valid() bool { return s >= Unsettled && s <= Over }

// Open tells whether the ticket still waits for the worker (not rejected, not over).
func (s State) Open() bool { return s == Unsettled || s == Accepted || s == Working }

var stateNames = [...]string{"unsettled", "accepted", "rejected", "working", "over"}

func (s State) String() string {
	if s.Valid() {
		return stateNames[s]
	}
	return "state " + strconv.Itoa(int(s))
}

// Action is what a worker does to a ticket.
type Action string

const (
	Accept   Action = "accept"
	Reject   Action = "reject"
	Start    Action = "start"
	Complete Action = "complete"
)

// transitions is the whole state machine: from a state, an action leads to the next state. Anything else is
// refused with ErrTransition (a rejected or completed ticket is final; a ticket is accepted before it starts and
// started before it completes).
var transitions = map[State]map[Action]State{
	Unsettled: {Accept: Accepted, Reject: Rejected},
	Accepted:  {Start: Working, Reject: Rejected},
	Working:   {Complete: Over},
}

// Next is the state an action leads to from s, or ErrTransition.
func Next(s State, a Action) (State, error) {
	if to, ok := transitions[s][a]; ok {
		return to, nil
	}
	return s, httpx.E(ErrTransition.Status, ErrTransition.Code, ErrTransition.Key,
		string(a)+" is not possible when the ticket is "+s.String())
}

// history actions besides the worker's
const (
	actCreated   = "created"
	actDelivered = "delivered"
)

// pastTense names a worker's action in the history.
func pastTense(a Action) string {
	switch a {
	case Accept:
		return "accepted"
	case Reject:
		return "rejected"
	case Start:
		return "started"
	case Complete:
		return "completed"
	}
	return string(a)
}

// Limits.
const (
	MaxTask      = 500 // characters of the task
	MaxAddress   = 200
	MaxReason    = 200 // a rejection's reason, a completion's remark
	MaxAssignees = 100 // terminals of one job
	DefPageSize  = 20  // spec §9 "job tickets page 1 size 20"
)

// Error codes of job tickets (docs/api.md "Job tickets").
var (
	ErrNoTask      = httpx.E(http.StatusBadRequest, "130", "errors.job.taskRequired", "the task is required")
	ErrNoAssignee  = httpx.E(http.StatusBadRequest, "131", "errors.job.assigneeRequired", "select at least one terminal")
	ErrTooMany     = httpx.E(http.StatusBadRequest, "132", "errors.job.tooManyAssignees", "at most 100 terminals")
	ErrPosition    = httpx.E(http.StatusBadRequest, "133", "errors.job.position", "the position needs lat and lng on the globe")
	ErrTransition  = httpx.E(http.StatusConflict, "134", "errors.job.transition", "not possible in the ticket's state")
	ErrNoReason    = httpx.E(http.StatusBadRequest, "135", "errors.job.reasonRequired", "a rejection needs a reason")
	ErrTooLong     = httpx.E(http.StatusBadRequest, "136", "errors.job.tooLong", "task at most 500, address and reason at most 200 characters")
	ErrStateFilter = httpx.BadParam("state", "0 to 4")
)

// Ticket is one assignee's ticket of a job (an item of jobMsList).
type Ticket struct {
	MsID       string `json:"msId"`
	MsName     string `json:"msName"`
	State      State  `json:"state"`
	Reason     string `json:"reason"`       // why it was rejected
	Remark     string `json:"remark"`       // the worker's note on completion
	Delivered  bool   `json:"delivered"`    // the terminal acknowledged it
	DispatchAt int64  `json:"dispatchTime"` // when the terminal acknowledged it (0 = not yet)
	AcceptTime int64  `json:"acceptTime"`   // accepted or rejected
	StartTime  int64  `json:"startTime"`
	EndTime    int64  `json:"endTime"`
	UpdateTime int64  `json:"updateTime"`
}

// Job is a task and its tickets (spec §3: task, status, sending time, assignee, creator, dispatch time,
// execution state; jobMsList, job, lng, lat, address, jobId).
type Job struct {
	JobID       ID       `json:"jobId"`
	Job         string   `json:"job"` // the task
	Address     string   `json:"address"`
	Lat         *float64 `json:"lat" tstype:"number | null,required"`
	Lng         *float64 `json:"lng" tstype:"number | null,required"`
	Creator     string   `json:"creator"` // msId of the dispatcher
	CreatorName string   `json:"creatorName"`
	SendTime    int64    `json:"sendTime"` // when the dispatcher sent it
	Status      State    `json:"status"`   // the job's state over its tickets (Status)
	JobMsList   []Ticket `json:"jobMsList"`

	customerID int64
}

// Status is a job's state over its tickets: working while anyone works on it, over once every ticket is
// settled (rejected or over) and at least one is over, rejected when everyone rejected it, accepted when
// someone accepted it, else unsettled.
func Status(ts []Ticket) State {
	var n [5]int
	for _, t := range ts {
		if t.State.Valid() {
			n[t.State]++
		}
	}
	switch {
	case n[Working] > 0:
		return Working
	case len(ts) > 0 && n[Over]+n[Rejected] == len(ts) && n[Over] > 0:
		return Over
	case len(ts) > 0 && n[Rejected] == len(ts):
		return Rejected
	case n[Accepted] > 0:
		return Accepted
	}
	return Unsettled
}

// TerminalView is a ticket as its terminal sees it (job.deliver, job.list and the replies of its actions).
type TerminalView struct {
	JobID       ID       `json:"jobId"`
	Job         string   `json:"job"`
	Address     string   `json:"address"`
	Lat         *float64 `json:"lat" tstype:"number | null,required"`
	Lng         *float64 `json:"lng" tstype:"number | null,required"`
	Creator     string   `json:"creator"`
	CreatorName string   `json:"creatorName"`
	SendTime    int64    `json:"sendTime"`
	State       State    `json:"state"`
	Reason      string   `json:"reason"`
	Remark      string   `json:"remark"`
	AcceptTime  int64    `json:"acceptTime"`
	StartTime   int64    `json:"startTime"`
	EndTime     int64    `json:"endTime"`
}

// For is the job's ticket of one terminal as that terminal sees it.
func (j Job) For(msID string) (TerminalView, bool) {
	for _, t := range j.JobMsList {
		if t.MsID == msID {
			return TerminalView{JobID: j.JobID, Job: j.Job, Address: j.Address, Lat: j.Lat, Lng: j.Lng,
				Creator: j.Creator, CreatorName: j.CreatorName, SendTime: j.SendTime, State: t.State, Reason: t.Reason,
				Remark: t.Remark, AcceptTime: t.AcceptTime, StartTime: t.StartTime, EndTime: t.EndTime}, true
		}
	}
	return TerminalView{}, false
}

// HistoryEntry is one change of a ticket.
type HistoryEntry struct {
	ID     int64  `json:"id"`
	JobID  ID     `json:"jobId"`
	MsID   string `json:"msId"`
	Action string `json:"action"` // created, delivered, accepted, rejected, started, completed
	State  State  `json:"state"`  // after the action
	Reason string `json:"reason"`
	By     string `json:"by"`
	ByName string `json:"byName"`
	Time   int64  `json:"time"`
}

// ReportRow is one terminal's tickets by state over a time range (findJobReport).
type ReportRow struct {
	MsID      string `json:"msId"`
	MsName    string `json:"msName"`
	Total     int    `json:"total"`
	Unsettled int    `json:"unsettled"`
	Accepted  int    `json:"accepted"`
	Rejected  int    `json:"rejected"`
	Working   int    `json:"working"`
	Over      int    `json:"over"`
}

func (r *ReportRow) add(s State, n int) {
	r.Total += n
	switch s {
	case Unsettled:
		r.Unsettled += n
	case Accepted:
		r.Accepted += n
	case Rejected:
		r.Rejected += n
	case Working:
		r.Working += n
	case Over:
		r.Over += n
	}
}
