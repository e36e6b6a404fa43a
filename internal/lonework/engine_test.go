package lonework_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/lonework"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

// fakeHub stands in for the socket hub: who is online, how terminals answer prompts, and what was sent.
type fakeHub struct {
	mu      sync.Mutex
	online  map[string]bool
	answer  map[string]error // per terminal: the error its reply to lonework.check carries (nil = "0")
	prompts []prompt
	events  []sent // to consoles
	sent    []sent // to terminals (SendTo)
}

type prompt struct {
	ms       string
	workID   string
	deadline int64
}

type sent struct {
	typ     string
	to      string
	durable bool
	data    json.RawMessage
}

func newFakeHub() *fakeHub {
	return &fakeHub{online: map[string]bool{}, answer: map[string]error{}}
}

func (h *fakeHub) Online(ms string) bool { h.mu.Lock(); defer h.mu.Unlock(); return h.online[ms] }
func (h *fakeHub) setOnline(ms string, on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.online[ms] = on
}
func (h *fakeHub) setAnswer(ms string, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.answer[ms] = err
}

func (h *fakeHub) Request(ctx context.Context, ms, typ string, data any) (json.RawMessage, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.online[ms] {
		return nil, realtime.ErrNotOnline
	}
	raw, _ := json.Marshal(data)
	var d struct {
		WorkID   string `json:"workId"`
		Deadline int64  `json:"deadline"`
	}
	_ = json.Unmarshal(raw, &d)
	h.prompts = append(h.prompts, prompt{ms: ms, workID: d.WorkID, deadline: d.Deadline})
	return nil, h.answer[ms]
}

func (h *fakeHub) SendTo(ms, typ string, data any) bool {
	raw, _ := json.Marshal(data)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sent = append(h.sent, sent{typ: typ, to: ms, data: raw})
	return h.online[ms]
}

func (h *fakeHub) Publish(customerID int64, typ string, data any, to realtime.Audience) {
	raw, _ := json.Marshal(data)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, sent{typ: typ, data: raw})
}

func (h *fakeHub) PublishDurable(ctx context.Context, customerID int64, typ string, data any, to realtime.Audience) (int64, error) {
	raw, _ := json.Marshal(data)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, sent{typ: typ, durable: true, data: raw})
	return int64(len(h.events)), nil
}

func (h *fakeHub) AckTimeout() time.Duration { return time.Second }

func (h *fakeHub) promptCount() int { h.mu.Lock(); defer h.mu.Unlock(); return len(h.prompts) }

// take returns and forgets what was published or sent of type typ.
func (h *fakeHub) take(typ string) []sent {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out, keepE, keepS []sent
	for _, e := range h.events {
		if e.typ == typ {
			out = append(out, e)
		} else {
			keepE = append(keepE, e)
		}
	}
	for _, e := range h.sent {
		if e.typ == typ {
			out = append(out, e)
		} else {
			keepS = append(keepS, e)
		}
	}
	h.events, h.sent = keepE, keepS
	return out
}

// rig is one lone-work service on a fake hub and a controllable clock.
type rig struct {
	t     *testing.T
	d     *db.DB
	hub   *fakeHub
	svc   *lonework.Service
	f     safetytest.Fleet
	disp  identity.Principal
	clock *testkit.Clock
}

func newRig(t *testing.T, engine string) *rig {
	d := testkit.OpenStore(t, engine)
	r := &rig{t: t, d: d, hub: newFakeHub(), clock: testkit.NewClock(time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC))}
	r.f = safetytest.Seed(t, d, 4, "")
	r.disp = identity.Principal{AccountID: r.f.Dispatcher, CustomerID: r.f.CustomerID, Type: "20", Name: "D"}
	r.svc = r.service()
	for _, ms := range r.f.Terminals {
		r.hub.setOnline(ms, true)
	}
	return r
}

// service builds a service on the rig's store, hub and clock (a second one models a restart).
func (r *rig) service() *lonework.Service {
	s := lonework.New(r.d, directory.NewStore(r.d), r.hub, oplog.New(r.d, nil), lonework.Thresholds{})
	s.SetClock(r.clock.Now)
	return s
}

// at moves the clock by d and runs one engine pass, waiting for its prompts to be answered.
func (r *rig) at(d time.Duration) {
	r.t.Helper()
	r.clock.Add(d)
	if err := r.svc.Tick(context.Background()); err != nil {
		r.t.Fatal(err)
	}
	r.svc.Settle()
}

// plan adds a plan for terminal i starting in `in`, lasting dur, checked every iv with countdown cd seconds.
func (r *rig) plan(i int, in, dur, iv time.Duration, cd int) lonework.Plan {
	r.t.Helper()
	raw := lonework.RawInput{STime: itoa(r.clock.Now().Add(in).UnixMilli()), Duration: itoa(int64(dur / time.Minute)),
		Interval: itoa(int64(iv / time.Minute)), Countdown: itoa(int64(cd))}
	plans, err := r.svc.Add(context.Background(), r.disp, []string{r.f.Terminals[i]}, raw)
	if err != nil {
		r.t.Fatalf("add: %v", err)
	}
	return plans[0]
}

// running adds a plan for terminal 0 that starts now, lasts dur and is checked every 10 minutes with countdown cd
// seconds, and runs the pass that starts it: the opening of most engine scenarios.
func (r *rig) running(dur time.Duration, cd int) lonework.Plan {
	r.t.Helper()
	p := r.plan(0, 0, dur, 10*time.Minute, cd)
	r.at(0)
	return p
}

func (r *rig) get(id lonework.WorkID) lonework.Plan {
	r.t.Helper()
	p, err := r.svc.Store().Get(context.Background(), r.f.CustomerID, id)
	if err != nil {
		r.t.Fatal(err)
	}
	return p
}

func (r *rig) alarms(id lonework.WorkID) []lonework.Alarm {
	r.t.Helper()
	list, _, err := r.svc.Store().FindAlarms(context.Background(), r.f.CustomerID, lonework.AlarmQuery{WorkIDs: []lonework.WorkID{id}})
	if err != nil {
		r.t.Fatal(err)
	}
	return list
}

// reasons lists the alarm reasons of a plan, oldest first.
func (r *rig) reasons(id lonework.WorkID) []lonework.Reason {
	list := r.alarms(id)
	out := make([]lonework.Reason, len(list))
	for i, a := range list {
		out[len(list)-1-i] = a.Reason
	}
	return out
}

func (r *rig) setTerminal(i, battery, signal int) {
	r.t.Helper()
	// As the GPS writer stores a terminal's status report (through the directory).
	if err := directory.NewStore(r.d).SyncLast(context.Background(), []directory.LastReport{{ID: directory.TerminalID(r.f.Terminals[i]),
		Customer: directory.CustomerID(r.f.CustomerID), Status: &directory.Status{Battery: battery, Signal: signal}}}); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) checkin(i int) error {
	_, err := r.svc.Checkin(context.Background(), identity.Principal{AccountID: r.f.Terminals[i], CustomerID: r.f.CustomerID, Type: "10"}, 0)
	return err
}

func itoa(n int64) string { return lonework.WorkID(n).String() }

// A worker who answers every prompt: waiting → in progress → prompts every interval → over, no alarm.
func TestEngineNormalLife(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		r := newRig(t, engine)
		p := r.plan(0, time.Minute, 30*time.Minute, 10*time.Minute, 60)
		r.at(0)
		if got := r.get(p.ID); got.RealStart != 0 || len(r.hub.take(lonework.TermStart)) != 0 {
			t.Fatalf("started before its time: %+v", got)
		}
		r.at(time.Minute)
		got := r.get(p.ID)
		if got.RealStart != r.clock.Now().UnixMilli() || got.NextCheck != r.clock.Now().Add(10*time.Minute).UnixMilli() {
			t.Fatalf("start: %+v", got)
		}
		if len(r.hub.take(lonework.TermStart)) != 1 {
			t.Fatal("terminal not told that lone work started")
		}
		states := r.hub.take(lonework.EventState)
		if len(states) == 0 {
			t.Fatal("no lonework.state event on start")
		}
		var st lonework.Plan
		_ = json.Unmarshal(states[len(states)-1].data, &st)
		if st.WorkState != lonework.Working || st.ServerTime == 0 {
			t.Fatalf("state event %s", states[len(states)-1].data)
		}
		if err := r.checkin(0); err != nil {
			t.Fatalf("early check-in: %v", err) // allowed, changes nothing
		}
		for k := 1; k <= 2; k++ {
			due := time.UnixMilli(r.get(p.ID).NextCheck).Sub(r.clock.Now())
			r.at(due - time.Second)
			if r.hub.promptCount() != k-1 {
				t.Fatalf("prompt %d came early", k)
			}
			r.at(time.Second)
			if r.hub.promptCount() != k {
				t.Fatalf("no prompt %d at the interval", k)
			}
			if got := r.get(p.ID); got.Deadline != r.clock.Now().Add(time.Minute).UnixMilli() {
				t.Fatalf("deadline %d, want now+60 s", got.Deadline)
			}
			r.at(30 * time.Second)
			if err := r.checkin(0); err != nil {
				t.Fatal(err)
			}
			if got := r.get(p.ID); got.Deadline != 0 {
				t.Fatalf("check-in did not stop the countdown: %+v", got)
			}
			r.at(31 * time.Second) // past the old deadline
		}
		r.at(10 * time.Minute)
		got = r.get(p.ID)
		if got.RealStop == 0 || got.Status != lonework.StatusOver || got.AlarmCount != 0 {
			t.Fatalf("end: %+v", got)
		}
		if len(r.hub.take(lonework.TermEnd)) != 1 {
			t.Fatal("terminal not told that lone work ended")
		}
		if len(r.alarms(p.ID)) != 0 {
			t.Fatalf("alarms: %+v", r.alarms(p.ID))
		}
		if err := r.checkin(0); err == nil {
			t.Fatal("check-in after the end accepted")
		}
	})
}

// Every alarm reason, each raised by the condition that defines it (controllable clock).
func TestEngineReasons(t *testing.T) {
	type step struct {
		before func(r *rig)
		d      time.Duration
	}
	cases := []struct {
		name  string
		setup func(r *rig)
		steps []step
		want  []lonework.Reason
	}{
		{"forgot to reply", nil, []step{{nil, 10 * time.Minute}, {nil, 59 * time.Second}, {nil, time.Second}},
			[]lonework.Reason{lonework.ReasonNoReply}},
		{"busy", func(r *rig) { r.hub.setAnswer(r.f.Terminals[0], httpx.E(409, lonework.BusyCode, "", "busy")) },
			[]step{{nil, 10 * time.Minute}, {nil, 2 * time.Minute}}, []lonework.Reason{lonework.ReasonBusy}},
		{"offline past the grace period", nil, []step{
			{func(r *rig) { r.hub.setOnline(r.f.Terminals[0], false) }, time.Minute},
			{nil, 29 * time.Second}, {nil, time.Second}, {nil, time.Minute}},
			[]lonework.Reason{lonework.ReasonOffline}},
		{"back within the grace period: nothing", nil, []step{
			{func(r *rig) { r.hub.setOnline(r.f.Terminals[0], false) }, time.Minute},
			{nil, 29 * time.Second},
			{func(r *rig) { r.hub.setOnline(r.f.Terminals[0], true) }, time.Second}, {nil, time.Minute}},
			nil},
		{"battery off", func(r *rig) { r.setTerminal(0, 4, 4) }, []step{
			{func(r *rig) { r.hub.setOnline(r.f.Terminals[0], false) }, time.Minute}, {nil, 30 * time.Second}},
			[]lonework.Reason{lonework.ReasonBatteryOff}},
		{"low battery but online: nothing", func(r *rig) { r.setTerminal(0, 2, 4) }, []step{
			{nil, 10 * time.Minute}, {func(r *rig) { r.checkin(0) }, time.Minute}},
			nil},
		{"weak signal at a check", func(r *rig) { r.setTerminal(0, 80, 1) }, []step{
			{nil, 10 * time.Minute}, {func(r *rig) { r.checkin(0) }, time.Minute}},
			[]lonework.Reason{lonework.ReasonWeakSignal}},
		{"unknown signal: nothing", func(r *rig) { r.setTerminal(0, -1, -1) }, []step{
			{nil, 10 * time.Minute}, {func(r *rig) { r.checkin(0) }, time.Minute}},
			nil},
		{"offline during the countdown: offline, not forgot", nil, []step{
			{nil, 10 * time.Minute},
			{func(r *rig) { r.hub.setOnline(r.f.Terminals[0], false) }, time.Second},
			{nil, 30 * time.Second}, {nil, 2 * time.Minute}},
			[]lonework.Reason{lonework.ReasonOffline}},
	}
	for _, engine := range testkit.Engines() {
		for _, c := range cases {
			t.Run(engine+"/"+c.name, func(t *testing.T) {
				r := newRig(t, engine)
				if c.setup != nil {
					c.setup(r)
				}
				p := r.running(60*time.Minute, 60)
				for _, s := range c.steps {
					if s.before != nil {
						s.before(r)
					}
					r.at(s.d)
				}
				got := r.reasons(p.ID)
				if !slices.Equal(got, c.want) {
					t.Fatalf("reasons %v, want %v", got, c.want)
				}
				pl := r.get(p.ID)
				wantStatus := lonework.StatusNormal
				if len(c.want) > 0 {
					wantStatus = lonework.StatusAlarm
				}
				if pl.Status != wantStatus || pl.AlarmCount != len(c.want) {
					t.Fatalf("plan status %d count %d, want %d %d", pl.Status, pl.AlarmCount, wantStatus, len(c.want))
				}
				if ev := r.hub.take(lonework.EventAlarm); len(ev) != len(c.want) || (len(ev) > 0 && !ev[0].durable) {
					t.Fatalf("%d lonework.alarm events (durable: %v), want %d durable", len(ev), len(ev) > 0 && ev[0].durable, len(c.want))
				}
			})
		}
	}
}

// A condition that lasts raises one alarm; once it clears and comes back, another.
func TestEngineEpisodes(t *testing.T) {
	r := newRig(t, "sqlite")
	ms := r.f.Terminals[0]
	p := r.running(120*time.Minute, 60)
	r.hub.setOnline(ms, false)
	for i := 0; i < 5; i++ {
		r.at(time.Minute) // offline across two checks
	}
	r.at(10 * time.Minute)
	if got := r.reasons(p.ID); !slices.Equal(got, []lonework.Reason{lonework.ReasonOffline}) {
		t.Fatalf("one offline episode: %v", got)
	}
	r.hub.setOnline(ms, true)
	r.at(time.Second)
	r.hub.setOnline(ms, false)
	r.at(time.Second)
	r.at(30 * time.Second)
	if got := r.reasons(p.ID); !slices.Equal(got, []lonework.Reason{lonework.ReasonOffline, lonework.ReasonOffline}) {
		t.Fatalf("second offline episode: %v", got)
	}
	r.hub.setOnline(ms, true)
	r.setTerminal(0, 80, 0)
	next := time.UnixMilli(r.get(p.ID).NextCheck).Sub(r.clock.Now())
	r.at(next) // check: weak
	r.checkin(0)
	r.at(10 * time.Minute) // still weak: no second alarm
	r.checkin(0)
	r.setTerminal(0, 80, 4)
	r.at(10 * time.Minute) // good: cleared
	r.checkin(0)
	r.setTerminal(0, 80, 1)
	r.at(10 * time.Minute) // weak again
	r.checkin(0)
	want := []lonework.Reason{lonework.ReasonOffline, lonework.ReasonOffline, lonework.ReasonWeakSignal, lonework.ReasonWeakSignal}
	if got := r.reasons(p.ID); !slices.Equal(got, want) {
		t.Fatalf("reasons %v, want %v", got, want)
	}
	if pl := r.get(p.ID); pl.AlarmCount != 4 || pl.Status != lonework.StatusAlarm {
		t.Fatalf("plan %+v", pl)
	}
}

// Alarms are handled with a remark; the plan leaves alarm status once all are handled, and ends over (or in
// alarm while one is still open).
func TestEngineAlarmHandlingAndEnd(t *testing.T) {
	r := newRig(t, "sqlite")
	ctx := context.Background()
	p := r.running(30*time.Minute, 60)
	r.at(10 * time.Minute)
	r.at(time.Minute) // forgot
	r.at(9 * time.Minute)
	r.at(time.Minute) // forgot again
	list := r.alarms(p.ID)
	if len(list) != 2 {
		t.Fatalf("%d alarms", len(list))
	}
	if _, err := r.svc.HandleAlarm(ctx, r.disp, list[0].ID, "called him, fine"); err != nil {
		t.Fatal(err)
	}
	if pl := r.get(p.ID); pl.Status != lonework.StatusAlarm {
		t.Fatalf("one alarm still unhandled, status %d", pl.Status)
	}
	r.at(10 * time.Minute) // planned end passes with one alarm unhandled
	pl := r.get(p.ID)
	if pl.RealStop == 0 || pl.Status != lonework.StatusAlarm {
		t.Fatalf("ended with an open alarm: %+v", pl)
	}
	a, err := r.svc.HandleAlarm(ctx, r.disp, list[1].ID, "ok")
	if err != nil || a.Remark != "ok" || a.Handler != r.f.Dispatcher || a.HandleTime == 0 {
		t.Fatalf("handle: %+v %v", a, err)
	}
	if pl := r.get(p.ID); pl.Status != lonework.StatusOver {
		t.Fatalf("all handled after the end: status %d, want over", pl.Status)
	}
	if ev := r.hub.take(lonework.EventAlarmUpdated); len(ev) != 2 || !ev[0].durable {
		t.Fatalf("alarmUpdated events: %d", len(ev))
	}
}

// A dispatcher ends a plan in progress early with {enabled: 0}; other edits stay refused.
func TestEngineEndEarly(t *testing.T) {
	r := newRig(t, "sqlite")
	ctx := context.Background()
	p := r.running(60*time.Minute, 60)
	if _, err := r.svc.Update(ctx, r.disp, p.ID, lonework.RawInput{Interval: "5"}); err != lonework.ErrNotEditable {
		t.Fatalf("edit in progress: %v", err)
	}
	r.at(5 * time.Minute)
	pl, err := r.svc.Update(ctx, r.disp, p.ID, lonework.RawInput{Enabled: "0"})
	if err != nil || pl.WorkState != lonework.Done || pl.RealStop != r.clock.Now().UnixMilli() || pl.Status != lonework.StatusOver {
		t.Fatalf("end early: %+v %v", pl, err)
	}
	r.at(10 * time.Minute)
	if r.hub.promptCount() != 0 {
		t.Fatal("a stopped plan was prompted")
	}
}

// The engine's state survives a restart: a countdown running when the server stopped still raises its alarm.
func TestEngineRestart(t *testing.T) {
	r := newRig(t, "sqlite")
	p := r.running(60*time.Minute, 60)
	r.at(10 * time.Minute) // prompt; countdown running
	r.svc = r.service()    // restart
	r.at(61 * time.Second)
	if got := r.reasons(p.ID); !slices.Equal(got, []lonework.Reason{lonework.ReasonNoReply}) {
		t.Fatalf("after restart: %v", got)
	}
	// Down for 25 minutes: missed checks are skipped, the next one is on the interval grid.
	start := time.UnixMilli(r.get(p.ID).RealStart)
	r.svc = r.service()
	r.at(25 * time.Minute)
	next := time.UnixMilli(r.get(p.ID).NextCheck)
	if d := next.Sub(start); d%(10*time.Minute) != 0 || !next.After(r.clock.Now()) {
		t.Fatalf("next check %v after start, now %v after start", d, r.clock.Now().Sub(start))
	}
}

// A prompt that could not be delivered is sent when the terminal is back, with the time left.
func TestEngineRepromptAfterReconnect(t *testing.T) {
	r := newRig(t, "sqlite")
	ms := r.f.Terminals[0]
	p := r.running(60*time.Minute, 120)
	r.hub.setOnline(ms, false)
	r.at(10 * time.Minute) // due while away: countdown starts, no prompt
	if r.hub.promptCount() != 0 {
		t.Fatal("prompted an offline terminal")
	}
	r.at(20 * time.Second)
	r.hub.setOnline(ms, true)
	r.at(time.Second)
	if r.hub.promptCount() != 1 {
		t.Fatalf("%d prompts after reconnect", r.hub.promptCount())
	}
	r.at(time.Second)
	if r.hub.promptCount() != 1 {
		t.Fatal("prompt repeated")
	}
	if err := r.checkin(0); err != nil {
		t.Fatal(err)
	}
	r.at(3 * time.Minute)
	if got := r.reasons(p.ID); len(got) != 0 {
		t.Fatalf("alarms: %v", got)
	}
}

// Disabled plans never run.
func TestEngineDisabled(t *testing.T) {
	r := newRig(t, "sqlite")
	ctx := context.Background()
	raw := lonework.RawInput{STime: itoa(r.clock.Now().UnixMilli()), Duration: "30", Interval: "10", Enabled: "0"}
	plans, err := r.svc.Add(ctx, r.disp, []string{r.f.Terminals[1]}, raw)
	if err != nil {
		t.Fatal(err)
	}
	r.at(0)
	r.at(15 * time.Minute)
	if pl := r.get(plans[0].ID); pl.RealStart != 0 || r.hub.promptCount() != 0 {
		t.Fatalf("disabled plan ran: %+v", pl)
	}
	r.at(20 * time.Minute)
	if pl := r.get(plans[0].ID); pl.RealStart != 0 || pl.RealStop != 0 || pl.Status != lonework.StatusNormal {
		t.Fatalf("disabled plan touched after its window: %+v", pl)
	}
}
