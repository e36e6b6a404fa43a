// Package video owns video calls between a console and a terminal (either side starts) and video monitoring
// (a dispatcher opens a terminal's camera without the terminal answering), with the spec's signalling verbs
// (§4: invite, ack, bye, cancel, resolution, bye_myself), call states and status codes, the per-customer
// limits (§8: maximum concurrent video calls 406, video credit 402, maximum duration 418, maximum monitored
// entries 406, already monitoring 403) and logs 128 and 130. Media (package media, video.go) forwards each
// party's camera and microphone over a PeerConnection of its own per session; this package decides who is
// linked to whom. Protocol: docs/video.md; decisions: docs/adr/0017-video-sessions.md.
//
// Files: model.go (codes, views, options), service.go (state under one lock), call.go (the call's state
// machine), monitor.go, rtc.go (the sessions' PeerConnections), socket.go (Verbs), http.go (Routes),
// store.go (limits, session rows, credit).
package video

import (
	"cmp"
	"net/http"
	"time"

	"tenfour/internal/platform/defaults"
	"tenfour/internal/platform/httpx"
)

// Status codes (spec §4 "Call status codes").
const (
	StTrying        = 100
	StOffline       = 101
	StSelfTrying    = 102 // acknowledged: the parties' media is being connected
	StRinging       = 180
	StOK            = 200
	StCameraBusy    = 201
	StConnected     = 202
	StNoCredit      = 402
	StRepeat        = 403
	StNotFound      = 404
	StMaxRequests   = 406
	StTimeout       = 408
	StMaxDuration   = 418
	StBusy          = 486
	StCancel        = 487
	StServerErr     = 500
	StNoStream      = 502
	StNoSession     = 503
	StDecline       = 603
	StNotAcceptable = 606
)

// States of a session (`state` in video.state).
const (
	StateTrying    = "trying"    // 100: the callee is being alerted
	StateRinging   = "ringing"   // 180
	StateAnswered  = "answered"  // 200: waiting for the caller's ack
	StateMedia     = "media"     // 102: acknowledged, the media connecting
	StateConnected = "connected" // 202: both parties' media connected
	StateEnded     = "ended"     // status says why
)

// Session kinds.
const (
	KindCall    = "call"
	KindMonitor = "monitor"
)

// Resolution is a camera resolution of spec §9.
type Resolution struct {
	Name   string `json:"name"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Resolutions is spec §9's camera resolution preference, best first: a camera asked for one it cannot do
// falls back down this list.
var Resolutions = []Resolution{{"720p", 1280, 720}, {"SVGA", 800, 600}, {"VGA", 640, 480}, {"360p", 640, 360},
	{"CIF", 352, 288}, {"QCIF", 176, 144}, {"QQVGA", 160, 120}}

// DefaultResolution is asked for when a request names none.
const DefaultResolution = "720p"

// resolution finds a resolution by name ("" = the default).
func resolution(name string) (Resolution, bool) {
	if name == "" {
		name = DefaultResolution
	}
	for _, r := range Resolutions {
		if r.Name == name {
			return r, true
		}
	}
	return Resolution{}, false
}

// errResolution answers a resolution name not in Resolutions.
var errResolution = httpx.BadParam("resolution", "720p, SVGA, VGA, 360p, CIF, QCIF or QQVGA")

// Errors with the spec's codes; keys are the console's i18n keys (errors.video.*).
var (
	ErrNotFound    = httpx.E(http.StatusNotFound, "404", "errors.video.notFound", "no such terminal or dispatcher")
	ErrNoSession   = httpx.E(http.StatusNotFound, "503", "errors.video.noSession", "no such video session")
	ErrOffline     = httpx.E(http.StatusConflict, "101", "errors.video.offline", "the other party is offline")
	ErrBusy        = httpx.E(http.StatusConflict, "486", "errors.video.busy", "the other party is in another video call")
	ErrSelfBusy    = httpx.E(http.StatusConflict, "486", "errors.video.selfBusy", "you are in another video call")
	ErrRepeat      = httpx.E(http.StatusConflict, "403", "errors.video.repeat", "a video call with this party is already open")
	ErrMaxCalls    = httpx.E(http.StatusConflict, "406", "errors.video.maxCalls", "maximum concurrent video calls exceeded")
	ErrNoCredit    = httpx.E(http.StatusPaymentRequired, "402", "errors.video.noCredit", "no video credit")
	ErrNotSupport  = httpx.E(http.StatusForbidden, "606", "errors.video.notSupported", "device not supported")
	ErrBlocked     = httpx.E(http.StatusForbidden, "606", "errors.video.blocked", "the terminal is killed or stunned")
	ErrCodec       = httpx.E(http.StatusBadRequest, "606", "errors.video.codec", "no common video codec")
	ErrSelf        = httpx.E(http.StatusBadRequest, "5", "errors.call.self", "cannot call oneself")
	ErrState       = httpx.E(http.StatusConflict, "409", "errors.video.state", "not possible in the call's current state")
	ErrPermission  = httpx.E(http.StatusForbidden, "107", "errors.permission", "no permission")
	ErrAlreadyMon  = httpx.E(http.StatusConflict, "403", "errors.video.alreadyMonitoring", "already monitoring")
	ErrMaxMonitors = httpx.E(http.StatusConflict, "406", "errors.video.maxMonitors", "maximum monitored entries reached")
	ErrCameraBusy  = httpx.E(http.StatusConflict, "201", "errors.video.cameraBusy", "camera busy")
	ErrNoStream    = httpx.E(http.StatusConflict, "502", "errors.video.noStream", "stream not found")
	ErrServer      = httpx.E(http.StatusInternalServerError, "500", "errors.video.server", "the media server failed")
)

// Options tune the service; zero values take the defaults.
type Options struct {
	// RingTimeout ends a call not answered and acknowledged in time (408; default 30 s).
	RingTimeout time.Duration
	// MediaTimeout ends a session whose media does not connect in time after the ack, or a monitoring whose
	// terminal sends no video in time (502; default 15 s).
	MediaTimeout time.Duration
	// Now is the clock of durations and credit (tests); default time.Now.
	Now func() time.Time
	// DataDir holds the recordings (video-records/<customer>/<UTC day>/); FFmpeg is the executable that muxes
	// them. Without either, customers with recording on are not recorded (a warning is logged per session).
	DataDir, FFmpeg string
	// Retention deletes recordings older than this (0 keeps them); the server passes --camera-retention-days.
	Retention time.Duration
}

func (o Options) withDefaults() Options {
	defaults.Positive(&o.RingTimeout, 30*time.Second)
	defaults.Positive(&o.MediaTimeout, 15*time.Second)
	if o.Now == nil {
		o.Now = time.Now
	}
	o.FFmpeg = cmp.Or(o.FFmpeg, "ffmpeg")
	return o
}

// Limits are a customer's video limits (table video_limits; defaults when it has no row).
type Limits struct {
	MaxCalls    int   `json:"maxCalls"`
	MaxMonitors int   `json:"maxMonitors"`
	MaxDuration int   `json:"maxDurationS"` // seconds
	CreditMs    int64 `json:"creditMs"`     // -1 unlimited
	Record      bool  `json:"record"`       // calls and monitorings are recorded (docs/video.md §5)
}

// DefaultLimits apply to a customer without a row.
var DefaultLimits = Limits{MaxCalls: 8, MaxMonitors: 16, MaxDuration: 3600, CreditMs: -1}

// Person is an account as events show it.
type Person struct {
	MsID string `json:"msId"`
	Name string `json:"name"`
	Type string `json:"type"`
}

// View is a session as `video.state` and `video.list` show it.
type View struct {
	CallID        string   `json:"callId"`
	Kind          string   `json:"kind"`
	State         string   `json:"state"`
	Status        int      `json:"status"`
	Caller        Person   `json:"caller"`
	Callee        *Person  `json:"callee,omitempty"`
	Codec         string   `json:"codec,omitempty"`
	Resolution    string   `json:"resolution"`
	Started       int64    `json:"started"`
	Connected     int64    `json:"connected,omitempty"`
	MaxDurationMs int64    `json:"maxDurationMs,omitempty"` // connected: when the call will be ended (418 or 402)
	By            string   `json:"by,omitempty"`
	Viewers       []string `json:"viewers,omitempty"` // monitor: the dispatchers watching
}

// CameraCapable tells whether a terminal type has a camera that can be monitored (spec §3 types: apps and
// cameras), and CallCapable whether it takes video calls (apps: a camera alone has no screen).
func CameraCapable(typ string) bool { return typ == "10" || typ == "camera" }

// CallCapable tells whether a terminal type takes video calls.
func CallCapable(typ string) bool { return typ == "10" }
