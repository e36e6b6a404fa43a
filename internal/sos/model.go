// Package sos owns SOS alarms (spec §3 "alarm record", §4 alarm states, §7 SOS calls): a terminal raises an alarm
// over the socket, the alarm is stored before anyone hears of it, consoles are told through a durable event and
// re-alerted until someone acknowledges it, and a dispatcher acknowledges, closes or remotely closes it. While an
// alarm is open its terminal has emergency floor priority. It also answers the SOS report and the alarm search.
package sos

import (
	"math"
	"net/http"
	"regexp"
	"unicode/utf8"

	"tenfour/internal/platform/httpx"
)

// State is the alarm state of spec §4.
type State int

const (
	Sending      State = 0 // raised, nobody has acknowledged it yet (the console keeps ringing)
	Acknowledged State = 1 // a dispatcher confirmed it (responder, response time)
	Closed       State = 2 // over (closer, close time, remark)
)

// Open tells whether the alarm still needs attention.
func (s State) Open() bool { return s == Sending || s == Acknowledged }

// CanBecome is the state machine: 0→1 acknowledge, 0→2 and 1→2 close; never back, never to the same state.
func (s State) CanBecome(to State) bool {
	switch {
	case s == Sending && (to == Acknowledged || to == Closed):
		return true
	case s == Acknowledged && to == Closed:
		return true
	}
	return false
}

// How an alarm was closed.
const (
	ClosedByConsole  = "console"  // a dispatcher closed the record
	ClosedByRemote   = "remote"   // a dispatcher closed it and the terminal confirmed it stopped alarming (log 119)
	ClosedByTerminal = "terminal" // the terminal canceled it (log 118)
)

// Alarm is one SOS alarm record (spec §3: type, time, lng, lat, responder, closer, close time, response time).
type Alarm struct {
	ID            AlarmID  `json:"id"`
	MsID          string   `json:"msId"`
	MsName        string   `json:"msName"`
	MsType        string   `json:"msType"`
	Type          string   `json:"type"`
	State         State    `json:"state"`
	Time          int64    `json:"time"`                                // raised at (ms)
	Lat           *float64 `json:"lat" tstype:"number | null,required"` // null when neither the terminal nor its last position had one
	Lng           *float64 `json:"lng" tstype:"number | null,required"`
	FixTime       int64    `json:"fixTime,omitempty"` // when lat/lng were fixed (ms): the raise, or the last known position's own fix; 0 = unknown
	Responder     string   `json:"responder"`         // msId of the dispatcher who acknowledged (or closed an unacknowledged alarm)
	ResponderName string   `json:"responderName"`
	ResponseTime  int64    `json:"responseTime"` // when it was acknowledged (ms); 0 = not yet
	Closer        string   `json:"closer"`       // msId of whoever closed it (a dispatcher, or the terminal on cancel)
	CloserName    string   `json:"closerName"`
	CloseTime     int64    `json:"closeTime"` // 0 = open
	CloseKind     string   `json:"closeKind"` // "", console, remote, terminal
	Remark        string   `json:"remark"`
}

// ResponseMs is how long the alarm waited for a dispatcher (0 while nobody responded).
func (a Alarm) ResponseMs() int64 {
	if a.ResponseTime == 0 {
		return 0
	}
	return a.ResponseTime - a.Time
}

// Alarm types a terminal may send in sos.raise (any short code is stored; these are the known ones).
const (
	TypeButton  = "0" // SOS key (default)
	TypeManDown = "1" // fall / man down sensor
	TypeNoMove  = "2" // no movement
	TypeApp     = "3" // the phone app's SOS button
)

var typeRe = regexp.MustCompile(`^[A-Za-z0-9_]{1,16}$`)

// MaxRemark bounds a close remark (characters).
const MaxRemark = 200

// Safety error codes (the 80-99 range is the safety domain's; docs/safety.md lists them).
var (
	ErrTransition = httpx.E(http.StatusConflict, "90", "errors.sos.transition", "the alarm cannot change to that state")
	ErrNoOpen     = httpx.E(http.StatusNotFound, "91", "errors.sos.noOpen", "no open alarm")
)

func checkType(t string) (string, error) {
	if t == "" {
		return TypeButton, nil
	}
	if !typeRe.MatchString(t) {
		return "", httpx.BadParam("type", "1-16 letters, digits or _")
	}
	return t, nil
}

func checkRemark(r string) error {
	if utf8.RuneCountInString(r) > MaxRemark {
		return httpx.BadParam("remark", "at most 200 characters")
	}
	return nil
}

// normCoord applies spec §5: coordinates with absolute value 200 or more are micro-degrees.
func normCoord(v float64) float64 {
	if math.Abs(v) >= 200 {
		return v / 1e6
	}
	return v
}

// checkLatLng normalizes an optional position; both or neither must be present.
func checkLatLng(lat, lng *float64) (*float64, *float64, error) {
	if lat == nil && lng == nil {
		return nil, nil, nil
	}
	if lat == nil || lng == nil {
		return nil, nil, httpx.BadParam("lat/lng", "give both or neither")
	}
	la, lo := normCoord(*lat), normCoord(*lng)
	if math.IsNaN(la) || la < -90 || la > 90 {
		return nil, nil, httpx.BadParam("lat", "out of range")
	}
	if math.IsNaN(lo) || lo < -180 || lo > 180 {
		return nil, nil, httpx.BadParam("lng", "out of range")
	}
	return &la, &lo, nil
}

// ReportRow is one line of the SOS report: one terminal on one day (the customer's calendar).
type ReportRow struct {
	MsID         string `json:"msId"`
	MsName       string `json:"msName"`
	Day          string `json:"day"` // YYYY-MM-DD
	Total        int    `json:"total"`
	Sending      int    `json:"sending"`      // still state 0
	Acknowledged int    `json:"acknowledged"` // state 1
	Closed       int    `json:"closed"`       // state 2
	Canceled     int    `json:"canceled"`     // closed by the terminal itself
	AvgResponse  int64  `json:"avgResponse"`  // ms from raise to first response, over the responded ones
	MaxResponse  int64  `json:"maxResponse"`
}
