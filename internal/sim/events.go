package sim

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/pion/webrtc/v4"
)

// ---- what the server sends ------------------------------------------------------------------------------------

// paramChains are the interval chains param.set retunes and param.get reports, by parameter name.
var paramChains = map[string]int{"gpsInterval": chainGPS, "statusInterval": chainStatus, "heartbeat": chainHeartbeat}

// intervalText writes an interval as param.set spells it: whole hours, minutes or seconds ("2h", "5m", "15s").
func intervalText(d time.Duration) string {
	switch s := int64(d / time.Second); {
	case s%3600 == 0:
		return strconv.FormatInt(s/3600, 10) + "h"
	case s%60 == 0:
		return strconv.FormatInt(s/60, 10) + "m"
	default:
		return strconv.FormatInt(s, 10) + "s"
	}
}

// onFrame handles an event or a server→client request (on the connection's reader goroutine); late replies
// to requests sent without a callback are dropped.
func (t *Terminal) onFrame(w *wire, f frame) {
	if f.Re != 0 {
		return
	}
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
		for name, k := range paramChains {
			if s, ok := d.Seconds[name]; ok && s > 0 && !t.prof.Console {
				t.every[k] = time.Duration(s) * time.Second
				t.startChain(k, t.fl.now().Add(t.every[k]))
			}
		}
		st.Remote.Add(1)
		t.reply(f, "0", nil)
	case "param.get": // the intervals it runs now, defaults included (the console's set-param dialog opens with them)
		params := map[string]string{}
		for name, k := range paramChains {
			if d := t.every[k]; d > 0 {
				params[name] = intervalText(d)
			}
		}
		t.reply(f, "0", map[string]any{"params": params})
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
	case "sms.deliver": // delivery is at least once: a repeat is acknowledged and not shown again
		var d struct {
			ID   json.RawMessage `json:"id"`
			From string          `json:"from"`
		}
		_ = json.Unmarshal(f.Data, &d)
		t.reply(f, "0", nil)
		if id := jsonID(d.ID); !t.shown[id] {
			if t.shown == nil {
				t.shown = map[string]bool{}
			}
			t.shown[id] = true
			t.inbox++
			st.Messages.Add(1)
			t.maybeAnswerLocked(d.From)
		}
	case "turn.config": // fresh TURN credentials (/ds/turn/send): used for the next media connection
		var d struct {
			ICEServers []webrtc.ICEServer `json:"iceServers"`
		}
		if err := json.Unmarshal(f.Data, &d); err != nil || len(d.ICEServers) == 0 {
			t.reply(f, "400", nil)
			return
		}
		t.turn = d.ICEServers
		st.Remote.Add(1)
		t.reply(f, "0", nil)
	case "tone.play": // played from the cache at once (a real device fetches fileUrl once per toneId)
		st.Tones.Add(1)
		t.reply(f, "0", nil)
	case "sos.stop": // a dispatcher stopped the alarm
		t.sosID = ""
		t.reply(f, "0", nil)
	case "lonework.check":
		t.onLoneWorkCheckLocked(f)
	case "job.deliver":
		t.onJobLocked(f)
	case "monitor.start": // a dispatcher listens to the terminal's microphone
		if t.mstate != mediaReady || t.talk != nil || t.ambient != nil {
			t.reply(f, "486", nil)
			return
		}
		t.ambient = &sender{m: t.media, packets: t.fl.clips.Long.Packets, loop: true}
		t.fl.clock.add(t.ambient)
		t.reply(f, "0", nil)
	case "video.monitorStart": // a dispatcher opens the camera (docs/video.md)
		t.onVideoMonitorLocked(f)
	default: // a request this terminal does not know (docs/terminal-protocol.md: refuse it)
		t.reply(f, "400", map[string]string{"msg": "unknown request"})
	}
}

// Short answers a worker types back.
var answers = []string{"Copy that.", "On my way.", "Arrived.", "Understood, will report back.", "Need 10 more minutes."}

// maybeAnswerLocked answers a dispatcher's message now and then, a little later.
func (t *Terminal) maybeAnswerLocked(from string) {
	d := t.fl.opts.Rates.AnswerDelay
	r, wait, pick := t.rReact.Float64(), uniform(t.rReact, min(5*time.Second, d/2), max(d, time.Second)), t.rReact.IntN(len(answers))
	if from == "" || r >= t.fl.opts.Rates.AnswerShare {
		return
	}
	t.fl.sched.after(wait, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.state == stOnline {
			t.req("sms.send", map[string]any{"to": from, "content": answers[pick]}, func(f frame) {
				if f.OK() {
					t.fl.stats.Answers.Add(1)
				}
			})
		}
	})
}

func (t *Terminal) onLoneWorkCheckLocked(f frame) {
	var d struct {
		WorkID    json.RawMessage `json:"workId"`
		Countdown int64           `json:"countdown"`
	}
	_ = json.Unmarshal(f.Data, &d)
	busy, forget, delay := t.rReact.Float64(), t.rReact.Float64(), t.rReact.Float64()
	if t.inSingleCallLocked() || t.talk != nil && busy < 0.2 {
		t.reply(f, "486", nil) // "busy": the worker cannot show it now
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
			if f.OK() {
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
	case "key.changed": // the customer's voice-encryption key, at login and on every rotation (ADR 0021)
		var d struct {
			SecretKey string `json:"secretKey"`
		}
		if json.Unmarshal(f.Data, &d) == nil {
			t.secretKey = d.SecretKey
		}
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
	case "video.invite", "video.state", "video.resolution", "video.monitorStop":
		t.onVideoEventLocked(f)
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
	case "job.canceled":
		var d struct {
			JobID json.RawMessage `json:"jobId"`
		}
		_ = json.Unmarshal(f.Data, &d)
		delete(t.jobs, jsonID(d.JobID))
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
	r, delay := t.rReact.Float64(), t.react(2*time.Second, 8*time.Second)
	id := d.CallID
	if d.Kind != "single" {
		t.calls[id] = &callRef{id: id, kind: d.Kind, state: "connected"}
		if d.Kind != "broadcast" && r < 0.3 && !t.fl.opts.Passive { // someone answers the dispatcher
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
	case r < 0.75 || t.fl.opts.Passive:
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
	wait, hang := t.react(time.Second, 4*time.Second), t.react(10*time.Second, 40*time.Second)
	t.replyInCall(id, t.fl.clipShort(r), wait, 3)
	if t.fl.opts.Passive {
		return // stays in the call until the dispatcher hangs up
	}
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
