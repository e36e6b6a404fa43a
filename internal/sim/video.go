package sim

// Video (docs/video.md): app terminals (type 10) answer or decline video calls and send their camera; apps
// and cameras let a dispatcher monitor their camera (video.monitorStart, no sign to the user). The camera is
// a looped test-pattern clip (termclient clips, real VP8 or H.264) at the size asked for (video.resolution).
// Each video session is its own PeerConnection, counted against the fleet's MaxMedia like voice.

import (
	"context"
	"encoding/json"
	"time"

	"tenfour/internal/termclient"
)

// simVideo is one of a terminal's video sessions.
type simVideo struct {
	id     string
	v      *termclient.Video // nil while connecting
	closed bool
	w, h   int
}

func videoCapable(typ string) bool { return typ == "10" || typ == "camera" }

// pickCodec is the first codec asked for that the simulator has clips of.
func pickCodec(asked []string) string {
	for _, a := range asked {
		for _, have := range termclient.VideoCodecs {
			if a == have {
				return have
			}
		}
	}
	if len(asked) == 0 {
		return termclient.VideoCodecs[0]
	}
	return ""
}

// onVideoMonitorLocked answers video.monitorStart: agree with a codec and open the camera.
func (t *Terminal) onVideoMonitorLocked(f frame) {
	var d struct {
		CallID        string   `json:"callId"`
		Codecs        []string `json:"codecs"`
		Width, Height int
	}
	_ = json.Unmarshal(f.Data, &d)
	codec := pickCodec(d.Codecs)
	switch {
	case !videoCapable(t.acct.Type) || codec == "":
		t.reply(f, "606", nil)
		return
	case d.CallID == "" || t.videos[d.CallID] != nil:
		t.reply(f, "400", nil)
		return
	case !t.fl.media.reserve():
		t.reply(f, "201", nil) // no free media slot: the camera cannot be opened now
		return
	}
	t.reply(f, "0", map[string]string{"codec": codec})
	t.openVideoLocked(d.CallID, codec, d.Width, d.Height)
}

// openVideoLocked negotiates a session's PeerConnection (a media slot is reserved) and starts the camera.
func (t *Terminal) openVideoLocked(id, codec string, w, h int) {
	if t.videos == nil {
		t.videos = map[string]*simVideo{}
	}
	sv := &simVideo{id: id, w: w, h: h}
	t.videos[id] = sv
	wire, gen := t.w, t.conn
	go func() {
		ctx, cancel := context.WithTimeout(t.fl.ctx, 15*time.Second)
		v, err := termclient.OpenVideo(ctx, wire, termclient.MediaOptions{Loopback: t.fl.opts.Loopback}, id, codec)
		cancel()
		if err == nil {
			err = v.StartCamera(sv.w, sv.h)
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		if err != nil || sv.closed || t.conn != gen {
			if v != nil {
				go v.Close()
			}
			if err != nil {
				t.fl.stats.MediaFailed.Add(1)
			}
			if !sv.closed {
				sv.closed = true
				delete(t.videos, id)
				t.fl.media.release()
			}
			return
		}
		sv.v = v
		t.fl.stats.VideoSessions.Add(1)
	}()
}

// closeVideoLocked ends one session's PeerConnection (its media slot is released).
func (t *Terminal) closeVideoLocked(id string) {
	sv := t.videos[id]
	if sv == nil || sv.closed {
		return
	}
	sv.closed = true
	delete(t.videos, id)
	if sv.v != nil {
		go sv.v.Close()
	}
	t.fl.media.release()
}

// closeVideosLocked ends every session (the connection closed).
func (t *Terminal) closeVideosLocked() {
	for id := range t.videos {
		t.closeVideoLocked(id)
	}
}

// onVideoEventLocked handles the video events: an invite (answer, decline or busy), the end of a session,
// a resolution asked for, a monitoring stopped.
func (t *Terminal) onVideoEventLocked(f frame) {
	var d struct {
		CallID        string   `json:"callId"`
		State         string   `json:"state"`
		Codecs        []string `json:"codecs"`
		Resolution    string   `json:"resolution"`
		Width, Height int
	}
	if json.Unmarshal(f.Data, &d) != nil || d.CallID == "" {
		return
	}
	switch f.Type {
	case "video.invite":
		t.onVideoInviteLocked(d.CallID, d.Codecs, d.Resolution)
	case "video.state":
		if d.State == "ended" {
			t.closeVideoLocked(d.CallID)
		}
	case "video.monitorStop":
		t.closeVideoLocked(d.CallID)
	case "video.resolution":
		if sv := t.videos[d.CallID]; sv != nil {
			sv.w, sv.h = d.Width, d.Height
			if sv.v != nil {
				v, w, h := sv.v, d.Width, d.Height
				go func() { _ = v.StartCamera(w, h) }()
			}
		}
	}
}

// videoSize is the pixel size of a resolution name of spec §9 (720p when unknown).
func videoSize(name string) (int, int) {
	switch name {
	case "SVGA":
		return 800, 600
	case "VGA":
		return 640, 480
	case "360p":
		return 640, 360
	case "CIF":
		return 352, 288
	case "QCIF":
		return 176, 144
	case "QQVGA":
		return 160, 120
	}
	return 1280, 720
}

// onVideoInviteLocked rings, then (after a person's delay) answers three calls in four with its camera, or
// declines; busy when it is already in a video call or blocked.
func (t *Terminal) onVideoInviteLocked(id string, codecs []string, res string) {
	st := &t.fl.stats
	if t.prof.Console {
		return // a simulated dispatcher's desk lets a terminal's video call ring: a person answers it, or another desk
	}
	status := func(code int, extra map[string]any, cb func(frame)) {
		m := map[string]any{"callId": id, "status": code}
		for k, v := range extra {
			m[k] = v
		}
		t.req("video.status", m, cb)
	}
	if t.acct.Type != "10" || pickCodec(codecs) == "" {
		st.CallsDeclined.Add(1)
		status(603, nil, nil)
		return
	}
	if len(t.videos) > 0 || t.callSet != 8 || t.talk != nil {
		st.CallsDeclined.Add(1)
		status(486, nil, nil)
		return
	}
	status(180, nil, nil)
	r, delay := t.rReact.Float64(), t.react(2*time.Second, 6*time.Second)
	if t.fl.opts.Passive {
		delay = time.Second
	}
	t.fl.sched.after(delay, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.state != stOnline {
			return
		}
		if r >= 0.75 && !t.fl.opts.Passive {
			st.CallsDeclined.Add(1)
			status(603, nil, nil)
			return
		}
		if len(t.videos) > 0 || !t.fl.media.reserve() {
			st.NoMedia.Add(1)
			status(486, nil, nil)
			return
		}
		// a placeholder holds the slot until the answer says which codec
		if t.videos == nil {
			t.videos = map[string]*simVideo{}
		}
		hold := &simVideo{id: id}
		t.videos[id] = hold
		status(200, map[string]any{"codecs": termclient.VideoCodecs}, func(f frame) {
			if t.videos[id] != hold {
				return
			}
			delete(t.videos, id)
			var a struct {
				Codec string `json:"codec"`
			}
			if !f.OK() || json.Unmarshal(f.Data, &a) != nil || a.Codec == "" {
				t.fl.media.release()
				return
			}
			st.CallsAnswered.Add(1)
			w, h := videoSize(res)
			t.openVideoLocked(id, a.Codec, w, h)
		})
	})
}
