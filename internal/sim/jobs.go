package sim

import (
	"encoding/json"
	"time"
)

// Job tickets (docs/terminal-protocol.md "Job tickets"): a worker acknowledges a ticket at once, reads it and
// answers within JobPace — rejecting a share of them with a reason —, sets off within JobPace and is done in
// JobPace/2 to 2×JobPace. A ticket whose steps a dropped connection interrupted is picked up again from
// `job.list` at the next login.

// Job states of the protocol (spec §4).
const (
	jobUnsettled = 0
	jobAccepted  = 1
	jobRejected  = 2
	jobWorking   = 3
	jobOver      = 4
)

// Why a worker turns a ticket down.
var rejectReasons = []string{"Too far away, another unit is closer.", "Busy with another task.",
	"No tools for this on board.", "Off shift in 10 minutes."}

type jobTicket struct {
	JobID json.RawMessage `json:"jobId"`
	State int             `json:"state"`
}

// onJobLocked acknowledges a delivered ticket and, the first time, plans the worker's answer.
func (t *Terminal) onJobLocked(f frame) {
	var d jobTicket
	_ = json.Unmarshal(f.Data, &d)
	id := jsonID(d.JobID)
	if id == "" {
		t.reply(f, "400", map[string]string{"msg": "no jobId"})
		return
	}
	t.reply(f, "0", nil) // stored: a repeat is acknowledged and not acted on twice
	if _, seen := t.jobs[id]; seen {
		return
	}
	if t.jobs == nil {
		t.jobs = map[string]int{}
	}
	t.jobs[id] = d.State
	t.fl.stats.Jobs.Add(1)
	t.planJobLocked(id, d.State)
}

// resumeJobsLocked asks, after a login, for the terminal's tickets and picks up the ones it has not planned.
func (t *Terminal) resumeJobsLocked() {
	if t.fl.opts.Rates.JobPace < 0 {
		return
	}
	t.req("job.list", struct{}{}, func(f frame) {
		var r struct {
			List []jobTicket `json:"list"`
		}
		if !f.OK() || json.Unmarshal(f.Data, &r) != nil {
			return
		}
		for _, j := range r.List {
			id := jsonID(j.JobID)
			if _, seen := t.jobs[id]; seen || id == "" {
				continue
			}
			if t.jobs == nil {
				t.jobs = map[string]int{}
			}
			t.jobs[id] = j.State
			t.planJobLocked(id, j.State)
		}
	})
}

// planJobLocked plans the worker's next step on a ticket in state st.
func (t *Terminal) planJobLocked(id string, st int) {
	pace := t.fl.opts.Rates.JobPace
	if pace < 0 {
		return
	}
	r := t.rJob
	var typ string
	data := map[string]any{"jobId": id}
	var wait time.Duration
	switch st {
	case jobUnsettled:
		wait = uniform(r, pace/8, pace)
		if r.Float64() < t.fl.opts.Rates.JobReject {
			typ = "job.reject"
			data["reason"] = rejectReasons[r.IntN(len(rejectReasons))]
		} else {
			typ = "job.accept"
		}
	case jobAccepted:
		typ, wait = "job.start", uniform(r, pace/8, pace)
	case jobWorking:
		typ, wait = "job.complete", uniform(r, pace/2, 2*pace)
		data["remark"] = "Done."
	default:
		return
	}
	t.fl.sched.after(max(wait, 500*time.Millisecond), func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if _, open := t.jobs[id]; !open {
			return // canceled
		}
		if t.state != stOnline {
			delete(t.jobs, id) // job.list at the next login picks it up again
			return
		}
		t.req(typ, data, func(f frame) {
			var v jobTicket
			if !f.OK() || json.Unmarshal(f.Data, &v) != nil {
				delete(t.jobs, id) // deleted or settled elsewhere: nothing left to do
				return
			}
			switch v.State {
			case jobRejected:
				t.fl.stats.JobsRefused.Add(1)
				delete(t.jobs, id)
			case jobOver:
				t.fl.stats.JobsDone.Add(1)
				delete(t.jobs, id)
			default:
				t.jobs[id] = v.State
				t.planJobLocked(id, v.State)
			}
		})
	})
}
