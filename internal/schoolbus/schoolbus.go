// Package schoolbus owns the school-bus punch list (spec §3 "School-bus student", §7 /ds/schoolCar/*): the
// customer's students with their guardian, the card punches bus terminals report over the socket (boarded or
// alighted, time, position), a student's punches (checklist) and who is on which bus now.
package schoolbus

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tenfour/internal/directory"
	"tenfour/internal/files"
	"tenfour/internal/geo"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/clock"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/text"
)

// Kind is what a punch says (docs/terminal-protocol.md "School bus").
type Kind int

const (
	Boarded  Kind = 1
	Alighted Kind = 2
)

// Limits and rules.
const (
	MaxName    = 40  // characters of a student's or guardian's name
	MaxNum     = 32  // characters of a card number
	MaxAvatar  = 500 // an avatar's URL or file reference
	DefPage    = 20
	OnBoardMax = 12 * time.Hour // a boarding without an alighting counts as "on the bus" this long
	MaxAhead   = 5 * time.Minute
	MaxBehind  = 7 * 24 * time.Hour // a punch buffered offline may arrive this late
)

// Error codes (docs/api.md "School bus").
var (
	ErrRequired  = httpx.E(http.StatusBadRequest, "137", "errors.schoolbus.required", "student number, name, guardian name and guardian phone are required")
	ErrNumExists = httpx.E(http.StatusConflict, "138", "errors.schoolbus.numberExists", "a student with this number exists")
	ErrPhone     = httpx.E(http.StatusBadRequest, "139", "errors.schoolbus.phone", "guardian phone: 3 to 20 digits, may hold + - ( ) and spaces")
	// ErrAvatar: an avatar is one of the customer's images in the file store, never a URL of elsewhere (a
	// javascript: or outside address would be opened by every console that shows the student).
	ErrAvatar = httpx.E(http.StatusBadRequest, "161", "errors.schoolbus.avatar", "the avatar is an image uploaded to the file service: its id or /filews/files/{id}")
)

// StudentID is a student's row id.
type StudentID int64

// The three names of a student: a number, the student's name and the guardian's, each required.
var (
	numField  = text.Field{Name: "name", Max: MaxNum, Required: true, Invalid: errIllegal, Missing: ErrRequired}
	nameField = text.Field{Name: "name", Max: MaxName, Required: true, Invalid: errIllegal, Missing: ErrRequired}

	errIllegal = httpx.BadParam("name", "illegal characters")

	// An avatar is optional; what it may be is avatarRef's rule.
	avatarField  = text.Field{Name: "studentAvatar", Max: MaxAvatar, Invalid: errAvatarRef, TooLong: errAvatarRef}
	errAvatarRef = httpx.BadParam("studentAvatar", "a URL or file reference of at most 500 characters")
)

var phoneRe = regexp.MustCompile(`^\+?[0-9 ()\-]{3,24}$`)

// Student is one student (spec §3) with where they are now.
type Student struct {
	ID            StudentID `json:"id"`
	StudentNum    string    `json:"studentNum"`
	StudentName   string    `json:"studentName"`
	StudentAvatar string    `json:"studentAvatar"`
	StudentBirth  string    `json:"studentBirth"`
	StudentSex    int       `json:"studentSex"` // 0 not stated, 1 male, 2 female
	GuardianName  string    `json:"guardianName"`
	GuardianPhone string    `json:"guardianPhone"`
	CreateTime    int64     `json:"createTime"`
	OnBus         string    `json:"onBus"`   // the bus terminal the student is on now, "" when not on a bus
	BusName       string    `json:"busName"` // its name
	LastPunch     *Punch    `json:"lastPunch"`
}

// Punch is one card punch on a bus.
type Punch struct {
	ID          int64     `json:"id"`
	StudentID   StudentID `json:"studentId"`
	StudentNum  string    `json:"studentNum"`
	StudentName string    `json:"studentName"`
	BusID       string    `json:"busId"`
	BusName     string    `json:"busName"`
	Kind        Kind      `json:"kind"`
	Time        int64     `json:"time"`
	Lat         *float64  `json:"lat"`
	Lng         *float64  `json:"lng"`
}

// Bus is a bus terminal and the students on it now (GET /ds/schoolCar/onboard, the bus.punched event).
type Bus struct {
	BusID    string    `json:"busId"`
	BusName  string    `json:"busName"`
	Students []Student `json:"students"`
}

// Directory is what the school bus reads of terminals (internal/directory's Store).
type Directory interface {
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
}

// Files resolves one of the customer's uploads (internal/files' Service): a student's avatar.
type Files interface {
	Get(ctx context.Context, customerID int64, id string) (files.Info, error)
}

// Service keeps students and punches.
type Service struct {
	clock.Clock // SetClock and Now: tests move time instead of sleeping

	db    *db.DB
	dir   Directory
	files Files
	hub   *realtime.Hub
	log   *oplog.Log
}

// New builds the service.
func New(d *db.DB, dir Directory, f Files, hub *realtime.Hub, log *oplog.Log) *Service {
	return &Service{db: d, dir: dir, files: f, hub: hub, log: log}
}

func (s *Service) now() int64 { return s.Now().UnixMilli() }

// NewStudent is what add receives (every scalar a string).
type NewStudent struct {
	StudentNum    string `json:"studentNum"`
	StudentName   string `json:"studentName"`
	StudentAvatar string `json:"studentAvatar"`
	StudentBirth  string `json:"studentBirth"`
	StudentSex    string `json:"studentSex"`
	GuardianName  string `json:"guardianName"`
	GuardianPhone string `json:"guardianPhone"`
}

// Check applies the rules and returns the student to store.
func (n NewStudent) Check(now time.Time) (Student, error) {
	var st Student
	var err error
	if st.StudentNum, err = numField.Check(n.StudentNum); err != nil {
		return st, err
	}
	if st.StudentName, err = nameField.Check(n.StudentName); err != nil {
		return st, err
	}
	if st.GuardianName, err = nameField.Check(n.GuardianName); err != nil {
		return st, err
	}
	phone := strings.TrimSpace(n.GuardianPhone)
	if phone == "" {
		return st, ErrRequired
	}
	digits := strings.Count(phone, "0") + strings.Count(phone, "1") + strings.Count(phone, "2") + strings.Count(phone, "3") +
		strings.Count(phone, "4") + strings.Count(phone, "5") + strings.Count(phone, "6") + strings.Count(phone, "7") +
		strings.Count(phone, "8") + strings.Count(phone, "9")
	if !phoneRe.MatchString(phone) || digits < 3 || digits > 20 {
		return st, ErrPhone
	}
	st.GuardianPhone = phone
	if st.StudentAvatar, err = avatarField.Check(n.StudentAvatar); err != nil {
		return st, err
	}
	if st.StudentAvatar != "" {
		if st.StudentAvatar = avatarRef(st.StudentAvatar); st.StudentAvatar == "" {
			return st, ErrAvatar
		}
	}
	if b := strings.TrimSpace(n.StudentBirth); b != "" {
		d, err := time.Parse(time.DateOnly, b)
		if err != nil || d.After(now) || d.Year() < 1900 {
			return st, httpx.BadParam("studentBirth", "YYYY-MM-DD, not in the future")
		}
		st.StudentBirth = b
	}
	switch strings.TrimSpace(n.StudentSex) {
	case "", "0":
	case "1":
		st.StudentSex = 1
	case "2":
		st.StudentSex = 2
	default:
		return st, httpx.BadParam("studentSex", "0 not stated, 1 male, 2 female")
	}
	return st, nil
}

// avatarRef is an avatar reference as it is stored, the file store's own address /filews/files/{id}: from a
// bare file id or that address (a query such as ?token=… dropped); "" for anything else — another scheme or
// host, a relative path elsewhere.
func avatarRef(v string) string {
	if i := strings.IndexAny(v, "?#"); i >= 0 {
		v = v[:i]
	}
	id := strings.TrimPrefix(v, files.FilesPath)
	if !files.ValidID(id) {
		return ""
	}
	return files.URL(id)
}

// checkAvatar tells whether an avatar reference (avatarRef's form) is one of the customer's images.
func (s *Service) checkAvatar(ctx context.Context, customerID int64, ref string) error {
	if ref == "" {
		return nil
	}
	if s.files == nil {
		return ErrAvatar
	}
	f, err := s.files.Get(ctx, customerID, strings.TrimPrefix(ref, files.FilesPath))
	switch {
	case errors.Is(err, db.ErrNotFound):
		return ErrAvatar
	case err != nil:
		return err
	case f.Kind != files.Image:
		return ErrAvatar
	}
	return nil
}

// Add is POST /ds/schoolCar/add {studentNum, studentName, studentAvatar?, studentBirth?, studentSex?,
// guardianName, guardianPhone}: it stores a student (log: school bus).
func (s *Service) Add(ctx context.Context, p identity.Principal, n NewStudent) (Student, error) {
	return s.save(ctx, p, 0, n)
}

// Update replaces every field of a student; their punches keep pointing at them (log: school bus).
func (s *Service) Update(ctx context.Context, p identity.Principal, id StudentID, n NewStudent) (Student, error) {
	return s.save(ctx, p, id, n)
}

// save checks n by one set of rules for both, and stores it as a new student (id 0) or over student id; the
// number stays unique either way.
func (s *Service) save(ctx context.Context, p identity.Principal, id StudentID, n NewStudent) (Student, error) {
	st, err := n.Check(time.UnixMilli(s.now()))
	if err != nil {
		return st, err
	}
	if err := s.checkAvatar(ctx, p.CustomerID, st.StudentAvatar); err != nil {
		return Student{}, err
	}
	var done string
	var detail oplog.Detail
	if id == 0 {
		st.CreateTime = s.now()
		err = s.db.WriteRow(ctx, `INSERT INTO school_students (customer_id, student_num, student_name, student_avatar, student_birth,
			student_sex, guardian_name, guardian_phone, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			p.CustomerID, st.StudentNum, st.StudentName, st.StudentAvatar, st.StudentBirth, st.StudentSex, st.GuardianName,
			st.GuardianPhone, p.AccountID, st.CreateTime).Scan(&st.ID)
		done, detail = "added", oplog.D("studentAdded", "number", st.StudentNum, "student", st.StudentName)
	} else {
		err = db.OneRow(s.db.Exec(ctx, `UPDATE school_students SET student_num = ?, student_name = ?, student_avatar = ?,
			student_birth = ?, student_sex = ?, guardian_name = ?, guardian_phone = ? WHERE id = ? AND customer_id = ?`,
			st.StudentNum, st.StudentName, st.StudentAvatar, st.StudentBirth, st.StudentSex, st.GuardianName, st.GuardianPhone,
			id, p.CustomerID))
		done, detail = "changed", oplog.D("studentChanged", "number", st.StudentNum, "student", st.StudentName)
	}
	if db.IsUniqueViolation(err) {
		return Student{}, ErrNumExists
	}
	if err != nil {
		return Student{}, err
	}
	s.log.By(ctx, p, oplog.SchoolBus, "school-bus student "+st.StudentNum+" "+st.StudentName+" "+done, detail)
	if id == 0 {
		return st, nil
	}
	return s.Get(ctx, p.CustomerID, id) // with where the student is now
}

// Delete removes a student; their punches stay as records (log: school bus).
func (s *Service) Delete(ctx context.Context, p identity.Principal, id StudentID) error {
	st, err := s.Get(ctx, p.CustomerID, id)
	if err != nil {
		return err
	}
	if err := db.OneRow(s.db.Exec(ctx, `DELETE FROM school_students WHERE id = ? AND customer_id = ?`, id, p.CustomerID)); err != nil {
		return err
	}
	s.log.By(ctx, p, oplog.SchoolBus, "school-bus student "+st.StudentNum+" "+st.StudentName+" removed",
		oplog.D("studentRemoved", "number", st.StudentNum, "student", st.StudentName))
	return nil
}

const studentCols = `id, student_num, student_name, student_avatar, student_birth, student_sex, guardian_name,
	guardian_phone, created_at`

func scanStudent(r db.Scanner) (Student, error) {
	var st Student
	err := r.Scan(&st.ID, &st.StudentNum, &st.StudentName, &st.StudentAvatar, &st.StudentBirth, &st.StudentSex,
		&st.GuardianName, &st.GuardianPhone, &st.CreateTime)
	if st.StudentAvatar != "" { // a row stored before avatars were checked answers only a file store address
		st.StudentAvatar = avatarRef(st.StudentAvatar)
	}
	return st, err
}

// students reads the customer's students of f in order (a page of them when limit > 0) and their count.
func (s *Service) students(ctx context.Context, f *db.Filter, offset, limit int) ([]Student, int, error) {
	return db.List(ctx, s.db, db.ListQuery{Select: studentCols, From: `school_students`, Where: f,
		Order: `student_num, id`, Offset: offset, Limit: limit}, scanStudent)
}

// Get reads one student of the customer.
func (s *Service) Get(ctx context.Context, customerID int64, id StudentID) (Student, error) {
	list, _, err := s.students(ctx, db.Scope("customer_id", customerID).Eq("id", id), 0, 0)
	if err == nil && len(list) == 0 {
		err = db.ErrNotFound
	}
	if err != nil {
		return Student{}, err
	}
	if err := s.where(ctx, customerID, list); err != nil {
		return Student{}, err
	}
	return list[0], nil
}

// ListQuery filters List.
type ListQuery struct {
	Keyword string // in the number, the name or the guardian's name
	BusID   string // only the students on this bus now
	Offset  int
	Limit   int
}

// List returns the customer's students by number and the total count.
func (s *Service) List(ctx context.Context, customerID int64, q ListQuery) ([]Student, int, error) {
	f := db.Scope("customer_id", customerID).Contains(q.Keyword, "student_num", "student_name", "guardian_name")
	if q.BusID != "" {
		buses, err := s.OnBoard(ctx, customerID, q.BusID)
		if err != nil {
			return nil, 0, err
		}
		var ids []StudentID
		for _, b := range buses {
			for _, st := range b.Students {
				ids = append(ids, st.ID)
			}
		}
		f.In("id", db.Args(ids))
	}
	if q.Limit <= 0 {
		q.Limit = DefPage
	}
	list, total, err := s.students(ctx, f, q.Offset, q.Limit)
	if err != nil {
		return nil, 0, err
	}
	return list, total, s.where(ctx, customerID, list)
}

const punchCols = `id, student_id, student_num, student_name, bus_id, kind, at, lat, lng`

func scanPunch(r db.Scanner) (Punch, error) {
	var p Punch
	var lat, lng *float64
	err := r.Scan(&p.ID, &p.StudentID, &p.StudentNum, &p.StudentName, &p.BusID, &p.Kind, &p.Time, &lat, &lng)
	p.Lat, p.Lng = lat, lng
	return p, err
}

// later tells whether a is a later punch than b (by time, then by arrival).
func later(a, b Punch) bool { return a.Time > b.Time || (a.Time == b.Time && a.ID > b.ID) }

// where fills each student's last punch and the bus they are on now.
func (s *Service) where(ctx context.Context, customerID int64, list []Student) error {
	if len(list) == 0 {
		return nil
	}
	ids := make([]StudentID, len(list))
	for i, st := range list {
		ids[i] = st.ID
	}
	punches, _, err := db.List(ctx, s.db, db.ListQuery{Select: punchCols, From: `school_punches p`,
		Where: db.Scope("customer_id", customerID).In("student_id", db.Args(ids)).And(`at = (SELECT MAX(at)
		FROM school_punches q WHERE q.student_id = p.student_id AND q.customer_id = p.customer_id)`), Order: `at, id`}, scanPunch)
	if err != nil {
		return err
	}
	last := map[StudentID]Punch{}
	for _, p := range punches {
		if cur, ok := last[p.StudentID]; !ok || later(p, cur) {
			last[p.StudentID] = p
		}
	}
	if err := s.busNames(ctx, customerID, punches); err != nil {
		return err
	}
	for _, p := range punches {
		if cur := last[p.StudentID]; cur.ID == p.ID {
			last[p.StudentID] = p // with its bus name
		}
	}
	now := s.now()
	for i := range list {
		p, ok := last[list[i].ID]
		if !ok {
			continue
		}
		list[i].LastPunch = &p
		if p.Kind == Boarded && now-p.Time < OnBoardMax.Milliseconds() {
			list[i].OnBus, list[i].BusName = p.BusID, p.BusName
		}
	}
	return nil
}

// busNames fills the punches' bus names from the directory.
func (s *Service) busNames(ctx context.Context, customerID int64, punches []Punch) error {
	if len(punches) == 0 {
		return nil
	}
	ids := make([]directory.TerminalID, 0, len(punches))
	for _, p := range punches {
		ids = append(ids, directory.TerminalID(p.BusID))
	}
	names, err := s.dir.Names(ctx, directory.CustomerID(customerID), ids)
	if err != nil {
		return err
	}
	for i := range punches {
		punches[i].BusName = names[directory.TerminalID(punches[i].BusID)]
	}
	return nil
}

// OnBoard lists the buses (all, or busID) with the students on them now: those whose last punch, less than
// OnBoardMax ago, boarded that bus. Buses without students are left out.
func (s *Service) OnBoard(ctx context.Context, customerID int64, busID string) ([]Bus, error) {
	now := s.now()
	punches, _, err := db.List(ctx, s.db, db.ListQuery{Select: punchCols, From: `school_punches`,
		Where: db.Scope("customer_id", customerID).And("at > ?", now-OnBoardMax.Milliseconds()), Order: `at, id`}, scanPunch)
	if err != nil {
		return nil, err
	}
	last := map[StudentID]Punch{}
	for _, p := range punches {
		if cur, ok := last[p.StudentID]; !ok || later(p, cur) {
			last[p.StudentID] = p
		}
	}
	var ids []StudentID
	for id, p := range last {
		if p.Kind == Boarded && (busID == "" || p.BusID == busID) {
			ids = append(ids, id)
		}
	}
	out := []Bus{}
	if len(ids) == 0 {
		return out, nil
	}
	students, _, err := s.students(ctx, db.Scope("customer_id", customerID).In("id", db.Args(ids)), 0, 0)
	if err != nil {
		return nil, err
	}
	var onBoard []Punch
	for _, st := range students {
		onBoard = append(onBoard, last[st.ID])
	}
	if err := s.busNames(ctx, customerID, onBoard); err != nil {
		return nil, err
	}
	index := map[string]int{}
	for i, st := range students {
		p := onBoard[i]
		st.LastPunch, st.OnBus, st.BusName = &p, p.BusID, p.BusName
		k, ok := index[p.BusID]
		if !ok {
			k = len(out)
			index[p.BusID] = k
			out = append(out, Bus{BusID: p.BusID, BusName: p.BusName, Students: []Student{}})
		}
		out[k].Students = append(out[k].Students, st)
	}
	return out, nil
}

// Checklist returns a student's punches, newest first, and their count (the student may have been deleted:
// their punches stay records).
func (s *Service) Checklist(ctx context.Context, customerID int64, studentID StudentID, from, to int64, offset, limit int) ([]Punch, int, error) {
	f := db.Scope("customer_id", customerID).Eq("student_id", studentID)
	if to > 0 {
		f.Between("at", from, to)
	}
	list, total, err := db.List(ctx, s.db, db.ListQuery{Select: punchCols, From: `school_punches`, Where: f,
		Order: `at DESC, id DESC`, Offset: offset, Limit: limit}, scanPunch)
	if err != nil {
		return nil, 0, err
	}
	if total == 0 {
		if _, err := s.Get(ctx, customerID, studentID); err != nil {
			return nil, 0, err
		}
	}
	return list, total, s.busNames(ctx, customerID, list)
}

// RawPunch is a terminal's `bus.punch`.
type RawPunch struct {
	StudentNum string `json:"studentNum"`
	CardNo     string `json:"cardNo"` // alias
	Kind       string `json:"kind"`   // 1 / "board" boarded, 2 / "alight" alighted
	Time       string `json:"time"`   // ms; absent: now
	Lat        string `json:"lat"`
	Lng        string `json:"lng"`
}

// PunchResult is the reply to `bus.punch`.
type PunchResult struct {
	Punch     Punch `json:"punch"`
	Duplicate bool  `json:"duplicate"` // this punch was stored before (a repeat): nothing changed
}

// Record stores a bus terminal's card punch and tells the consoles (durable `bus.punched`). A repeat of a
// stored punch (same student, bus, kind and time) answers duplicate and stores nothing.
func (s *Service) Record(ctx context.Context, p identity.Principal, raw RawPunch) (PunchResult, error) {
	num := strings.TrimSpace(raw.StudentNum)
	if num == "" {
		num = strings.TrimSpace(raw.CardNo)
	}
	if num == "" {
		return PunchResult{}, httpx.BadParam("studentNum", "required")
	}
	if n, ok := text.Name(num); !ok || n != num || utf8.RuneCountInString(num) > MaxNum {
		return PunchResult{}, httpx.BadParam("studentNum", "not a card number")
	}
	var pu Punch
	switch strings.TrimSpace(raw.Kind) {
	case "1", "board", "boarded":
		pu.Kind = Boarded
	case "2", "alight", "alighted":
		pu.Kind = Alighted
	default:
		return PunchResult{}, httpx.BadParam("kind", "1 boarded or 2 alighted")
	}
	now := s.now()
	pu.Time = now
	if t := strings.TrimSpace(raw.Time); t != "" {
		ms, err := strconv.ParseInt(t, 10, 64)
		if err != nil || ms > now+MaxAhead.Milliseconds() || ms < now-MaxBehind.Milliseconds() {
			return PunchResult{}, httpx.BadParam("time", "ms, at most 7 days old and not ahead of the server")
		}
		pu.Time = ms
	}
	if la, lo := strings.TrimSpace(raw.Lat), strings.TrimSpace(raw.Lng); la != "" || lo != "" {
		lat, err1 := strconv.ParseFloat(la, 64)
		lng, err2 := strconv.ParseFloat(lo, 64)
		lat, lng = geo.NormalizeCoord(lat), geo.NormalizeCoord(lng)
		if err1 != nil || err2 != nil || !(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180) {
			return PunchResult{}, httpx.BadParam("lat", "a position on the globe")
		}
		pu.Lat, pu.Lng = &lat, &lng
	}
	found, _, err := s.students(ctx, db.Scope("customer_id", p.CustomerID).Eq("student_num", num), 0, 0)
	if err != nil {
		return PunchResult{}, err
	}
	if len(found) == 0 {
		return PunchResult{}, httpx.ErrNotFound
	}
	st := found[0]
	pu.StudentID, pu.StudentNum, pu.StudentName, pu.BusID, pu.BusName = st.ID, st.StudentNum, st.StudentName, p.AccountID, p.Name
	err = s.db.WriteRow(ctx, `INSERT INTO school_punches (customer_id, student_id, student_num, student_name, bus_id, kind, at,
		lat, lng, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, p.CustomerID, pu.StudentID, pu.StudentNum,
		pu.StudentName, pu.BusID, int(pu.Kind), pu.Time, pu.Lat, pu.Lng, now).Scan(&pu.ID)
	if db.IsUniqueViolation(err) {
		if err := s.db.QueryRow(ctx, `SELECT id FROM school_punches WHERE customer_id = ? AND student_id = ? AND bus_id = ?
			AND kind = ? AND at = ?`, p.CustomerID, pu.StudentID, pu.BusID, int(pu.Kind), pu.Time).Scan(&pu.ID); err != nil {
			return PunchResult{}, err
		}
		return PunchResult{Punch: pu, Duplicate: true}, nil
	}
	if err != nil {
		return PunchResult{}, err
	}
	// Stored: the terminal may forget it now. A failed publish leaves the consoles to read it from the lists.
	bg := context.WithoutCancel(ctx)
	cur, err := s.Get(bg, p.CustomerID, st.ID)
	if err != nil {
		cur = st
	}
	if _, err := s.hub.PublishDurable(bg, p.CustomerID, EventPunched, Punched{Punch: pu, Student: cur}, realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "schoolbus: publish punch", "id", pu.ID, "err", err)
	}
	return PunchResult{Punch: pu}, nil
}

// Punched is the `bus.punched` event: the punch and the student with where they are now.
type Punched struct {
	Punch   Punch   `json:"punch"`
	Student Student `json:"student"`
}

// Socket message types (docs/terminal-protocol.md "School bus", docs/console-socket.md).
const (
	ReqPunch     = "bus.punch"   // terminal → server: a student's card punched on the bus
	EventPunched = "bus.punched" // durable, to consoles: a punch and the student's place
)

// Verbs are the school-bus socket messages.
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		realtime.On(ReqPunch, realtime.TerminalOnly, func(ctx context.Context, c *realtime.Conn, req punchReq) (any, error) {
			return s.Record(ctx, c.Principal(), req.raw())
		}),
		realtime.Event(EventPunched, realtime.ConsoleOnly),
	}
}

// punchReq is `bus.punch`'s payload in the lenient types terminals send.
type punchReq struct {
	StudentNum flex.String `json:"studentNum"`
	CardNo     flex.String `json:"cardNo"`
	Kind       flex.String `json:"kind"`
	Time       flex.String `json:"time"`
	Lat        flex.String `json:"lat"`
	Lng        flex.String `json:"lng"`
}

func (r punchReq) raw() RawPunch {
	return RawPunch{StudentNum: string(r.StudentNum), CardNo: string(r.CardNo), Kind: string(r.Kind), Time: string(r.Time),
		Lat: string(r.Lat), Lng: string(r.Lng)}
}
