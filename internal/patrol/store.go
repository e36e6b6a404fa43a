package patrol

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"tenfour/internal/platform/db"
)

// Store keeps the patrol tables. Every method scoped to a customer takes its id and never touches another
// customer's rows: an id of another customer is db.ErrNotFound.
type Store struct{ db *db.DB }

// NewStore wraps the database.
func NewStore(d *db.DB) *Store { return &Store{db: d} }

type scanner = db.Scanner

func count(ctx context.Context, q db.Querier, query string, args ...any) (int, error) {
	var n int
	err := q.QueryRow(ctx, query, args...).Scan(&n)
	return n, err
}

// stayInArea lets the customer's row of table (a point, a route) move to another area only while nothing uses it
// (used counts what does, its ? the id): ErrInUse otherwise; an id that is not the customer's is db.ErrNotFound.
func stayInArea[ID ~int64](ctx context.Context, tx *db.Tx, c int64, table string, id ID, area AreaID, used string) error {
	var cur AreaID
	if err := tx.QueryRow(ctx, `SELECT area_id FROM `+table+` WHERE id = ? AND customer_id = ?`, id, c).Scan(&cur); err != nil {
		return db.NotFound(err)
	}
	if cur == area {
		return nil
	}
	if n, err := count(ctx, tx, used, id); err != nil {
		return err
	} else if n > 0 {
		return ErrInUse
	}
	return nil
}

// deleteUnused deletes the customer's rows of table by id, all or none: an id that is not the customer's is
// db.ErrNotFound, and one that rows still refer to (used counts them, its every ? the id) is ErrInUse.
func deleteUnused[ID ~int64](ctx context.Context, d *db.DB, c int64, table string, ids []ID, used string) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			n, err := count(ctx, tx, `SELECT COUNT(*) FROM `+table+` WHERE id = ? AND customer_id = ?`, id, c)
			if err != nil {
				return err
			}
			if n == 0 {
				return db.ErrNotFound
			}
			refs := make([]any, strings.Count(used, "?"))
			for i := range refs {
				refs[i] = id
			}
			if n, err := count(ctx, tx, used, refs...); err != nil {
				return err
			} else if n > 0 {
				return ErrInUse
			}
			if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE id = ?`, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// ---- users

// EnsureUser makes msID a patrol user of the customer (once) and returns it.
func (s *Store) EnsureUser(ctx context.Context, c int64, msID, role string, now int64) (User, error) {
	if _, err := s.db.Exec(ctx, `INSERT INTO patrol_users (customer_id, ms_id, role, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (customer_id, ms_id) DO NOTHING`, c, msID, role, now); err != nil {
		return User{}, err
	}
	var u User
	err := s.db.QueryRow(ctx, `SELECT id, ms_id, role, created_at FROM patrol_users WHERE customer_id = ? AND ms_id = ?`,
		c, msID).Scan(&u.ID, &u.Username, &u.Role, &u.CreatedAt)
	u.PocAccount = u.Username
	return u, db.NotFound(err)
}

// Users lists the customer's patrol users, optionally one PoC account.
func (s *Store) Users(ctx context.Context, c int64, poc string) ([]User, error) {
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: `id, ms_id, role, created_at`, From: `patrol_users`,
		Where: db.Scope("customer_id", c).If(poc != "", "ms_id = ?", poc), Order: `ms_id`}, func(sc scanner) (User, error) {
		var u User
		err := sc.Scan(&u.ID, &u.Username, &u.Role, &u.CreatedAt)
		u.PocAccount = u.Username
		return u, err
	})
	return out, err
}

// IsUser tells whether msID is a patrol user of the customer.
func (s *Store) IsUser(ctx context.Context, c int64, msID string) (bool, error) {
	n, err := count(ctx, s.db, `SELECT COUNT(*) FROM patrol_users WHERE customer_id = ? AND ms_id = ?`, c, msID)
	return n > 0, err
}

// ---- areas

const areaCols = `a.id, a.name, a.remark, a.created_at,
	(SELECT COUNT(*) FROM patrol_points p WHERE p.area_id = a.id),
	(SELECT COUNT(*) FROM patrol_routes r WHERE r.area_id = a.id)`

func scanArea(sc scanner) (Area, error) {
	var a Area
	err := sc.Scan(&a.ID, &a.Name, &a.Remark, &a.CreatedAt, &a.Points, &a.Routes)
	return a, db.NotFound(err)
}

// Areas lists the customer's areas by name.
func (s *Store) Areas(ctx context.Context, c int64) ([]Area, error) {
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: areaCols, From: `patrol_areas a`, Where: db.Scope("a.customer_id", c),
		Order: `a.name`}, scanArea)
	return out, err
}

// Area reads one area.
func (s *Store) Area(ctx context.Context, c int64, id AreaID) (Area, error) {
	return scanArea(s.db.QueryRow(ctx, `SELECT `+areaCols+` FROM patrol_areas a WHERE a.id = ? AND a.customer_id = ?`, id, c))
}

// SaveArea adds (id 0) or edits an area; a name taken is ErrNameExists.
func (s *Store) SaveArea(ctx context.Context, c int64, a Area, now int64) (AreaID, error) {
	var err error
	if a.ID == 0 {
		err = s.db.WriteRow(ctx, `INSERT INTO patrol_areas (customer_id, name, remark, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
			c, a.Name, a.Remark, now).Scan(&a.ID)
	} else {
		var res sql.Result
		res, err = s.db.Exec(ctx, `UPDATE patrol_areas SET name = ?, remark = ? WHERE id = ? AND customer_id = ?`, a.Name, a.Remark, a.ID, c)
		if err == nil {
			if n, _ := res.RowsAffected(); n == 0 {
				err = db.ErrNotFound
			}
		}
	}
	return saved(a.ID, err)
}

// saved answers the id of a row just added or edited, or ErrNameExists when a unique index refused it (the
// service checks names and tag values first, so that is a race: it reports the name).
func saved[ID ~int64](id ID, err error) (ID, error) {
	if db.IsUniqueViolation(err) {
		return 0, ErrNameExists
	}
	return id, err
}

// DeleteAreas removes areas without points, routes or plans (ErrInUse otherwise); all or none.
func (s *Store) DeleteAreas(ctx context.Context, c int64, ids []AreaID) error {
	return deleteUnused(ctx, s.db, c, "patrol_areas", ids, `SELECT (SELECT COUNT(*) FROM patrol_points WHERE area_id = ?) +
		(SELECT COUNT(*) FROM patrol_routes WHERE area_id = ?) + (SELECT COUNT(*) FROM patrol_plans WHERE area_id = ?)`)
}

// ---- points

const pointCols = `p.id, p.name, p.remark, p.type, p.nfc_value, p.area_id, a.name, p.lat, p.lng, p.radius, p.created_at`
const pointFrom = `patrol_points p JOIN patrol_areas a ON a.id = p.area_id`

func scanPoint(sc scanner) (Point, error) {
	var p Point
	err := sc.Scan(&p.ID, &p.Name, &p.Remark, &p.Type, &p.NfcValue, &p.AreaID, &p.AreaName, &p.Lat, &p.Lng, &p.Radius, &p.CreatedAt)
	return p, db.NotFound(err)
}

// PointQuery filters tbPatrolPoint/list.
type PointQuery struct {
	AreaID        AreaID
	Name          string // part of the name, matched literally
	Offset, Limit int    // Limit 0: every point
}

// Points lists the customer's points by area and name, a page of them and the total.
func (s *Store) Points(ctx context.Context, c int64, q PointQuery) ([]Point, int, error) {
	f := db.Scope("p.customer_id", c).If(q.AreaID != 0, "p.area_id = ?", q.AreaID).Contains(q.Name, "p.name")
	return db.List(ctx, s.db, db.ListQuery{Select: pointCols, From: pointFrom, Where: f, Order: `a.name, p.name`,
		Offset: q.Offset, Limit: q.Limit}, scanPoint)
}

// Point reads one point.
func (s *Store) Point(ctx context.Context, c int64, id PointID) (Point, error) {
	return scanPoint(s.db.QueryRow(ctx, `SELECT `+pointCols+` FROM `+pointFrom+` WHERE p.id = ? AND p.customer_id = ?`, id, c))
}

// PointTaken tells whether another point (not except) of the area has this name (field "name") or tag value
// (field "nfc_value").
func (s *Store) PointTaken(ctx context.Context, c int64, area AreaID, field, value string, except PointID) (bool, error) {
	n, err := count(ctx, s.db, `SELECT COUNT(*) FROM patrol_points WHERE customer_id = ? AND area_id = ? AND `+field+` = ? AND id <> ?`,
		c, area, value, except)
	return n > 0, err
}

// SavePoint adds (id 0) or edits a point. An edit also updates the copies in orders that have not begun.
func (s *Store) SavePoint(ctx context.Context, c int64, p Point, now int64) (PointID, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if p.ID == 0 {
			return tx.QueryRow(ctx, `INSERT INTO patrol_points (customer_id, area_id, name, remark, type, nfc_value, lat, lng, radius,
				created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, c, p.AreaID, p.Name, p.Remark, p.Type, p.NfcValue,
				p.Lat, p.Lng, p.Radius, now).Scan(&p.ID)
		}
		// A point in a route stays in the route's area.
		if err := stayInArea(ctx, tx, c, "patrol_points", p.ID, p.AreaID, `SELECT COUNT(*) FROM patrol_route_points WHERE point_id = ?`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE patrol_points SET area_id = ?, name = ?, remark = ?, type = ?, nfc_value = ?, lat = ?, lng = ?,
			radius = ? WHERE id = ?`, p.AreaID, p.Name, p.Remark, p.Type, p.NfcValue, p.Lat, p.Lng, p.Radius, p.ID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE patrol_order_points SET point_name = ?, nfc_value = ?, lat = ?, lng = ?, radius = ?
			WHERE point_id = ? AND order_id IN (SELECT id FROM patrol_orders WHERE customer_id = ? AND start_at > ?)`,
			p.Name, p.NfcValue, p.Lat, p.Lng, p.Radius, p.ID, c, now)
		return err
	})
	return saved(p.ID, err) // the unique indexes are (area, name) and (area, nfc_value)
}

// DeletePoints removes points that no route holds (ErrInUse otherwise); all or none.
func (s *Store) DeletePoints(ctx context.Context, c int64, ids []PointID) error {
	return deleteUnused(ctx, s.db, c, "patrol_points", ids, `SELECT COUNT(*) FROM patrol_route_points WHERE point_id = ?`)
}

// PointsByTag finds the customer's points with this tag value (one per area at most).
func (s *Store) PointsByTag(ctx context.Context, c int64, value string) ([]Point, error) {
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: pointCols, From: pointFrom,
		Where: db.Scope("p.customer_id", c).Eq("p.nfc_value", value), Order: `p.id`}, scanPoint)
	return out, err
}

// AllPoints reads every point of the customer (the "I am here" check-in outside any order).
func (s *Store) AllPoints(ctx context.Context, c int64) ([]Point, error) {
	l, _, err := s.Points(ctx, c, PointQuery{})
	return l, err
}

// ---- routes

const routeCols = `r.id, r.name, r.type, r.remark, r.area_id, a.name, r.created_at`
const routeFrom = `patrol_routes r JOIN patrol_areas a ON a.id = r.area_id`

func scanRoute(sc scanner) (Route, error) {
	var r Route
	err := sc.Scan(&r.ID, &r.Name, &r.Type, &r.Remark, &r.AreaID, &r.AreaName, &r.CreatedAt)
	r.RoutePoints = []RoutePoint{}
	return r, db.NotFound(err)
}

// RouteQuery filters tbPatrolRoute/list (spec: type 0, pageNo 1, pageSize 100, name, order desc, column id).
type RouteQuery struct {
	AreaID        AreaID
	Name          string // part of the name, matched literally
	Asc           bool
	Offset, Limit int
}

// Routes lists routes with their points, a page of them (by id, newest first unless Asc) and the total.
func (s *Store) Routes(ctx context.Context, c int64, q RouteQuery) ([]Route, int, error) {
	f := db.Scope("r.customer_id", c).If(q.AreaID != 0, "r.area_id = ?", q.AreaID).Contains(q.Name, "r.name")
	order := `r.id DESC`
	if q.Asc {
		order = `r.id`
	}
	out, total, err := db.List(ctx, s.db, db.ListQuery{Select: routeCols, From: routeFrom, Where: f, Order: order,
		Offset: q.Offset, Limit: q.Limit}, scanRoute)
	if err != nil {
		return nil, 0, err
	}
	for i := range out {
		if out[i].RoutePoints, err = s.routePoints(ctx, s.db, out[i].ID); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// Route reads one route with its points in order.
func (s *Store) Route(ctx context.Context, c int64, id RouteID) (Route, error) {
	r, err := scanRoute(s.db.QueryRow(ctx, `SELECT `+routeCols+` FROM `+routeFrom+` WHERE r.id = ? AND r.customer_id = ?`, id, c))
	if err != nil {
		return r, err
	}
	r.RoutePoints, err = s.routePoints(ctx, s.db, id)
	return r, err
}

func (s *Store) routePoints(ctx context.Context, q db.Querier, id RouteID) ([]RoutePoint, error) {
	rows, err := q.Query(ctx, `SELECT rp.seq, `+pointCols+` FROM patrol_route_points rp JOIN patrol_points p ON p.id = rp.point_id
		JOIN patrol_areas a ON a.id = p.area_id WHERE rp.route_id = ? ORDER BY rp.seq`, id)
	return db.Collect(rows, err, func(sc scanner) (RoutePoint, error) {
		var rp RoutePoint
		p := &rp.Point
		err := sc.Scan(&rp.Seq, &p.ID, &p.Name, &p.Remark, &p.Type, &p.NfcValue, &p.AreaID, &p.AreaName, &p.Lat, &p.Lng, &p.Radius, &p.CreatedAt)
		return rp, err
	})
}

// SaveRoute adds (id 0) or edits a route and its points (every point of the customer and of the route's area:
// ErrOtherArea otherwise). An edit drops the orders of the route that have not begun, so the engine generates
// them again on the new points.
func (s *Store) SaveRoute(ctx context.Context, c int64, r Route, points []PointID, now int64) (RouteID, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range points {
			var area AreaID
			if err := tx.QueryRow(ctx, `SELECT area_id FROM patrol_points WHERE id = ? AND customer_id = ?`, id, c).Scan(&area); err != nil {
				return db.NotFound(err)
			}
			if area != r.AreaID {
				return ErrOtherArea
			}
		}
		if r.ID == 0 {
			if err := tx.QueryRow(ctx, `INSERT INTO patrol_routes (customer_id, area_id, name, type, remark, created_at)
				VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, c, r.AreaID, r.Name, r.Type, r.Remark, now).Scan(&r.ID); err != nil {
				return err
			}
		} else {
			if err := stayInArea(ctx, tx, c, "patrol_routes", r.ID, r.AreaID, `SELECT COUNT(*) FROM patrol_plans WHERE route_id = ?`); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE patrol_routes SET area_id = ?, name = ?, type = ?, remark = ? WHERE id = ?`,
				r.AreaID, r.Name, r.Type, r.Remark, r.ID); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM patrol_route_points WHERE route_id = ?`, r.ID); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM patrol_orders WHERE route_id = ? AND customer_id = ? AND state = 0 AND start_at > ?`,
				r.ID, c, now); err != nil {
				return err
			}
		}
		for i, id := range points {
			if _, err := tx.Exec(ctx, `INSERT INTO patrol_route_points (route_id, seq, point_id) VALUES (?, ?, ?)`, r.ID, i+1, id); err != nil {
				return err
			}
		}
		return nil
	})
	return saved(r.ID, err)
}

// DeleteRoutes removes routes no plan uses (ErrInUse otherwise); all or none.
func (s *Store) DeleteRoutes(ctx context.Context, c int64, ids []RouteID) error {
	return deleteUnused(ctx, s.db, c, "patrol_routes", ids, `SELECT COUNT(*) FROM patrol_plans WHERE route_id = ?`)
}

// ---- plans

const planCols = `pl.id, pl.customer_id, cu.time_zone, pl.name, pl.model, pl.type, pl.start_date, pl.end_date, pl.route_id, r.name,
	pl.area_id, a.name, pl.created_by, pl.created_at`
const planFrom = `patrol_plans pl JOIN customers cu ON cu.id = pl.customer_id JOIN patrol_routes r ON r.id = pl.route_id
	JOIN patrol_areas a ON a.id = pl.area_id`

func scanPlan(sc scanner) (Plan, error) {
	var p Plan
	err := sc.Scan(&p.ID, &p.customerID, &p.tz, &p.Name, &p.Model, &p.Type, &p.StartDate, &p.EndDate, &p.RouteID, &p.RouteName,
		&p.AreaID, &p.AreaName, &p.CreatedBy, &p.CreatedAt)
	p.Classes = []Class{}
	return p, db.NotFound(err)
}

// PlanQuery filters tbPatrolPlan/list (spec: model 2, dtStart, dtEnd): plans whose date range meets [From, To]
// (days, YYYY-MM-DD; blank: open).
type PlanQuery struct {
	From, To      string
	AreaID        AreaID
	Offset, Limit int
}

// plans lists plans (l's Where, Order and page) with their classes.
func (s *Store) plans(ctx context.Context, l db.ListQuery) ([]Plan, int, error) {
	l.Select, l.From = planCols, planFrom
	out, total, err := db.List(ctx, s.db, l, scanPlan)
	if err != nil {
		return nil, 0, err
	}
	for i := range out {
		rows, err := s.db.Query(ctx, `SELECT seq, name, start_time, end_time, ms_id FROM patrol_plan_classes WHERE plan_id = ? ORDER BY seq`,
			out[i].ID)
		if out[i].Classes, err = db.Collect(rows, err, scanClass); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

func scanClass(sc scanner) (Class, error) {
	var c Class
	err := sc.Scan(&c.Seq, &c.Name, &c.StartTime, &c.EndTime, &c.MsID)
	return c, err
}

// Plans lists plans (newest first), a page of them and the total.
func (s *Store) Plans(ctx context.Context, c int64, q PlanQuery) ([]Plan, int, error) {
	f := db.Scope("pl.customer_id", c).
		If(q.From != "", "pl.end_date >= ?", q.From).
		If(q.To != "", "pl.start_date <= ?", q.To).
		If(q.AreaID != 0, "pl.area_id = ?", q.AreaID)
	return s.plans(ctx, db.ListQuery{Where: f, Order: `pl.id DESC`, Offset: q.Offset, Limit: q.Limit})
}

// Plan reads one plan with its classes.
func (s *Store) Plan(ctx context.Context, c int64, id PlanID) (Plan, error) {
	l, _, err := s.plans(ctx, db.ListQuery{Where: db.Scope("pl.customer_id", c).Eq("pl.id", id), Order: `pl.id`})
	return db.First(l, err)
}

// Current reads every plan of every customer whose range reaches day or later (the generator's input).
func (s *Store) Current(ctx context.Context, day string) ([]Plan, error) {
	l, _, err := s.plans(ctx, db.ListQuery{Where: db.Where("pl.end_date >= ?", day), Order: `pl.id`})
	return l, err
}

// AddPlan stores a plan and its classes; the route must be of the plan's area (ErrOtherArea).
func (s *Store) AddPlan(ctx context.Context, c int64, p Plan, now int64) (PlanID, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var area AreaID
		if err := tx.QueryRow(ctx, `SELECT area_id FROM patrol_routes WHERE id = ? AND customer_id = ?`, p.RouteID, c).Scan(&area); err != nil {
			return db.NotFound(err)
		}
		if area != p.AreaID {
			return ErrOtherArea
		}
		if err := tx.QueryRow(ctx, `INSERT INTO patrol_plans (customer_id, area_id, route_id, name, model, type, start_date, end_date,
			created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, c, p.AreaID, p.RouteID, p.Name, p.Model, p.Type,
			p.StartDate, p.EndDate, p.CreatedBy, now).Scan(&p.ID); err != nil {
			return err
		}
		for i, cl := range p.Classes {
			if _, err := tx.Exec(ctx, `INSERT INTO patrol_plan_classes (plan_id, seq, name, start_time, end_time, ms_id) VALUES (?, ?, ?, ?, ?, ?)`,
				p.ID, i+1, cl.Name, cl.StartTime, cl.EndTime, cl.MsID); err != nil {
				return err
			}
		}
		return nil
	})
	return saved(p.ID, err)
}

// DeletePlans removes plans and their orders that have not begun; orders that began stay as history. All or
// none.
func (s *Store) DeletePlans(ctx context.Context, c int64, ids []PlanID, now int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			res, err := tx.Exec(ctx, `DELETE FROM patrol_plans WHERE id = ? AND customer_id = ?`, id, c)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return db.ErrNotFound
			}
			if _, err := tx.Exec(ctx, `DELETE FROM patrol_orders WHERE plan_id = ? AND customer_id = ? AND start_at > ?`, id, c, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// ---- orders

const orderCols = `o.id, o.customer_id, o.plan_id, o.plan_name, o.class_seq, o.class_name, o.day, o.ms_id, o.area_id, o.area_name,
	o.route_id, o.route_name, o.start_at, o.end_at, o.judge_at, o.state, o.reason, o.judged_at,
	(SELECT COUNT(*) FROM patrol_order_points op WHERE op.order_id = o.id),
	(SELECT COUNT(*) FROM patrol_order_points op WHERE op.order_id = o.id AND op.state <> 0)`

func scanOrder(sc scanner) (Order, error) {
	var o Order
	var reason string
	err := sc.Scan(&o.ID, &o.customerID, &o.PlanID, &o.PlanName, &o.ClassSeq, &o.ClassName, &o.Day, &o.MsID, &o.AreaID, &o.AreaName,
		&o.RouteID, &o.RouteName, &o.StartTime, &o.EndTime, &o.JudgeTime, &o.State, &reason, &o.JudgedAt, &o.Total, &o.Punched)
	o.Reasons = splitReasons(reason)
	return o, db.NotFound(err)
}

// orders lists orders (l's Where, Order and page).
func (s *Store) orders(ctx context.Context, l db.ListQuery) ([]Order, int, error) {
	l.Select, l.From = orderCols, `patrol_orders o`
	return db.List(ctx, s.db, l, scanOrder)
}

// NewOrder is an order to generate with the points it copies.
type NewOrder struct {
	Order
	Points []OrderPoint
}

// CreateOrder stores an order and its points unless the plan's class already has its order that day; created
// tells which.
func (s *Store) CreateOrder(ctx context.Context, c int64, o NewOrder, now int64) (OrderID, bool, error) {
	var id OrderID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO patrol_orders (customer_id, plan_id, class_seq, day, ms_id, area_id, route_id, plan_name,
			class_name, route_name, area_name, start_at, end_at, judge_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (plan_id, class_seq, day) DO NOTHING RETURNING id`, c, o.PlanID, o.ClassSeq, o.Day, o.MsID, o.AreaID, o.RouteID,
			o.PlanName, o.ClassName, o.RouteName, o.AreaName, o.StartTime, o.EndTime, o.JudgeTime, now).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, p := range o.Points {
			if _, err := tx.Exec(ctx, `INSERT INTO patrol_order_points (order_id, seq, point_id, point_name, nfc_value, lat, lng, radius)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, p.Seq, p.PointID, p.Name, p.NfcValue, p.Lat, p.Lng, p.Radius); err != nil {
				return err
			}
		}
		return nil
	})
	return id, id != 0, err
}

// OrderQuery filters tbPatrolOrder/list: orders whose window starts in [From, To] (ms).
type OrderQuery struct {
	From, To      int64
	MsID          string
	PlanID        PlanID
	AreaID        AreaID
	State         *State
	Offset, Limit int
}

// Orders lists orders by start, a page of them and the total.
func (s *Store) Orders(ctx context.Context, c int64, q OrderQuery) ([]Order, int, error) {
	f := db.Scope("o.customer_id", c).Between("o.start_at", q.From, q.To).
		If(q.MsID != "", "o.ms_id = ?", q.MsID).
		If(q.PlanID != 0, "o.plan_id = ?", q.PlanID).
		If(q.AreaID != 0, "o.area_id = ?", q.AreaID)
	if q.State != nil {
		f.Eq("o.state", *q.State)
	}
	return s.orders(ctx, db.ListQuery{Where: f, Order: `o.start_at, o.id`, Offset: q.Offset, Limit: q.Limit})
}

// Order reads one order.
func (s *Store) Order(ctx context.Context, c int64, id OrderID) (Order, error) {
	return scanOrder(s.db.QueryRow(ctx, `SELECT `+orderCols+` FROM patrol_orders o WHERE o.id = ? AND o.customer_id = ?`, id, c))
}

// OrderPoints reads an order's points in route order.
func (s *Store) OrderPoints(ctx context.Context, id OrderID) ([]OrderPoint, error) {
	return s.orderPoints(ctx, s.db, id)
}

func (s *Store) orderPoints(ctx context.Context, q db.Querier, id OrderID) ([]OrderPoint, error) {
	rows, err := q.Query(ctx, `SELECT order_id, seq, point_id, point_name, nfc_value, lat, lng, radius, state, punched_at, method
		FROM patrol_order_points WHERE order_id = ? ORDER BY seq`, id)
	return db.Collect(rows, err, func(sc scanner) (OrderPoint, error) {
		var p OrderPoint
		err := sc.Scan(&p.OrderID, &p.Seq, &p.PointID, &p.Name, &p.NfcValue, &p.Lat, &p.Lng, &p.Radius, &p.State, &p.PunchedAt, &p.Method)
		return p, err
	})
}

// OrderKeys tells which classes of a plan have their order on the given days ("seq/day" keys).
func (s *Store) OrderKeys(ctx context.Context, id PlanID, from, to string) (map[string]bool, error) {
	rows, err := s.db.Query(ctx, `SELECT class_seq, day FROM patrol_orders WHERE plan_id = ? AND day >= ? AND day <= ?`, id, from, to)
	return db.CollectSet(rows, err, func(sc scanner) (string, error) {
		var seq int
		var day string
		err := sc.Scan(&seq, &day)
		return orderKey(seq, day), err
	})
}

func orderKey(seq int, day string) string { return day + "/" + strconv.Itoa(seq) }

// Due reads the waiting orders whose class has ended by now (the judge's input).
func (s *Store) Due(ctx context.Context, now int64) ([]Order, error) {
	l, _, err := s.orders(ctx, db.ListQuery{Where: db.Where("o.state = 0").And("o.end_at <= ?", now), Order: `o.id`})
	return l, err
}

// Open reads a terminal's orders open for punches at now (window begun, late grace not over, still waiting),
// each with its points.
func (s *Store) Open(ctx context.Context, c int64, msID string, now int64) ([]Order, error) {
	l, _, err := s.orders(ctx, db.ListQuery{Where: db.Scope("o.customer_id", c).Eq("o.ms_id", msID).And("o.state = 0").
		And("o.start_at <= ? AND o.judge_at > ?", now, now), Order: `o.start_at, o.id`})
	if err != nil {
		return nil, err
	}
	for i := range l {
		if l[i].Points, err = s.orderPoints(ctx, s.db, l[i].ID); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// Judged stores an order's judgement, only while it still waits; done tells whether this call judged it.
func (s *Store) Judged(ctx context.Context, id OrderID, st State, reasons []Reason, now int64) (bool, error) {
	res, err := s.db.Exec(ctx, `UPDATE patrol_orders SET state = ?, reason = ?, judged_at = ? WHERE id = ? AND state = 0`,
		st, joinReasons(reasons), now, id)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// Record stores a punch: its log and, when it counts for an order point (seq > 0), the point's state. A point
// punched already (by a punch that won the race) turns the log into a repeat.
func (s *Store) Record(ctx context.Context, c int64, l OrderLog, seq int, pointState int, now int64) (OrderLog, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if seq > 0 {
			res, err := tx.Exec(ctx, `UPDATE patrol_order_points SET state = ?, punched_at = ?, method = ? WHERE order_id = ? AND seq = ? AND state = 0`,
				pointState, l.Time, l.Method, l.OrderID, seq)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				l.State = LogRepeated
			}
		}
		return tx.QueryRow(ctx, `INSERT INTO patrol_order_logs (customer_id, order_id, ms_id, point_id, point_name, method, value, lat, lng,
			at, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, c, l.OrderID, l.MsID, l.PointID, l.PointName,
			l.Method, l.Value, l.Lat, l.Lng, l.Time, l.State, now).Scan(&l.ID)
	})
	return l, err
}

// LogQuery filters tbOrderLog/list {msId, state, startTime, endTime}.
type LogQuery struct {
	From, To      int64
	MsID          string
	OrderID       OrderID
	State         int
	Offset, Limit int
}

// Logs lists punches, newest first, a page of them and the total.
func (s *Store) Logs(ctx context.Context, c int64, q LogQuery) ([]OrderLog, int, error) {
	f := db.Scope("customer_id", c).Between("at", q.From, q.To).
		If(q.MsID != "", "ms_id = ?", q.MsID).
		If(q.OrderID != 0, "order_id = ?", q.OrderID).
		If(q.State != 0, "state = ?", q.State)
	return db.List(ctx, s.db, db.ListQuery{Select: `id, order_id, ms_id, point_id, point_name, method, value, lat, lng, at, state`,
		From: `patrol_order_logs`, Where: f, Order: `at DESC, id DESC`, Offset: q.Offset, Limit: q.Limit}, scanLog)
}

func scanLog(sc scanner) (OrderLog, error) {
	var l OrderLog
	var pos db.Position
	err := sc.Scan(&l.ID, &l.OrderID, &l.MsID, &l.PointID, &l.PointName, &l.Method, &l.Value, &pos.Lat, &pos.Lng, &l.Time, &l.State)
	l.Lat, l.Lng = pos.Coords()
	return l, err
}
