// Package geo owns positions and everything drawn on the map: GPS ingest from terminals (validation, the hot
// last-position cache, the batched time-series writer, retention, the coalesced `gps` event to consoles),
// track queries with their summary and stops, the binary last-position snapshot, map marks, geofences with
// their alarm engine and alarm records, and the GPS and fence-alarm reports. The contract is docs/geo.md.
//
// Files: service.go (ingest, alarms, retention), cache.go, writer.go, fanout.go, snapshot.go, geometry.go,
// units.go, track.go (summary and stops), fence.go (fence geometry, evaluation, index), socket.go (Verbs),
// http.go (Routes and geo's parameter rules), track_http.go, mark_http.go (marks, colours, icons),
// fence_http.go (fences and fence alarms), store.go (all SQL).
package geo

import (
	"net/http"
	"time"

	"tenfour/internal/platform/httpx"
)

// Point is one position of a terminal as stored: degrees, metres per second, degrees from north, metres, and
// the fix time in UTC milliseconds.
type Point struct {
	Lat       float64 `json:"lat"`
	Lng       float64 `json:"lng"`
	Speed     float64 `json:"speed"`
	Direction float64 `json:"direction"`
	Altitude  float64 `json:"altitude"`
	Time      int64   `json:"time"`
}

func (p Point) pos() LatLng { return LatLng{p.Lat, p.Lng} }

// row is a point on its way to gps_points.
type row struct {
	terminal string
	Point
}

// Fence types (spec §3 "type (in or out)") and shapes (spec §2 "polygon, circle, rectangle").
const (
	FenceIn  = "in"  // the terminal must stay inside: leaving raises an alarm
	FenceOut = "out" // the terminal must stay outside: entering raises an alarm

	ShapePolygon   = "polygon"
	ShapeCircle    = "circle"
	ShapeRectangle = "rectangle"
)

// Alarm kinds of a fence alarm record.
const (
	AlarmLeave = "leave" // left an "in" fence
	AlarmEnter = "enter" // entered an "out" fence
)

// Alarm states (as SOS alarms, spec §4): 0 raised, 1 responded (acknowledged), 2 closed (cancelled).
const (
	AlarmOpen      = 0
	AlarmResponded = 1
	AlarmClosed    = 2
)

// Mark types (spec §2 "markers (types point, line, shape)") and their GeoJSON geometry types.
var markGeometry = map[string]string{"point": "Point", "line": "LineString", "shape": "Polygon"}

// Limits. The spec leaves them open; docs/geo.md lists them.
const (
	MaxBatch          = 500              // points in one gps.report
	MaxFuture         = 10 * time.Minute // a fix time further ahead of the server clock is refused
	MaxTrackRange     = 7 * 24 * time.Hour
	MaxReportRange    = 31 * 24 * time.Hour // alarm records and alarm counts (still within one month)
	MaxTrackPoints    = 100000
	MaxFenceVertices  = 1000
	MaxFenceRadius    = 100000.0 // metres
	MaxFencesPerCust  = 1000
	MaxNameLen        = 64
	MaxIDs            = 500
	MaxMarkVertices   = 10000
	MaxMarkLinkLen    = 1024
	MaxMarkTextLen    = 512
	MaxMarksPerCust   = 10000
	MaxPageSize       = 5000
	StopRadiusM       = 50.0
	DefaultStopMinute = 3
)

// Errors of the geo domain (docs/geo.md "Codes"). The time-range codes 93-95 are timerange's, shared with the
// other domains' searches.
var (
	ErrFenceName    = httpx.E(http.StatusBadRequest, "60", "errors.geo.fenceName", "fence name required")
	ErrNeedTerminal = httpx.E(http.StatusBadRequest, "61", "errors.geo.needTerminal", "select a terminal")
	ErrMarkLink     = httpx.E(http.StatusBadRequest, "62", "errors.geo.markLink", "marker link must be an http(s) URL")
	ErrGeometry     = httpx.E(http.StatusBadRequest, "63", "errors.geo.geometry", "invalid geometry")
	ErrTooMany      = httpx.E(http.StatusConflict, "64", "errors.geo.tooMany", "limit reached")
	ErrNameTooLong  = httpx.E(http.StatusBadRequest, "65", "errors.geo.nameTooLong", "name too long")
	ErrBusy         = httpx.E(http.StatusServiceUnavailable, "101", "errors.busy", "system busy, retry")
	// ErrGPSRate is a terminal over its GPS budget (Options.Rate, Options.Burst); the refusal's message says when
	// the report would fit.
	ErrGPSRate = httpx.E(http.StatusTooManyRequests, "429", "errors.tooFrequent", "too many positions from this terminal")
)

func badGeometry(why string) *httpx.Error {
	return httpx.E(http.StatusBadRequest, ErrGeometry.Code, ErrGeometry.Key, "invalid geometry: "+why)
}
