package indoor

import (
	"context"

	"tenfour/internal/files"
	"tenfour/internal/platform/db"
)

// Store reads and writes the indoor tables; every query is scoped to a customer.
type Store struct{ db *db.DB }

// NewStore wraps the database.
func NewStore(d *db.DB) *Store { return &Store{db: d} }

func conflict(err error, taken error) error {
	if db.IsUniqueViolation(err) {
		return taken
	}
	return err
}

const floorCols = `id, building_id, name, level, file_id, width, height, scale, ref, created_at`

func scanFloor(r db.Scanner) (Floor, error) {
	var f Floor
	var ref string
	err := r.Scan(&f.ID, &f.BuildingID, &f.Name, &f.Level, &f.FileID, &f.Width, &f.Height, &f.Scale, &ref, &f.CreatedAt)
	f.Ref = decodeRef(ref)
	f.URL = files.URL(f.FileID)
	f.Beacons = []Beacon{}
	f.Areas = []Area{}
	return f, err
}

const beaconCols = `b.id, b.floor_id, f.building_id, b.mac, b.name, b.x, b.y, b.rssi, b.decay, b.created_at`
const beaconFrom = `indoor_beacons b JOIN indoor_floors f ON f.id = b.floor_id`

func scanBeacon(r db.Scanner) (Beacon, error) {
	var b Beacon
	err := r.Scan(&b.ID, &b.FloorID, &b.BuildingID, &b.MAC, &b.Name, &b.X, &b.Y, &b.RSSI, &b.Decay, &b.CreatedAt)
	return b, err
}

// Buildings lists the customer's buildings (by name) with their floors (by level) and beacons (by name).
func (s *Store) Buildings(ctx context.Context, customerID int64) ([]Building, error) {
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: `id, name, remark, created_at`, From: `indoor_buildings`,
		Where: db.Scope("customer_id", customerID), Order: `name, id`}, func(r db.Scanner) (Building, error) {
		b := Building{Floors: []Floor{}}
		err := r.Scan(&b.ID, &b.Name, &b.Remark, &b.CreatedAt)
		return b, err
	})
	if err != nil {
		return nil, err
	}
	floors, err := s.floors(ctx, db.Scope("customer_id", customerID), `level, name, id`)
	if err != nil {
		return nil, err
	}
	if err := s.fill(ctx, floors, db.Scope("b.customer_id", customerID), db.Scope("a.customer_id", customerID)); err != nil {
		return nil, err
	}
	at := map[BuildingID]int{}
	for i, b := range out {
		at[b.ID] = i
	}
	for _, f := range floors {
		if i, ok := at[f.BuildingID]; ok {
			out[i].Floors = append(out[i].Floors, f)
		}
	}
	return out, nil
}

// fill puts the beacons (of bf) and areas (of af) on their floors among floors.
func (s *Store) fill(ctx context.Context, floors []Floor, bf, af *db.Filter) error {
	at := map[FloorID]int{}
	for i, f := range floors {
		at[f.ID] = i
	}
	beacons, err := s.beacons(ctx, bf)
	if err != nil {
		return err
	}
	for _, b := range beacons {
		if i, ok := at[b.FloorID]; ok {
			floors[i].Beacons = append(floors[i].Beacons, b)
		}
	}
	areas, err := s.areas(ctx, af)
	if err != nil {
		return err
	}
	for _, a := range areas {
		if i, ok := at[a.FloorID]; ok {
			floors[i].Areas = append(floors[i].Areas, a)
		}
	}
	return nil
}

// floors reads the floors f matches, in order.
func (s *Store) floors(ctx context.Context, f *db.Filter, order string) ([]Floor, error) {
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: floorCols, From: `indoor_floors`, Where: f, Order: order}, scanFloor)
	return out, err
}

// beacons reads the beacons f matches, by name.
func (s *Store) beacons(ctx context.Context, f *db.Filter) ([]Beacon, error) {
	out, _, err := db.List(ctx, s.db, db.ListQuery{Select: beaconCols, From: beaconFrom, Where: f, Order: `b.name, b.mac`}, scanBeacon)
	return out, err
}

// Building reads one building with its floors and beacons.
func (s *Store) Building(ctx context.Context, customerID int64, id BuildingID) (Building, error) {
	all, err := s.Buildings(ctx, customerID)
	if err != nil {
		return Building{}, err
	}
	for _, b := range all {
		if b.ID == id {
			return b, nil
		}
	}
	return Building{}, db.ErrNotFound
}

// Floor reads one floor with its beacons.
func (s *Store) Floor(ctx context.Context, customerID int64, id FloorID) (Floor, error) {
	f, err := scanFloor(s.db.QueryRow(ctx, `SELECT `+floorCols+` FROM indoor_floors WHERE id = ? AND customer_id = ?`, id, customerID))
	if err != nil {
		return Floor{}, db.NotFound(err)
	}
	one := []Floor{f}
	err = s.fill(ctx, one, db.Where("b.floor_id = ?", id), db.Where("a.floor_id = ?", id))
	return one[0], err
}

// Beacon reads one beacon.
func (s *Store) Beacon(ctx context.Context, customerID int64, id BeaconID) (Beacon, error) {
	b, err := scanBeacon(s.db.QueryRow(ctx, `SELECT `+beaconCols+` FROM `+beaconFrom+` WHERE b.id = ? AND b.customer_id = ?`, id, customerID))
	return b, db.NotFound(err)
}

// CreateBuilding stores a building (ErrNameTaken for a name the customer uses).
func (s *Store) CreateBuilding(ctx context.Context, customerID int64, b Building, now int64) (BuildingID, error) {
	var id BuildingID
	err := s.db.WriteRow(ctx, `INSERT INTO indoor_buildings (customer_id, name, remark, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
		customerID, b.Name, b.Remark, now).Scan(&id)
	return id, conflict(err, ErrNameTaken)
}

// UpdateBuilding renames a building and sets its remark.
func (s *Store) UpdateBuilding(ctx context.Context, customerID int64, b Building) error {
	res, err := s.db.Exec(ctx, `UPDATE indoor_buildings SET name = ?, remark = ? WHERE id = ? AND customer_id = ?`, b.Name, b.Remark, b.ID, customerID)
	return db.OneRow(res, conflict(err, ErrNameTaken))
}

// DeleteBuilding removes a building with its floors, beacons and positions.
func (s *Store) DeleteBuilding(ctx context.Context, customerID int64, id BuildingID) error {
	return deleteWith(ctx, s.db, customerID, id,
		`DELETE FROM indoor_positions WHERE customer_id = ? AND building_id = ?`,
		`DELETE FROM indoor_beacons WHERE customer_id = ? AND floor_id IN (SELECT id FROM indoor_floors WHERE building_id = ?)`,
		`DELETE FROM indoor_areas WHERE customer_id = ? AND floor_id IN (SELECT id FROM indoor_floors WHERE building_id = ?)`,
		`DELETE FROM indoor_floors WHERE customer_id = ? AND building_id = ?`,
		`DELETE FROM indoor_buildings WHERE customer_id = ? AND id = ?`)
}

// deleteWith deletes a row and first what hangs on it, in one transaction: each statement takes (customer,
// id), the last deletes the row itself (db.ErrNotFound when it is not the customer's). The dependents go
// explicitly, so SQLite without foreign-key cascades and PostgreSQL end the same.
func deleteWith(ctx context.Context, d *db.DB, customerID int64, id any, stmts ...string) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		last := len(stmts) - 1
		for _, q := range stmts[:last] {
			if _, err := tx.Exec(ctx, q, customerID, id); err != nil {
				return err
			}
		}
		return db.OneRow(tx.Exec(ctx, stmts[last], customerID, id))
	})
}

// room is ErrTooMany when table holds max rows of one parent (col = id) already: a floor's beacons or areas,
// a building's floors.
func room(ctx context.Context, tx *db.Tx, table, col string, id any, max int) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE `+col+` = ?`, id).Scan(&n); err != nil {
		return err
	}
	if n >= max {
		return ErrTooMany
	}
	return nil
}

// deleteEach deletes rows of a table by id, all or none (db.ErrNotFound when one is not the customer's).
func deleteEach[ID ~int64](ctx context.Context, d *db.DB, table string, customerID int64, ids []ID) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			if err := db.OneRow(tx.Exec(ctx, `DELETE FROM `+table+` WHERE id = ? AND customer_id = ?`, id, customerID)); err != nil {
				return err
			}
		}
		return nil
	})
}

// CreateFloor stores a floor of a building (ErrNameTaken for a name the building uses; ErrTooMany beyond
// MaxFloors).
func (s *Store) CreateFloor(ctx context.Context, customerID int64, f Floor, now int64) (FloorID, error) {
	var id FloorID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := room(ctx, tx, "indoor_floors", "building_id", f.BuildingID, MaxFloors); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `INSERT INTO indoor_floors (customer_id, building_id, name, level, file_id, width, height, scale, ref, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, customerID, f.BuildingID, f.Name, f.Level, f.FileID, f.Width, f.Height,
			f.Scale, encodeRef(f.Ref), now).Scan(&id)
		return conflict(err, ErrNameTaken)
	})
	return id, err
}

// UpdateFloor writes a floor's name, level, plan and scale; ErrOffPlan when a beacon would fall off a smaller
// plan.
func (s *Store) UpdateFloor(ctx context.Context, customerID int64, f Floor) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		var off int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM indoor_beacons WHERE floor_id = ? AND (x > ? OR y > ?)`, f.ID, f.Width, f.Height).Scan(&off); err != nil {
			return err
		}
		if off > 0 {
			return ErrOffPlan
		}
		rows, err := tx.Query(ctx, `SELECT points FROM indoor_areas WHERE floor_id = ?`, f.ID)
		areas, err := db.Collect(rows, err, func(r db.Scanner) (Area, error) {
			var pts string
			err := r.Scan(&pts)
			return Area{Points: decodePoints(pts)}, err
		})
		if err != nil {
			return err
		}
		if !onPlan(areas, f.Width, f.Height) {
			return ErrOffPlan
		}
		res, err := tx.Exec(ctx, `UPDATE indoor_floors SET name = ?, level = ?, file_id = ?, width = ?, height = ?, scale = ?, ref = ?
			WHERE id = ? AND customer_id = ?`, f.Name, f.Level, f.FileID, f.Width, f.Height, f.Scale, encodeRef(f.Ref), f.ID, customerID)
		return db.OneRow(res, conflict(err, ErrNameTaken))
	})
}

// DeleteFloor removes a floor with its beacons and positions.
func (s *Store) DeleteFloor(ctx context.Context, customerID int64, id FloorID) error {
	return deleteWith(ctx, s.db, customerID, id,
		`DELETE FROM indoor_positions WHERE customer_id = ? AND floor_id = ?`,
		`DELETE FROM indoor_beacons WHERE customer_id = ? AND floor_id = ?`,
		`DELETE FROM indoor_areas WHERE customer_id = ? AND floor_id = ?`,
		`DELETE FROM indoor_floors WHERE customer_id = ? AND id = ?`)
}

// CreateBeacon places a beacon (ErrMACTaken for an address the customer uses; ErrTooMany beyond MaxBeacons).
func (s *Store) CreateBeacon(ctx context.Context, customerID int64, b Beacon, now int64) (BeaconID, error) {
	var id BeaconID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := room(ctx, tx, "indoor_beacons", "floor_id", b.FloorID, MaxBeacons); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `INSERT INTO indoor_beacons (customer_id, floor_id, mac, name, x, y, rssi, decay, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, customerID, b.FloorID, b.MAC, b.Name, b.X, b.Y, b.RSSI, b.Decay, now).Scan(&id)
		return conflict(err, ErrMACTaken)
	})
	return id, err
}

// UpdateBeacon writes a beacon (it may move to another floor of the customer).
func (s *Store) UpdateBeacon(ctx context.Context, customerID int64, b Beacon) error {
	res, err := s.db.Exec(ctx, `UPDATE indoor_beacons SET floor_id = ?, mac = ?, name = ?, x = ?, y = ?, rssi = ?, decay = ?
		WHERE id = ? AND customer_id = ?`, b.FloorID, b.MAC, b.Name, b.X, b.Y, b.RSSI, b.Decay, b.ID, customerID)
	return db.OneRow(res, conflict(err, ErrMACTaken))
}

// DeleteBeacons removes beacons, all or none (db.ErrNotFound when one is not the customer's).
func (s *Store) DeleteBeacons(ctx context.Context, customerID int64, ids []BeaconID) error {
	return deleteEach(ctx, s.db, "indoor_beacons", customerID, ids)
}

// floorGeom is what the estimator needs of a floor.
type floorGeom struct {
	Building BuildingID
	Scale    float64
	W, H     float64 // metres
}

// layout is a customer's beacons and floors as the estimator reads them.
type layout struct {
	byMAC  map[string]Anchor
	floors map[FloorID]floorGeom
	walk   map[FloorID]*walkable // floors with walkable areas
}

// Layout reads every beacon and floor of a customer (beacon positions in metres).
func (s *Store) Layout(ctx context.Context, customerID int64) (*layout, error) {
	l := &layout{byMAC: map[string]Anchor{}, floors: map[FloorID]floorGeom{}, walk: map[FloorID]*walkable{}}
	floors, err := s.floors(ctx, db.Scope("customer_id", customerID), `id`)
	if err != nil {
		return nil, err
	}
	for _, f := range floors {
		l.floors[f.ID] = floorGeom{Building: f.BuildingID, Scale: f.Scale, W: float64(f.Width) * f.Scale, H: float64(f.Height) * f.Scale}
	}
	beacons, err := s.beacons(ctx, db.Scope("b.customer_id", customerID))
	if err != nil {
		return nil, err
	}
	for _, b := range beacons {
		g, ok := l.floors[b.FloorID]
		if !ok {
			continue
		}
		l.byMAC[b.MAC] = Anchor{Beacon: b.ID, Floor: b.FloorID, Building: g.Building, X: b.X * g.Scale, Y: b.Y * g.Scale,
			RSSI1m: float64(b.RSSI), Decay: b.Decay}
	}
	areas, err := s.areas(ctx, db.Scope("a.customer_id", customerID))
	if err != nil {
		return nil, err
	}
	polys := map[FloorID][][][2]float64{}
	for _, a := range areas {
		g, ok := l.floors[a.FloorID]
		if !ok {
			continue
		}
		poly := make([][2]float64, len(a.Points))
		for i, p := range a.Points {
			poly[i] = [2]float64{p[0] * g.Scale, p[1] * g.Scale}
		}
		polys[a.FloorID] = append(polys[a.FloorID], poly)
	}
	for fid, pp := range polys {
		g := l.floors[fid]
		l.walk[fid] = newWalkable(pp, g.W, g.H)
	}
	return l, nil
}

// AddPosition stores one estimate.
func (s *Store) AddPosition(ctx context.Context, customerID int64, p Position) error {
	_, err := s.db.Exec(ctx, `INSERT INTO indoor_positions (customer_id, ms_id, building_id, floor_id, at, x, y, accuracy, beacons, uncertain)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, customerID, p.MsID, p.BuildingID, p.FloorID, p.Time, p.X, p.Y, p.Accuracy, p.Beacons, p.Uncertain)
	return err
}

const posCols = `p.ms_id, p.building_id, p.floor_id, p.at, p.x, p.y, p.accuracy, p.beacons, p.uncertain`

func scanPosition(r db.Scanner) (Position, error) {
	var p Position
	err := r.Scan(&p.MsID, &p.BuildingID, &p.FloorID, &p.Time, &p.X, &p.Y, &p.Accuracy, &p.Beacons, &p.Uncertain)
	return p, err
}

// Last is the latest position of each terminal of the customer since a time, in a building or anywhere
// (building 0), by terminal. A terminal whose latest position is in another building is not in this one.
func (s *Store) Last(ctx context.Context, customerID int64, building BuildingID, since int64) ([]Position, error) {
	f := db.Scope("p.customer_id", customerID).And("p.at >= ?", since).
		And(`p.at = (SELECT MAX(q.at) FROM indoor_positions q WHERE q.customer_id = p.customer_id AND q.ms_id = p.ms_id)`).
		If(building != 0, "p.building_id = ?", building)
	all, _, err := db.List(ctx, s.db, db.ListQuery{Select: posCols, From: `indoor_positions p`, Where: f,
		Order: `p.ms_id, p.id`}, scanPosition)
	if err != nil {
		return nil, err
	}
	// Two rows of one terminal at the same millisecond: keep the last.
	out := all[:0]
	for _, p := range all {
		if n := len(out); n > 0 && out[n-1].MsID == p.MsID {
			out[n-1] = p
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// History is a terminal's positions in [from, to], oldest first, at most limit of them (truncated says more
// were left out), on one floor or any (0).
func (s *Store) History(ctx context.Context, customerID int64, msID string, floor FloorID, from, to int64, limit int) ([]Position, bool, error) {
	f := db.Scope("p.customer_id", customerID).Eq("p.ms_id", msID).Between("p.at", from, to).If(floor != 0, "p.floor_id = ?", floor)
	out, total, err := db.List(ctx, s.db, db.ListQuery{Select: posCols, From: `indoor_positions p`, Where: f,
		Order: `p.at, p.id`, Limit: limit}, scanPosition)
	if err != nil {
		return nil, false, err
	}
	return out, total > limit, nil
}

// Prune deletes positions older than before.
func (s *Store) Prune(ctx context.Context, before int64) (int64, error) {
	res, err := s.db.Exec(ctx, `DELETE FROM indoor_positions WHERE at < ?`, before)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
