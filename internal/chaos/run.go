package chaos

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/call"
	"tenfour/internal/media/oggopus"
	"tenfour/internal/patrol"
)

// RunOptions are one run of the lab: every fault of Faults alone, then Mixed phases of several faults, one
// phase each, on one lab.
type RunOptions struct {
	Dir, Bin  string
	Seed      uint64
	Terminals int
	Interval  time.Duration // between one client's operations
	Warm      time.Duration // workload before the fault
	Hold      time.Duration // a kill's or a partition's length
	After     time.Duration // workload after the heal
	Settle    time.Duration // quiet time for deliveries in flight, before the checker
	Mixed     int           // phases of two or three faults overlapping (chosen by Seed), after the single ones
	Bounds    Bounds
	Only      string // run only the faults whose name contains this
}

// Short is the ≤3-minute run; Full the ≤20-minute one.
func Short(o RunOptions) RunOptions {
	o.Terminals, o.Interval, o.Warm, o.Hold, o.After, o.Settle = 6, 700*time.Millisecond, 2*time.Second, 5*time.Second, 5*time.Second, 2*time.Second
	o.Mixed = 0
	return o
}

// Full is the full run's sizes.
func Full(o RunOptions) RunOptions {
	o.Terminals, o.Interval, o.Warm, o.Hold, o.After, o.Settle = 18, 500*time.Millisecond, 10*time.Second, 20*time.Second, 30*time.Second, 5*time.Second
	o.Mixed = 3
	return o
}

// DefaultBounds are the stated bounds of docs/reliability.md, for a --node-timeout of 2 s.
var DefaultBounds = Bounds{Converge: 10 * time.Second, Failover: 20 * time.Second}

// Phase is one fault's result.
type Phase struct {
	Fault  string
	Result Result
	Err    error // the lab failed (not a violation): the phase has no verdict
}

// Run starts the lab, provisions, runs each fault as a phase, and checks each phase's history.
func Run(ctx context.Context, o RunOptions) ([]Phase, error) {
	lab, err := Start(ctx, Options{Dir: o.Dir, Bin: o.Bin})
	if err != nil {
		return nil, err
	}
	defer lab.Close()
	if err := Provision(ctx, lab, o.Terminals); err != nil {
		return nil, fmt.Errorf("provision: %w", err)
	}
	w, err := NewWorkload(ctx, lab, WorkloadOptions{Seed: o.Seed, Terminals: o.Terminals, Interval: o.Interval})
	if err != nil {
		return nil, err
	}
	defer w.Close()
	var out []Phase
	faults := Faults(o.Hold, o.Seed)
	faults = append(faults, Mixed(faults, o.Mixed, rand.New(rand.NewPCG(o.Seed, 38)))...)
	for i, f := range faults {
		if o.Only != "" && !strings.Contains(f.Name, o.Only) {
			continue
		}
		slog.Info("chaos: phase", "fault", f.Name)
		r, err := runPhase(ctx, lab, w, f, filepath.Join(o.Dir, fmt.Sprintf("phase%d.jsonl", i+1)), o)
		out = append(out, Phase{Fault: f.Name, Result: r, Err: err})
		if err != nil {
			slog.Error("chaos: phase failed", "fault", f.Name, "err", err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return out, nil
}

func runPhase(ctx context.Context, lab *Lab, w *Workload, f Fault, file string, o RunOptions) (Result, error) {
	// Every node healthy and every client logged in before the fault.
	for _, n := range lab.Nodes {
		if err := lab.WaitHealthy(ctx, n, startWait); err != nil {
			return Result{}, err
		}
	}
	w.Recover(ctx)
	h, err := NewHistory(file)
	if err != nil {
		return Result{}, err
	}
	defer h.Close()
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { w.Run(wctx, h); close(done) }()
	defer func() { stop(); <-done }()

	began := time.Now()
	sleep(ctx, o.Warm)
	fe := Entry{Type: TypeFault, Name: f.Name, Sent: time.Now()}
	if err := f.Inject(ctx, lab); err != nil {
		return Result{}, fmt.Errorf("inject: %w", err)
	}
	sleep(ctx, f.Hold)
	if err := f.Heal(ctx, lab); err != nil {
		return Result{}, fmt.Errorf("heal: %w", err)
	}
	fe.Acked = time.Now()
	h.Add(fe)
	for _, n := range lab.Nodes {
		if k := n.Proc.Killed(); k.After(began) {
			h.Add(Entry{Type: TypeKill, Node: n.ID, Sent: k})
		}
	}
	conv := make(chan struct{})
	go func() { w.measureConvergence(ctx, h, fe.Acked, o.Bounds.Converge+o.After); close(conv) }()
	sleep(ctx, o.After)
	stop()
	<-done
	<-conv
	sleep(ctx, o.Settle) // replies and deliveries in flight
	in := Input{Entries: h.Entries(), Consoles: w.Consoles(), Bounds: o.Bounds}
	if in.Stored, err = w.stored(ctx, in.Entries); err != nil {
		return Result{}, err
	}
	return Check(in), nil
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// stored reads which of the history's message, alarm and job ids PostgreSQL holds, the punches stamped in this
// phase (patrol's store) and the call records since the phase began (call's store), each with its recording's
// size on the node that recorded it and the presses whose audio it holds.
func (w *Workload) stored(ctx context.Context, es []Entry) (Stored, error) {
	d, err := w.lab.Store(ctx)
	if err != nil {
		return Stored{}, err
	}
	defer d.Close()
	ids := map[Kind][]string{}
	from := time.Now()
	for _, e := range es {
		if e.Type == TypeOp && e.ID != "" {
			ids[e.Kind] = append(ids[e.Kind], e.ID)
		}
		if e.Type == TypeOp && e.Sent.Before(from) {
			from = e.Sent
		}
	}
	var s Stored
	if s.SMS, err = d.Present(ctx, "messages", "id", ids[KindSMS]); err != nil {
		return s, err
	}
	if s.SOS, err = d.Present(ctx, "sos_alarms", "id", ids[KindSOS]); err != nil {
		return s, err
	}
	if s.Job, err = d.Present(ctx, "jobs", "id", ids[KindJob]); err != nil {
		return s, err
	}
	since, until := from.Add(-time.Second).UnixMilli(), time.Now().UnixMilli()
	logs, _, err := patrol.NewStore(d).Logs(ctx, w.customer, patrol.LogQuery{From: since, To: until})
	if err != nil {
		return s, err
	}
	s.Punches = map[int64][]string{}
	for _, l := range logs {
		if phase, op, ok := unstamp(l.Lng); ok && phase == w.Phase() {
			s.Punches[op] = append(s.Punches[op], strconv.FormatInt(int64(l.ID), 10))
		}
	}
	recs, _, err := call.NewStore(d, nil).Records(ctx, w.customer, call.RecordQuery{From: since, To: until})
	if err != nil {
		return s, err
	}
	for _, r := range recs {
		c := Record{CallID: r.CallID, Talker: r.TalkerID, BTime: time.UnixMilli(r.Started), Size: r.Size, File: -1,
			Ops: map[int64]bool{}}
		for _, n := range w.lab.Nodes {
			path := filepath.Join(w.lab.DataDir(n), r.Path)
			fi, err := os.Stat(path)
			if err != nil {
				continue
			}
			c.File = fi.Size()
			if f, err := oggopus.ReadFile(path); err == nil {
				for _, pl := range f.Packets {
					if phase, op, ok := burstOf(pl); ok && phase == w.Phase() {
						c.Ops[op] = true
					}
				}
			}
			break
		}
		s.Records = append(s.Records, c)
	}
	return s, nil
}

// measureConvergence polls, from the heal, each node's presence as it serves it (the store's online list
// through that node) and as its console shows it (presence events), until both equal the terminals logged in
// right now, for at most limit; one converge entry per node.
func (w *Workload) measureConvergence(ctx context.Context, h *History, healed time.Time, limit time.Duration) {
	pending := map[string]bool{}
	for _, n := range w.lab.Nodes {
		pending[n.ID] = true
	}
	for len(pending) > 0 && time.Since(healed) < limit && ctx.Err() == nil {
		truth := w.Online()
		for _, c := range w.consoles {
			id := c.home.ID
			if !pending[id] {
				continue
			}
			qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			served, err := onlineList(qctx, c.home.URL, w.token)
			cancel()
			if err == nil && maps.Equal(w.ours(served), truth) && maps.Equal(w.ours(c.view()), truth) {
				h.Add(Entry{Type: TypeConverge, Node: id, OK: true, Took: time.Since(healed), Acked: time.Now()})
				delete(pending, id)
			}
		}
		sleep(ctx, 200*time.Millisecond)
	}
	for _, id := range slices.Sorted(maps.Keys(pending)) {
		c := w.consoles[indexOf(w.lab.Nodes, w.lab.Node(id))]
		served, err := onlineList(ctx, c.home.URL, w.token)
		slog.Warn("chaos: presence did not converge", "node", id, "online", keys(w.Online()), "served", keys(served),
			"err", err, "console", keys(c.view()))
		h.Add(Entry{Type: TypeConverge, Node: id, Took: time.Since(healed), Acked: time.Now()})
	}
}

// ours keeps the workload's terminals of a presence view (the dispatcher is online too).
func (w *Workload) ours(view map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, t := range w.terms {
		if view[t.id] {
			out[t.id] = true
		}
	}
	return out
}

// Recover logs back in every terminal and console that a previous phase left away, before the next fault.
func (w *Workload) Recover(ctx context.Context) {
	w.mu.Lock()
	w.hist = nil
	w.mu.Unlock()
	for _, t := range w.terms {
		if c := t.conn.get(); c == nil || isDone(c.Done()) {
			for _, n := range w.lab.Nodes {
				if err := t.login(ctx, n, ""); err == nil {
					break
				}
			}
		}
	}
	for _, c := range w.consoles {
		if isDone(c.conn.get().Done()) {
			c.reconnect(ctx)
		}
	}
}

func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// WriteTable writes the run's table (docs/reliability.md's form).
func WriteTable(out io.Writer, ps []Phase) {
	fmt.Fprintln(out, "| fault | operations | acknowledged | lost | stored or shown twice | redelivered (de-duplicated) | floor violations | bursts heard | presence converged | fail-over | verdict |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, p := range ps {
		if p.Err != nil {
			fmt.Fprintf(out, "| %s | – | – | – | – | – | – | – | – | – | lab failed: %v |\n", p.Fault, p.Err)
			continue
		}
		r := p.Result
		verdict := "ok"
		if !r.OK() {
			verdict = fmt.Sprintf("%d violations", len(r.Violations))
		}
		failover := "none needed"
		if r.Failover > 0 {
			failover = r.Failover.Round(100 * time.Millisecond).String()
		}
		heard := strconv.Itoa(r.Heard)
		if r.Cut > 0 {
			heard += fmt.Sprintf(" (%d cut by the kill)", r.Cut)
		}
		fmt.Fprintf(out, "| %s | %d | %d | %d | %d | %d | %d | %s | %v | %s | %s |\n", p.Fault, r.Ops, r.Acked, r.Lost,
			r.Duplicates, r.Redelivered, r.FloorViolations, heard, r.Converge.Round(100*time.Millisecond), failover, verdict)
	}
}

// Summary is a run's totals over its phases (the summary line of `make chaos`).
type Summary struct {
	Failed, Ops, Acked, Lost, Duplicates, FloorViolations, Heard int
}

// Sum adds up the phases' results.
func Sum(ps []Phase) Summary {
	var s Summary
	for _, p := range ps {
		if p.Err != nil {
			s.Failed++
		}
		r := p.Result
		s.Ops, s.Acked, s.Lost, s.Duplicates, s.FloorViolations, s.Heard = s.Ops+r.Ops, s.Acked+r.Acked, s.Lost+r.Lost,
			s.Duplicates+r.Duplicates, s.FloorViolations+r.FloorViolations, s.Heard+r.Heard
	}
	return s
}

func keys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
