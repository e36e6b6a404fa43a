// Package sim is the terminal fleet simulator (`tenfour sim`, and the in-process fleet of `serve --demo`): N
// terminals of every spec §3 type log in over the real socket and behave like a fleet in the field — they move
// along routes in the demo cities and report GPS at their configured interval, drain and charge batteries,
// change signal, lose the network and come back, talk in bursts with real speech (Ogg Opus fixtures) over
// WebRTC while respecting the floor, answer or decline individual calls, raise SOS now and then, obey
// stun/kill/revive, parameters and remote group switches, acknowledge messages and answer (or forget)
// lone-worker checks. docs/terminal-protocol.md is what they speak.
//
// One scheduler (a heap) drives every terminal's timed work and one 20 ms clock sends every talker's speech;
// a connection costs one reader goroutine. WebRTC PeerConnections are opened on demand and closed when idle
// (see media.go). Behaviour is deterministic for a seed: each terminal has its own random sources, derived
// from the seed and its account id, one per kind of decision.
package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"tenfour/internal/platform/defaults"
)

// Rates set how often terminals do things on their own (means of exponential gaps, per terminal; the type's
// profile scales talk and SOS). Zero takes the default; a negative value turns the behaviour off.
type Rates struct {
	TalkEvery   time.Duration // default 10 min
	SOSEvery    time.Duration // default 24 h (SOS buttons 4× as often)
	DropEvery   time.Duration // mean time online between network losses, default 45 min
	Offline     time.Duration // longest network loss, default 3 min (shortest: 15 s, or half of this)
	SwitchEvery time.Duration // a terminal switching its own talk group, default 2 h
	// ForgetCheckin is the share of lone-worker checks left unanswered (default 0.12; negative = none).
	ForgetCheckin float64
	// AnswerShare is the share of dispatcher messages a worker answers with a short text (default 0.3), within
	// AnswerDelay (default 40 s; at least a second).
	AnswerShare float64
	AnswerDelay time.Duration
	// UploadEvery is the mean time between an app's photos to the media cloud (default 12 h; cameras send a
	// snapshot 12× as often).
	UploadEvery time.Duration
	// PatrolEvery is how often a terminal looks at its patrol orders and punches the next point that is due
	// (default 1 min; patrol.go).
	PatrolEvery time.Duration
	// JobPace is how long a worker typically takes for each step of a job ticket — to answer it, to set off, to
	// finish it (default 2 min: answered within 2 min, started within 2 min, done in 1 to 4 min; negative: tickets
	// are acknowledged and never answered). JobReject is the share of tickets rejected (default 0.15; negative =
	// none).
	JobPace   time.Duration
	JobReject float64
	// PunchEvery is the mean time between a school bus's stops, where students board or get off (default 3 min;
	// only terminals with Options.BusCards).
	PunchEvery time.Duration
}

// Quiet turns every spontaneous behaviour off (tests drive terminals explicitly).
var Quiet = Rates{TalkEvery: -1, SOSEvery: -1, DropEvery: -1, SwitchEvery: -1, ForgetCheckin: -1, AnswerShare: -1,
	UploadEvery: -1, PatrolEvery: -1, JobPace: -1, JobReject: -1, PunchEvery: -1}

func (r Rates) withDefaults() Rates {
	// Zero is unset; a negative value is "never" (Quiet), so these are cmp.Or, not defaults.Positive.
	r.TalkEvery = cmp.Or(r.TalkEvery, 10*time.Minute)
	r.SOSEvery = cmp.Or(r.SOSEvery, 24*time.Hour)
	r.DropEvery = cmp.Or(r.DropEvery, 45*time.Minute)
	r.Offline = cmp.Or(r.Offline, 3*time.Minute)
	r.SwitchEvery = cmp.Or(r.SwitchEvery, 2*time.Hour)
	r.ForgetCheckin = cmp.Or(r.ForgetCheckin, 0.12)
	r.AnswerShare = cmp.Or(r.AnswerShare, 0.3)
	r.AnswerDelay = cmp.Or(r.AnswerDelay, 40*time.Second)
	r.UploadEvery = cmp.Or(r.UploadEvery, 12*time.Hour)
	r.PatrolEvery = cmp.Or(r.PatrolEvery, time.Minute)
	r.JobPace = cmp.Or(r.JobPace, 2*time.Minute)
	r.PunchEvery = cmp.Or(r.PunchEvery, 3*time.Minute)
	r.JobReject = cmp.Or(r.JobReject, 0.15)
	return r
}

// Options configure a fleet.
type Options struct {
	URL string // the server's base URL (http://host:port)
	// URLs are more nodes of a cluster (docs/operations.md): a terminal starts on one of URL and URLs (by its
	// index) and, when a login there fails, tries the next after its backoff — a dead node's terminals move on.
	URLs     []string
	Accounts []Account // the terminals
	Seed     uint64
	City     string // default city of accounts without one ("istanbul", "izmir"); ignored when Around is set
	// Around, with Radius (metres), puts accounts without a city around any place instead.
	Around *LatLng
	Radius float64

	Rates Rates
	// BusCards makes terminals school buses: terminal id → the student card numbers its reader sees.
	BusCards map[string][]string
	// Passive makes a fleet that does nothing unless driven (serve --demo-fleet-quiet, the browser suite's): Rates
	// are Quiet, and each terminal reports its position and status once per login and then only keeps its
	// connection alive — it does not move, drain its battery or change its signal. Its reactions are certain: it
	// answers every individual call and replies once in it, never talks back in a call of many and never hangs up
	// on its own.
	Passive bool
	// Reaction scales how long a terminal's user takes over a call — ringing before answering, waiting before a
	// reply, hanging up (0 or 1: as a person does, seconds); a test that proves only that the reaction comes sets
	// less. The draws are the same whatever the scale, so a seed's plan does not change.
	Reaction float64
	// GPSInterval replaces every moving type's default report interval (param.set still overrides it).
	GPSInterval time.Duration
	// Ramp spreads the first logins evenly over this long (each login costs the server a password hash).
	Ramp time.Duration
	// MaxMedia caps the PeerConnections open at once (default 64); MediaIdle closes one unused this long
	// (default 20 s).
	MaxMedia  int
	MediaIdle time.Duration
	// Loopback restricts ICE to the loopback interface (a fleet on the server's machine).
	Loopback bool
	// Insecure accepts any TLS certificate (a self-signed server).
	Insecure bool
	// HTTPClient, if set, carries every request and socket of the fleet instead of a client of its own (Insecure
	// is then its business): serve --demo hands its in-process fleet the client of its in-process listener.
	HTTPClient *http.Client
	// KeepPayloads keeps received audio payloads (tests that check what arrived).
	KeepPayloads bool
	// Dialers bounds logins in progress (default 16); Workers runs scheduled work (default 2 per CPU, ≥ 4).
	Dialers, Workers int
	// AudioDir replaces the embedded speech with the *.ogg files of a directory.
	AudioDir string
	Log      *slog.Logger
	// Indoor lists accounts (among Accounts) that walk through the demo building and report the beacons they hear
	// every IndoorInterval (default 1 s) instead of GPS fixes (indoor.go); they walk in passive fleets too.
	Indoor         []string
	IndoorInterval time.Duration
}

// Fleet is a running set of simulated terminals.
type Fleet struct {
	opts  Options
	city  City
	clips Clips
	hc    *http.Client
	// snapshot is the JPEG cameras and apps upload.
	snapshot []byte
	terms    []*Terminal
	byID     map[string]*Terminal

	ctx      context.Context
	cancel   context.CancelFunc
	start    time.Time
	sched    *scheduler
	clock    *clock
	media    mediaPool
	dials    *dialQueue
	stats    Stats
	stopping atomic.Bool

	pinMu sync.Mutex
	pins  map[*Terminal]bool

	indoorIndex map[string]int // Options.Indoor: account → its place among the walkers
}

// New builds a fleet (nothing connects before Run).
func New(opts Options) (*Fleet, error) {
	if opts.URL == "" {
		return nil, errors.New("sim: no server URL")
	}
	if len(opts.Accounts) == 0 {
		return nil, errors.New("sim: no accounts")
	}
	if opts.Passive {
		opts.Rates = Quiet
	}
	opts.Rates = opts.Rates.withDefaults()
	defaults.Positive(&opts.MaxMedia, 64)
	defaults.Positive(&opts.MediaIdle, 20*time.Second)
	defaults.Positive(&opts.Dialers, 16)
	defaults.Positive(&opts.Workers, max(4, 2*runtime.GOMAXPROCS(0)))
	opts.Log = cmp.Or(opts.Log, slog.Default())
	city, ok := CityByName(opts.City)
	if !ok {
		return nil, fmt.Errorf("sim: unknown city %q (istanbul, izmir, or --around)", opts.City)
	}
	if opts.Around != nil {
		city = AroundCity(*opts.Around, max(opts.Radius, 500))
	}
	clips, err := LoadClips(opts.AudioDir)
	if err != nil {
		return nil, err
	}
	f := &Fleet{opts: opts, city: city, clips: clips, hc: opts.HTTPClient, byID: map[string]*Terminal{},
		pins: map[*Terminal]bool{}, snapshot: snapshotJPEG()}
	if f.hc == nil {
		f.hc = httpClient(opts.Insecure)
	}
	f.media.max = int32(opts.MaxMedia)
	f.indoorIndex = map[string]int{}
	for _, id := range opts.Indoor {
		if _, dup := f.indoorIndex[id]; !dup {
			f.indoorIndex[id] = len(f.indoorIndex)
		}
	}
	listed := map[string]bool{}
	for _, a := range opts.Accounts {
		listed[a.ID] = true
	}
	for id := range f.indoorIndex {
		if !listed[id] {
			return nil, fmt.Errorf("sim: indoor walker %s is not among the accounts", id)
		}
	}
	for i, a := range opts.Accounts {
		if _, dup := f.byID[a.ID]; dup {
			return nil, fmt.Errorf("sim: account %s listed twice", a.ID)
		}
		if a.Type == "" {
			a.Type = MixType(i)
		}
		t := newTerminal(f, a, i)
		f.terms = append(f.terms, t)
		f.byID[a.ID] = t
	}
	return f, nil
}

// Run connects the fleet and runs it until ctx ends, then logs every terminal out.
func (f *Fleet) Run(ctx context.Context) error {
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.ctx, f.cancel = runCtx, cancel
	f.start = time.Now()
	f.sched = newScheduler(f.opts.Workers)
	f.clock = newClock(f.sched, &f.stats)
	f.dials = newDialQueue(f.opts.Dialers)
	go f.clock.run(runCtx)
	n := len(f.terms)
	for i, t := range f.terms {
		first := f.start
		if n > 1 {
			first = first.Add(f.opts.Ramp * time.Duration(i) / time.Duration(n))
		}
		t.start(first)
	}
	<-ctx.Done()
	f.stop()
	return nil
}

// stop logs every terminal out (closing handshakes in parallel) and stops the clocks.
func (f *Fleet) stop() {
	f.stopping.Store(true)
	f.cancel() // logins and media negotiations in progress give up
	f.sched.close()
	f.dials.close()
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for _, t := range f.terms {
		t.mu.Lock()
		w := t.w
		t.state = stStopped
		if t.talk != nil {
			t.stopTalkLocked("stopped", false)
		}
		m := t.media
		t.media = nil
		t.mu.Unlock()
		if m != nil {
			go m.Close()
		}
		if w != nil {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				w.Close()
			}()
		}
	}
	wg.Wait()
}

// Terminal returns a terminal by account id (nil if it is not in the fleet).
func (f *Fleet) Terminal(id string) *Terminal { return f.byID[id] }

// Terminals returns every terminal, in account order.
func (f *Fleet) Terminals() []*Terminal { return f.terms }

// Stats are the fleet's counters.
func (f *Fleet) Stats() *Stats { return &f.stats }

// Clips are the speech clips terminals play.
func (f *Fleet) Clips() Clips { return f.clips }

// Talking is how many terminals are sending speech now.
func (f *Fleet) Talking() int {
	if f.clock == nil {
		return 0
	}
	return f.clock.active()
}

// TakeLate is the most a planned task (a report, a burst) started after its time since the last call; 0
// before the fleet runs. A position's time is its planned time, so this is what the simulator adds to a
// position's latency.
func (f *Fleet) TakeLate() time.Duration {
	if f.sched == nil {
		return 0
	}
	return f.sched.takeLate()
}

// Pending is the number of scheduled tasks (a health figure: about five per terminal).
func (f *Fleet) Pending() int {
	if f.sched == nil {
		return 0
	}
	return f.sched.pending()
}

func (f *Fleet) now() time.Time { return time.Now() }

func (f *Fleet) logf(format string, args ...any) { f.opts.Log.Info(fmt.Sprintf(format, args...)) }

// pin keeps a terminal's PeerConnection open (a test's listener).
func (f *Fleet) pin(t *Terminal) {
	f.pinMu.Lock()
	f.pins[t] = true
	f.pinMu.Unlock()
}

func (f *Fleet) pinned(t *Terminal) bool {
	f.pinMu.Lock()
	defer f.pinMu.Unlock()
	return f.pins[t]
}

// clipFor picks what a terminal says in its talk group: the long message, a short reply, or the start of the
// long message (1.5 s or more).
func (f *Fleet) clipFor(choice, frac float64) [][]byte {
	long := f.clips.Long.Packets
	switch {
	case choice < 0.3:
		return long
	case choice < 0.7:
		return f.clipShort(frac)
	}
	n := min(len(long), 75+int(frac*float64(len(long))))
	return long[:n]
}

func (f *Fleet) clipShort(r float64) [][]byte {
	return f.clips.Short[int(r*float64(len(f.clips.Short)))%len(f.clips.Short)].Packets
}

// dialQueue runs logins on a few goroutines, first come first served, each terminal queued at most once.
type dialQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	queue  []*Terminal
	queued map[*Terminal]bool
	closed bool
	wg     sync.WaitGroup
}

func newDialQueue(workers int) *dialQueue {
	q := &dialQueue{queued: map[*Terminal]bool{}}
	q.cond = sync.NewCond(&q.mu)
	for range workers {
		q.wg.Add(1)
		go q.work()
	}
	return q
}

func (q *dialQueue) push(t *Terminal) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.queued[t] {
		return
	}
	q.queued[t] = true
	q.queue = append(q.queue, t)
	q.cond.Signal()
}

func (q *dialQueue) work() {
	defer q.wg.Done()
	for {
		q.mu.Lock()
		for len(q.queue) == 0 && !q.closed {
			q.cond.Wait()
		}
		if q.closed {
			q.mu.Unlock()
			return
		}
		t := q.queue[0]
		q.queue[0] = nil
		q.queue = q.queue[1:]
		delete(q.queued, t)
		q.mu.Unlock()
		t.dial()
	}
}

func (q *dialQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
	q.wg.Wait()
}
