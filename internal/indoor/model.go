// Package indoor is indoor positioning (spec §2 /indoor, §5 "Indoor"): buildings, their floors with a
// floor-plan image (an uploaded file) and its scale, BLE beacons placed on the plans with their RSSI at 1 m and
// environment decay, and the positions the server estimates from the beacon readings terminals report
// (`indoor.report`): stored with their history and pushed live to consoles (`indoor.position`). The estimator is
// in estimate.go (docs/adr/0023), the signal model it shares with the simulator in package radio.
package indoor

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"

	"tenfour/internal/indoor/radio"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/text"
)

// Typed row ids.
type (
	BuildingID int64
	FloorID    int64
	BeaconID   int64
)

// Building is a building with its floors (lowest level first).
type Building struct {
	ID        BuildingID `json:"id"`
	Name      string     `json:"name"`
	Remark    string     `json:"remark"`
	CreatedAt int64      `json:"createdAt"`
	Floors    []Floor    `json:"floors"`
}

// Floor is a storey with its plan: an uploaded image of Width × Height pixels, Scale metres per pixel.
type Floor struct {
	ID         FloorID    `json:"id"`
	BuildingID BuildingID `json:"buildingId"`
	Name       string     `json:"name"`
	Level      int        `json:"level"`
	FileID     string     `json:"fileId"`
	URL        string     `json:"url"`
	Width      int        `json:"width"`
	Height     int        `json:"height"`
	Scale      float64    `json:"scale"`
	Ref        *Ref       `json:"ref"`
	CreatedAt  int64      `json:"createdAt"`
	Beacons    []Beacon   `json:"beacons"`
	// Areas are the floor's walkable areas (area.go); none: the estimator has no walls on this floor.
	Areas []Area `json:"areas"`
}

// Ref is the pair of plan points (pixels) and their distance in metres a floor's scale came from.
type Ref struct {
	X1       float64 `json:"x1"`
	Y1       float64 `json:"y1"`
	X2       float64 `json:"x2"`
	Y2       float64 `json:"y2"`
	Distance float64 `json:"distance"`
}

// Beacon is a BLE beacon placed on a floor's plan (pixels).
type Beacon struct {
	ID         BeaconID   `json:"id"`
	FloorID    FloorID    `json:"floorId"`
	BuildingID BuildingID `json:"buildingId"`
	MAC        string     `json:"mac"`
	Name       string     `json:"name"`
	X          float64    `json:"x"`
	Y          float64    `json:"y"`
	RSSI       int        `json:"rssi"`  // RSSI at 1 m, dBm
	Decay      float64    `json:"decay"` // environment decay
	CreatedAt  int64      `json:"createdAt"`
}

// Position is an estimated position of a terminal: plan pixels on a floor, its accuracy in metres.
type Position struct {
	MsID       string     `json:"msId"`
	Name       string     `json:"name,omitempty"`
	BuildingID BuildingID `json:"buildingId"`
	FloorID    FloorID    `json:"floorId"`
	X          float64    `json:"x"`
	Y          float64    `json:"y"`
	Accuracy   float64    `json:"accuracy"`
	// Uncertain marks an estimate without the 3 m promise: its track has not settled yet (the first scans on a
	// floor) or its accuracy is worse than 1.5 m (docs/adr/0023).
	Uncertain bool  `json:"uncertain"`
	Beacons   int   `json:"beacons"`
	Time      int64 `json:"time"`
}

// Limits of what people set.
const (
	MaxName     = 40
	MaxRemark   = 200
	MinLevel    = -10
	MaxLevel    = 200
	MaxScale    = 10.0  // metres per pixel
	MaxPlanSide = 20000 // pixels
	MaxReadings = 64    // readings in one report
	MaxFloors   = 100   // floors of a building
	MaxBeacons  = 500   // beacons of a floor
)

// Errors (docs/api.md "Indoor positioning").
var (
	ErrDecay     = httpx.E(http.StatusBadRequest, "150", "errors.indoor.decay", "decay: the environment decay is 1.1 to 10.0")
	ErrRSSI      = httpx.E(http.StatusBadRequest, "151", "errors.indoor.rssi", "rssi: the RSSI at 1 m is -100 to -50")
	ErrName      = httpx.E(http.StatusBadRequest, "152", "errors.indoor.name", "name: required, at most 40 characters, no control characters")
	ErrNameTaken = httpx.E(http.StatusConflict, "153", "errors.indoor.nameTaken", "name: already used")
	ErrPlan      = httpx.E(http.StatusBadRequest, "154", "errors.indoor.plan", "fileId: a PNG, JPEG or GIF image uploaded by this customer")
	ErrScale     = httpx.E(http.StatusBadRequest, "155", "errors.indoor.scale", "scale: metres per pixel above 0 and at most 10, or two distinct reference points and their distance")
	ErrMAC       = httpx.E(http.StatusBadRequest, "156", "errors.indoor.mac", "mac: a BLE address of six hexadecimal bytes")
	ErrMACTaken  = httpx.E(http.StatusConflict, "157", "errors.indoor.macTaken", "mac: another beacon has this address")
	ErrOffPlan   = httpx.E(http.StatusBadRequest, "158", "errors.indoor.offPlan", "x, y: the beacon must be on the floor plan")
	ErrNoBeacon  = httpx.E(http.StatusUnprocessableEntity, "159", "errors.indoor.noBeacon", "none of the reported beacons is placed on a floor")
	ErrTooMany   = httpx.E(http.StatusConflict, "409", "errors.indoor.tooMany", "too many floors or beacons")
)

// Names of buildings and floors (required) and of beacons and areas (optional): one answer, ErrName, for
// every way a name is wrong.
var (
	nameField  = text.Field{Name: "name", Max: MaxName, Required: true, Invalid: ErrName, Missing: ErrName, TooLong: ErrName}
	labelField = text.Field{Name: "name", Max: MaxName, Invalid: ErrName, TooLong: ErrName}
)

// parseFloat reads a finite number; blank is absent.
func parseFloat(name, s string) (float64, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, true, httpx.BadParam(name, "a number")
	}
	return v, true, nil
}

// CheckRSSI is the spec §5 rule of a beacon's RSSI at 1 m (whole dBm).
func CheckRSSI(s string) (int, error) {
	v, ok, err := parseFloat("rssi", s)
	if err != nil || !ok || v != math.Trunc(v) || v < radio.MinRSSI1m || v > radio.MaxRSSI1m {
		return 0, ErrRSSI
	}
	return int(v), nil
}

// CheckDecay is the spec §5 rule of a beacon's environment decay (one decimal place is what the console
// offers; more are kept).
func CheckDecay(s string) (float64, error) {
	v, ok, err := parseFloat("decay", s)
	if err != nil || !ok || v < radio.MinDecay || v > radio.MaxDecay {
		return 0, ErrDecay
	}
	return v, nil
}

var macSeparators = strings.NewReplacer(":", "", "-", "", ".", "")

// NormalizeMAC reads a BLE address (colons, dashes or none; any case) as AA:BB:CC:DD:EE:FF.
func NormalizeMAC(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	s = macSeparators.Replace(s)
	if len(s) != 12 {
		return "", false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'F') {
			return "", false
		}
	}
	var b strings.Builder
	for i := 0; i < 12; i += 2 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(s[i : i+2])
	}
	return b.String(), true
}

// ScaleInput is how a floor's scale is given: metres per pixel, or two plan points and their distance.
type ScaleInput struct {
	Scale       string `json:"scale"`
	RefX1       string `json:"refX1"`
	RefY1       string `json:"refY1"`
	RefX2       string `json:"refX2"`
	RefY2       string `json:"refY2"`
	RefDistance string `json:"refDistance"`
}

// given tells whether any scale field is set.
func (in ScaleInput) given() bool {
	return strings.TrimSpace(in.Scale+in.RefX1+in.RefY1+in.RefX2+in.RefY2+in.RefDistance) != ""
}

// Resolve turns the input into metres per pixel (and the reference it came from); ErrScale when it is neither
// a scale nor a complete pair of distinct points with a positive distance, or gives more than MaxScale.
func (in ScaleInput) Resolve() (float64, *Ref, error) {
	if strings.TrimSpace(in.Scale) != "" {
		v, _, err := parseFloat("scale", in.Scale)
		if err != nil || v <= 0 || v > MaxScale {
			return 0, nil, ErrScale
		}
		return v, nil, nil
	}
	var vals [5]float64
	for i, s := range []string{in.RefX1, in.RefY1, in.RefX2, in.RefY2, in.RefDistance} {
		v, ok, err := parseFloat("ref", s)
		if err != nil || !ok {
			return 0, nil, ErrScale
		}
		vals[i] = v
	}
	ref := Ref{X1: vals[0], Y1: vals[1], X2: vals[2], Y2: vals[3], Distance: vals[4]}
	px := math.Hypot(ref.X2-ref.X1, ref.Y2-ref.Y1)
	if px < 1 || ref.Distance <= 0 {
		return 0, nil, ErrScale
	}
	scale := ref.Distance / px
	if scale > MaxScale {
		return 0, nil, ErrScale
	}
	return scale, &ref, nil
}

func encodeRef(r *Ref) string {
	if r == nil {
		return ""
	}
	b, _ := json.Marshal(r)
	return string(b)
}

func decodeRef(s string) *Ref {
	if s == "" {
		return nil
	}
	var r Ref
	if json.Unmarshal([]byte(s), &r) != nil {
		return nil
	}
	return &r
}

func (id BuildingID) String() string { return strconv.FormatInt(int64(id), 10) }
func (id FloorID) String() string    { return strconv.FormatInt(int64(id), 10) }
func (id BeaconID) String() string   { return strconv.FormatInt(int64(id), 10) }

// round keeps d decimals (positions are stored and sent to a centimetre of plan pixels).
func round(v float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}
