package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/platform/cputime"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
)

// ScaleOptions describe a scale run: the real binary serving N simulated terminals (a separate `tenfour sim`
// process) and a number of console sockets.
type ScaleOptions struct {
	Bin         string        // the tenfour binary
	Dir         string        // work directory (emptied)
	Terminals   int           // N
	Consoles    int           // console sockets (20)
	Ramp        time.Duration // the simulator spreads the logins over this long
	OnlineWait  time.Duration // how long after the ramp to wait for every terminal to be online
	Settle      time.Duration // wait after the last login before measuring
	Window      time.Duration // the measurement window
	GPSInterval time.Duration // every moving terminal's report interval
	Log         io.Writer     // the processes' output
	// CheapHash stores the terminals' passwords with argon2id at 1 MiB and one pass instead of 19 MiB and two,
	// so that N logins fit the time budget (HashCost measures the real cost; the steady state does not
	// depend on it).
	CheapHash bool
	// PerfOut, if set and `perf` is installed, records the server's CPU profile (perf record, call graphs) over
	// the window into this file.
	PerfOut string
	// Talkers, if set, are Go terminals (accounts after the fleet's, so in one group: more than one would
	// take turns) that, after the window, press PTT Presses times each with every terminal still online.
	Talkers, Presses int
	// SimSize is the most terminals one `tenfour sim` process runs (0: one process for all).
	SimSize int
	// SimArgs are more `tenfour sim` flags (they override the quiet fleet's: e.g. --talk-every).
	SimArgs []string
	// OnConsoleFrame, if set, sees every frame the consoles receive (on their reading goroutines, at once).
	OnConsoleFrame func(console int, f wsclient.Frame)
	// OnPosition, if set, sees every live fix each console receives (liveFixes), with its arrival and its
	// latency from the fix's own time; on that console's reading goroutine.
	OnPosition func(msID string, at time.Time, latency time.Duration)
	// OnSimLine, if set, sees each line a simulator process writes (sim: its index), on that line's reader.
	OnSimLine func(sim int, line string)
	// Then, if set, runs after the window with the fleet still online (the soak: soak.go).
	Then func(ctx context.Context, f Fleet) error
	// HeapOut, if set, receives the server's live heap profile (GET /metrics/pprof/heap?gc=1) at the end of
	// the window (read it with `go tool pprof -sample_index=inuse_space <tenfour> <file>`).
	HeapOut string
}

// ScaleResult is what a scale run measured.
type ScaleResult struct {
	Terminals, Online int
	Sims              int           // simulator processes
	LoginPhase        time.Duration // sim start → every terminal online
	LoginCPU          time.Duration // server CPU during the login phase
	Window            time.Duration
	ServerCPU         float64 // cores, average over the window
	SimCPU            float64 // cores (the simulator, same machine)
	MachineBusy       float64 // cores busy on the whole machine over the window (everything)
	RSSBase           int64   // server RSS with the consoles connected, before the terminals
	RSS, RSSPeak      int64   // server RSS at the end of the window, and its peak
	HeapBase          float64 // Go heap allocated + stacks (from /metrics) before the terminals
	HeapMin           float64 // the smallest heap allocated + stacks seen in the window (after a collection)
	GCs               int     // collections during the window
	Heap              float64 // Go heap in use at the end (garbage included)
	Stacks            float64 // goroutine stacks in use at the end
	Goroutines        float64
	GPSItems          int           // positions the consoles received in the window (each console counts)
	GPSRate           float64       // positions per second the server received (sim counter over the window)
	GPSp50, GPSp99    time.Duration // report → console, over every console
	GPSMax            time.Duration
	// Console sockets the server closed (and the runner reopened), with their close codes.
	ConsoleDrops int
	DropCodes    []int
	// PTT access with the fleet online: at the talker and the server's request → grant.
	PTT, PTTServer []time.Duration
	PTTErr         error
}

// PerTerminal is the server memory (RSS) each terminal adds.
func (r ScaleResult) PerTerminal() float64 {
	if r.Online == 0 {
		return 0
	}
	return float64(r.RSS-r.RSSBase) / float64(r.Online)
}

// Fleet is a running scale run, for ScaleOptions.Then.
type Fleet struct {
	Base     string // the server's base URL
	Pid      int    // the server's process
	Token    string // the dispatcher's session (the consoles')
	First    int    // the first account after the fleet's (the Talkers' accounts)
	Password string
	Online   func() int64 // terminals the simulators have online now
	SimStats func() string
	// Sims is the number of simulator processes; SimOf is the one (its index) that runs a fleet terminal, -1
	// for other accounts.
	Sims  int
	SimOf func(msID string) int
}

var simOnline = regexp.MustCompile(`online=(\d+) .*?gps=(\d+)`)

// RunScale runs the scale measurement. It always stops the processes it started.
func RunScale(ctx context.Context, o ScaleOptions) (ScaleResult, error) {
	res := ScaleResult{Terminals: o.Terminals}
	if err := os.RemoveAll(o.Dir); err != nil {
		return res, err
	}
	if err := os.MkdirAll(filepath.Join(o.Dir, "data"), 0o755); err != nil {
		return res, err
	}
	const first, disp, pw = 30000001, "30000000", "123456"
	if err := provision(ctx, filepath.Join(o.Dir, "data"), first, o.Terminals+o.Talkers, o.Talkers, disp, pw, o.CheapHash); err != nil {
		return res, fmt.Errorf("provision: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return res, err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	serve, err := start(o.Log, o.Bin, "serve", "--data", filepath.Join(o.Dir, "data"), "--addr", "127.0.0.1:"+strconv.Itoa(port),
		"--media-udp-port", "0", "--media-interfaces", "lo", "--log-level", "warn", "--metrics-token", metricsToken,
		// Every simulated terminal connects and logs in from 127.0.0.1, as a real fleet behind one NAT address
		// logging in for the first time (docs/adr/0008-sign-in-throttling-and-lockout.md): no per-address
		// connection cap, and the devices' attempt burst the size of the fleet — each first password login
		// spends one, with room for retries; right passwords of terminals the address already logged in and
		// resume tokens spend none. The interval, the wrong-secret and per-account budgets stay the defaults,
		// and the dispatcher's sign-in has people's budget to itself.
		"--conns-per-ip", "0",
		"--signin-burst-per-address", strconv.Itoa(o.Terminals+o.Talkers+100+o.Terminals/100))
	if err != nil {
		return res, err
	}
	defer stop(serve)
	if err := waitHTTP(ctx, base+"/metrics", 30*time.Second); err != nil {
		return res, fmt.Errorf("server did not start: %w", err)
	}

	// Consoles: one sign-in, then one socket each (the same sign-in in several windows).
	tok, err := wsclient.SignIn(ctx, httpc, base, disp, pw)
	if err != nil {
		return res, err
	}
	var measuring atomic.Bool
	var mu sync.Mutex
	var lat []time.Duration
	cctx, cancelConsoles := context.WithCancel(ctx)
	defer cancelConsoles()
	var cwg sync.WaitGroup
	for i := range o.Consoles {
		live := liveFixes{}
		onFrame := func(f wsclient.Frame) {
			if o.OnConsoleFrame != nil {
				o.OnConsoleFrame(i, f)
			}
			on := measuring.Load()
			var got []time.Duration
			live.each(f, func(msID string, d time.Duration) {
				if on {
					got = append(got, d)
				}
				if o.OnPosition != nil {
					o.OnPosition(msID, f.At, d)
				}
			})
			if len(got) > 0 {
				mu.Lock()
				lat = append(lat, got...)
				mu.Unlock()
			}
		}
		c, err := consoleSocket(cctx, base, tok, onFrame)
		if err != nil {
			return res, fmt.Errorf("console %d: %w", i, err)
		}
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			for {
				select {
				case <-cctx.Done():
					c.CloseNow()
					return
				case <-c.Done():
				}
				// Closed by the server (a slow consumer, 4008): count it and come back, as the console does.
				mu.Lock()
				res.ConsoleDrops++
				res.DropCodes = append(res.DropCodes, int(websocket.CloseStatus(c.Err())))
				mu.Unlock()
				for {
					if c, err = consoleSocket(cctx, base, tok, onFrame); err == nil || cctx.Err() != nil {
						break
					}
					time.Sleep(500 * time.Millisecond)
				}
				if err != nil {
					return
				}
			}
		}()
	}
	time.Sleep(2 * time.Second)
	res.RSSBase, _, _ = ProcMem(serve.Process.Pid)
	m := scrapeAll(base)
	res.HeapBase = m["go_memstats_heap_alloc_bytes"] + m["go_memstats_stack_inuse_bytes"]

	// The fleet: quiet terminals (no talk, SOS, drops or switches) that report positions and status. A
	// simulator logs in 16 terminals at a time, so logins are bound by their latency on a busy machine: one
	// simulator process per SimSize terminals.
	nsim := 1
	if o.SimSize > 0 {
		nsim = max(1, (o.Terminals+o.SimSize-1)/o.SimSize)
	}
	online := make([]atomic.Int64, nsim)
	gpsSent := make([]atomic.Int64, nsim)
	lastStats := make([]atomic.Value, nsim)
	sum := func(a []atomic.Int64) int64 {
		var n int64
		for i := range a {
			n += a[i].Load()
		}
		return n
	}
	cpu0, _ := cputime.Of(serve.Process.Pid)
	t0 := time.Now()
	var sims []*proc
	defer func() {
		for _, p := range sims {
			stop(p)
		}
	}()
	for i := range nsim {
		from, count := i*o.Terminals/nsim, (i+1)*o.Terminals/nsim-i*o.Terminals/nsim
		pr, pw2 := io.Pipe()
		defer pw2.Close()
		go func() {
			sc := bufio.NewScanner(pr)
			for sc.Scan() {
				if o.OnSimLine != nil {
					o.OnSimLine(i, sc.Text())
				}
				if m := simOnline.FindStringSubmatch(sc.Text()); m != nil {
					n, _ := strconv.Atoi(m[1])
					g, _ := strconv.Atoi(m[2])
					online[i].Store(int64(n))
					gpsSent[i].Store(int64(g))
					lastStats[i].Store(sc.Text())
				}
			}
		}()
		args := []string{"sim", "--server", base, "--ids", strconv.Itoa(first + from), "--count",
			strconv.Itoa(count), "--password", pw, "--ramp", o.Ramp.String(), "--gps-interval", o.GPSInterval.String(),
			"--talk-every", "-1s", "--sos-every", "-1s", "--drop-every", "-1s", "--switch-every", "-1s", "--forget-checkin", "-1",
			"--job-pace", "-1s", // no job tickets in this run: no job.list at each login either
			"--seed", strconv.Itoa(i + 1), "--stats", "1s"}
		args = append(args, o.SimArgs...)
		sim, err := start(pr2w(pw2, o.Log), o.Bin, args...)
		if err != nil {
			return res, err
		}
		sims = append(sims, sim)
	}
	res.Sims = nsim
	deadline := t0.Add(o.Ramp + o.OnlineWait)
	for sum(online) < int64(o.Terminals) && time.Now().Before(deadline) {
		for _, sim := range sims {
			select {
			case <-sim.done:
				return res, fmt.Errorf("a simulator exited: %v", sim.err)
			default:
			}
		}
		select {
		case <-serve.done:
			return res, fmt.Errorf("the server exited: %v", serve.err)
		case <-time.After(200 * time.Millisecond):
		}
	}
	res.LoginPhase = time.Since(t0)
	cpu1, _ := cputime.Of(serve.Process.Pid)
	res.LoginCPU = cpu1 - cpu0
	time.Sleep(o.Settle)

	// The window.
	sc0, _ := cputime.Of(serve.Process.Pid)
	simCPU := func() time.Duration {
		var d time.Duration
		for _, p := range sims {
			c, _ := cputime.Of(p.Process.Pid)
			d += c
		}
		return d
	}
	sm0 := simCPU()
	mb0, _ := MachineCPU()
	g0 := sum(gpsSent)
	w0 := time.Now()
	measuring.Store(true)
	// Memory: the live heap is what is left right after a collection. The login storm (an argon2id hash of
	// 19 MB per login) leaves a high heap goal and garbage behind, so the heap in use overstates what the
	// terminals keep: take the smallest heap allocated (+ stacks) seen in the window, and say whether a
	// collection ran in it.
	var perf *Perf
	if o.PerfOut != "" {
		perf, _ = PerfRecord(o.Log, serve.Process.Pid, 499, o.PerfOut, "sleep", strconv.Itoa(int(o.Window.Seconds())))
	}
	gc0 := m["go_gc_duration_seconds_count"]
	res.HeapMin = -1
	tick := time.NewTicker(time.Second)
	for time.Since(w0) < o.Window {
		<-tick.C
		m = scrapeAll(base)
		if v := m["go_memstats_heap_alloc_bytes"] + m["go_memstats_stack_inuse_bytes"]; v > 0 && (res.HeapMin < 0 || v < res.HeapMin) {
			res.HeapMin = v
		}
		if m["go_gc_duration_seconds_count"] > gc0 {
			res.GCs = int(m["go_gc_duration_seconds_count"] - gc0)
		}
	}
	tick.Stop()
	measuring.Store(false)
	res.Window = time.Since(w0)
	perf.Stop(10 * time.Second)
	sc1, _ := cputime.Of(serve.Process.Pid)
	sm1 := simCPU()
	mb1, _ := MachineCPU()
	res.ServerCPU = float64(sc1-sc0) / float64(res.Window)
	res.SimCPU = float64(sm1-sm0) / float64(res.Window)
	res.MachineBusy = float64(mb1-mb0) / float64(res.Window)
	res.GPSRate = float64(sum(gpsSent)-g0) / res.Window.Seconds()
	res.Online = int(sum(online))
	res.RSS, res.RSSPeak, _ = ProcMem(serve.Process.Pid)
	res.Heap = m["go_memstats_heap_inuse_bytes"]
	res.Goroutines = m["go_goroutines"]
	res.Stacks = m["go_memstats_stack_inuse_bytes"]
	if o.HeapOut != "" {
		if err := SaveProfile(base, "heap?gc=1", o.HeapOut); err != nil {
			fmt.Fprintf(o.Log, "scale: heap profile: %v\n", err)
		}
	}
	mu.Lock()
	res.GPSItems = len(lat)
	res.GPSp50, res.GPSp99, res.GPSMax = Pct(lat, .5), Pct(lat, .99), Pct(lat, 1)
	mu.Unlock()
	if o.Then != nil {
		f := Fleet{Base: base, Pid: serve.Process.Pid, Token: tok, First: first + o.Terminals, Password: pw,
			Online: func() int64 { return sum(online) }, Sims: nsim,
			SimOf: func(msID string) int {
				k, err := strconv.Atoi(msID)
				if k -= first; err != nil || k < 0 || k >= o.Terminals {
					return -1
				}
				i := k * nsim / o.Terminals // sim i runs [i·T/nsim, (i+1)·T/nsim)
				for (i+1)*o.Terminals/nsim <= k {
					i++
				}
				for i*o.Terminals/nsim > k {
					i--
				}
				return i
			},
			SimStats: func() string {
				var b strings.Builder
				for i := range lastStats {
					if v, _ := lastStats[i].Load().(string); v != "" {
						fmt.Fprintf(&b, "sim %d: %s\n", i+1, v)
					}
				}
				return b.String()
			}}
		if err := o.Then(ctx, f); err != nil {
			return res, err
		}
	}
	if o.Talkers > 0 && o.Presses > 0 {
		var perf *Perf
		if o.PerfOut != "" {
			perf, _ = PerfRecord(o.Log, serve.Process.Pid, 999, strings.TrimSuffix(o.PerfOut, ".perf")+"-ptt.perf")
		}
		res.PTT, res.PTTServer, res.PTTErr = scalePresses(ctx, base, first+o.Terminals, o.Talkers, o.Presses, pw)
		perf.Stop(0)
	}
	cancelConsoles()
	cwg.Wait()
	return res, nil
}

// pr2w copies a process's output to the line parser and the log.
func pr2w(w io.Writer, log io.Writer) io.Writer {
	if log == nil {
		return w
	}
	return io.MultiWriter(w, log)
}

// proc is a started process; done closes when it exited (err is then its exit error).
type proc struct {
	*exec.Cmd
	done chan struct{}
	err  error
}

func start(out io.Writer, bin string, args ...string) (*proc, error) {
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if out != nil {
		cmd.Stdout, cmd.Stderr = out, out
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{Cmd: cmd, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	return p, nil
}

// stop interrupts a process (its group), waits up to 15 s, then kills it.
func stop(p *proc) {
	select {
	case <-p.done:
		return
	default:
	}
	_ = syscall.Kill(-p.Process.Pid, syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-p.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

var httpc = &http.Client{Timeout: 10 * time.Second}

func waitHTTP(ctx context.Context, u string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		res, err := httpc.Get(u)
		if err == nil {
			res.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// consoleSocket opens a console socket and logs it in; onFrame gets every frame but the login's reply.
func consoleSocket(ctx context.Context, base, token string, onFrame func(wsclient.Frame)) (*wsclient.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := wsclient.Dial(dctx, wsclient.URL(base), wsclient.Options{Handle: func(_ *wsclient.Conn, f wsclient.Frame) { onFrame(f) }})
	if err != nil {
		return nil, err
	}
	if err := c.Call(dctx, "session.login", map[string]string{"client": "console", "token": token}, nil); err != nil {
		c.CloseNow()
		return nil, fmt.Errorf("console login: %w", err)
	}
	return c, nil
}

// metricsToken is the --metrics-token the scale run's server is started with (GET /metrics needs it).
const metricsToken = "bench-scale-metrics"

// scrapeAll reads the unlabelled samples of the server's Prometheus endpoint.
func scrapeAll(base string) map[string]float64 {
	out := map[string]float64{}
	req, err := http.NewRequest(http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return out
	}
	req.Header.Set("Authorization", "Bearer "+metricsToken)
	res, err := httpc.Do(req)
	if err != nil {
		return out
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.Contains(line, "{") {
			continue
		}
		if k, v, ok := strings.Cut(line, " "); ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				out[k] = f
			}
		}
	}
	return out
}

// SaveProfile writes one of the server's runtime profiles (GET /metrics/pprof/<name>) to a file.
func SaveProfile(base, name, file string) error {
	req, err := http.NewRequest(http.MethodGet, base+"/metrics/pprof/"+name, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+metricsToken)
	res, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /metrics/pprof/%s: %s", name, res.Status)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, res.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// HeapPerTerminal is the Go memory (live heap and stacks) each terminal adds, when a collection ran in the
// window (else 0).
func (r ScaleResult) HeapPerTerminal() float64 {
	if r.Online == 0 || r.GCs == 0 || r.HeapMin <= 0 {
		return 0
	}
	return (r.HeapMin - r.HeapBase) / float64(r.Online)
}

// provision creates the fleet in a fresh SQLite store as `tenfour sim --provision` does (sim.Provision): n
// terminals from first, 50 to a group, and a dispatcher in every group. With cheap, the terminals' password
// hashes are replaced by cheap ones (same password).
func provision(ctx context.Context, dataDir string, first, n, talkers int, dispatcher, pw string, cheap bool) error {
	d, err := app.Open(ctx, config.Config{DataDir: dataDir})
	if err != nil {
		return err
	}
	defer d.Close()
	// The talkers (the last accounts) are phone apps: the fleet mix has types that do not talk.
	o := sim.ProvisionOptions{Customer: "Bench Fleet", First: first, Count: n, Password: pw, GroupSize: 50,
		Dispatcher: dispatcher, PhoneApps: talkers}
	if cheap {
		o.PasswordHash = cheapHash(pw)
	}
	_, err = sim.Provision(ctx, d, o)
	return err
}

// scalePresses logs talkers in (media on loopback) and has them press PTT.
func scalePresses(ctx context.Context, base string, first, n, presses int, pw string) (client, server []time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	var tks []*termclient.Client
	defer func() {
		for _, c := range tks {
			c.Close()
		}
	}()
	for i := range n {
		c, err := termclient.Dial(ctx, termclient.Options{URL: base, UID: strconv.Itoa(first + i), Password: pw,
			Media: termclient.MediaOptions{Loopback: true}})
		if err != nil {
			return nil, nil, err
		}
		tks = append(tks, c)
		if err := c.Connect(ctx); err != nil {
			return nil, nil, err
		}
	}
	return Presses(ctx, tks, presses)
}

// liveFixes follows the fixes one console receives. A gps item repeats the terminal's last fix time when only
// its battery or signal changed: each fix counts once, when it first arrives (latest wins, as the console
// applies them). A terminal's first fix after its login may be one it kept while offline (the simulator
// buffers them, as trackers do): only fixes after one already seen are live. Not safe for concurrent use (a
// console's frames are handled on its reading goroutine, one after the other).
type liveFixes map[string]int64

// each calls fn with each live fix of a frame and its latency from the fix's time to the frame's arrival.
func (l liveFixes) each(f wsclient.Frame, fn func(msID string, latency time.Duration)) {
	if f.Type != "gps" {
		return
	}
	var d struct {
		List []struct {
			MsID string `json:"msId"`
			Time int64  `json:"time"`
		} `json:"list"`
	}
	if f.Decode(&d) != nil {
		return
	}
	at := f.At.UnixMilli()
	for _, it := range d.List {
		prev := l[it.MsID]
		if it.Time <= prev {
			continue
		}
		l[it.MsID] = it.Time
		if prev != 0 {
			fn(it.MsID, time.Duration(max(0, at-it.Time))*time.Millisecond)
		}
	}
}
