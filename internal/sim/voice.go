package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/termclient"
)

// ---- talk ---------------------------------------------------------------------------------------------------

// canTalkLocked tells whether the terminal may start talking now.
func (t *Terminal) canTalkLocked() bool {
	return t.state == stOnline && t.callSet == 8 && t.talk == nil && t.ambient == nil
}

// talkStep is a planned talk burst in the terminal's talk group, unless someone else is talking there.
func (t *Terminal) talkStep(at time.Time) (next time.Time) {
	p := drawTalk(t.rTalk, t.talkMean(t.fl.opts.Rates))
	if t.canTalkLocked() && t.ptt != "" && t.busy[t.ptt] == "" && !t.inSingleCallLocked() {
		t.startTalkLocked("", t.ptt, t.fl.clipFor(p.choice, p.frac), p.queue, nil)
	}
	return at.Add(p.gap)
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
		if f.OK() { // gave up meanwhile
			t.req("floor.release", map[string]any{"callId": r.CallID}, nil)
		}
		return
	}
	if !f.OK() {
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
	if t.conn != gen || t.mstate != mediaConnecting {
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
	if err := w.Call(ctx, "rtc.config", struct{}{}, &cfg); err != nil {
		return nil, err
	}
	t.mu.Lock()
	if len(t.turn) > 0 { // sent by a dispatcher for this terminal (turn.config)
		cfg.ICEServers = t.turn
	}
	t.mu.Unlock()
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
	if err := w.Call(ctx, "rtc.offer", map[string]string{"type": "offer", "sdp": offer}, &answer); err != nil {
		return m, err
	}
	m.OnCandidate(func(ci webrtc.ICECandidateInit) { _, _ = w.Request("rtc.candidate", ci, nil) })
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
