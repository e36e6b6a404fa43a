package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/pion/webrtc/v4"

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

	// One random source per kind of decision (derived from the seed and the account id): each chain draws a
	// fixed number of values per step, so its schedule does not depend on how the others interleave.
	rTalk, rSOS, rDrop, rSwitch, rBatt, rGPS, rReact *rand.Rand

	mu        sync.Mutex
	w         *wire
	state     connState
	conn      uint64 // connection generation: callbacks of an older connection are ignored
	everOn    bool
	netDown   bool // planned network loss
	powered   bool // the battery is not empty
	replaced  bool // the account logged in elsewhere (a person took it over)
	failures  int
	failed    string // login refused for good
	token     string // type 20: console session
	msID      string
	groups    []group
	ptt       string
	callSet   int // spec §4: 0 killed, 1 stunned, 8 active
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
}

type gpsPoint struct {
	Fix
	at int64 // UTC ms
}

func newTerminal(fl *Fleet, a Account, index int) *Terminal {
	t := &Terminal{fl: fl, acct: a, prof: ProfileOf(a.Type), index: index, callSet: 8, powered: true,
		busy: map[string]string{}, calls: map[string]*callRef{}}
	h := fnv.New64a()
	h.Write([]byte(a.ID))
	id := h.Sum64()
	stream := func(n uint64) *rand.Rand { return rand.New(rand.NewPCG(fl.opts.Seed^(n*0x9e3779b97f4a7c15), id)) }
	t.rTalk, t.rSOS, t.rDrop, t.rSwitch = stream(1), stream(2), stream(3), stream(4)
	t.rBatt, t.rGPS, t.rReact = stream(5), stream(6), stream(7)
	rRoute := stream(8)
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
			if t.every[k] > 0 {
				t.startChain(k, first.Add(time.Duration(t.rGPS.Float64()*float64(t.every[k]))))
			}
		}
		fl.sched.at(first.Add(time.Duration(t.rBatt.Float64()*float64(batteryTick))), func() { t.batteryStep(first) })
	}
	r := fl.opts.Rates
	if t.prof.Talk > 0 && r.TalkEvery > 0 {
		gap := expDur(t.rTalk, time.Duration(float64(r.TalkEvery)/t.prof.Talk))
		fl.sched.at(first.Add(gap), func() { t.talkStep(first.Add(gap)) })
	}
	if t.prof.SOS > 0 && r.SOSEvery > 0 {
		gap := expDur(t.rSOS, time.Duration(float64(r.SOSEvery)/t.prof.SOS))
		fl.sched.at(first.Add(gap), func() { t.sosStep(first.Add(gap)) })
	}
	if r.DropEvery > 0 {
		gap := expDur(t.rDrop, r.DropEvery)
		fl.sched.at(first.Add(gap), func() { t.dropStep(first.Add(gap)) })
	}
	if r.SwitchEvery > 0 && !t.prof.Console {
		gap := expDur(t.rSwitch, r.SwitchEvery)
		fl.sched.at(first.Add(gap), func() { t.switchStep(first.Add(gap)) })
	}
}

// expDur draws an exponential gap with the given mean (at least a second).
func expDur(r *rand.Rand, mean time.Duration) time.Duration {
	return max(time.Duration(r.ExpFloat64()*float64(mean)), time.Second)
}

// uniform draws a duration in [lo, hi).
func uniform(r *rand.Rand, lo, hi time.Duration) time.Duration {
	return lo + time.Duration(r.Float64()*float64(hi-lo))
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

	ctx, cancel := context.WithTimeout(t.fl.ctx, 20*time.Second)
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
			go w.closeNow()
		}
		code := errCode(err)
		if code == "105" {
			t.token = "" // the console session expired: sign in again
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
		tok, err := signIn(ctx, t.fl.hc, t.fl.opts.URL, t.acct.ID, t.acct.Password)
		if err != nil {
			return err
		}
		token = tok
		t.mu.Lock()
		t.token = tok
		t.mu.Unlock()
	}
	w, err := dialWire(ctx, t.fl.opts.URL, t.fl.hc, t.onFrame, func(err error) { t.onClosed(gen, err) })
	if err != nil {
		return err
	}
	t.mu.Lock()
	if t.conn != gen {
		t.mu.Unlock()
		w.closeNow()
		return errWireClosed
	}
	t.w = w // before the login: the server's reminders follow its reply at once
	t.mu.Unlock()
	login := map[string]any{"client": "terminal", "uid": t.acct.ID, "auth": t.acct.Password}
	if t.prof.Console {
		login = map[string]any{"client": "console", "token": token}
	}
	var reply struct {
		MsID string `json:"msId"`
	}
	if err := w.call(ctx, "session.login", login, &reply); err != nil {
		return err
	}
	t.mu.Lock()
	t.msID = reply.MsID
	t.mu.Unlock()
	return nil
}

// signIn is the console sign-in (docs/api.md `/ds/user`); it returns the session token.
func signIn(ctx context.Context, hc *http.Client, base, uid, pw string) (string, error) {
	q := url.Values{"uid": {uid}, "auth": {pw}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/ds/user", nil)
	if err != nil {
		return "", err
	}
	req.URL.RawQuery = q.Encode()
	res, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var env struct {
		Code   string `json:"code"`
		Msg    string `json:"msg"`
		Result struct {
			Token string `json:"token"`
		} `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
		return "", fmt.Errorf("sign-in %s: %w", uid, err)
	}
	if env.Code != "0" {
		return "", &codeError{typ: "sign-in", code: env.Code, msg: env.Msg}
	}
	return env.Result.Token, nil
}

// retryLocked plans the next login attempt with a jittered exponential backoff.
func (t *Terminal) retryLocked() {
	t.failures++
	d := time.Second << min(t.failures-1, 6)
	d = time.Duration(float64(min(d, time.Minute)) * (0.5 + t.rReact.Float64()))
	if t.replaced {
		d = 10 * time.Minute // someone uses this account elsewhere: do not take it back at once
	}
	t.fl.sched.after(d, func() { t.fl.dials.push(t) })
}

func (t *Terminal) onOnlineLocked() {
	st := &t.fl.stats
	t.state = stOnline
	t.failures = 0
	t.replaced = false
	st.Online.Add(1)
	st.Logins.Add(1)
	if t.everOn {
		st.Reconnects.Add(1)
	}
	t.everOn = true
	// What the server keeps for a returning terminal: its groups and talk group, and the calls with their floor.
	t.req("group.list", struct{}{}, func(f frame) {
		if f.ok() {
			t.applyMembership(f.Data)
		}
	})
	t.req("call.list", struct{}{}, func(f frame) {
		var r struct {
			Calls []callView `json:"calls"`
		}
		if f.ok() && json.Unmarshal(f.Data, &r) == nil {
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
	// Positions recorded while the network was away go up in one batch, then the current state.
	if len(t.buffered) > 0 {
		pts := make([]map[string]any, len(t.buffered))
		for i, p := range t.buffered {
			pts[i] = p.report()
		}
		n := int64(len(pts))
		t.req("gps.report", map[string]any{"points": pts}, func(f frame) {
			if f.ok() {
				t.fl.stats.GPSPoints.Add(n)
			}
		})
		t.buffered = nil
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
	if t.ambient != nil {
		t.ambient.stop()
		t.ambient = nil
	}
	clear(t.busy)
	clear(t.calls)
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
		go w.closeNow()
	}
}

// req sends a request on the current connection; cb runs under the terminal's lock, only if the reply comes
// on the same connection. Refusals are counted by type and code.
func (t *Terminal) req(typ string, data any, cb func(frame)) bool {
	w, gen := t.w, t.conn
	if w == nil {
		return false
	}
	err := w.request(typ, data, func(f frame) {
		if f.Code == "closed" {
			return
		}
		if !f.ok() {
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
		_ = t.w.reply(req, code, data)
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
			if t.state == stOnline && t.w != nil && t.w.send("ping") == nil {
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
	if t.state == stOnline {
		t.sendFix(p)
		return
	}
	if len(t.buffered) >= maxBuffered {
		t.buffered = t.buffered[1:]
	}
	t.buffered = append(t.buffered, p)
}

func (p gpsPoint) report() map[string]any {
	return map[string]any{"lat": round6(p.Lat), "lng": round6(p.Lng), "speed": round1(p.Speed),
		"direction": math.Round(p.Direction), "altitude": math.Round(p.Altitude), "time": p.at}
}

func (t *Terminal) sendFix(p gpsPoint) {
	t.req("gps.report", p.report(), func(f frame) {
		if f.ok() {
			t.fl.stats.GPSPoints.Add(1)
		}
	})
}

func (t *Terminal) sendStatus() {
	if t.req("status.report", map[string]any{"battery": int(math.Round(t.battery)), "signal": t.signal}, nil) {
		t.fl.stats.StatusSent.Add(1)
	}
}

// batteryStep runs every minute: drain or charge, signal changes, power off when empty and on when charged.
func (t *Terminal) batteryStep(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fl.stopping.Load() {
		return
	}
	next := at.Add(batteryTick)
	t.fl.sched.at(next, func() { t.batteryStep(next) })
	n1, n2, n3, n4 := t.rBatt.Float64(), t.rBatt.Float64(), t.rBatt.Float64(), t.rBatt.Float64()
	if t.prof.DrainPerHour == 0 {
		t.signal = 5
		if n1 < 0.1 {
			t.signal = 4
		}
		return
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
}

// dropStep is a planned network loss: offline for a while, then back (positions are buffered meanwhile).
func (t *Terminal) dropStep(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fl.stopping.Load() {
		return
	}
	r := t.fl.opts.Rates
	off := uniform(t.rDrop, min(15*time.Second, r.Offline/2), r.Offline)
	back := at.Add(off)
	gap := expDur(t.rDrop, r.DropEvery)
	if t.state == stOnline {
		t.netDown = true
		t.dropLocked()
		t.fl.sched.at(back, func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			t.netDown = false
			if t.state == stOffline {
				t.fl.dials.push(t)
			}
		})
	}
	next := back.Add(gap)
	t.fl.sched.at(next, func() { t.dropStep(next) })
}

// ---- talk ---------------------------------------------------------------------------------------------------

// canTalkLocked tells whether the terminal may start talking now.
func (t *Terminal) canTalkLocked() bool {
	return t.state == stOnline && t.callSet == 8 && t.talk == nil && t.ambient == nil
}

// talkStep is a planned talk burst in the terminal's talk group, unless someone else is talking there.
func (t *Terminal) talkStep(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fl.stopping.Load() {
		return
	}
	r := t.fl.opts.Rates
	gap := expDur(t.rTalk, time.Duration(float64(r.TalkEvery)/t.prof.Talk))
	choice, queue, frac := t.rTalk.Float64(), t.rTalk.Float64() < 0.2, t.rTalk.Float64()
	next := at.Add(gap)
	t.fl.sched.at(next, func() { t.talkStep(next) })
	if !t.canTalkLocked() || t.ptt == "" || t.busy[t.ptt] != "" || t.inSingleCallLocked() {
		return
	}
	t.startTalkLocked("", t.ptt, t.fl.clipFor(choice, frac), queue, nil)
}

// startTalkLocked requests the floor (of callID, or of group gid), sends the speech once granted and
// releases. result (tests) learns the outcome.
func (t *Terminal) startTalkLocked(callID, gid string, packets [][]byte, queue bool, result func(string)) {
	tk := &talk{callID: callID, gid: gid, packets: packets, result: result}
	t.talk = tk
	t.withMediaLocked(func(ok bool) {
		if t.talk != tk {
			return
		}
		if !ok {
			t.talk = nil
			t.fl.stats.NoMedia.Add(1)
			tk.finish("nomedia")
			return
		}
		sent := t.req("floor.request", map[string]any{"callId": callID, "gid": gid, "queue": queue}, func(f frame) {
			t.onFloorReply(tk, f)
		})
		if !sent {
			t.talk = nil
			tk.finish("closed")
		}
	})
}

func (t *Terminal) onFloorReply(tk *talk, f frame) {
	var r struct {
		CallID string `json:"callId"`
		Status string `json:"status"`
	}
	_ = json.Unmarshal(f.Data, &r)
	if t.talk != tk {
		if f.ok() { // gave up meanwhile
			t.req("floor.release", map[string]any{"callId": r.CallID}, nil)
		}
		return
	}
	if !f.ok() {
		t.talk = nil
		t.fl.stats.FloorDenied.Add(1)
		t.touchMediaLocked()
		tk.finish(f.Code)
		return
	}
	tk.callID = r.CallID
	if r.Status == "queued" {
		tk.queued = true
		t.fl.stats.FloorQueued.Add(1)
		t.fl.sched.after(15*time.Second, func() { // waited long enough: leave the queue
			t.mu.Lock()
			defer t.mu.Unlock()
			if t.talk == tk && tk.s == nil {
				t.stopTalkLocked("queued", true)
			}
		})
		return
	}
	t.beginSendingLocked(tk)
}

func (t *Terminal) beginSendingLocked(tk *talk) {
	if t.media == nil {
		t.stopTalkLocked("nomedia", true)
		return
	}
	tk.queued = false
	s := &sender{m: t.media, packets: tk.packets, done: func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.talk == tk {
			t.stopTalkLocked("", true)
		}
	}}
	tk.s = s
	t.fl.stats.Bursts.Add(1)
	t.fl.clock.add(s)
}

// stopTalkLocked ends the current talk: stops the speech and, if asked, releases the floor.
func (t *Terminal) stopTalkLocked(code string, release bool) {
	tk := t.talk
	if tk == nil {
		return
	}
	t.talk = nil
	if tk.s != nil {
		tk.s.stop()
	}
	if release && tk.callID != "" {
		t.req("floor.release", map[string]any{"callId": tk.callID}, nil)
	}
	t.touchMediaLocked()
	tk.finish(code)
}

// ---- media --------------------------------------------------------------------------------------------------

// withMediaLocked runs fn (under the lock) once the PeerConnection is up, opening it if needed; fn(false) when
// no slot is free or it failed.
func (t *Terminal) withMediaLocked(fn func(ok bool)) {
	switch t.mstate {
	case mediaReady:
		t.mediaUsed = t.fl.now()
		fn(true)
		return
	case mediaConnecting:
		t.mwait = append(t.mwait, fn)
		return
	}
	if t.w == nil || t.state != stOnline || !t.fl.media.reserve() {
		fn(false)
		return
	}
	t.mstate = mediaConnecting
	t.mwait = []func(bool){fn}
	t.rtcUp = make(chan struct{})
	go t.connectMedia(t.conn, t.w, t.rtcUp)
}

// connectMedia negotiates the PeerConnection (rtc.config, rtc.offer, trickled rtc.candidate) and waits for
// the server's `rtc.state` connected.
func (t *Terminal) connectMedia(gen uint64, w *wire, up chan struct{}) {
	ctx, cancel := context.WithTimeout(t.fl.ctx, 15*time.Second)
	defer cancel()
	m, err := t.negotiate(ctx, w, up)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn != gen || t.mstate != mediaConnecting || t.rtcUp != nil && t.rtcUp != up {
		// The connection ended meanwhile (onClosed failed the waiters already).
		if m != nil {
			go m.Close()
		}
		t.fl.media.release()
		return
	}
	waiters := t.mwait
	t.mwait = nil
	if err != nil {
		if m != nil {
			go m.Close()
		}
		t.fl.media.release()
		t.fl.stats.MediaFailed.Add(1)
		t.mstate, t.rtcUp = mediaNone, nil
		for _, fn := range waiters {
			fn(false)
		}
		return
	}
	t.media, t.mstate, t.rtcUp = m, mediaReady, nil
	t.fl.stats.MediaOpen.Add(1)
	t.mediaUsed = t.fl.now()
	for _, fn := range waiters {
		fn(true)
	}
	t.touchMediaLocked()
}

func (t *Terminal) negotiate(ctx context.Context, w *wire, up chan struct{}) (*termclient.Media, error) {
	var cfg struct {
		ICEServers []webrtc.ICEServer `json:"iceServers"`
	}
	if err := w.call(ctx, "rtc.config", struct{}{}, &cfg); err != nil {
		return nil, err
	}
	m, err := termclient.NewMedia(termclient.MediaOptions{Loopback: t.fl.opts.Loopback, ICEServers: cfg.ICEServers,
		KeepPayloads: t.fl.opts.KeepPayloads})
	if err != nil {
		return nil, err
	}
	offer, err := m.Offer()
	if err != nil {
		return m, err
	}
	var answer struct {
		SDP string `json:"sdp"`
	}
	if err := w.call(ctx, "rtc.offer", map[string]string{"type": "offer", "sdp": offer}, &answer); err != nil {
		return m, err
	}
	m.OnCandidate(func(ci webrtc.ICECandidateInit) { _ = w.request("rtc.candidate", ci, nil) })
	if err := m.Accept(answer.SDP); err != nil {
		return m, err
	}
	if err := m.WaitConnected(ctx); err != nil {
		return m, err
	}
	select {
	case <-up:
		return m, nil
	case <-ctx.Done():
		return m, fmt.Errorf("sim: no rtc.state connected: %w", ctx.Err())
	}
}

// touchMediaLocked notes a use of the PeerConnection and plans its closing after MediaIdle without use.
func (t *Terminal) touchMediaLocked() {
	if t.mstate != mediaReady {
		return
	}
	t.mediaUsed = t.fl.now()
	gen := t.conn
	t.fl.sched.after(t.fl.opts.MediaIdle, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.conn != gen || t.mstate != mediaReady || t.keepMediaLocked() ||
			t.fl.now().Sub(t.mediaUsed) < t.fl.opts.MediaIdle {
			return
		}
		t.closeMediaLocked(true)
	})
}

// keepMediaLocked tells whether the PeerConnection is in use: talking, monitored, in a call, pinned by a test.
func (t *Terminal) keepMediaLocked() bool {
	return t.talk != nil || t.ambient != nil || len(t.calls) > 0 || t.fl.pinned(t)
}

func (t *Terminal) closeMediaLocked(tellServer bool) {
	m := t.media
	t.media, t.mstate = nil, mediaNone
	if m == nil {
		return
	}
	t.fl.media.release()
	t.fl.stats.MediaOpen.Add(-1)
	if tellServer {
		t.req("rtc.close", struct{}{}, nil)
	}
	go m.Close()
}

// ---- SOS, group switch ----------------------------------------------------------------------------------------

func (t *Terminal) sosStep(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fl.stopping.Load() {
		return
	}
	r := t.fl.opts.Rates
	gap := expDur(t.rSOS, time.Duration(float64(r.SOSEvery)/t.prof.SOS))
	cancel, cancelAfter, talkToo, manDown := t.rSOS.Float64() < 0.3, uniform(t.rSOS, 15*time.Second, 2*time.Minute),
		t.rSOS.Float64() < 0.4, t.rSOS.Float64() < 0.1
	next := at.Add(gap)
	t.fl.sched.at(next, func() { t.sosStep(next) })
	if t.state != stOnline || t.sosID != "" {
		return
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
		if !f.ok() || json.Unmarshal(f.Data, &a) != nil {
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
						if f.ok() {
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

func (t *Terminal) switchStep(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fl.stopping.Load() {
		return
	}
	gap := expDur(t.rSwitch, t.fl.opts.Rates.SwitchEvery)
	pick := t.rSwitch.IntN(1 << 30)
	next := at.Add(gap)
	t.fl.sched.at(next, func() { t.switchStep(next) })
	if !t.canTalkLocked() || len(t.groups) < 2 {
		return
	}
	g := t.groups[pick%len(t.groups)]
	if g.GID == t.ptt {
		g = t.groups[(pick+1)%len(t.groups)]
	}
	t.req("group.switch", map[string]any{"gid": g.GID}, func(f frame) {
		if f.ok() {
			t.ptt = g.GID
			t.fl.stats.Switches.Add(1)
		}
	})
}

// ---- what the server sends ------------------------------------------------------------------------------------

// onFrame handles an event or a server→client request (on the connection's reader goroutine).
func (t *Terminal) onFrame(w *wire, f frame) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != w {
		return
	}
	if f.ID != 0 {
		t.onRequestLocked(f)
		return
	}
	t.onEventLocked(f)
}

func (t *Terminal) onRequestLocked(f frame) {
	st := &t.fl.stats
	switch f.Type {
	case "call.set": // kill (0), stun (1), revive (8)
		var d struct {
			Status json.RawMessage `json:"status"`
		}
		_ = json.Unmarshal(f.Data, &d)
		s, err := strconv.Atoi(jsonID(d.Status))
		if err != nil || (s != 0 && s != 1 && s != 8) {
			t.reply(f, "400", nil)
			return
		}
		t.callSet = s
		if s != 8 && t.talk != nil { // a blocked radio stops transmitting at once
			t.stopTalkLocked("606", true)
		}
		st.Remote.Add(1)
		t.reply(f, "0", nil)
	case "param.set":
		var d struct {
			Seconds map[string]int64 `json:"seconds"`
		}
		_ = json.Unmarshal(f.Data, &d)
		for name, k := range map[string]int{"gpsInterval": chainGPS, "statusInterval": chainStatus, "heartbeat": chainHeartbeat} {
			if s, ok := d.Seconds[name]; ok && s > 0 && !t.prof.Console {
				t.every[k] = time.Duration(s) * time.Second
				t.startChain(k, t.fl.now().Add(t.every[k]))
			}
		}
		st.Remote.Add(1)
		t.reply(f, "0", nil)
	case "group.switch": // a dispatcher moves the terminal's talk group
		var d struct {
			GID json.RawMessage `json:"gid"`
		}
		_ = json.Unmarshal(f.Data, &d)
		if t.talk != nil && t.talk.s != nil {
			t.reply(f, "486", map[string]string{"msg": "talking"})
			return
		}
		t.ptt = jsonID(d.GID)
		st.Remote.Add(1)
		t.reply(f, "0", nil)
	case "sms.deliver":
		t.inbox++
		st.Messages.Add(1)
		t.reply(f, "0", nil)
	case "sos.stop": // a dispatcher stopped the alarm
		t.sosID = ""
		t.reply(f, "0", nil)
	case "lonework.check":
		t.onLoneWorkCheckLocked(f)
	case "monitor.start": // a dispatcher listens to the terminal's microphone
		if t.mstate != mediaReady || t.talk != nil || t.ambient != nil {
			t.reply(f, "486", nil)
			return
		}
		t.ambient = &sender{m: t.media, packets: t.fl.clips.Long.Packets, loop: true}
		t.fl.clock.add(t.ambient)
		t.reply(f, "0", nil)
	default: // tones and whatever later issues add: acknowledged
		t.reply(f, "0", nil)
	}
}

func (t *Terminal) onLoneWorkCheckLocked(f frame) {
	var d struct {
		WorkID    json.RawMessage `json:"workId"`
		Countdown int64           `json:"countdown"`
	}
	_ = json.Unmarshal(f.Data, &d)
	busy, forget, delay := t.rReact.Float64(), t.rReact.Float64(), t.rReact.Float64()
	if t.talk != nil && busy < 0.2 {
		t.reply(f, "486", nil) // "busy": the worker cannot answer now
		return
	}
	t.reply(f, "0", nil)
	if forget < t.fl.opts.Rates.ForgetCheckin {
		t.fl.stats.Forgotten.Add(1)
		return
	}
	window := min(time.Duration(d.Countdown)*time.Second*6/10, time.Minute)
	wait := 3*time.Second + time.Duration(delay*float64(max(window-3*time.Second, 0)))
	id := jsonID(d.WorkID)
	t.fl.sched.after(wait, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.req("lonework.checkin", map[string]any{"workId": id}, func(f frame) {
			if f.ok() {
				t.fl.stats.Checkins.Add(1)
			}
		})
	})
}

// callView is what call.state and call.list carry (docs/voice.md).
type callView struct {
	CallID  string `json:"callId"`
	Kind    string `json:"kind"`
	State   string `json:"state"`
	Parties []struct {
		MsID  string `json:"msId"`
		State string `json:"state"`
	} `json:"parties"`
	Floor *floorView `json:"floor"`
}

type floorView struct {
	CallID string `json:"callId"`
	Kind   string `json:"kind"`
	GID    string `json:"gid"`
	Talker *struct {
		MsID string `json:"msId"`
	} `json:"talker"`
}

func (t *Terminal) onEventLocked(f frame) {
	switch f.Type {
	case "group.changed":
		t.applyMembership(f.Data)
	case "session.replaced":
		t.replaced = true
	case "floor.state":
		var v floorView
		if json.Unmarshal(f.Data, &v) == nil {
			t.applyFloor(v)
		}
	case "floor.granted": // our queued request got the floor
		var d struct {
			CallID string `json:"callId"`
		}
		_ = json.Unmarshal(f.Data, &d)
		if tk := t.talk; tk != nil && tk.queued && (tk.callID == "" || tk.callID == d.CallID) {
			tk.callID = d.CallID
			t.beginSendingLocked(tk)
		}
	case "floor.revoked": // pre-empted, too long (418), blocked (606)
		var d struct {
			CallID string `json:"callId"`
			Code   string `json:"code"`
		}
		_ = json.Unmarshal(f.Data, &d)
		if tk := t.talk; tk != nil && tk.callID == d.CallID {
			t.stopTalkLocked(d.Code, false)
		}
	case "call.invite":
		t.onInviteLocked(f.Data)
	case "call.state":
		var c callView
		if json.Unmarshal(f.Data, &c) == nil {
			t.applyCall(c)
		}
	case "rtc.state":
		var d struct {
			State string `json:"state"`
		}
		_ = json.Unmarshal(f.Data, &d)
		switch {
		case d.State == "connected" && t.rtcUp != nil:
			close(t.rtcUp)
			t.rtcUp = nil
		case d.State != "connected" && t.mstate == mediaReady:
			if t.talk != nil {
				t.stopTalkLocked("502", true)
			}
			t.closeMediaLocked(true)
		}
	case "monitor.stop":
		if t.ambient != nil {
			t.ambient.stop()
			t.ambient = nil
			t.touchMediaLocked()
		}
	case "sos.closed":
		var d struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(f.Data, &d)
		if jsonID(d.ID) == t.sosID {
			t.sosID = ""
		}
	}
	// Others (sos.acked, call.missed, voice.playing, lonework.start/end, …) change nothing a terminal decides.
}

func (t *Terminal) applyMembership(raw json.RawMessage) {
	var m struct {
		Groups   []group         `json:"groups"`
		PttGroup json.RawMessage `json:"pttGroup"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	t.groups = m.Groups
	t.ptt = jsonID(m.PttGroup)
}

func (t *Terminal) applyFloor(v floorView) {
	if v.Kind != "group" || v.GID == "" {
		return
	}
	if v.Talker != nil && v.Talker.MsID != t.acct.ID {
		t.busy[v.GID] = v.Talker.MsID
	} else {
		delete(t.busy, v.GID)
	}
}

// onInviteLocked answers an individual call (ringing, then answer, decline or let it ring out) and joins the
// calls a dispatcher opens to many (temporary group, all, broadcast).
func (t *Terminal) onInviteLocked(raw json.RawMessage) {
	var d struct {
		CallID string `json:"callId"`
		Kind   string `json:"kind"`
	}
	if json.Unmarshal(raw, &d) != nil || d.CallID == "" {
		return
	}
	st := &t.fl.stats
	r, delay := t.rReact.Float64(), uniform(t.rReact, 2*time.Second, 8*time.Second)
	id := d.CallID
	if d.Kind != "single" {
		t.calls[id] = &callRef{id: id, kind: d.Kind, state: "connected"}
		if d.Kind != "broadcast" && r < 0.3 { // someone answers the dispatcher
			t.fl.sched.after(delay, func() {
				t.mu.Lock()
				defer t.mu.Unlock()
				if c := t.calls[id]; c != nil && t.canTalkLocked() {
					t.startTalkLocked(id, "", t.fl.clipShort(r), false, nil)
				}
			})
		}
		return
	}
	status := func(code int) { t.req("call.status", map[string]any{"callId": id, "status": code}, nil) }
	inCall := t.inSingleCallLocked()
	switch {
	case !t.prof.Answers:
		st.CallsDeclined.Add(1)
		status(603)
		return
	case t.talk != nil || inCall || t.callSet != 8:
		st.CallsDeclined.Add(1)
		status(486)
		return
	}
	t.calls[id] = &callRef{id: id, kind: "single", state: "ringing"}
	status(180)
	switch {
	case r < 0.75:
		t.fl.sched.after(delay, func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			if t.calls[id] == nil {
				return // canceled meanwhile
			}
			t.withMediaLocked(func(ok bool) {
				if t.calls[id] == nil {
					return
				}
				if !ok {
					delete(t.calls, id)
					st.NoMedia.Add(1)
					status(486)
					return
				}
				st.CallsAnswered.Add(1)
				status(200)
			})
		})
	case r < 0.9:
		t.fl.sched.after(delay, func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			if t.calls[id] != nil {
				delete(t.calls, id)
				st.CallsDeclined.Add(1)
				status(603)
			}
		})
	default:
		st.CallsIgnored.Add(1) // rings out (408)
	}
}

// applyCall follows a call's state: reply once an individual call is connected, hang up a while after,
// forget calls that ended.
func (t *Terminal) applyCall(c callView) {
	if c.Kind == "group" {
		return
	}
	ref := t.calls[c.CallID]
	if c.State == "ended" {
		if ref != nil {
			delete(t.calls, c.CallID)
			if tk := t.talk; tk != nil && tk.callID == c.CallID {
				t.stopTalkLocked("ended", false)
			}
			t.touchMediaLocked()
		}
		return
	}
	if ref == nil {
		return
	}
	ref.state = c.State
	if c.Kind != "single" || c.State != "connected" || ref.replied {
		return
	}
	ref.replied = true
	id := c.CallID
	r := t.rReact.Float64()
	wait, hang := uniform(t.rReact, time.Second, 4*time.Second), uniform(t.rReact, 10*time.Second, 40*time.Second)
	t.replyInCall(id, t.fl.clipShort(r), wait, 3)
	t.fl.sched.after(wait+hang, func() { // the user hangs up if the dispatcher has not
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.calls[id] != nil && t.talk == nil {
			t.req("call.bye", map[string]any{"callId": id}, nil)
		}
	})
}

// replyInCall talks once in a call after wait, trying again a little later (tries times) if the terminal is
// busy at that moment.
func (t *Terminal) replyInCall(id string, clip [][]byte, wait time.Duration, tries int) {
	t.fl.sched.after(wait, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		switch {
		case t.calls[id] == nil || t.state != stOnline:
		case t.canTalkLocked():
			t.startTalkLocked(id, "", clip, false, nil)
		case tries > 1:
			t.replyInCall(id, clip, 2*time.Second, tries-1)
		}
	})
}

// inSingleCallLocked tells whether the terminal is in an individual call (its PTT belongs to the call).
func (t *Terminal) inSingleCallLocked() bool {
	for _, c := range t.calls {
		if c.kind == "single" {
			return true
		}
	}
	return false
}

// ---- for tests and tools ----------------------------------------------------------------------------------------

// Online tells whether the terminal is logged in.
func (t *Terminal) Online() bool { t.mu.Lock(); defer t.mu.Unlock(); return t.state == stOnline }

// PttGroup is the group it talks in, as it knows it.
func (t *Terminal) PttGroup() string { t.mu.Lock(); defer t.mu.Unlock(); return t.ptt }

// CallSet is its call-set status (8 active, 1 stunned, 0 killed).
func (t *Terminal) CallSet() int { t.mu.Lock(); defer t.mu.Unlock(); return t.callSet }

// Inbox is how many messages it received.
func (t *Terminal) Inbox() int { t.mu.Lock(); defer t.mu.Unlock(); return t.inbox }

// Failed is the code of a login refused for good ("" if none).
func (t *Terminal) Failed() string { t.mu.Lock(); defer t.mu.Unlock(); return t.failed }

// Battery is its battery level in percent.
func (t *Terminal) Battery() int { t.mu.Lock(); defer t.mu.Unlock(); return int(math.Round(t.battery)) }

// Media is its PeerConnection while one is open.
func (t *Terminal) Media() *termclient.Media { t.mu.Lock(); defer t.mu.Unlock(); return t.media }

// ConnectMedia opens its PeerConnection now and keeps it open (a listener) until the fleet stops.
func (t *Terminal) ConnectMedia(ctx context.Context) (*termclient.Media, error) {
	t.fl.pin(t)
	ch := make(chan bool, 1)
	t.mu.Lock()
	t.withMediaLocked(func(ok bool) { ch <- ok })
	t.mu.Unlock()
	select {
	case ok := <-ch:
		if !ok {
			return nil, errors.New("sim: no media connection")
		}
		return t.Media(), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Talk talks once in its talk group now (floor request, speech, release) and returns "" when the speech
// was sent, or the code that stopped it (e.g. "606" blocked, "486" floor busy).
func (t *Terminal) Talk(ctx context.Context, clip Clip) (string, error) {
	ch := make(chan string, 1)
	t.mu.Lock()
	if t.state != stOnline {
		t.mu.Unlock()
		return "", errors.New("sim: terminal offline")
	}
	if t.talk != nil {
		t.mu.Unlock()
		return "", errors.New("sim: already talking")
	}
	t.startTalkLocked("", t.ptt, clip.Packets, false, func(code string) { ch <- code })
	t.mu.Unlock()
	select {
	case code := <-ch:
		return code, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Drop loses the network now (the server sees the connection end); the terminal reconnects by itself.
func (t *Terminal) Drop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == stOnline {
		t.dropLocked()
	}
}

// GoOffline loses the network for d (positions are buffered meanwhile), then reconnects.
func (t *Terminal) GoOffline(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.netDown = true
	if t.state == stOnline || t.state == stConnecting {
		t.dropLocked()
	}
	t.fl.sched.after(d, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.netDown = false
		if t.state == stOffline {
			t.fl.dials.push(t)
		}
	})
}

// Talker is who the terminal believes holds the floor of group gid ("" = nobody else).
func (t *Terminal) Talker(gid string) string { t.mu.Lock(); defer t.mu.Unlock(); return t.busy[gid] }

// Groups are the ids of its groups, as it knows them.
func (t *Terminal) Groups() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, len(t.groups))
	for i, g := range t.groups {
		out[i] = g.GID
	}
	return out
}
