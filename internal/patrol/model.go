// Package patrol owns the patrol service (spec §3 "Patrol point … Route … Plan … Order / order point / order
// log", §4 patrol states, §7 /patrolService, §8 code 1011): patrol users (PoC accounts), areas, points with a tag
// value and a position, routes as ordered points, plans (model 2) with a date range and classes, the orders the
// server generates per plan class per day, the punches terminals make (NFC or QR tag value, or "I am here" within
// a point's radius) and the judgement of each order (normal, or abnormal with its reasons). docs/adr/0019.
package patrol

import (
	"net/http"
	"slices"
	"strings"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/text"
)

// Row ids. They travel as JSON numbers; requests may send them as strings too.
type (
	UserID  int64
	AreaID  int64
	PointID int64
	RouteID int64
	PlanID  int64
	OrderID int64
	LogID   int64
)

// Limits of what people enter.
const (
	MaxName       = 50  // characters of an area, point, route, plan or class name
	MaxRemark     = 200 // characters of a remark
	MaxNfc        = 64  // characters of a tag value (NFC, or the text of a QR code)
	MaxIDs        = 100 // ids of one deleteBatch or addUserByNms
	MaxRoute      = 100 // points of one route
	MaxClasses    = 12  // classes of one plan
	MaxPlanDays   = 366 // days from startDate to endDate
	DefaultRadius = 50  // metres
	MinRadius     = 5
	MaxRadius     = 2000
	ListSize      = 100   // spec §9: patrol lists page 1 size 100
	OrderSize     = 10000 // spec §9: orders size 10000
	Model         = 2     // spec §3: plan model 2
)

// State is an order's state (spec §4: to be patrolled/waiting, normal, abnormal).
type State int

const (
	Waiting  State = 0
	Normal   State = 1
	Abnormal State = 2
)

// Reason is why an order is abnormal; an order keeps every reason that applies.
type Reason string

const (
	Missed     Reason = "missed"     // a point was not punched by the end of the class and its late grace
	Late       Reason = "late"       // a point was punched after the class ended (within the grace)
	OutOfOrder Reason = "outOfOrder" // points were punched in another order than the route's
)

// reasonOrder is the order reasons are listed in.
var reasonOrder = []Reason{Missed, Late, OutOfOrder}

// Point states of an order point.
const (
	PointWaiting = 0 // not punched
	PointOnTime  = 1 // punched inside the class window
	PointLate    = 2 // punched after the window, within the late grace
)

// Log states of a punch (tbOrderLog state).
const (
	LogOnTime   = 1 // counted for its order inside the class window
	LogLate     = 2 // counted for its order after the window
	LogRepeated = 3 // the order's point was punched already: kept, not counted again
	LogNoOrder  = 4 // a point of the customer, but no open order of the terminal holds it
)

// Punch methods (docs/terminal-protocol.md "Patrol").
const (
	MethodNFC = "nfc"
	MethodQR  = "qr"
	MethodGPS = "gps"
)

// Errors of the patrol service (docs/api.md "Patrol service"). 1011 is the spec's; the others are this
// service's own, in its 10xx range.
var (
	ErrToken      = httpx.E(http.StatusUnauthorized, "1011", "patrol.errors.1011", "patrol token expired")
	ErrNameExists = httpx.E(http.StatusConflict, "1020", "patrol.errors.1020", "name exists")
	ErrNfcExists  = httpx.E(http.StatusConflict, "1021", "patrol.errors.1021", "NFC value exists in this area")
	ErrInUse      = httpx.E(http.StatusConflict, "1022", "patrol.errors.1022", "in use")
	ErrOtherArea  = httpx.E(http.StatusBadRequest, "1023", "patrol.errors.1023", "not of the same area")
	ErrClasses    = httpx.E(http.StatusBadRequest, "1024", "patrol.errors.1024", "invalid classes")
	ErrDates      = httpx.E(http.StatusBadRequest, "1025", "patrol.errors.1025", "invalid date range")
	ErrNotUser    = httpx.E(http.StatusBadRequest, "1026", "patrol.errors.1026", "not a patrol user")
	ErrUnknownTag = httpx.E(http.StatusNotFound, "1030", "patrol.errors.1030", "no patrol point has this tag")
	ErrNotNear    = httpx.E(http.StatusBadRequest, "1031", "patrol.errors.1031", "not within a patrol point's radius")
	ErrBadChars   = httpx.E(http.StatusBadRequest, "1027", "patrol.errors.1027", "invalid characters")
)

// The rules of what people name (text.Field): required, text.Name, at most MaxName (a tag value MaxNfc)
// characters; characters a name may not hold are this service's 1027.
var (
	nameField  = text.Field{Name: "name", Max: MaxName, Required: true, Invalid: ErrBadChars}
	nfcField   = text.Field{Name: "nfcValue", Max: MaxNfc, Required: true, Invalid: ErrBadChars}
	classField = nameField.As("classes.name")
	// A punch's tag value: the terminal protocol's one 400 for a blank or long one.
	punchValue = text.Field{Name: "value", Max: MaxNfc, Required: true, Invalid: ErrBadChars, Missing: badValue, TooLong: badValue}
	badValue   = httpx.BadParam("value", "required, at most 64 characters")
)

// User is a patrol user: a PoC account the patrol service knows (sysUsers).
type User struct {
	ID         UserID `json:"id"`
	Username   string `json:"username"`   // the PoC account: patrol users sign in with it
	PocAccount string `json:"pocAccount"` // the same account (spec sysUsers/list {name, pocAccount})
	Name       string `json:"name"`
	Role       string `json:"role"` // dispatcher | terminal
	CreatedAt  int64  `json:"createTime"`
}

// Area groups points, routes and plans.
type Area struct {
	ID        AreaID `json:"id"`
	Name      string `json:"name"`
	Remark    string `json:"remark"`
	Points    int    `json:"points"`
	Routes    int    `json:"routes"`
	CreatedAt int64  `json:"createTime"`
}

// Point is a patrol point (spec §3: id, name, remark, type, nfcValue, areaId) with its position and radius.
type Point struct {
	ID        PointID `json:"id"`
	Name      string  `json:"name"`
	Remark    string  `json:"remark"`
	Type      string  `json:"type"`
	NfcValue  string  `json:"nfcValue"`
	AreaID    AreaID  `json:"areaId"`
	AreaName  string  `json:"areaName"`
	Lat       float64 `json:"lat"`
	Lng       float64 `json:"lng"`
	Radius    int     `json:"radius"`
	CreatedAt int64   `json:"createTime"`
}

// RoutePoint is one stop of a route.
type RoutePoint struct {
	Seq   int                 `json:"seq"`
	Point `tstype:",extends"` // its fields stand beside seq in the JSON (web/src/shared/wire: RoutePoint extends Point)
}

// Route is an ordered walk of points of one area (spec §3: name, routePoints, areaId).
type Route struct {
	ID          RouteID      `json:"id"`
	Name        string       `json:"name"`
	Type        string       `json:"type"`
	Remark      string       `json:"remark"`
	AreaID      AreaID       `json:"areaId"`
	AreaName    string       `json:"areaName"`
	RoutePoints []RoutePoint `json:"routePoints"`
	CreatedAt   int64        `json:"createTime"`
}

// Class is a shift of a plan: a daily window and the terminal on patrol in it. An end not after the start
// ends the next day (a night shift).
type Class struct {
	Seq       int    `json:"seq"`
	Name      string `json:"name"`
	StartTime string `json:"startTime"` // HH:MM
	EndTime   string `json:"endTime"`   // HH:MM
	MsID      string `json:"msId"`
	MsName    string `json:"msName"`
}

// Plan is a patrol plan (spec §3: name, model 2, startDate, endDate, routeId, classes, areaId, type "0").
type Plan struct {
	ID        PlanID  `json:"id"`
	Name      string  `json:"name"`
	Model     int     `json:"model"`
	Type      string  `json:"type"`
	StartDate string  `json:"startDate"`
	EndDate   string  `json:"endDate"`
	RouteID   RouteID `json:"routeId"`
	RouteName string  `json:"routeName"`
	AreaID    AreaID  `json:"areaId"`
	AreaName  string  `json:"areaName"`
	Classes   []Class `json:"classes"`
	CreatedBy string  `json:"createBy"`
	CreatedAt int64   `json:"createTime"`

	customerID int64
	tz         string
}

// Order is one class of one plan on one day: the route to walk in the class window (spec §3 order: orderId,
// msId, state, startTime, endTime).
type Order struct {
	ID        OrderID  `json:"orderId"`
	PlanID    PlanID   `json:"planId"`
	PlanName  string   `json:"planName"`
	ClassSeq  int      `json:"classSeq"`
	ClassName string   `json:"className"`
	Day       string   `json:"day"`
	MsID      string   `json:"msId"`
	MsName    string   `json:"msName"`
	AreaID    AreaID   `json:"areaId"`
	AreaName  string   `json:"areaName"`
	RouteID   RouteID  `json:"routeId"`
	RouteName string   `json:"routeName"`
	StartTime int64    `json:"startTime"`
	EndTime   int64    `json:"endTime"`
	JudgeTime int64    `json:"judgeTime"` // end + late grace: unpunched points count as missed from then
	State     State    `json:"state"`
	Reasons   []Reason `json:"reasons"`
	JudgedAt  int64    `json:"judgedAt"`
	Total     int      `json:"total"`   // points of the route
	Punched   int      `json:"punched"` // points punched so far
	// Points are filled where the caller needs them (a terminal's orders, a punch answer).
	Points []OrderPoint `json:"points,omitempty"`

	customerID int64
}

// OrderPoint is one point of an order (tbOrderPoint).
type OrderPoint struct {
	OrderID   OrderID `json:"orderId"`
	Seq       int     `json:"seq"`
	PointID   PointID `json:"pointId"`
	Name      string  `json:"name"`
	NfcValue  string  `json:"nfcValue"`
	Lat       float64 `json:"lat"`
	Lng       float64 `json:"lng"`
	Radius    int     `json:"radius"`
	State     int     `json:"state"` // PointWaiting, PointOnTime, PointLate
	PunchedAt int64   `json:"punchTime"`
	Method    string  `json:"method"`
}

// OrderLog is one punch (tbOrderLog: orderId, msId, state, startTime/endTime as the query's range).
type OrderLog struct {
	ID        LogID    `json:"id"`
	OrderID   OrderID  `json:"orderId"`
	MsID      string   `json:"msId"`
	MsName    string   `json:"msName"`
	PointID   PointID  `json:"pointId"`
	PointName string   `json:"pointName"`
	Method    string   `json:"method"`
	Value     string   `json:"value"`
	Lat       *float64 `json:"lat" tstype:"number | null,required"` // null: a tag punch without a position
	Lng       *float64 `json:"lng" tstype:"number | null,required"`
	Time      int64    `json:"time"`
	State     int      `json:"state"`
}

// Judge decides an order from its points: normal when every point was punched inside the window and in route
// order; abnormal otherwise, with every reason that applies (missed, late, out of order).
func Judge(points []OrderPoint) (State, []Reason) {
	set := map[Reason]bool{}
	var last int64
	for _, p := range slices.SortedFunc(slices.Values(points), func(a, b OrderPoint) int { return a.Seq - b.Seq }) {
		switch p.State {
		case PointWaiting:
			set[Missed] = true
			continue
		case PointLate:
			set[Late] = true
		}
		if p.PunchedAt < last {
			set[OutOfOrder] = true
		}
		last = max(last, p.PunchedAt)
	}
	reasons := []Reason{}
	for _, r := range reasonOrder {
		if set[r] {
			reasons = append(reasons, r)
		}
	}
	if len(reasons) == 0 {
		return Normal, reasons
	}
	return Abnormal, reasons
}

func joinReasons(r []Reason) string {
	s := make([]string, len(r))
	for i, v := range r {
		s[i] = string(v)
	}
	return strings.Join(s, ",")
}

func splitReasons(s string) []Reason {
	out := []Reason{}
	for _, p := range strings.Split(s, ",") {
		if p != "" {
			out = append(out, Reason(p))
		}
	}
	return out
}

// PunchResult answers a punch: the stored log and the order it counted for (with its points).
type PunchResult struct {
	Log   OrderLog `json:"log"`
	Order *Order   `json:"order,omitempty"`
}
