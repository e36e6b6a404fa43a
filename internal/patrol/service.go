package patrol

import (
	"context"
	"math"
	"sync"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/geo"
	"tenfour/internal/platform/clock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Auth is what the patrol service needs of internal/auth: the PoC account check and the patrol sessions.
type Auth interface {
	CheckPoC(ctx context.Context, addr, uid, pw string) (identity.Principal, error)
	PatrolSignIn(ctx context.Context, addr, uid, pw string) (identity.Principal, string, error)
	LookupPatrol(ctx context.Context, token string) (identity.Principal, error)
}

// Directory is what the patrol service reads of terminals (internal/directory's Store).
type Directory interface {
	CheckTerminal(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
}

// Hub is what the service needs of the socket hub.
type Hub interface {
	Publish(customerID int64, typ string, data any, to realtime.Audience)
	SendTo(accountID, typ string, data any) bool
}

var _ Hub = (*realtime.Hub)(nil)

// Options tune the engine.
type Options struct {
	// LateGrace is how long after its class a point may still be punched (late); the order is judged when every
	// point is punched or the grace is over (default 30 min).
	LateGrace time.Duration
	// Every is how often the engine generates and judges orders (default 15 s).
	Every time.Duration
}

// DefaultOptions fill zero fields.
var DefaultOptions = Options{LateGrace: 30 * time.Minute, Every: 15 * time.Second}

// Service is the patrol service.
type Service struct {
	clock.Clock // SetClock and Now: tests move time instead of sleeping

	db    *db.DB
	store *Store
	auth  Auth
	dir   Directory
	hub   Hub
	opts  Options

	// mu serializes punches and judgements, so an order is judged on every punch that reached it.
	mu sync.Mutex
}

// New builds the service.
func New(d *db.DB, a Auth, dir Directory, hub Hub, opts Options) *Service {
	if opts.LateGrace <= 0 {
		opts.LateGrace = DefaultOptions.LateGrace
	}
	if opts.Every <= 0 {
		opts.Every = DefaultOptions.Every
	}
	return &Service{db: d, store: NewStore(d), auth: a, dir: dir, hub: hub, opts: opts}
}

// Store is the patrol store.
func (s *Service) Store() *Store { return s.store }

// Options in force.
func (s *Service) Options() Options { return s.opts }

// names reads the names of accounts of a customer.
func (s *Service) names(ctx context.Context, c int64, ids []string) (map[string]string, error) {
	m, err := s.dir.Names(ctx, directory.CustomerID(c), directory.TerminalIDs(ids))
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[string(k)] = v
	}
	return out, err
}

// nameRows fills the account name of each row from the directory; acct gives a row's account id and where its
// name goes. A failed read leaves the names it could not find blank.
func nameRows[T any](ctx context.Context, s *Service, c int64, l []T, acct func(*T) (string, *string)) error {
	ids := make([]string, len(l))
	for i := range l {
		ids[i], _ = acct(&l[i])
	}
	n, err := s.names(ctx, c, ids)
	for i := range l {
		id, name := acct(&l[i])
		*name = n[id]
	}
	return err
}

func (s *Service) nameOrders(ctx context.Context, c int64, l []Order) error {
	return nameRows(ctx, s, c, l, func(o *Order) (string, *string) { return o.MsID, &o.MsName })
}

func (s *Service) namePlans(ctx context.Context, c int64, l []Plan) error {
	var ids []string
	for _, p := range l {
		for _, cl := range p.Classes {
			ids = append(ids, cl.MsID)
		}
	}
	n, err := s.names(ctx, c, ids)
	for i := range l {
		for j := range l[i].Classes {
			l[i].Classes[j].MsName = n[l[i].Classes[j].MsID]
		}
	}
	return err
}

// ---- punches

// PunchInput is a terminal's punch (docs/terminal-protocol.md "Patrol"): a tag value read by NFC or from a QR
// code, or an "I am here" check-in at a position (optionally naming the point).
type PunchInput struct {
	Method   string
	Value    string
	Lat, Lng *float64
	PointID  PointID
}

// check validates a punch's fields.
func (in *PunchInput) check() error {
	switch in.Method {
	case MethodNFC, MethodQR:
		v, err := punchValue.Check(in.Value)
		if err != nil {
			return err
		}
		in.Value = v
	case MethodGPS:
		in.Value = ""
		if in.Lat == nil || in.Lng == nil {
			return httpx.BadParam("lat", "lat and lng required")
		}
	default:
		return httpx.BadParam("method", "nfc, qr or gps")
	}
	if (in.Lat == nil) != (in.Lng == nil) {
		return httpx.BadParam("lat", "lat and lng together")
	}
	if in.Lat != nil {
		lat, lng := geo.NormalizeCoord(*in.Lat), geo.NormalizeCoord(*in.Lng)
		if math.IsNaN(lat) || math.IsNaN(lng) || lat < -90 || lat > 90 || lng < -180 || lng > 180 {
			return httpx.BadParam("lat", "not a position")
		}
		in.Lat, in.Lng = &lat, &lng
	}
	return nil
}

// match is where a punch lands.
type match struct {
	order *Order
	point OrderPoint
	state int // log state
}

// Punch records a terminal's punch: it completes the first open order point it matches (by tag value, or the
// nearest unpunched point within its radius), or is kept as a repeat or as a punch without an order. A tag no
// point has is ErrUnknownTag, a position near no point ErrNotNear: neither is a punch of a point.
func (s *Service) Punch(ctx context.Context, p identity.Principal, in PunchInput) (PunchResult, error) {
	if err := in.check(); err != nil {
		return PunchResult{}, err
	}
	ctx = context.WithoutCancel(ctx) // a punch that reached the server is stored whatever the socket does
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now().UnixMilli()
	open, err := s.store.Open(ctx, p.CustomerID, p.AccountID, now)
	if err != nil {
		return PunchResult{}, err
	}
	m, err := s.find(ctx, p.CustomerID, open, in)
	if err != nil {
		return PunchResult{}, err
	}
	l := OrderLog{MsID: p.AccountID, MsName: p.Name, PointID: m.point.PointID, PointName: m.point.Name, Method: in.Method,
		Value: in.Value, Lat: in.Lat, Lng: in.Lng, Time: now, State: m.state}
	seq, pointState := 0, PointWaiting
	if m.order != nil {
		l.OrderID = m.order.ID
		if m.state == LogOnTime || m.state == LogLate {
			seq, pointState = m.point.Seq, PointOnTime
			if m.state == LogLate {
				pointState = PointLate
			}
		}
	}
	if l, err = s.store.Record(ctx, p.CustomerID, l, seq, pointState, now); err != nil {
		return PunchResult{}, err
	}
	res := PunchResult{Log: l}
	if m.order != nil {
		o, err := s.refresh(ctx, p.CustomerID, m.order.ID, now)
		if err != nil {
			return res, err
		}
		res.Order = &o
		s.hub.Publish(p.CustomerID, EventOrder, o, realtime.Consoles)
	}
	s.hub.Publish(p.CustomerID, EventPunch, res, realtime.Consoles)
	return res, nil
}

// refresh reads an order with its points and judges it when its class has ended and every point is punched.
// The caller holds mu.
func (s *Service) refresh(ctx context.Context, c int64, id OrderID, now int64) (Order, error) {
	o, err := s.store.Order(ctx, c, id)
	if err != nil {
		return o, err
	}
	if o.Points, err = s.store.OrderPoints(ctx, id); err != nil {
		return o, err
	}
	if o.State == Waiting && now >= o.EndTime && o.Punched == o.Total {
		st, reasons := Judge(o.Points)
		if done, err := s.store.Judged(ctx, id, st, reasons, now); err != nil {
			return o, err
		} else if done {
			o.State, o.Reasons, o.JudgedAt = st, reasons, now
		}
	}
	return s.named(ctx, c, o), nil
}

// named fills one order's terminal name (a failed read leaves it blank: the order itself is what counts).
func (s *Service) named(ctx context.Context, c int64, o Order) Order {
	l := []Order{o}
	_ = s.nameOrders(ctx, c, l)
	return l[0]
}

func (s *Service) find(ctx context.Context, c int64, open []Order, in PunchInput) (match, error) {
	now := s.Now().UnixMilli()
	state := func(o *Order) int {
		if now <= o.EndTime {
			return LogOnTime
		}
		return LogLate
	}
	if in.Method != MethodGPS {
		var repeat *match
		for i := range open {
			for _, pt := range open[i].Points {
				if pt.NfcValue != in.Value {
					continue
				}
				if pt.State == PointWaiting {
					return match{order: &open[i], point: pt, state: state(&open[i])}, nil
				}
				if repeat == nil {
					repeat = &match{order: &open[i], point: pt, state: LogRepeated}
				}
			}
		}
		if repeat != nil {
			return *repeat, nil
		}
		pts, err := s.store.PointsByTag(ctx, c, in.Value)
		if err != nil {
			return match{}, err
		}
		if len(pts) == 0 {
			return match{}, ErrUnknownTag
		}
		return match{point: fromPoint(pts[0]), state: LogNoOrder}, nil
	}
	here := geo.LatLng{Lat: *in.Lat, Lng: *in.Lng}
	within := func(pt OrderPoint) (float64, bool) {
		d := geo.Haversine(here, geo.LatLng{Lat: pt.Lat, Lng: pt.Lng})
		return d, d <= float64(pt.Radius) && (in.PointID == 0 || in.PointID == pt.PointID)
	}
	var best, repeat *match
	bestD, repeatD := math.Inf(1), math.Inf(1)
	for i := range open {
		for _, pt := range open[i].Points {
			d, ok := within(pt)
			if !ok {
				continue
			}
			if pt.State == PointWaiting && d < bestD {
				best, bestD = &match{order: &open[i], point: pt, state: state(&open[i])}, d
			} else if pt.State != PointWaiting && d < repeatD {
				repeat, repeatD = &match{order: &open[i], point: pt, state: LogRepeated}, d
			}
		}
	}
	if best != nil {
		return *best, nil
	}
	if repeat != nil {
		return *repeat, nil
	}
	all, err := s.store.AllPoints(ctx, c)
	if err != nil {
		return match{}, err
	}
	for _, p := range all {
		pt := fromPoint(p)
		if d, ok := within(pt); ok && d < bestD {
			best, bestD = &match{point: pt, state: LogNoOrder}, d
		}
	}
	if best != nil {
		return *best, nil
	}
	return match{}, ErrNotNear
}

func fromPoint(p Point) OrderPoint {
	return OrderPoint{PointID: p.ID, Name: p.Name, NfcValue: p.NfcValue, Lat: p.Lat, Lng: p.Lng, Radius: p.Radius}
}

// Mine is a terminal's orders that are open or still to come (the engine makes today's and tomorrow's), and those
// judged in the last 12 hours, with their points, for the phone app and the simulator (patrol.orders).
func (s *Service) Mine(ctx context.Context, p identity.Principal) ([]Order, error) {
	now := s.Now().UnixMilli()
	l, _, err := s.store.Orders(ctx, p.CustomerID, OrderQuery{From: now - 36*time.Hour.Milliseconds(), To: now + 48*time.Hour.Milliseconds(),
		MsID: p.AccountID, Limit: OrderSize})
	if err != nil {
		return nil, err
	}
	out := []Order{}
	for _, o := range l {
		if o.JudgeTime <= now && o.State == Waiting {
			continue // about to be judged
		}
		if o.State != Waiting && now-o.JudgedAt > 12*time.Hour.Milliseconds() {
			continue
		}
		if o.Points, err = s.store.OrderPoints(ctx, o.ID); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, s.nameOrders(ctx, p.CustomerID, out)
}
