package job

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"tenfour/internal/geo"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/clock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/text"
)

// pendingBatch is how many undelivered tickets a login reads at once.
const pendingBatch = 50

// RecentlySettled is how long a settled (rejected or completed) ticket stays in its terminal's job.list.
const RecentlySettled = 24 * time.Hour

// Service sends job tickets, runs their state machine and delivers what terminals missed.
type Service struct {
	clock.Clock // SetClock and Now: tests move time instead of sleeping

	db    *db.DB
	store *Store
	hub   *realtime.Hub
	log   *oplog.Log

	mu      sync.Mutex
	flights map[flightKey]chan struct{} // deliveries under way, so a send and a login never deliver one ticket twice
	bg      sync.WaitGroup              // background deliveries, awaited by Wait
}

type flightKey struct {
	job ID
	to  string
}

// New builds the service on the directory's terminals.
func New(d *db.DB, dir Directory, hub *realtime.Hub, log *oplog.Log) *Service {
	return &Service{db: d, store: NewStore(d, dir), hub: hub, log: log, flights: map[flightKey]chan struct{}{}}
}

// Store is the job store.
func (s *Service) Store() *Store { return s.store }

func (s *Service) now() int64 { return s.Now().UnixMilli() }

// Run waits for the context to end, then for the deliveries under way (the app's background loop, so the store
// outlives them).
func (s *Service) Run(ctx context.Context) {
	<-ctx.Done()
	s.bg.Wait()
}

// RawInput is what /ds/job/add receives (every scalar a string, see httpx.Decode).
type RawInput struct {
	Job       string    `json:"job"`
	Task      string    `json:"task"` // alias of job
	Address   string    `json:"address"`
	Lat       string    `json:"lat"`
	Lng       string    `json:"lng"`
	MsIDs     flex.List `json:"msIds"`
	MsID      flex.List `json:"msId"`
	JobMsList []jobMsID `json:"jobMsList"`
}

// jobMsID is an item of jobMsList: an msId, or an object {msId}.
type jobMsID string

func (m *jobMsID) UnmarshalJSON(b []byte) error {
	var obj struct {
		MsID string `json:"msId"`
	}
	if len(b) > 0 && b[0] == '{' {
		if err := json.Unmarshal(b, &obj); err != nil {
			return httpx.BadParam("jobMsList", "msIds or {msId} objects")
		}
		*m = jobMsID(obj.MsID)
		return nil
	}
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return httpx.BadParam("jobMsList", "msIds or {msId} objects")
	}
	*m = jobMsID(v)
	return nil
}

// splitIDs flattens lists whose items may themselves be comma lists.
func splitIDs(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, v := range l {
			for _, p := range strings.Split(v, ",") {
				if p = strings.TrimSpace(p); p != "" {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// addressField is the rule of a job's address: optional, one line of at most MaxAddress characters.
var addressField = text.Field{Name: "address", Max: MaxAddress, Invalid: httpx.BadParam("address", "illegal characters"), TooLong: ErrTooLong}

// Check applies the job rules: a task (text.Name's characters, at most MaxTask), an optional address, an
// optional position (both coordinates, degrees or micro-degrees: spec §5), 1 to MaxAssignees terminals.
func (r RawInput) Check() (Input, error) {
	var in Input
	task := r.Job
	if strings.TrimSpace(task) == "" {
		task = r.Task
	}
	task = strings.TrimSpace(task)
	if task == "" {
		return in, ErrNoTask
	}
	if !freeText(task) {
		return in, httpx.BadParam("job", "illegal characters")
	}
	if utf8.RuneCountInString(task) > MaxTask {
		return in, ErrTooLong
	}
	in.Job = task
	var err error
	if in.Address, err = addressField.Check(r.Address); err != nil {
		return in, err
	}
	lat, lng := strings.TrimSpace(r.Lat), strings.TrimSpace(r.Lng)
	if lat != "" || lng != "" {
		la, err1 := strconv.ParseFloat(lat, 64)
		lo, err2 := strconv.ParseFloat(lng, 64)
		if err1 != nil || err2 != nil {
			return in, ErrPosition
		}
		la, lo = geo.NormalizeCoord(la), geo.NormalizeCoord(lo)
		if math.IsNaN(la) || math.IsNaN(lo) || la < -90 || la > 90 || lo < -180 || lo > 180 {
			return in, ErrPosition
		}
		in.Lat, in.Lng = &la, &lo
	}
	ids := splitIDs(r.MsIDs, r.MsID)
	for _, m := range r.JobMsList {
		ids = append(ids, string(m))
	}
	if len(ids) == 0 {
		return in, ErrNoAssignee
	}
	ids, err = httpx.IDs("msIds", ids, MaxAssignees*4, true)
	if err != nil {
		return in, err
	}
	if len(ids) > MaxAssignees {
		return in, ErrTooMany
	}
	in.MsIDs = ids
	return in, nil
}

// Add is POST /ds/job/add {job, address?, lat?, lng?, msIds | jobMsList}: it stores a job with a ticket per
// terminal (log: job ticket sent), tells the consoles and delivers the tickets in the background; a terminal
// that is offline or does not acknowledge gets its ticket at its next login. It answers once the job is stored.
func (s *Service) Add(ctx context.Context, p identity.Principal, raw RawInput) (Job, error) {
	in, err := raw.Check()
	if err != nil {
		return Job{}, err
	}
	j, err := s.store.Create(ctx, p.CustomerID, in, p.AccountID, p.Name, s.now())
	if err != nil {
		return Job{}, err
	}
	s.log.By(ctx, p, oplog.JobTicket, "job ticket "+j.JobID.String()+" sent to "+strings.Join(in.MsIDs, ",")+": "+in.Job,
		oplog.D("jobSent", "job", in.Job, "terminals", strings.Join(in.MsIDs, ",")))
	bg := context.WithoutCancel(ctx)
	s.publish(bg, j)
	for _, ms := range in.MsIDs {
		c := s.hub.TerminalPeer(bg, p.CustomerID, ms) // on any node of a cluster
		if c == nil {
			continue
		}
		s.bg.Add(1)
		go func() {
			defer s.bg.Done()
			if err := s.deliver(bg, c, j); err != nil && !errors.Is(err, realtime.ErrNotOnline) {
				slog.InfoContext(bg, "job: ticket not acknowledged; delivered at the next login", "job", j.JobID, "msId", ms, "err", err)
			}
		}()
	}
	return j, nil
}

// publish tells the consoles a job changed (durable: a console that was away gets it from sync).
func (s *Service) publish(ctx context.Context, j Job) {
	if _, err := s.hub.PublishDurable(ctx, j.customerID, EventChanged, j, realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "job: publish", "job", j.JobID, "err", err)
	}
}

// claim starts a delivery of a ticket to a terminal, or reports that one is under way.
func (s *Service) claim(k flightKey) (done chan struct{}, mine bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.flights[k]; f != nil {
		return f, false
	}
	f := make(chan struct{})
	s.flights[k] = f
	return f, true
}

func (s *Service) land(k flightKey, f chan struct{}) {
	s.mu.Lock()
	delete(s.flights, k)
	s.mu.Unlock()
	close(f)
}

// deliver sends the terminal its ticket of j (`job.deliver`) and records the acknowledgement; the first one is
// published. A delivery of the same ticket under way makes this one a no-op.
func (s *Service) deliver(ctx context.Context, c realtime.Peer, j Job) error {
	ms := c.Principal().AccountID
	view, ok := j.For(ms)
	if !ok {
		return nil
	}
	k := flightKey{j.JobID, ms}
	for {
		f, mine := s.claim(k)
		if mine {
			defer s.land(k, f)
			break
		}
		// A delivery of the same ticket is under way (a send, or a login before this one): its outcome decides.
		select {
		case <-f:
		case <-ctx.Done():
			return realtime.ErrTimeout
		}
	}
	if done, err := s.store.Delivered(ctx, j.JobID, ms); err != nil || done {
		return err
	}
	rctx, cancel := context.WithTimeout(ctx, s.hub.AckTimeout())
	defer cancel()
	if _, err := c.Request(rctx, TermDeliver, view); err != nil {
		return err
	}
	first, err := s.store.MarkDelivered(ctx, j.customerID, j.JobID, ms, c.Principal().Name, s.now())
	if err != nil || !first {
		return err
	}
	if cur, err := s.store.Get(ctx, j.customerID, j.JobID); err == nil {
		s.publish(ctx, cur)
	}
	return nil
}

// DeliverAtLogin delivers, once the login reply is out, the tickets a terminal has not acknowledged, oldest
// first, stopping at the first failure (the rest waits for the next login).
func (s *Service) DeliverAtLogin(ctx context.Context, c *realtime.Conn, _ bool) {
	if c.Kind() != realtime.Terminal {
		return
	}
	c.AfterReady(func() {
		p := c.Principal()
		var after ID
		for {
			list, err := s.store.Pending(ctx, p.CustomerID, p.AccountID, after, pendingBatch)
			if err != nil {
				slog.WarnContext(ctx, "job: pending tickets", "msId", p.AccountID, "err", err)
				return
			}
			for _, j := range list {
				after = j.JobID
				if err := s.deliver(ctx, c, j); err != nil {
					if !errors.Is(err, realtime.ErrNotOnline) {
						slog.InfoContext(ctx, "job: pending delivery stopped", "msId", p.AccountID, "err", err)
					}
					return
				}
			}
			if len(list) < pendingBatch {
				return
			}
		}
	})
}

// Act applies a worker's action to its ticket (log: job ticket changed) and tells the consoles.
func (s *Service) Act(ctx context.Context, p identity.Principal, id ID, a Action, reason, remark string) (TerminalView, error) {
	var err error
	if reason, err = httpx.Text("reason", reason, MaxReason); err != nil {
		return TerminalView{}, ErrTooLong
	}
	if remark, err = httpx.Text("remark", remark, MaxReason); err != nil {
		return TerminalView{}, ErrTooLong
	}
	if !freeText(reason) || !freeText(remark) {
		return TerminalView{}, httpx.BadParam("reason", "illegal characters")
	}
	if a == Reject && reason == "" {
		return TerminalView{}, ErrNoReason
	}
	if a != Reject {
		reason = ""
	}
	if a != Complete {
		remark = ""
	}
	j, err := s.store.Act(ctx, p.CustomerID, id, p.AccountID, a, reason, remark, p.Name, s.now())
	if err != nil {
		return TerminalView{}, err
	}
	bg := context.WithoutCancel(ctx)
	s.publish(bg, j)
	switch a {
	case Accept:
		s.log.By(bg, p, oplog.JobTicket, "job ticket "+id.String()+" accepted", oplog.D("jobAccepted", "job", j.Job, "terminal", p.AccountID))
	case Reject:
		s.log.By(bg, p, oplog.JobTicket, "job ticket "+id.String()+" rejected: "+reason,
			oplog.D("jobRejected", "job", j.Job, "terminal", p.AccountID, "reason", reason))
	case Start:
		s.log.By(bg, p, oplog.JobTicket, "job ticket "+id.String()+" started", oplog.D("jobStarted", "job", j.Job, "terminal", p.AccountID))
	case Complete:
		s.log.By(bg, p, oplog.JobTicket, "job ticket "+id.String()+" completed", oplog.D("jobCompleted", "job", j.Job, "terminal", p.AccountID))
	}
	v, _ := j.For(p.AccountID)
	return v, nil
}

// Delete removes a job, or one terminal's ticket of it (log: job ticket deleted); the consoles are told, and
// each affected terminal that is online gets `job.canceled`.
func (s *Service) Delete(ctx context.Context, p identity.Principal, id ID, msID string) (Job, error) {
	j, err := s.store.Delete(ctx, p.CustomerID, id, msID)
	if err != nil {
		return Job{}, err
	}
	gone := []string{msID}
	if msID == "" {
		gone = gone[:0]
		for _, t := range j.JobMsList {
			gone = append(gone, t.MsID)
		}
	}
	bg := context.WithoutCancel(ctx)
	if _, err := s.hub.PublishDurable(bg, p.CustomerID, EventRemoved, Removed{JobID: id, MsID: msID}, realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "job: publish removed", "job", id, "err", err)
	}
	for _, ms := range gone {
		if c := s.hub.TerminalPeer(bg, p.CustomerID, ms); c != nil {
			_ = c.Send(TermCanceled, map[string]any{"jobId": id})
		}
	}
	s.log.By(bg, p, oplog.JobTicket, "job ticket "+id.String()+" deleted for "+strings.Join(gone, ","),
		oplog.D("jobDeleted", "job", j.Job, "terminals", strings.Join(gone, ",")))
	return j, nil
}

// Removed is the `job.removed` event: a job (msId "") or one terminal's ticket of it was deleted.
type Removed struct {
	JobID ID     `json:"jobId"`
	MsID  string `json:"msId,omitempty"`
}

// Mine lists the terminal's tickets for `job.list`: the open ones and those settled within RecentlySettled.
func (s *Service) Mine(ctx context.Context, p identity.Principal) ([]TerminalView, error) {
	list, err := s.store.OfTerminal(ctx, p.CustomerID, p.AccountID, s.now()-RecentlySettled.Milliseconds())
	if err != nil {
		return nil, err
	}
	out := make([]TerminalView, 0, len(list))
	for _, j := range list {
		if v, ok := j.For(p.AccountID); ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// freeText tells whether s may be stored as text people read (text.IllegalRune: line feeds and tabs allowed).
func freeText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, text.IllegalRune)
}
