// Package call owns voice dispatch: floor control (one talker per call, queue, pre-emption, maximum talk
// time), the call kinds of spec §4 (group, single, temporary group, all, broadcast) with their signalling
// verbs and status codes, monitoring of groups and terminals, the mute list, and the call records (talk-burst
// recordings) with their REST API. Media (package media) carries the audio; this package decides who talks
// and who hears whom, and tells media by swapping routes.
//
// One file per concept: service.go (the state under one lock and the work left for after unlocking),
// client.go (voice connections), floor.go (the whole floor decision and its caches), lifecycle.go (open, hang
// up, end), invite.go (individual, temporary-group, all and broadcast calls), burst.go (talk bursts and their
// recordings), playback.go (which source each listener hears), monitor.go, mute.go, missed.go, records.go
// (call records over HTTP), retention.go, rtc.go (WebRTC signalling), socket.go (Verbs), http.go (Routes),
// store.go (all SQL).
package call

import (
	"net/http"
	"time"

	"tenfour/internal/platform/defaults"
	"tenfour/internal/platform/httpx"
)

// Kind is a call type (spec §4 "Call types", plus the temporary group).
type Kind string

const (
	Group     Kind = "group"
	Single    Kind = "single"
	Temp      Kind = "temp"
	All       Kind = "all"
	Broadcast Kind = "broadcast"
)

func (k Kind) valid() bool {
	switch k {
	case Group, Single, Temp, All, Broadcast:
		return true
	}
	return false
}

// Status codes of calls (spec §4 "Call status codes").
const (
	StTrying         = 100
	StOffline        = 101
	StRinging        = 180
	StOK             = 200
	StConnected      = 202
	StNotFound       = 404
	StNotAcceptable  = 606
	StTimeout        = 408
	StMaxDuration    = 418
	StBusy           = 486
	StCancel         = 487
	StDecline        = 603
	StMaxRequests    = 406
	StRepeat         = 403
	StateTrying      = "trying"
	StateRinging     = "ringing"
	StateAnswered    = "answered"
	StateConnected   = "connected"
	StateEnded       = "ended"
	PartyInvited     = "invited"
	PartyConnected   = "connected"
	PartyLeft        = "left"
	PartyOffline     = "offline"
	ModeFirst        = "first"      // playback priority: the burst that started first keeps playing
	ModeLatest       = "latest"     // a newer burst takes over
	ModePTT          = "ptt"        // the dispatcher's own ptt group first, then first-come
	ModeDispatcher   = "dispatcher" // bursts of dispatchers (consoles) first, then first-come
	defaultMaxQueue  = 8
	defaultMaxGroups = 16 // groups one dispatcher may monitor at once
)

// FloorRetryGap is how long the last talker waits for those refused during its turn (Floor): long enough
// for a person who heard the talker stop to press, short enough that a talker nobody waits for is not held up.
const FloorRetryGap = 2 * time.Second

// Errors with the spec's codes (§4 status codes, §8 messages); keys are the console's i18n keys.
var (
	ErrSelf          = httpx.E(http.StatusBadRequest, "5", "errors.call.self", "cannot call oneself")
	ErrNotFound      = httpx.E(http.StatusNotFound, "404", "errors.call.notFound", "no such terminal, group or call")
	ErrOffline       = httpx.E(http.StatusConflict, "101", "errors.call.offline", "the other party is offline")
	ErrBusy          = httpx.E(http.StatusConflict, "486", "errors.call.busy", "the other party is busy")
	ErrFloorBusy     = httpx.E(http.StatusConflict, "486", "errors.floor.busy", "someone else is talking")
	ErrNotAllowed    = httpx.E(http.StatusForbidden, "606", "errors.floor.notAllowed", "this terminal may not talk here")
	ErrBlocked       = httpx.E(http.StatusForbidden, "606", "errors.floor.blocked", "the terminal is killed or stunned")
	ErrPermission    = httpx.E(http.StatusForbidden, "107", "errors.permission", "no permission")
	ErrInCall        = httpx.E(http.StatusConflict, "486", "errors.call.inCall", "you are in another call")
	ErrBadNumber     = httpx.E(http.StatusBadRequest, "484", "errors.call.badNumber", "not a phone number: 3 to 20 digits, an optional leading +")
	ErrNoTrunk       = httpx.E(http.StatusConflict, "480", "errors.call.noTrunk", "no registered SIP trunk reaches phone numbers")
	ErrState         = httpx.E(http.StatusConflict, "409", "errors.call.state", "not possible in the call's current state")
	ErrAlreadyMon    = httpx.E(http.StatusConflict, "403", "errors.monitor.already", "already monitoring")
	ErrMaxMonitored  = httpx.E(http.StatusConflict, "406", "errors.monitor.max", "maximum monitored entries reached")
	ErrTerminalBusy  = httpx.E(http.StatusConflict, "486", "errors.monitor.terminalBusy", "terminal busy")
	ErrNoPeer        = httpx.E(http.StatusConflict, "502", "errors.call.noStream", "no media connection: send rtc.offer first")
	ErrSDNotPlayable = httpx.E(http.StatusForbidden, "606", "errors.voice.sd", "SD records cannot be played or downloaded")
	ErrNoFile        = httpx.E(http.StatusNotFound, "502", "errors.voice.noFile", "the recording file is missing")
	ErrCrossMonth    = httpx.E(http.StatusBadRequest, "31", "errors.time.crossMonth", "cross-month queries are not supported")
	ErrRangeTooLong  = httpx.E(http.StatusBadRequest, "32", "errors.time.tooLong", "the time range is too long")
)

// Options tune the service; zero values take the defaults.
type Options struct {
	DataDir string // recordings go under DataDir/recordings
	// MaxTalkTime ends a burst that holds the floor longer (default 60 s).
	MaxTalkTime time.Duration
	// RingTimeout ends an individual call that is not answered (and acknowledged) in time (default 30 s).
	RingTimeout time.Duration
	// GroupHangTime keeps a group call open after the last release (default 8 s).
	GroupHangTime time.Duration
	// ReleaseTail keeps forwarding a released talker's packets still in flight (default 250 ms).
	ReleaseTail time.Duration
	// MaxQueue bounds a floor queue (default 8).
	MaxQueue int
	// RetryGap: a talker that lost or released the floor while others asked for it waits this long before it
	// may take it again (default FloorRetryGap; see Floor).
	RetryGap time.Duration
	// MaxMonitoredGroups bounds a dispatcher's monitored groups (default 16).
	MaxMonitoredGroups int
	// Retention deletes records older than this; 0 keeps them.
	Retention time.Duration
	// MaxQueryDays bounds a call-record query's time range (default 31).
	MaxQueryDays int
}

func (o Options) withDefaults() Options {
	defaults.Positive(&o.MaxTalkTime, 60*time.Second)
	defaults.Positive(&o.RingTimeout, 30*time.Second)
	defaults.Positive(&o.GroupHangTime, 8*time.Second)
	defaults.Positive(&o.ReleaseTail, 250*time.Millisecond)
	defaults.Positive(&o.RetryGap, FloorRetryGap)
	defaults.Positive(&o.MaxQueue, defaultMaxQueue)
	defaults.Positive(&o.MaxMonitoredGroups, defaultMaxGroups)
	defaults.Positive(&o.MaxQueryDays, 31)
	return o
}

// Person is an account as events show it.
type Person struct {
	MsID string `json:"msId"`
	Name string `json:"name"`
	Type string `json:"type"`
}

// PartyView is a call party as events show it.
type PartyView struct {
	Person
	State string `json:"state"`
}

// FloorView is the floor-state event (`floor.state`) and a call's floor in snapshots.
type FloorView struct {
	CallID    string   `json:"callId"`
	Kind      Kind     `json:"kind"`
	GID       string   `json:"gid,omitempty"`
	GName     string   `json:"gName,omitempty"`
	Talker    *Person  `json:"talker"`
	Since     int64    `json:"since,omitempty"` // UTC ms of the grant
	Emergency bool     `json:"emergency,omitempty"`
	Queue     []string `json:"queue"`
	MaxTalkMs int64    `json:"maxTalkMs"`
	// NotRecorded says why the talker's burst is not recorded (rights.go): noRecordPermission | noRecordTime.
	NotRecorded string `json:"notRecorded,omitempty"`
}

// CallView is the call-state event (`call.state`) and an entry of `call.list`.
type CallView struct {
	CallID    string      `json:"callId"`
	Kind      Kind        `json:"kind"`
	State     string      `json:"state"`
	Status    int         `json:"status"`
	GID       string      `json:"gid,omitempty"`
	GName     string      `json:"gName,omitempty"`
	Initiator Person      `json:"initiator"`
	Parties   []PartyView `json:"parties,omitempty"`
	Started   int64       `json:"started"`
	By        string      `json:"by,omitempty"` // who caused the last transition
	Floor     *FloorView  `json:"floor,omitempty"`
	// Duplex: a connected individual call whose parties both talk throughout, no floor (duplex.go)
	Duplex bool `json:"duplex,omitempty"`
	// Number: a call to a phone number, the number dialled (its callee is the trunk's account; dialout.go)
	Number string `json:"number,omitempty"`
}

// BurstStatsView is the `floor.stats` event: a finished burst's measured access time and delays.
type BurstStatsView struct {
	CallID         string `json:"callId"`
	MsID           string `json:"msId"`
	BTime          int64  `json:"btime"`
	DurationMs     int64  `json:"durationMs"`
	PressToGrantUs int64  `json:"pressToGrantUs"`
	GrantToFirstUs int64  `json:"grantToFirstUs"`
	DelayP50Us     int64  `json:"delayP50Us"`
	DelayP99Us     int64  `json:"delayP99Us"`
	Packets        int    `json:"packets"`
	Reason         string `json:"reason"`                // released | preempted | maxDuration | blocked | gone
	NotRecorded    string `json:"notRecorded,omitempty"` // see FloorView
}
