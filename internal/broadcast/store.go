package broadcast

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/text"
)

// nameField is the rule of every name people set in the broadcast service (organisations, casters, speakers,
// tasks, plans; a library file's original name as "file").
var nameField = text.Field{Name: "name", Max: MaxNameLen, Required: true}

// checkCode validates a code or call number: 1..MaxCodeLen letters, digits, '-', '_' or '.'.
func checkCode(field, v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", httpx.BadParam(field, "required")
	}
	if len(v) > MaxCodeLen {
		return "", httpx.BadParam(field, "too long")
	}
	for _, r := range v {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_' || r == '.') {
			return "", httpx.BadParam(field, "letters, digits, '-', '_' or '.'")
		}
	}
	return v, nil
}

// uniqueErr maps a unique violation on one of the code indexes to its coded error.
func uniqueErr(err error, codeIndex, callIndex string) error {
	if !db.IsUniqueViolation(err) {
		return err
	}
	s := err.Error()
	if strings.Contains(s, "call_number") || (callIndex != "" && strings.Contains(s, callIndex)) {
		return ErrCallTaken
	}
	return ErrCodeTaken
}

// --- organisations ---

const orgCols = `o.id, o.parent_id, o.name, o.code, o.call_number, o.created_at,
	(SELECT COUNT(*) FROM bc_devices d WHERE d.org_id = o.id)`

func scanOrg(r db.Scanner) (Org, error) {
	var o Org
	err := r.Scan(&o.ID, &o.ParentID, &o.Name, &o.Code, &o.CallNumber, &o.CreatedAt, &o.Devices)
	return o, db.NotFound(err)
}

func (s *Service) org(ctx context.Context, customerID, id int64) (Org, error) {
	return scanOrg(s.db.QueryRow(ctx, `SELECT `+orgCols+` FROM bc_orgs o WHERE o.customer_id = ? AND o.id = ?`, customerID, id))
}

func (s *Service) orgs(ctx context.Context, customerID int64, offset, limit int) ([]Org, int, error) {
	return db.List(ctx, s.db, db.ListQuery{Select: orgCols, From: `bc_orgs o`, Where: db.Scope("o.customer_id", customerID),
		Order: `o.parent_id, o.id`, Offset: offset, Limit: limit}, scanOrg)
}

type orgIn struct {
	ParentID   *int64
	Name       *string
	Code       *string
	CallNumber *string
	Password   *string
}

func (s *Service) createOrg(ctx context.Context, customerID int64, in orgIn) (Org, error) {
	var o Org
	var err error
	if in.Name == nil || in.Code == nil || in.CallNumber == nil {
		for f, v := range map[string]*string{"name": in.Name, "code": in.Code, "call_number": in.CallNumber} {
			if v == nil {
				return o, httpx.BadParam(f, "required")
			}
		}
	}
	if o.Name, err = nameField.Check(*in.Name); err != nil {
		return o, err
	}
	if o.Code, err = checkCode("code", *in.Code); err != nil {
		return o, err
	}
	if o.CallNumber, err = checkCode("call_number", *in.CallNumber); err != nil {
		return o, err
	}
	if in.ParentID != nil {
		o.ParentID = *in.ParentID
	}
	if o.ParentID != 0 {
		if _, err := s.org(ctx, customerID, o.ParentID); err != nil {
			return o, notFoundAs(err, "parent_id")
		}
	}
	pass := ""
	if in.Password != nil {
		pass = *in.Password
	}
	if err := s.checkPassword(pass); err != nil {
		return o, err
	}
	if err := s.underCap(ctx, `SELECT COUNT(*) FROM bc_orgs WHERE customer_id = ?`, customerID, MaxOrgs, ErrOrgsFull); err != nil {
		return o, err
	}
	o.CreatedAt = s.Now().UnixMilli()
	err = s.db.WriteRow(ctx, `INSERT INTO bc_orgs (customer_id, parent_id, name, code, call_number, created_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, customerID, o.ParentID, o.Name, o.Code, o.CallNumber, o.CreatedAt).Scan(&o.ID)
	if err != nil {
		return o, uniqueErr(err, "bc_orgs_code", "bc_orgs_call_number")
	}
	if err := s.setPassword(ctx, auth.RealmSpeaker, orgLogin(o.ID), customerID, pass); err != nil {
		// nothing half-way: the organisation goes again
		if _, derr := s.db.Exec(context.WithoutCancel(ctx), `DELETE FROM bc_orgs WHERE id = ?`, o.ID); derr != nil {
			slog.ErrorContext(ctx, "broadcast: undo an organisation", "org", o.ID, "err", derr)
		}
		return Org{}, err
	}
	return o, nil
}

// underCap refuses with full when the count query (of one customer) has reached limit (docs/adr/0018 "Limits").
// Creations that race may pass it together: the limit bounds growth, it is not an exact count.
func (s *Service) underCap(ctx context.Context, count string, customerID int64, limit int, full error) error {
	var n int
	if err := s.db.QueryRow(ctx, count, customerID).Scan(&n); err != nil {
		return err
	}
	if n >= limit {
		return full
	}
	return nil
}

// orgLogin is an organisation's speaker login at auth (RealmSpeaker).
func orgLogin(id int64) string { return strconv.FormatInt(id, 10) }

// checkPassword refuses a password that is neither the md5 of one nor none ("" or '{secret}'), before anything
// is stored.
func (s *Service) checkPassword(md5hex string) error { return auth.CheckMD5(md5hex) }

// setPassword has auth keep a login's password (md5; "" or '{secret}': none).
func (s *Service) setPassword(ctx context.Context, realm, login string, customerID int64, md5hex string) error {
	if s.auth == nil {
		if md5hex == "" || md5hex == Secret {
			return nil
		}
		return errNoAuth
	}
	return s.auth.SetCredential(ctx, realm, login, customerID, md5hex)
}

// notFoundAs turns an unknown referenced id into a 400 naming the parameter.
func notFoundAs(err error, field string) error {
	if errors.Is(err, db.ErrNotFound) {
		return httpx.BadParam(field, "unknown")
	}
	return err
}

func (s *Service) updateOrg(ctx context.Context, customerID, id int64, in orgIn) (Org, error) {
	cur, err := s.org(ctx, customerID, id)
	if err != nil {
		return cur, err
	}
	if in.Name != nil {
		if cur.Name, err = nameField.Check(*in.Name); err != nil {
			return cur, err
		}
	}
	if in.Code != nil {
		if cur.Code, err = checkCode("code", *in.Code); err != nil {
			return cur, err
		}
	}
	if in.CallNumber != nil {
		if cur.CallNumber, err = checkCode("call_number", *in.CallNumber); err != nil {
			return cur, err
		}
	}
	if in.ParentID != nil && *in.ParentID != cur.ParentID {
		// the new parent may not be the org itself nor one of its descendants
		for p := *in.ParentID; p != 0; {
			if p == id {
				return cur, ErrOrgLoop
			}
			po, err := s.org(ctx, customerID, p)
			if err != nil {
				return cur, notFoundAs(err, "parent_id")
			}
			p = po.ParentID
		}
		cur.ParentID = *in.ParentID
	}
	if in.Password != nil {
		if err := s.checkPassword(*in.Password); err != nil {
			return cur, err
		}
	}
	if _, err := s.db.Exec(ctx, `UPDATE bc_orgs SET name = ?, code = ?, call_number = ?, parent_id = ? WHERE customer_id = ? AND id = ?`,
		cur.Name, cur.Code, cur.CallNumber, cur.ParentID, customerID, id); err != nil {
		return cur, uniqueErr(err, "bc_orgs_code", "bc_orgs_call_number")
	}
	if in.Password != nil {
		if err := s.setPassword(ctx, auth.RealmSpeaker, orgLogin(id), customerID, *in.Password); err != nil {
			return cur, err
		}
	}
	return cur, nil
}

func (s *Service) deleteOrg(ctx context.Context, customerID, id int64) error {
	if err := s.deleteOrgRow(ctx, customerID, id); err != nil {
		return err
	}
	if s.auth == nil {
		return nil
	}
	return s.auth.DropCredential(ctx, auth.RealmSpeaker, orgLogin(id), customerID)
}

func (s *Service) deleteOrgRow(ctx context.Context, customerID, id int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM bc_orgs WHERE customer_id = ? AND id = ?`, customerID, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return db.ErrNotFound
		}
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM bc_devices WHERE org_id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrOrgHasDevices
		}
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM bc_orgs WHERE customer_id = ? AND parent_id = ?`, customerID, id).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrOrgHasChild
		}
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM bc_files WHERE customer_id = ? AND group_id = ?`, customerID, id).Scan(&n); err != nil {
			return err
		}
		if n > 0 { // the files move to the customer's own library rather than vanish
			if _, err := tx.Exec(ctx, `UPDATE bc_files SET group_id = 0 WHERE customer_id = ? AND group_id = ?`, customerID, id); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `DELETE FROM bc_orgs WHERE customer_id = ? AND id = ?`, customerID, id)
		return err
	})
}

// --- casters ---

type casterRow struct {
	Caster
	customerID int64
}

const casterCols = `id, customer_id, user_id, name, code, call_number, priority, created_at`

func scanCaster(r db.Scanner) (casterRow, error) {
	var c casterRow
	err := r.Scan(&c.ID, &c.customerID, &c.UserID, &c.Name, &c.Code, &c.CallNumber, &c.Priority, &c.CreatedAt)
	return c, db.NotFound(err)
}

// casterByCode reads the customer's caster of a code: codes are unique per customer (migration 00230), never
// looked up across customers.
func (s *Service) casterByCode(ctx context.Context, customerID int64, code string) (casterRow, error) {
	return scanCaster(s.db.QueryRow(ctx, `SELECT `+casterCols+` FROM bc_casters WHERE customer_id = ? AND code = ?`, customerID, code))
}

func (s *Service) casters(ctx context.Context, customerID int64, code string) ([]Caster, error) {
	q, args := `SELECT `+casterCols+` FROM bc_casters WHERE customer_id = ?`, []any{customerID}
	if code != "" {
		q += ` AND code = ?`
		args = append(args, code)
	}
	rows, err := s.db.Query(ctx, q+` ORDER BY id`, args...)
	list, err := db.Collect(rows, err, scanCaster)
	out := make([]Caster, len(list))
	for i, c := range list {
		out[i] = c.Caster
	}
	return out, err
}

type casterIn struct {
	UserID, Name, Code, CallNumber, Password string
	Priority                                 int
}

func (s *Service) createCaster(ctx context.Context, customerID int64, in casterIn) (Caster, error) {
	var c Caster
	var err error
	if c.Name, err = nameField.Check(in.Name); err != nil {
		return c, err
	}
	if c.Code, err = checkCode("code", in.Code); err != nil {
		return c, err
	}
	if c.CallNumber, err = checkCode("call_number", in.CallNumber); err != nil {
		return c, err
	}
	if in.UserID != "" {
		if c.UserID, err = httpx.ID("user_id", in.UserID); err != nil {
			return c, err
		}
		// the account whose microphone the caster pages with: one of the caller's customer's, never another's
		// (a caster bound to another customer's dispatcher would reach into that console's live page)
		if err := s.checkAccount(ctx, customerID, c.UserID); err != nil {
			return c, err
		}
	}
	if in.Priority < 1 || in.Priority > 9 {
		return c, httpx.BadParam("priority", "1 to 9")
	}
	c.Priority = in.Priority
	if err := s.checkPassword(in.Password); err != nil {
		return c, err
	}
	if err := s.underCap(ctx, `SELECT COUNT(*) FROM bc_casters WHERE customer_id = ?`, customerID, MaxCasters, ErrCastersFull); err != nil {
		return c, err
	}
	c.CreatedAt = s.Now().UnixMilli()
	err = s.db.WriteRow(ctx, `INSERT INTO bc_casters (customer_id, user_id, name, code, call_number, priority, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, customerID, c.UserID, c.Name, c.Code, c.CallNumber, c.Priority, c.CreatedAt).Scan(&c.ID)
	if err != nil {
		return c, uniqueErr(err, "bc_casters_code", "bc_casters_call_number")
	}
	// The caster's md5 login is auth's (a caster code is its login name, unique in its customer: auth tells
	// customers' same-named logins apart by the password).
	if err := s.setPassword(ctx, auth.RealmBroadcast, c.Code, customerID, in.Password); err != nil {
		if _, derr := s.db.Exec(context.WithoutCancel(ctx), `DELETE FROM bc_casters WHERE id = ?`, c.ID); derr != nil {
			slog.ErrorContext(ctx, "broadcast: undo a caster", "caster", c.ID, "err", derr)
		}
		return Caster{}, err
	}
	return c, nil
}

// --- devices ---

const deviceCols = `id, org_id, name, code, online, ao_volume, seen_at, created_at`

func scanDevice(r db.Scanner) (Device, error) {
	var d Device
	var online bool
	err := r.Scan(&d.ID, &d.OrgID, &d.Name, &d.Code, &online, &d.AoVolume, &d.SeenAt, &d.CreatedAt)
	if err != nil {
		return d, db.NotFound(err)
	}
	if online {
		d.Online = 1
	}
	return d, err
}

func (s *Service) device(ctx context.Context, customerID, id int64) (Device, error) {
	return scanDevice(s.db.QueryRow(ctx, `SELECT `+deviceCols+` FROM bc_devices WHERE customer_id = ? AND id = ?`, customerID, id))
}

func (s *Service) devices(ctx context.Context, customerID, orgID int64, offset, limit int) ([]Device, int, error) {
	return db.List(ctx, s.db, db.ListQuery{Select: deviceCols, From: `bc_devices`,
		Where: db.Scope("customer_id", customerID).If(orgID != 0, "org_id = ?", orgID),
		Order: `id`, Offset: offset, Limit: limit}, scanDevice)
}

type deviceIn struct {
	OrgID      *int64
	Name, Code *string
}

func (s *Service) createDevice(ctx context.Context, customerID int64, in deviceIn) (Device, error) {
	var d Device
	var err error
	if in.OrgID == nil {
		return d, httpx.BadParam("org_id", "required")
	}
	if in.Name == nil {
		return d, httpx.BadParam("name", "required")
	}
	if in.Code == nil {
		return d, httpx.BadParam("code", "required")
	}
	if _, err := s.org(ctx, customerID, *in.OrgID); err != nil {
		return d, notFoundAs(err, "org_id")
	}
	d.OrgID = *in.OrgID
	if d.Name, err = nameField.Check(*in.Name); err != nil {
		return d, err
	}
	if d.Code, err = checkCode("code", *in.Code); err != nil {
		return d, err
	}
	d.AoVolume = DefaultVolume
	d.CreatedAt = s.Now().UnixMilli()
	err = s.db.WriteRow(ctx, `INSERT INTO bc_devices (customer_id, org_id, name, code, ao_volume, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
		customerID, d.OrgID, d.Name, d.Code, d.AoVolume, d.CreatedAt).Scan(&d.ID)
	if err != nil {
		return d, uniqueErr(err, "bc_devices_code", "")
	}
	return d, nil
}

func (s *Service) updateDevice(ctx context.Context, customerID, id int64, in deviceIn) (Device, error) {
	d, err := s.device(ctx, customerID, id)
	if err != nil {
		return d, err
	}
	if in.OrgID != nil {
		if _, err := s.org(ctx, customerID, *in.OrgID); err != nil {
			return d, notFoundAs(err, "org_id")
		}
		d.OrgID = *in.OrgID
	}
	if in.Name != nil {
		if d.Name, err = nameField.Check(*in.Name); err != nil {
			return d, err
		}
	}
	if in.Code != nil {
		if d.Code, err = checkCode("code", *in.Code); err != nil {
			return d, err
		}
	}
	_, err = s.db.Exec(ctx, `UPDATE bc_devices SET org_id = ?, name = ?, code = ? WHERE customer_id = ? AND id = ?`,
		d.OrgID, d.Name, d.Code, customerID, id)
	return d, uniqueErr(err, "bc_devices_code", "")
}

// checkVolume reads a volume 0..100.
func checkVolume(field, v string) (int, error) {
	n, err := httpx.Int(field, v)
	if err != nil || n < 0 || n > 100 {
		return 0, httpx.BadParam(field, "0 to 100")
	}
	return int(n), nil
}

// setVolumes sets ao_volume of devices of the customer (all or none); ids must all exist.
func (s *Service) setVolumes(ctx context.Context, customerID int64, ids []int64, vol int) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			res, err := tx.Exec(ctx, `UPDATE bc_devices SET ao_volume = ? WHERE customer_id = ? AND id = ?`, vol, customerID, id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return httpx.BadParam("device_ids", "unknown device "+itoa(id))
			}
		}
		return nil
	})
}

// checkDevices verifies that every id is a device of the customer.
func (s *Service) checkDevices(ctx context.Context, customerID int64, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	args := []any{customerID}
	for _, id := range ids {
		args = append(args, id)
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM bc_devices WHERE customer_id = ? AND id IN (`+db.Placeholders(len(ids))+`)`,
		args...).Scan(&n); err != nil {
		return err
	}
	if n != len(ids) {
		return httpx.BadParam("device_ids", "unknown device")
	}
	return nil
}

// --- files ---

const fileCols = `id, group_id, original_name, name, length_ms, size, created_at`

func scanFile(r db.Scanner) (File, error) {
	var f File
	err := r.Scan(&f.ID, &f.GroupID, &f.OriginalName, &f.Name, &f.Length, &f.Size, &f.CreatedAt)
	if err != nil {
		return f, db.NotFound(err)
	}
	f.URL = MusicPath + f.Name
	return f, nil
}

func (s *Service) files(ctx context.Context, customerID int64, groupID *int64, offset, limit int) ([]File, int, error) {
	f := db.Scope("customer_id", customerID)
	if groupID != nil {
		f.Eq("group_id", *groupID)
	}
	return db.List(ctx, s.db, db.ListQuery{Select: fileCols, From: `bc_files`, Where: f, Order: `id`, Offset: offset,
		Limit: limit}, scanFile)
}

// filesByID reads files of the customer in the order of ids; an unknown id is a 400 naming field.
func (s *Service) filesByID(ctx context.Context, customerID int64, ids []int64, field string) ([]File, error) {
	out := make([]File, 0, len(ids))
	for _, id := range ids {
		f, err := scanFile(s.db.QueryRow(ctx, `SELECT `+fileCols+` FROM bc_files WHERE customer_id = ? AND id = ?`, customerID, id))
		if err != nil {
			return nil, notFoundAs(err, field)
		}
		out = append(out, f)
	}
	return out, nil
}

// --- plans ---

func scanPlan(r db.Scanner) (Plan, error) {
	var p Plan
	var active bool
	err := r.Scan(&p.ID, &p.Name, &active, &p.CreatedAt, &p.Tasks)
	if err != nil {
		return p, db.NotFound(err)
	}
	if active {
		p.Active = 1
	}
	return p, err
}

const planCols = `p.id, p.name, p.active, p.created_at, (SELECT COUNT(*) FROM bc_tasks t WHERE t.plan_id = p.id)`

func (s *Service) plan(ctx context.Context, customerID, id int64) (Plan, error) {
	return scanPlan(s.db.QueryRow(ctx, `SELECT `+planCols+` FROM bc_plans p WHERE p.customer_id = ? AND p.id = ?`, customerID, id))
}

func (s *Service) plans(ctx context.Context, customerID int64, offset, limit int) ([]Plan, int, error) {
	// the active plan first, then the newest: GET /v1/plan?page=1&limit=1 is "the plan"
	return db.List(ctx, s.db, db.ListQuery{Select: planCols, From: `bc_plans p`, Where: db.Scope("p.customer_id", customerID),
		Order: `p.active DESC, p.id DESC`, Offset: offset, Limit: limit}, scanPlan)
}
