package job

import (
	"context"
	"slices"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Socket message types (docs/terminal-protocol.md "Job tickets", docs/console-socket.md).
const (
	// Terminal → server requests.
	ReqList     = "job.list"     // {} → {list:[ticket]}: its open tickets and those settled in the last 24 h
	ReqAccept   = "job.accept"   // {jobId} → ticket
	ReqReject   = "job.reject"   // {jobId, reason} → ticket
	ReqStart    = "job.start"    // {jobId} → ticket
	ReqComplete = "job.complete" // {jobId, remark?} → ticket

	// Server → terminal.
	TermDeliver  = "job.deliver"  // request: a ticket; ack "0" once stored (pending and sent again until then)
	TermCanceled = "job.canceled" // event {jobId}: the dispatcher deleted the ticket

	// Server → console events (durable: stored with a seq, replayed by sync).
	EventChanged = "job.changed" // a job: sent, delivered, accepted, rejected, started, completed
	EventRemoved = "job.removed" // {jobId, msId?}: a job, or one terminal's ticket of it, was deleted
)

// Verbs are the job-ticket socket messages.
func (s *Service) Verbs() []realtime.Verb {
	return slices.Concat(
		[]realtime.Verb{
			realtime.On(ReqList, realtime.TerminalOnly, s.onList),
			realtime.On(ReqAccept, realtime.TerminalOnly, s.onAction(Accept)),
			realtime.On(ReqReject, realtime.TerminalOnly, s.onAction(Reject)),
			realtime.On(ReqStart, realtime.TerminalOnly, s.onAction(Start)),
			realtime.On(ReqComplete, realtime.TerminalOnly, s.onAction(Complete)),
			realtime.Ask(TermDeliver, realtime.TerminalOnly),
		},
		realtime.Events(realtime.TerminalOnly, TermCanceled),
		realtime.Events(realtime.ConsoleOnly, EventChanged, EventRemoved),
	)
}

type actionReq struct {
	JobID  flex.String `json:"jobId"`
	Reason string      `json:"reason"`
	Remark string      `json:"remark"`
}

func (s *Service) onAction(a Action) func(ctx context.Context, c *realtime.Conn, req actionReq) (any, error) {
	return func(ctx context.Context, c *realtime.Conn, req actionReq) (any, error) {
		id, err := httpx.RowID[ID]("jobId", string(req.JobID))
		if err != nil {
			return nil, err
		}
		return s.Act(ctx, c.Principal(), id, a, req.Reason, req.Remark)
	}
}

func (s *Service) onList(ctx context.Context, c *realtime.Conn, _ struct{}) (any, error) {
	list, err := s.Mine(ctx, c.Principal())
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": list}, nil
}
