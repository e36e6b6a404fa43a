package sim

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/platform/failover"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/termclient"
)

type connState int

const (
	stOffline    connState = iota // not connected: planned, or waiting to reconnect
	stConnecting                  // dialling and logging in
	stOnline                      // logged in
	stStopped                     // the login was refused for good, or the fleet stopped
)

type mediaState int

const (
	mediaNone mediaState = iota
	mediaConnecting
	mediaReady
)

// Interval chains a server can retune with param.set.
const (
	chainGPS = iota
	chainStatus
	chainHeartbeat
	nChains
)

// Default report intervals (before any param.set).
const (
	defaultStatusEvery    = time.Minute
	defaultHeartbeatEvery = time.Minute
	maxBuffered           = 500 // positions kept while offline (one gps.report batch)
	batteryTick           = time.Minute
)

// Login refusals that retrying cannot fix (docs/api.md sign-in codes): a wrong password must not be retried,
// or the account locks.
var permanentLogin = map[string]bool{"1": true, "2": true, "3": true, "4": true, "6": true, "103": true, "104": true}

// group is one of the terminal's groups (group.list / group.changed).
type group struct {
	GID  string `json:"gid"`
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// talk is one talk attempt: floor request, speech, release.
type talk struct {
	callID  string
	gid     string
	packets [][]byte
	queued  bool
	s       *sender
	result  func(code string) // tests: "" when the speech was sent, else why not
}

func (tk *talk) finish(code string) {
	if tk.result != nil {
		tk.result(code)
		tk.result = nil
	}
}

// callRef is a call the terminal is a party of (not group calls).
type callRef struct {
	id, kind, state string
	replied         bool
}

// Terminal is one simulated terminal.
type Terminal struct {
	fl    *Fleet
	acct  Account
	prof  Profile
	mob   Mobility
	route *Route
	index int
	nodes failover.Nodes // Options.URL and URLs, starting at its index (server)

	// One random source per kind of decision (derived from the seed and the account id): each chain draws a
	// fixed number of values per step, so its schedule does not depend on how the others interleave.
	rTalk, rSOS, rDrop, rSwitch, rBatt, rGPS, rReact, rUpload *rand.Rand
	rPatrol                                                   *rand.Rand
	walks                                                     map[int64]*walk // patrol orders being walked (patrol.go)
	rJob, rBus                                                *rand.Rand

	mu        sync.Mutex
	w         *wire
	state     connState
	conn      uint64 // connection generation: callbacks of an older connection are ignored
	everOn    bool
	netDown   bool            // planned network loss
	powered   bool            // the battery is not empty
	replaced  bool            // the account logged in elsewhere (a person took it over)
	shown     map[string]bool // ids of the messages received (a repeat is acknowledged, not counted)
	failures  int
	failed    string // login refused for good
	token     string // type 20: console session; other types: the resume token of the last login
	msID      string
	groups    []group
	ptt       string
	callSet   int                // spec §4: 0 killed, 1 stunned, 8 active
	turn      []webrtc.ICEServer // TURN credentials a dispatcher sent (turn.config); preferred over rtc.config's
	every     [nChains]time.Duration
	gen       [nChains]uint64
	battery   float64
	charging  bool
	chargeTo  float64
	lowAt     float64
	lowSeen   bool
	forgetful bool
	signal    int
	buffered  []gpsPoint

	media     *termclient.Media
	videos    map[string]*simVideo // video sessions by call id (video.go)
	mstate    mediaState
	mwait     []func(bool)
	rtcUp     chan struct{}
	mediaUsed time.Time
	talk      *talk
	busy      map[string]string // gid → who holds the floor of that group's call
	calls     map[string]*callRef
	sosID     string
	ambient   *sender
	inbox     int
	indoor    *indoorWalk     // walks the demo building (Options.Indoor); nil outdoors
	secretKey string          // the customer's current secret key (key.changed; "" = none)
	jobs      map[string]int  // job tickets: jobId → the state the worker last put it in (or 0 when received)
	aboard    map[string]bool // school bus: cards of the students on board
	punches   []punch         // school bus: card punches not answered yet
}

type gpsPoint struct {
	Fix
	at int64 // UTC ms
}

func newTerminal(fl *Fleet, a Account, index int) *Terminal {
	t := &Terminal{fl: fl, acct: a, prof: ProfileOf(a.Type), index: index, callSet: 8, powered: true,
		nodes: failover.Nodes{URLs: append([]string{fl.opts.URL}, fl.opts.URLs...), Start: index},
		busy:  map[string]string{}, calls: map[string]*callRef{}}
	if !t.prof.Console {
		t.token = a.Resume
	}
	stream := streams(fl.opts.Seed, a.ID)
	t.rTalk, t.rSOS, t.rDrop, t.rSwitch = stream(sTalk), stream(sSOS), stream(sDrop), stream(sSwitch)
	t.rBatt, t.rGPS, t.rReact, t.rUpload = stream(sBattery), stream(sGPS), stream(sReact), stream(sUpload)
	t.rJob, t.rBus = stream(sJob), stream(sBus)
	rRoute := stream(sRoute)
	t.rPatrol = stream(sPatrol)
	city := fl.city
	if a.City != "" {
		if c, ok := CityByName(a.City); ok {
			city = c
		}
	}
	t.mob = t.prof.mobility(rRoute)
	t.route = newRoute(city.district(a.Hint, rRoute), t.mob, rRoute)
	t.every[chainGPS] = t.prof.GPSInterval
	if fl.opts.GPSInterval > 0 && t.prof.GPSInterval > 0 {
		t.every[chainGPS] = fl.opts.GPSInterval
	}
	if k, ok := fl.indoorIndex[a.ID]; ok {
		t.indoor = newIndoorWalk(k, len(fl.indoorIndex), stream(sIndoor))
		t.every[chainGPS] = 0 // no GPS fix indoors
	}
	t.every[chainStatus] = defaultStatusEvery
	t.every[chainHeartbeat] = defaultHeartbeatEvery
	if t.prof.DrainPerHour > 0 {
		t.battery = 30 + 70*t.rBatt.Float64()
		t.lowAt = 10 + 15*t.rBatt.Float64()
		t.forgetful = t.rBatt.Float64() < 0.15
		t.signal = 2 + t.rBatt.IntN(4)
	} else {
		t.battery, t.signal = 100, 5
	}
	return t
}

// ID is the account id.
func (t *Terminal) ID() string { return t.acct.ID }

// Type is the spec §3 type code.
func (t *Terminal) Type() string { return t.prof.Type }

// Mobility says how it moves.
func (t *Terminal) Mobility() Mobility { return t.mob }

// Route is the loop it follows.
func (t *Terminal) Route() *Route { return t.route }

// start plans the terminal's first login and every chain of its behaviour.
func (t *Terminal) start(first time.Time) {
	fl := t.fl
	t.mu.Lock()
	defer t.mu.Unlock()
	fl.sched.at(first, func() { fl.dials.push(t) })
	if !t.prof.Console {
		for k := range nChains {
			// A passive terminal reports where it is and how it is once per login (onOnlineLocked), then stays so.
			if t.every[k] > 0 && (!fl.opts.Passive || k == chainHeartbeat) {
				t.startChain(k, first.Add(time.Duration(t.rGPS.Float64()*float64(t.every[k]))))
			}
		}
		if !fl.opts.Passive {
			t.recur(first.Add(time.Duration(t.rBatt.Float64()*float64(batteryTick))), t.batteryStep)
		}
		if t.indoor != nil {
			t.startIndoor(first)
		}
	}
	r := fl.opts.Rates
	if mean := t.talkMean(r); mean > 0 {
		t.recur(first.Add(expDur(t.rTalk, mean)), t.talkStep)
	}
	if mean := t.sosMean(r); mean > 0 {
		t.recur(first.Add(expDur(t.rSOS, mean)), t.sosStep)
	}
	if r.DropEvery > 0 {
		t.recur(first.Add(expDur(t.rDrop, r.DropEvery)), t.dropStep)
	}
	if mean := t.switchMean(r); mean > 0 {
		t.recur(first.Add(expDur(t.rSwitch, mean)), t.switchStep)
	}
	if every := t.patrolEvery(r); every > 0 && !fl.opts.Passive {
		t.recur(first.Add(time.Duration(t.rPatrol.Float64()*float64(every))), t.patrolStep)
	}
	if len(t.cards()) > 0 && r.PunchEvery > 0 {
		t.recur(first.Add(expDur(t.rBus, r.PunchEvery)), t.busStep)
	}
	if mean := t.uploadMean(r); mean > 0 {
		t.recur(first.Add(expDur(t.rUpload, mean)), t.uploadStep)
	}
}

// recur runs step at at, and again at each time it returns, under the terminal's lock until the fleet stops:
// the one loop of every recurring activity (battery, drops, talk, SOS, group switches, patrol, bus punches,
// uploads). A step draws its next time before it acts, so a turn it skips (offline, busy) keeps the rhythm.
func (t *Terminal) recur(at time.Time, step func(at time.Time) (next time.Time)) {
	t.fl.sched.at(at, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if !t.fl.stopping.Load() {
			t.recur(step(at), step)
		}
	})
}

// expDur draws an exponential gap with the given mean (at least a second).
func expDur(r *rand.Rand, mean time.Duration) time.Duration {
	return max(time.Duration(r.ExpFloat64()*float64(mean)), time.Second)
}

// uniform draws a duration in [lo, hi).
func uniform(r *rand.Rand, lo, hi time.Duration) time.Duration {
	return lo + time.Duration(r.Float64()*float64(hi-lo))
}

// react is how long the user takes over a call: between lo and hi, scaled by Options.Reaction.
func (t *Terminal) react(lo, hi time.Duration) time.Duration {
	d := uniform(t.rReact, lo, hi)
	if s := t.fl.opts.Reaction; s > 0 {
		d = time.Duration(float64(d) * s)
	}
	return d
}

// ---- connection ---------------------------------------------------------------------------------------------

func (t *Terminal) wantOnline() bool {
	return t.powered && !t.netDown && t.state != stStopped && !t.fl.stopping.Load()
}

// dial connects and logs in; it runs on the fleet's dial pool.
func (t *Terminal) dial() {
	t.mu.Lock()
	if t.state != stOffline || !t.wantOnline() {
		t.mu.Unlock()
		return
	}
	t.state = stConnecting
	t.conn++
	gen := t.conn
	token := t.token
	t.mu.Unlock()

	// A loaded server answers logins late (each costs it a password hash): give it the console's 30 s.
	ctx, cancel := context.WithTimeout(t.fl.ctx, 30*time.Second)
	defer cancel()
	err := t.login(ctx, gen, token)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn != gen {
		return
	}
	if err != nil {
		w := t.w
		t.w = nil
		t.state = stOffline
		if w != nil {
			go w.CloseNow()
		}
		if t.fl.stopping.Load() {
			return
		}
		code := wsclient.Code(err)
		if code == "105" {
			t.token = "" // the console session or the resume token expired: sign in again with the password
		}
		if permanentLogin[code] {
			t.state, t.failed = stStopped, code
			t.fl.logf("terminal %s: login refused for good (code %s); it stays offline", t.acct.ID, code)
			t.fl.stats.refused("session.login", code)
			return
		}
		t.fl.stats.refused("session.login", code)
		t.retryLocked()
		return
	}
	if t.state != stConnecting || t.w == nil { // closed right after the login reply
		if t.state != stStopped {
			t.state = stOffline
			t.retryLocked()
		}
		return
	}
	t.onOnlineLocked()
}

// login opens the socket and logs in (a type 20 position first signs in over HTTP like a console).
func (t *Terminal) login(ctx context.Context, gen uint64, token string) error {
	if t.prof.Console && token == "" {
		tok, err := wsclient.SignIn(ctx, t.fl.hc, t.server(), t.acct.ID, t.acct.Password)
		if err != nil {
			return err
		}
		token = tok
		t.mu.Lock()
		t.token = tok
		t.mu.Unlock()
	}
	w, err := wsclient.Dial(ctx, wsclient.URL(t.server()), wsclient.Options{HTTPClient: t.fl.hc, Handle: t.onFrame,
		Done: func(err error) { t.onClosed(gen, err) }})
	if err != nil {
		return err
	}
	t.mu.Lock()
	if t.conn != gen {
		t.mu.Unlock()
		w.CloseNow()
		return wsclient.ErrClosed
	}
	t.w = w // before the login: the server's reminders follow its reply at once
	t.mu.Unlock()
	// A terminal logs in with its password once and reconnects with the resume token that login returned
	// (no password hash on the server); a refused token ("105") is dropped by dial and the password used again.
	login := map[string]any{"client": "terminal", "uid": t.acct.ID, "auth": t.acct.Password}
	switch {
	case t.prof.Console:
		login = map[string]any{"client": "console", "token": token}
	case token != "":
		login = map[string]any{"client": "terminal", "uid": t.acct.ID, "resume": token}
	}
	var reply struct {
		MsID   string   `json:"msId"`
		Resume string   `json:"resume"`
		Nodes  []string `json:"nodes"` // a cluster's live nodes: where to go when this one dies
	}
	if err := w.Call(ctx, "session.login", login, &reply); err != nil {
		return err
	}
	t.mu.Lock()
	t.nodes.Learn(reply.Nodes)
	t.msID = reply.MsID
	if !t.prof.Console && reply.Resume != "" {
		t.token = reply.Resume
	}
	t.mu.Unlock()
	return nil
}

// server is the base URL the terminal uses now: Options.URL, or with URLs one of the cluster's nodes.
func (t *Terminal) server() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.nodes.Current()
}

// retryLocked plans the next login attempt with a jittered exponential backoff (1 s doubling to 30 s); with
// several servers (Options.URLs) the attempt goes to the next one (internal/platform/failover).
func (t *Terminal) retryLocked() {
	t.nodes.Next()
	t.failures++
	d := failover.Backoff(t.failures, t.rReact.Float64())
	t.fl.sched.after(d, func() { t.fl.dials.push(t) })
}

func (t *Terminal) onOnlineLocked() {
	st := &t.fl.stats
	t.state = stOnline
	t.failures = 0
	st.Online.Add(1)
	st.Logins.Add(1)
	if t.everOn {
		st.Reconnects.Add(1)
	}
	t.everOn = true
	// What the server keeps for a returning terminal: its groups and talk group, and the calls with their floor.
	t.req("group.list", struct{}{}, func(f frame) {
		if f.OK() {
			t.applyMembership(f.Data)
		}
	})
	t.req("call.list", struct{}{}, func(f frame) {
		var r struct {
			Calls []callView `json:"calls"`
		}
		if f.OK() && json.Unmarshal(f.Data, &r) == nil {
			for _, c := range r.Calls {
				t.applyCall(c)
				if c.Floor != nil {
					t.applyFloor(*c.Floor)
				}
			}
		}
	})
	if t.prof.Console {
		return
	}
	t.resumeJobsLocked()
	t.sendPunchesLocked()
	// Positions recorded while the network was away go up in one batch, then the current state.
	if len(t.buffered) > 0 {
		t.sendBufferedLocked()
	}
	if t.every[chainGPS] > 0 {
		now := t.fl.now()
		t.sendFix(gpsPoint{Fix: t.route.At(now.Sub(t.fl.start)), at: now.UnixMilli()})
	}
	t.sendStatus()
}

// onClosed runs when a connection ends.
func (t *Terminal) onClosed(gen uint64, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn != gen {
		return
	}
	was := t.state
	t.w = nil
	if was == stOnline {
		t.fl.stats.Online.Add(-1)
	}
	switch t.mstate {
	case mediaReady:
		t.closeMediaLocked(false)
	case mediaConnecting: // its negotiation fails with the connection; its slot is released there
		waiters := t.mwait
		t.mwait, t.mstate, t.rtcUp = nil, mediaNone, nil
		for _, fn := range waiters {
			fn(false)
		}
	}
	if t.talk != nil {
		t.stopTalkLocked("closed", false)
	}
	t.closeVideosLocked()
	if t.ambient != nil {
		t.ambient.stop()
		t.ambient = nil
	}
	clear(t.busy)
	clear(t.calls)
	if t.replaced { // the account logged in elsewhere (a person took it over): never reconnect by itself
		t.state, t.failed = stStopped, "replaced"
		t.fl.logf("terminal %s: logged in from another device; the simulated one stays offline", t.acct.ID)
		return
	}
	// Groups and talk group come back from the server at the next login (group.list): it is the reference.
	t.groups, t.ptt = nil, ""
	if was == stStopped {
		return
	}
	t.state = stOffline
	if was != stOnline || !t.wantOnline() {
		return // a failed login retries from dial; a planned drop comes back on its own
	}
	t.fl.stats.Lost.Add(1)
	t.retryLocked()
}

// drop ends the connection as a network loss or power-off would.
func (t *Terminal) dropLocked() {
	t.fl.stats.Drops.Add(1)
	if w := t.w; w != nil {
		go w.CloseNow()
	}
}

// req sends a request on the current connection; cb runs under the terminal's lock, only if the reply comes
// on the same connection. Refusals are counted by type and code.
func (t *Terminal) req(typ string, data any, cb func(frame)) bool {
	w, gen := t.w, t.conn
	if w == nil {
		return false
	}
	_, err := w.Request(typ, data, func(f frame) {
		if wsclient.Closed(f) {
			return
		}
		if !f.OK() {
			t.fl.stats.refused(typ, f.Code)
		}
		if cb == nil {
			return
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.conn == gen {
			cb(f)
		}
	})
	return err == nil
}

func (t *Terminal) reply(req frame, code string, data any) {
	if t.w != nil {
		_ = t.w.Reply(req, code, data)
	}
}

// ---- reports ------------------------------------------------------------------------------------------------

func (t *Terminal) startChain(k int, at time.Time) {
	t.gen[k]++
	gen := t.gen[k]
	var step func(at time.Time)
	step = func(at time.Time) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.gen[k] != gen || t.fl.stopping.Load() {
			return
		}
		switch k {
		case chainGPS:
			t.gpsStepLocked(at)
		case chainStatus:
			if t.state == stOnline {
				t.sendStatus()
			}
		case chainHeartbeat:
			if t.state == stOnline && t.req("ping", struct{}{}, nil) {
				t.fl.stats.Pings.Add(1)
			}
		}
		next := at.Add(t.every[k])
		t.fl.sched.at(next, func() { step(next) })
	}
	t.fl.sched.at(at, func() { step(at) })
}

func (t *Terminal) gpsStepLocked(at time.Time) {
	fix := t.route.At(at.Sub(t.fl.start))
	if t.mob != Fixed {
		fix = jitter(fix, 3, t.rGPS)
	}
	if !t.powered {
		return
	}
	p := gpsPoint{Fix: fix, at: at.UnixMilli()}
	if t.state != stOnline {
		t.bufferLocked(p)
		return
	}
	if len(t.buffered) > 0 { // positions the server could not take (101 busy) go again with this one
		t.sendBufferedLocked(p)
		return
	}
	t.sendFix(p)
}

func (t *Terminal) bufferLocked(p gpsPoint) {
	if len(t.buffered) >= maxBuffered {
		t.buffered = t.buffered[1:]
	}
	t.buffered = append(t.buffered, p)
}

// sendBufferedLocked sends the buffered positions (and extra, if any) as one batch.
func (t *Terminal) sendBufferedLocked(extra ...gpsPoint) {
	batch := append(t.buffered, extra...)
	t.buffered = nil
	pts := make([]map[string]any, len(batch))
	for i, p := range batch {
		pts[i] = p.report()
	}
	t.req("gps.report", map[string]any{"points": pts}, func(f frame) {
		if f.OK() {
			t.fl.stats.GPSPoints.Add(int64(len(batch)))
		} else if f.Code == "101" || f.Code == "429" { // the server is busy, or over this terminal's GPS budget: keep them for the next report
			t.buffered = append(batch, t.buffered...)
			if n := len(t.buffered); n > maxBuffered {
				t.buffered = t.buffered[n-maxBuffered:]
			}
		}
	})
}

func (p gpsPoint) report() map[string]any {
	return map[string]any{"lat": round6(p.Lat), "lng": round6(p.Lng), "speed": round1(p.Speed),
		"direction": math.Round(p.Direction), "altitude": math.Round(p.Altitude), "time": p.at}
}

func (t *Terminal) sendFix(p gpsPoint) {
	t.req("gps.report", p.report(), func(f frame) {
		if f.OK() {
			t.fl.stats.GPSPoints.Add(1)
		} else if f.Code == "101" || f.Code == "429" { // busy or over budget: send it again with the next one
			t.bufferLocked(p)
		}
	})
}

func (t *Terminal) sendStatus() {
	if t.req("status.report", map[string]any{"battery": int(math.Round(t.battery)), "signal": t.signal}, nil) {
		t.fl.stats.StatusSent.Add(1)
	}
}

// batteryStep runs every minute: drain or charge, signal changes, power off when empty and on when charged.
func (t *Terminal) batteryStep(at time.Time) (next time.Time) {
	next = at.Add(batteryTick)
	n1, n2, n3, n4 := t.rBatt.Float64(), t.rBatt.Float64(), t.rBatt.Float64(), t.rBatt.Float64()
	// A change worth telling (signal, or battery by 5 %) is reported at once: the lone-worker watch reads them.
	sig, level := t.signal, int(t.battery)/5
	defer func() {
		if t.state == stOnline && (t.signal != sig || int(t.battery)/5 != level) {
			t.sendStatus()
		}
	}()
	if t.prof.DrainPerHour == 0 {
		t.signal = 5
		if n1 < 0.1 {
			t.signal = 4
		}
		return next
	}
	change := 0.2
	if t.mob == Driving {
		change = 0.5
	}
	if n1 < change {
		if n2 < 0.5 {
			t.signal++
		} else {
			t.signal--
		}
		lo := 1
		if t.mob == Driving {
			lo = 0 // a tunnel, an underground car park
		}
		t.signal = min(max(t.signal, lo), 5)
	}
	switch {
	case t.charging:
		t.battery = min(t.battery+35.0/60*(0.8+0.4*n3), 100)
		if !t.powered && t.battery >= 30 {
			t.powered = true
			if t.state == stOffline {
				t.fl.dials.push(t)
			}
		}
		if t.battery >= t.chargeTo {
			t.charging, t.lowSeen = false, false
			t.lowAt = 10 + 15*n4
			t.forgetful = n2 < 0.15
		}
	default:
		t.battery -= t.prof.DrainPerHour / 60 * (0.7 + 0.6*n3)
		if t.battery <= t.lowAt && !t.lowSeen {
			t.lowSeen = true
			if !t.forgetful {
				t.charging, t.chargeTo = true, 90+10*n4
			}
		}
		if t.battery <= 0 { // flat: the terminal switches off and goes to the charger
			t.battery, t.powered, t.charging, t.chargeTo = 0, false, true, 95
			if t.state == stOnline || t.state == stConnecting {
				t.dropLocked()
			}
		}
	}
	return next
}

// dropStep is a planned network loss: offline for a while, then back (positions are buffered meanwhile).
func (t *Terminal) dropStep(at time.Time) (next time.Time) {
	p := drawDrop(t.rDrop, t.fl.opts.Rates)
	back := at.Add(p.off)
	if t.state == stOnline {
		t.netDown = true
		t.dropLocked()
		t.fl.sched.at(back, t.netUp)
	}
	return back.Add(p.gap)
}

// ---- SOS, group switch ----------------------------------------------------------------------------------------

func (t *Terminal) sosStep(at time.Time) (next time.Time) {
	p := drawSOS(t.rSOS, t.sosMean(t.fl.opts.Rates))
	cancel, cancelAfter, talkToo, manDown := p.cancel, p.cancelAfter, p.talk, p.manDown
	next = at.Add(p.gap)
	if t.state != stOnline || t.sosID != "" {
		return next
	}
	typ := t.prof.SOSType
	if manDown && typ == "0" {
		typ = "1" // man-down sensor
	}
	fix := t.route.At(at.Sub(t.fl.start))
	t.req("sos.raise", map[string]any{"lat": round6(fix.Lat), "lng": round6(fix.Lng), "type": typ}, func(f frame) {
		var a struct {
			ID json.RawMessage `json:"id"`
		}
		if !f.OK() || json.Unmarshal(f.Data, &a) != nil {
			return
		}
		id := jsonID(a.ID)
		t.sosID = id
		t.fl.stats.SOSRaised.Add(1)
		if cancel { // a false alarm: the worker cancels it on the device
			t.fl.sched.after(cancelAfter, func() {
				t.mu.Lock()
				defer t.mu.Unlock()
				if t.sosID == id && t.state == stOnline {
					t.req("sos.cancel", map[string]any{"id": id}, func(f frame) {
						if f.OK() {
							t.sosID = ""
							t.fl.stats.SOSCanceled.Add(1)
						}
					})
				}
			})
		}
		if talkToo && t.prof.Talk > 0 { // and calls for help (an SOS talker pre-empts the floor)
			t.fl.sched.after(2*time.Second, func() {
				t.mu.Lock()
				defer t.mu.Unlock()
				if t.canTalkLocked() && t.ptt != "" {
					t.startTalkLocked("", t.ptt, t.fl.clips.Long.Packets, false, nil)
				}
			})
		}
	})
	return next
}

// jsonID reads an id sent as a string or a number.
func jsonID(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

func (t *Terminal) switchStep(at time.Time) (next time.Time) {
	p := drawSwitch(t.rSwitch, t.switchMean(t.fl.opts.Rates))
	pick := p.pick
	next = at.Add(p.gap)
	if !t.canTalkLocked() || len(t.groups) < 2 {
		return next
	}
	g := t.groups[pick%len(t.groups)]
	if g.GID == t.ptt {
		g = t.groups[(pick+1)%len(t.groups)]
	}
	t.req("group.switch", map[string]any{"gid": g.GID}, func(f frame) {
		if f.OK() {
			t.ptt = g.GID
			t.fl.stats.Switches.Add(1)
		}
	})
	return next
}

// netUp ends a network outage (a drop, GoOffline): an offline terminal dials again.
func (t *Terminal) netUp() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.netDown = false
	if t.state == stOffline {
		t.fl.dials.push(t)
	}
}
