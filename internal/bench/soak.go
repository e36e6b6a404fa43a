package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"tenfour/internal/platform/ticker"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/termclient"
)

// SoakOptions describe a soak (`make soak`): the scale run's fleet (RunScale: the real binary, `tenfour sim`
// processes, console sockets) kept online for Duration with talk bursts and positions from the simulators, and
// probes of the harness's own whose every delivery is counted: alarms (terminal → every console), messages
// both ways, PTT presses.
type SoakOptions struct {
	Bin, Dir  string
	Terminals int
	Consoles  int           // console sockets, the message sender's included (20)
	Duration  time.Duration // how long the fleet is held after it is online
	Window    time.Duration // latency windows
	Sample    time.Duration // resource samples (RSS, goroutines, open files) this often
	GPS       time.Duration // every terminal's report interval
	TalkEvery time.Duration // mean time between a simulated terminal's talk bursts
	// The probes' pace: one alarm, one message each way, one PTT press per interval.
	AlarmEvery, MessageEvery, PressEvery time.Duration
	Log                                  io.Writer
}

// SoakSample is one resource sample of the server.
type SoakSample struct {
	At         time.Duration // since the soak began
	Online     int64
	RSS        int64
	Heap       float64 // Go heap allocated (garbage included)
	Goroutines float64
	FDs        int
}

// SoakWindow holds a window's latencies (each delivery) and counts.
type SoakWindow struct {
	From, To                    time.Duration
	Alarm, MsgIn, MsgOut, Press []time.Duration
	GPS                         *Hist // positions arriving in the window (millions: counted, not kept)
	PressErrs                   int
}

// SoakSecond is one second of the soak, to tell where slow positions came from: the server, a simulator that
// fell behind (a position's time is the simulator's planned time), or the harness itself.
type SoakSecond struct {
	Positions, Slow int             // positions that arrived this second, and those over a second late
	SimMax          []time.Duration // the slowest position of each simulator's terminals
	SimLate         []time.Duration // how late each simulator's planned tasks started (its stats line)
	Lag             time.Duration   // how late the harness's own 20 ms sleep woke up (the consoles' process)
}

// SoakResult is what a soak measured.
type SoakResult struct {
	Scale   ScaleResult
	Samples []SoakSample
	Windows []SoakWindow
	// Delivery counts: sent (each must reach Consoles consoles, or the terminal) and delivered.
	Alarms, AlarmDeliveries, AlarmExpected int
	MsgIn, MsgInDeliveries, MsgInExpected  int
	MsgOut, MsgOutDelivered                int
	ProbeErrs                              []string
	Consoles                               int
	SimStats                               string
	Seconds                                []SoakSecond // from the soak's start, each second
	Took                                   time.Duration
}

// soakClock sorts what arrives during the soak into its windows and seconds (from t0; nothing before it).
type soakClock struct {
	mu    sync.Mutex
	t0    time.Time
	res   *SoakResult
	sims  int
	simOf func(msID string) int
	ended bool
}

// end stops the count (the consoles go on until the fleet is stopped).
func (c *soakClock) end() {
	c.mu.Lock()
	c.ended = true
	c.mu.Unlock()
}

// start begins the soak at t0 with its windows.
func (c *soakClock) start(t0 time.Time, o SoakOptions, fl Fleet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for from := time.Duration(0); from < o.Duration; from += o.Window {
		c.res.Windows = append(c.res.Windows, SoakWindow{From: from, To: min(from+o.Window, o.Duration), GPS: &Hist{}})
	}
	c.t0, c.sims, c.simOf = t0, fl.Sims, fl.SimOf
}

// second is the SoakSecond of at, or nil outside the soak; under c.mu.
func (c *soakClock) second(at time.Time) *SoakSecond {
	if c.t0.IsZero() || c.ended || at.Before(c.t0) {
		return nil
	}
	i := int(at.Sub(c.t0) / time.Second)
	for len(c.res.Seconds) <= i {
		c.res.Seconds = append(c.res.Seconds, SoakSecond{SimMax: make([]time.Duration, c.sims), SimLate: make([]time.Duration, c.sims)})
	}
	return &c.res.Seconds[i]
}

func (c *soakClock) position(msID string, at time.Time, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sec := c.second(at)
	if sec == nil {
		return
	}
	sim := c.simOf(msID)
	off := at.Sub(c.t0)
	for i := range c.res.Windows {
		if w := &c.res.Windows[i]; off >= w.From && off < w.To {
			w.GPS.Add(d)
			break
		}
	}
	sec.Positions++
	if d >= time.Second {
		sec.Slow++
	}
	if sim >= 0 && sim < c.sims {
		sec.SimMax[sim] = max(sec.SimMax[sim], d)
	}
}

func (c *soakClock) simLate(sim int, at time.Time, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sec := c.second(at); sec != nil && sim >= 0 && sim < c.sims {
		sec.SimLate[sim] = max(sec.SimLate[sim], d)
	}
}

func (c *soakClock) lag(at time.Time, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sec := c.second(at); sec != nil {
		sec.Lag = max(sec.Lag, d)
	}
}

// simLateField is the `late=` of a simulator's stats line (Fleet.TakeLate).
var simLateField = regexp.MustCompile(` late=(\S+)`)

// probeSet tracks one kind of probe: when each was sent and when each copy arrived.
type probeSet struct {
	mu     sync.Mutex
	sent   map[string]time.Time
	arrive map[string][]time.Time
}

func newProbeSet() *probeSet {
	return &probeSet{sent: map[string]time.Time{}, arrive: map[string][]time.Time{}}
}

func (p *probeSet) send(id string, at time.Time) { p.mu.Lock(); p.sent[id] = at; p.mu.Unlock() }
func (p *probeSet) got(id string, at time.Time) {
	p.mu.Lock()
	p.arrive[id] = append(p.arrive[id], at)
	p.mu.Unlock()
}

// settle sorts the deliveries into the windows (by send time) and counts them.
func (p *probeSet) settle(t0 time.Time, ws []SoakWindow, pick func(*SoakWindow) *[]time.Duration) (sent, delivered int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id, at := range p.sent {
		sent++
		for _, a := range p.arrive[id] {
			delivered++
			off := at.Sub(t0)
			for i := range ws {
				if off >= ws[i].From && off < ws[i].To {
					l := pick(&ws[i])
					*l = append(*l, max(0, a.Sub(at)))
					break
				}
			}
		}
	}
	return sent, delivered
}

// RunSoak runs the soak; the fleet is stopped when it returns.
func RunSoak(ctx context.Context, o SoakOptions) (SoakResult, error) {
	res := SoakResult{Consoles: o.Consoles}
	alarms, msgIn, msgOut := newProbeSet(), newProbeSet(), newProbeSet()
	clock := &soakClock{res: &res}
	onSimLine := func(sim int, line string) {
		if m := simLateField.FindStringSubmatch(line); m != nil {
			if d, err := time.ParseDuration(m[1]); err == nil {
				clock.simLate(sim, time.Now(), d)
			}
		}
	}
	onFrame := func(console int, f wsclient.Frame) {
		switch f.Type {
		case "sos.alarm":
			var d struct {
				ID json.Number `json:"id"`
			}
			if f.Decode(&d) == nil {
				alarms.got(d.ID.String(), f.At)
			}
		case "sms.received":
			var d struct {
				ID      string `json:"id"`
				Content string `json:"content"`
			}
			if f.Decode(&d) == nil && strings.HasPrefix(d.Content, "soak ") {
				msgIn.got(d.Content, f.At)
			}
		}
	}
	var sampleErr error
	then := func(ctx context.Context, fl Fleet) error {
		// The probes: a talker (PTT, media on loopback) and a terminal that raises alarms and sends and receives
		// messages, both accounts after the fleet's; the 20th console sends the messages to that terminal.
		talker, err := termclient.Dial(ctx, termclient.Options{URL: fl.Base, UID: strconv.Itoa(fl.First), Password: fl.Password,
			Media: termclient.MediaOptions{Loopback: true}})
		if err != nil {
			return fmt.Errorf("talker: %w", err)
		}
		defer talker.Close()
		if err := talker.Connect(ctx); err != nil {
			return fmt.Errorf("talker media: %w", err)
		}
		probeID := strconv.Itoa(fl.First + 1)
		term, err := termclient.Dial(ctx, termclient.Options{URL: fl.Base, UID: probeID, Password: fl.Password,
			OnRequest: func(typ string, data json.RawMessage) (string, any) {
				if typ == "sms.deliver" {
					var d struct {
						Content string `json:"content"`
					}
					if json.Unmarshal(data, &d) == nil {
						msgOut.got(d.Content, time.Now())
					}
				}
				return "0", struct{}{}
			}})
		if err != nil {
			return fmt.Errorf("probe terminal: %w", err)
		}
		defer term.Close()
		live := liveFixes{}
		sender, err := consoleSocket(ctx, fl.Base, fl.Token, func(f wsclient.Frame) {
			onFrame(o.Consoles-1, f)
			live.each(f, func(msID string, d time.Duration) { clock.position(msID, f.At, d) })
		})
		if err != nil {
			return fmt.Errorf("sender console: %w", err)
		}
		defer sender.CloseNow()

		t0 := time.Now()
		clock.start(t0, o, fl)
		end := t0.Add(o.Duration)
		probeEnd := end.Add(-5 * time.Second) // the last probes have time to arrive
		var wg sync.WaitGroup
		var errMu sync.Mutex
		fail := func(what string, err error) {
			errMu.Lock()
			if len(res.ProbeErrs) < 20 {
				res.ProbeErrs = append(res.ProbeErrs, fmt.Sprintf("%s: %v", what, err))
			}
			errMu.Unlock()
		}
		probeCtx, stopProbes := context.WithDeadline(ctx, probeEnd)
		defer stopProbes()
		every := func(d time.Duration, fn func(n int)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := 0
				ticker.Every(probeCtx, d, func() { fn(n); n++ })
			}()
		}
		wg.Add(1)
		go func() { // the harness's own lag: a stalled harness would make every delivery look late
			defer wg.Done()
			for time.Now().Before(end) && ctx.Err() == nil {
				at := time.Now()
				time.Sleep(20 * time.Millisecond)
				clock.lag(at, time.Since(at)-20*time.Millisecond)
			}
		}()
		every(o.AlarmEvery, func(int) {
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			at := time.Now()
			var r struct {
				ID json.Number `json:"id"`
			}
			if err := term.Call(cctx, "sos.raise", map[string]any{"lat": 41.01, "lng": 28.97}, &r); err != nil {
				fail("sos.raise", err)
				return
			}
			alarms.send(r.ID.String(), at)
			time.Sleep(time.Second) // then the worker cancels it (a false alarm), so it can raise the next
			if err := term.Call(cctx, "sos.cancel", map[string]any{"id": r.ID.String()}, nil); err != nil {
				fail("sos.cancel", err)
			}
		})
		every(o.MessageEvery, func(n int) {
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			in := fmt.Sprintf("soak %d in", n)
			msgIn.send(in, time.Now())
			if err := term.Call(cctx, "sms.send", map[string]any{"content": in}, nil); err != nil {
				fail("sms.send (terminal)", err)
			}
			out := fmt.Sprintf("soak %d out", n)
			msgOut.send(out, time.Now())
			if err := sender.Call(cctx, "sms.send", map[string]any{"msId": probeID, "content": out}, nil); err != nil {
				fail("sms.send (console)", err)
			}
		})
		var pressMu sync.Mutex
		every(o.PressEvery, func(int) {
			at := time.Since(t0)
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			lat, _, err := Presses(cctx, []*termclient.Client{talker}, 1)
			pressMu.Lock()
			defer pressMu.Unlock()
			for i := range res.Windows {
				w := &res.Windows[i]
				if at >= w.From && at < w.To {
					w.Press = append(w.Press, lat...)
					if err != nil {
						w.PressErrs++
					}
				}
			}
			if err != nil {
				fail("floor.request", err)
			}
		})
		// The resource samples, until the end.
		sample := func() {
			s := SoakSample{At: time.Since(t0), Online: fl.Online()}
			s.RSS, _, _ = ProcMem(fl.Pid)
			m := scrapeAll(fl.Base)
			s.Heap, s.Goroutines = m["go_memstats_heap_alloc_bytes"], m["go_goroutines"]
			if fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", fl.Pid)); err == nil {
				s.FDs = len(fds)
			} else if sampleErr == nil {
				sampleErr = err
			}
			res.Samples = append(res.Samples, s)
			fmt.Fprintf(os.Stderr, "soak: %5.0f s  online %d  RSS %.0f MB  heap %.0f MB  goroutines %.0f  open files %d\n",
				s.At.Seconds(), s.Online, float64(s.RSS)/(1<<20), s.Heap/(1<<20), s.Goroutines, s.FDs)
		}
		sample()
		sampleCtx, stopSamples := context.WithDeadline(ctx, end)
		ticker.Every(sampleCtx, o.Sample, sample)
		stopSamples()
		sample()
		wg.Wait()
		time.Sleep(2 * time.Second) // a delivery still under way
		ws := res.Windows
		res.Alarms, res.AlarmDeliveries = alarms.settle(t0, ws, func(w *SoakWindow) *[]time.Duration { return &w.Alarm })
		res.MsgIn, res.MsgInDeliveries = msgIn.settle(t0, ws, func(w *SoakWindow) *[]time.Duration { return &w.MsgIn })
		res.MsgOut, res.MsgOutDelivered = msgOut.settle(t0, ws, func(w *SoakWindow) *[]time.Duration { return &w.MsgOut })
		res.AlarmExpected, res.MsgInExpected = res.Alarms*o.Consoles, res.MsgIn*o.Consoles
		clock.end()
		res.SimStats = fl.SimStats()
		res.Took = time.Since(t0)
		return nil
	}
	ramp := time.Duration(o.Terminals) * 4 * time.Millisecond
	var err error
	res.Scale, err = RunScale(ctx, ScaleOptions{Bin: o.Bin, Dir: o.Dir, Terminals: o.Terminals, Consoles: o.Consoles - 1,
		Ramp: ramp, OnlineWait: 5 * time.Minute, // the soak starts with the whole fleet online Settle: 5 * time.Second, Window: 5 * time.Second, GPSInterval: o.GPS,
		Log: o.Log, CheapHash: true, Talkers: 2, SimSize: 2500, OnConsoleFrame: onFrame, OnPosition: clock.position,
		OnSimLine: onSimLine, Then: then,
		SimArgs: []string{"--talk-every", o.TalkEvery.String()}})
	if err == nil {
		err = sampleErr
	}
	return res, err
}

// Trend is a least-squares line through samples: its slope per hour and the change it fits over the run.
type Trend struct {
	Mean, PerHour, OverRun float64
}

// FitTrend fits y over t (seconds).
func FitTrend(t, y []float64) Trend {
	n := float64(len(t))
	if n < 2 {
		return Trend{}
	}
	var st, sy, stt, sty float64
	for i := range t {
		st, sy, stt, sty = st+t[i], sy+y[i], stt+t[i]*t[i], sty+t[i]*y[i]
	}
	den := n*stt - st*st
	if den == 0 {
		return Trend{Mean: sy / n}
	}
	slope := (n*sty - st*sy) / den
	return Trend{Mean: sy / n, PerHour: slope * 3600, OverRun: slope * (t[len(t)-1] - t[0])}
}

// Flat tells whether the fitted change over the run is within rel of the mean or within abs.
func (tr Trend) Flat(rel, abs float64) bool {
	return math.Abs(tr.OverRun) <= math.Max(rel*math.Abs(tr.Mean), abs)
}

// Stable tells whether every window's p99 is within 2× the median window's p99 plus slack.
func Stable(p99s []time.Duration, slack time.Duration) bool {
	var s []time.Duration
	for _, d := range p99s {
		if d > 0 {
			s = append(s, d)
		}
	}
	if len(s) == 0 {
		return false
	}
	sorted := append([]time.Duration(nil), s...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	med := sorted[len(sorted)/2]
	return sorted[len(sorted)-1] <= 2*med+slack
}

// WriteSoak prints the soak's tables: the summary with verdicts, the windows, the samples.
func WriteSoak(w io.Writer, o SoakOptions, r SoakResult) (ok bool) {
	// The trend leaves out the first window (warm-up: the first talk bursts' media, caches filling).
	var t, rss, gor, fds, heap []float64
	for _, s := range r.Samples {
		if len(r.Windows) > 1 && s.At < r.Windows[0].To {
			continue
		}
		t = append(t, s.At.Seconds())
		rss = append(rss, float64(s.RSS))
		gor = append(gor, s.Goroutines)
		fds = append(fds, float64(s.FDs))
		heap = append(heap, s.Heap)
	}
	trRSS, trGor, trFD, trHeap := FitTrend(t, rss), FitTrend(t, gor), FitTrend(t, fds), FitTrend(t, heap)
	mbf := func(v float64) string { return fmt.Sprintf("%.1f MB", v/(1<<20)) }
	trend := func(tr Trend, f func(float64) string) string {
		return fmt.Sprintf("mean %s, fitted slope %s per hour, %s over the run", f(tr.Mean), f(tr.PerHour), f(tr.OverRun))
	}
	num := func(v float64) string { return fmt.Sprintf("%.0f", v) }
	p99s := func(pick func(SoakWindow) []time.Duration) ([]time.Duration, string) {
		return windowP99s(r.Windows, func(w SoakWindow) (int, time.Duration) { l := pick(w); return len(l), Pct(l, .99) })
	}
	gP, gS := windowP99s(r.Windows, func(w SoakWindow) (int, time.Duration) { return w.GPS.Count(), w.GPS.Pct(.99) })
	aP, aS := p99s(func(w SoakWindow) []time.Duration { return w.Alarm })
	iP, iS := p99s(func(w SoakWindow) []time.Duration { return w.MsgIn })
	oP, oS := p99s(func(w SoakWindow) []time.Duration { return w.MsgOut })
	pP, pS := p99s(func(w SoakWindow) []time.Duration { return w.Press })
	pressErrs, presses := 0, 0
	for _, win := range r.Windows {
		pressErrs += win.PressErrs
		presses += len(win.Press)
	}
	minOnline := int64(-1)
	for _, s := range r.Samples {
		if minOnline < 0 || s.Online < minOnline {
			minOnline = s.Online
		}
	}
	rows := []Row{
		{Name: "fleet", Figure: fmt.Sprintf("%s terminals (at least %s online in every sample) + %d consoles for %s; positions every %s, talk bursts every %s per terminal on average; probes: an alarm every %s, a message each way every %s, a PTT press every %s",
			Thousands(float64(o.Terminals)), Thousands(float64(minOnline)), o.Consoles, o.Duration, o.GPS, o.TalkEvery, o.AlarmEvery, o.MessageEvery, o.PressEvery),
			Status: Verdict(minOnline == int64(o.Terminals))},
		{Name: "server RSS", Figure: trend(trRSS, mbf), Target: "flat: fitted change over the run (first window left out) ≤ 5 % of the mean", Status: Verdict(trRSS.Flat(.05, 0))},
		{Name: "server goroutines", Figure: trend(trGor, num), Target: "flat: ≤ 5 % of the mean (writers and handlers come and go)", Status: Verdict(trGor.Flat(.05, 0))},
		{Name: "server open files", Figure: trend(trFD, num), Target: "flat: ≤ 1 % of the mean or ≤ 20", Status: Verdict(trFD.Flat(.01, 20))},
		{Name: "server Go heap allocated (garbage included)", Figure: trend(trHeap, mbf), Target: "stated", Status: Info},
		{Name: "alarms: terminal → every console", Figure: fmt.Sprintf("%d alarms, %d of %d deliveries; p99 per window %s", r.Alarms, r.AlarmDeliveries, r.AlarmExpected, aS),
			Target: "none lost; p99 < 250 ms, stable", Status: Verdict(r.Alarms > 0 && r.AlarmDeliveries == r.AlarmExpected && Stable(aP, 50*time.Millisecond) && slices99(aP) < 250*time.Millisecond)},
		{Name: "messages: terminal → every console", Figure: fmt.Sprintf("%d messages, %d of %d deliveries; p99 per window %s", r.MsgIn, r.MsgInDeliveries, r.MsgInExpected, iS),
			Target: "none lost; p99 stable", Status: Verdict(r.MsgIn > 0 && r.MsgInDeliveries == r.MsgInExpected && Stable(iP, 50*time.Millisecond))},
		{Name: "messages: console → terminal", Figure: fmt.Sprintf("%d messages, %d delivered; p99 per window %s", r.MsgOut, r.MsgOutDelivered, oS),
			Target: "none lost; p99 stable", Status: Verdict(r.MsgOut > 0 && r.MsgOutDelivered == r.MsgOut && Stable(oP, 50*time.Millisecond))},
		{Name: "PTT access: press → grant", Figure: fmt.Sprintf("%d presses, %d refused or failed; p99 per window %s", presses, pressErrs, pS),
			Target: "p99 stable", Status: Verdict(presses > 0 && pressErrs == 0 && Stable(pP, 50*time.Millisecond))},
		{Name: "positions: report → console", Figure: fmt.Sprintf("p99 per window %s", gS), Target: "p99 < 1 s, stable",
			Status: Verdict(Stable(gP, 100*time.Millisecond) && slices99(gP) < time.Second)},
		{Name: "positions: where a late one was late", Figure: slowestSource(r.Seconds), Target: "stated (the slowest seconds are listed below)", Status: Info},
		{Name: "console sockets closed by the server", Figure: fmt.Sprintf("%d %v", r.Scale.ConsoleDrops, r.Scale.DropCodes), Target: "0",
			Status: Verdict(r.Scale.ConsoleDrops == 0)},
	}
	if len(r.ProbeErrs) > 0 {
		rows = append(rows, Row{Name: "probe errors", Figure: strings.Join(r.ProbeErrs, "; "), Status: Fail})
	}
	ok = true
	for _, row := range rows {
		if row.Status == Fail {
			ok = false
		}
	}
	fmt.Fprintf(w, "Soak: %s terminals + %d consoles for %s (the fleet online after %s).\n\n", Thousands(float64(o.Terminals)), o.Consoles, o.Duration, r.Scale.LoginPhase.Round(time.Second))
	WriteTable(w, rows)
	fmt.Fprintf(w, "\nWindows (p99 of each delivery sent in the window):\n\n| window | alarm deliveries | alarm p99 | message deliveries to consoles | p99 | messages to the terminal | p99 | presses | PTT p99 | positions | position p99 |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, win := range r.Windows {
		fmt.Fprintf(w, "| %s–%s | %d | %s | %d | %s | %d | %s | %d | %s | %s | %s |\n", win.From, win.To,
			len(win.Alarm), Ms(Pct(win.Alarm, .99)), len(win.MsgIn), Ms(Pct(win.MsgIn, .99)), len(win.MsgOut), Ms(Pct(win.MsgOut, .99)),
			len(win.Press), Ms(Pct(win.Press, .99)), Thousands(float64(win.GPS.Count())), Ms(win.GPS.Pct(.99)))
	}
	writeSlowSeconds(w, r.Seconds, 10)
	fmt.Fprintf(w, "\nSamples:\n\n| at | online | RSS | heap allocated | goroutines | open files |\n|---|---|---|---|---|---|\n")
	for _, s := range r.Samples {
		fmt.Fprintf(w, "| %.0f s | %d | %.1f MB | %.1f MB | %.0f | %d |\n", s.At.Seconds(), s.Online, float64(s.RSS)/(1<<20), s.Heap/(1<<20), s.Goroutines, s.FDs)
	}
	if r.SimStats != "" {
		fmt.Fprintf(w, "\nSimulators at the end:\n\n```\n%s```\n", r.SimStats)
	}
	return ok
}

// slowestSource sums up the seconds: the slowest position, the most a simulator's planned tasks started late
// (a position's time is the simulator's planned time) and the harness's own largest lag.
func slowestSource(secs []SoakSecond) string {
	var pos, late, lag time.Duration
	slow := 0
	for _, s := range secs {
		for i := range s.SimMax {
			pos, late = max(pos, s.SimMax[i]), max(late, s.SimLate[i])
		}
		lag = max(lag, s.Lag)
		slow += s.Slow
	}
	return fmt.Sprintf("%d positions over 1 s, the slowest %s; simulators' tasks started at most %s late; the harness's own timer at most %s late",
		slow, Ms(pos), Ms(late), Ms(lag))
}

// writeSlowSeconds lists the n seconds with the slowest positions, with what each simulator and the harness
// were doing then.
func writeSlowSeconds(w io.Writer, secs []SoakSecond, n int) {
	idx := make([]int, 0, len(secs))
	worst := func(s SoakSecond) time.Duration { return slices.Max(append([]time.Duration{0}, s.SimMax...)) }
	for i, s := range secs {
		if s.Positions > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return worst(secs[idx[a]]) > worst(secs[idx[b]]) })
	idx = idx[:min(n, len(idx))]
	sort.Ints(idx)
	if len(idx) == 0 {
		return
	}
	ms := func(ds []time.Duration) string {
		b := make([]string, len(ds))
		for i, d := range ds {
			b[i] = Ms(d)
		}
		return strings.Join(b, " / ")
	}
	fmt.Fprintf(w, "\nThe %d seconds with the slowest positions (per simulator: its terminals' slowest position, and how late its planned tasks started):\n\n| second | positions | over 1 s | slowest, per simulator | tasks late, per simulator | harness lag |\n|---|---|---|---|---|---|\n", len(idx))
	for _, i := range idx {
		s := secs[i]
		fmt.Fprintf(w, "| %d | %s | %d | %s | %s | %s |\n", i, Thousands(float64(s.Positions)), s.Slow, ms(s.SimMax), ms(s.SimLate), Ms(s.Lag))
	}
}

// windowP99s gives each window's p99 (pick: a window's count and p99) and the list as text ("–" for none).
func windowP99s(ws []SoakWindow, pick func(SoakWindow) (int, time.Duration)) ([]time.Duration, string) {
	var ps []time.Duration
	var b []string
	for _, win := range ws {
		n, p := pick(win)
		ps = append(ps, p)
		if n == 0 {
			b = append(b, "–")
		} else {
			b = append(b, Ms(p))
		}
	}
	return ps, strings.Join(b, " / ")
}

// slices99 is the largest of the windows' p99s.
func slices99(ps []time.Duration) time.Duration {
	var m time.Duration
	for _, p := range ps {
		m = max(m, p)
	}
	return m
}
