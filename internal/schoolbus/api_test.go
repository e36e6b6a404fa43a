package schoolbus_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"tenfour/internal/files/filetest"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/schoolbus"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

const wait = 5 * time.Second

var tables = []string{"school_students", "school_punches"}

func student(num, name string) map[string]any {
	return map[string]any{"studentNum": num, "studentName": name, "studentBirth": "2015-04-02", "studentSex": 2,
		"guardianName": "Ayşe " + name, "guardianPhone": "+90 532 000 00 00"}
}

func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
		} else {
			out[kv[i].(string)] = kv[i+1]
		}
	}
	return out
}

func students(t *testing.T, r testkit.Reply) httpx.Page[schoolbus.Student] {
	var p httpx.Page[schoolbus.Student]
	r.Into(t, &p)
	return p
}

func punch(t *testing.T, bus *testkit.Socket, data map[string]any, code string) schoolbus.PunchResult {
	t.Helper()
	r := bus.Call(schoolbus.ReqPunch, data)
	if r.Code != code {
		t.Fatalf("bus.punch %v: %s (%s), want %s", data, r.Code, r.Msg, code)
	}
	var res schoolbus.PunchResult
	if code == "0" {
		r.Into(t, &res)
	}
	return res
}

// Every school-bus call and refusal on both engines, and the punches of a bus terminal: boarded and alighted,
// repeats stored once, who is on which bus now, a student's checklist.
func TestSchoolBus(t *testing.T) { testkit.EachEngine(t, schoolBus) }

func schoolBus(t *testing.T, engine string) {
	s := testkit.StartOn(t, engine)
	e := safetytest.NewEnv(t, s, 2)
	f, tok, otok := e.F, e.Tok, e.OTok
	ttok, err := s.Sessions.Create(context.Background(), f.Terminals[0], f.CustomerID)
	if err != nil {
		t.Fatal(err)
	}
	con := e.Console()
	var ada, bo schoolbus.Student
	// Avatars: the customer's own image in the file store, by id or address; nothing else.
	photo := filetest.MustUpload(t, s, tok, "ada.png", filetest.PNG(), "")
	pdf := filetest.MustUpload(t, s, tok, "ada.pdf", filetest.PDF(), "")
	othersPhoto := filetest.MustUpload(t, s, otok, "ola.png", filetest.PNG(), "")
	avatar := func(v string) map[string]any { return with(student("S1", "Ada"), "studentAvatar", v) }
	api := testkit.APITest{Server: s, State: tables, Socket: con}
	api.Run(t, []testkit.Scenario{
		{Name: "add: no token", Method: "POST", Path: "/ds/schoolCar/add", Params: student("S1", "Ada"), Code: "105", Status: 401},
		{Name: "add: a terminal's session", Method: "POST", Path: "/ds/schoolCar/add", Token: ttok, Params: student("S1", "Ada"), Code: "107"},
		{Name: "add: no number", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "studentNum", nil), Code: "137"},
		{Name: "add: no name", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "studentName", " "), Code: "137"},
		{Name: "add: no guardian", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "guardianName", nil), Code: "137"},
		{Name: "add: no guardian phone", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "guardianPhone", nil), Code: "137"},
		{Name: "add: a phone of letters", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "guardianPhone", "call me"), Code: "139"},
		{Name: "add: a phone too short", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "guardianPhone", "12"), Code: "139"},
		{Name: "add: born tomorrow", Method: "POST", Path: "/ds/schoolCar/add", Token: tok,
			Params: with(student("S1", "Ada"), "studentBirth", time.Now().AddDate(0, 0, 2).Format(time.DateOnly)), Code: "400"},
		{Name: "add: not a date", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "studentBirth", "02/04/2015"), Code: "400"},
		{Name: "add: a sex that is not listed", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "studentSex", 7), Code: "400"},
		{Name: "add: a name too long", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "studentName", strings.Repeat("a", 41)), Code: "400"},
		{Name: "add: a name with a zero-width space", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: with(student("S1", "Ada"), "studentName", "A\u200bda"), Code: "400"},
		{Name: "add: an avatar too long", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: avatar("/filews/files/" + strings.Repeat("a", 500)), Code: "400"},
		{Name: "add: a javascript: avatar", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: avatar("javascript:alert(document.cookie)"), Code: "161"},
		{Name: "add: an avatar on another site", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: avatar("https://evil.example/filews/files/" + photo.ID), Code: "161"},
		{Name: "add: a protocol-relative avatar", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: avatar("//evil.example/a.png"), Code: "161"},
		{Name: "add: an avatar that is no file id", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: avatar("/filews/files/abc"), Code: "161"},
		{Name: "add: an unknown file as avatar", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: avatar(strings.Repeat("ab", 16)), Code: "161"},
		{Name: "add: another customer's image as avatar", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: avatar(othersPhoto.URL), Code: "161"},
		{Name: "add: a document as avatar", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: avatar(pdf.URL), Code: "161"},
		{Name: "add", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: avatar(photo.URL + "?token=x"), Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				r.Into(t, &ada)
				if ada.ID == 0 || ada.StudentNum != "S1" || ada.StudentSex != 2 || ada.StudentBirth != "2015-04-02" ||
					ada.GuardianPhone != "+90 532 000 00 00" || ada.OnBus != "" || ada.StudentAvatar != "/filews/files/"+photo.ID {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "add: the number exists", Method: "POST", Path: "/ds/schoolCar/add", Token: tok, Params: student("S1", "Other"), Code: "138", Status: 409},
		{Name: "add: the same number at another customer, the avatar by file id", Method: "POST", Path: "/ds/schoolCar/add", Token: otok,
			Params: with(student("S1", "Ola"), "studentAvatar", othersPhoto.ID), Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				var st schoolbus.Student
				r.Into(t, &st)
				if st.StudentAvatar != "/filews/files/"+othersPhoto.ID {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "add: only the required fields", Method: "POST", Path: "/ds/schoolCar/add", Token: tok,
			Params: map[string]any{"studentNum": "S2", "studentName": "Bo", "guardianName": "Kim", "guardianPhone": "5550100"}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) { r.Into(t, &bo) }},
	})
	api.Run(t, []testkit.Scenario{ // by the id add answered
		// The console's edit replaces every field by add's rules; the number stays unique.
		{Name: "update: a terminal's session", Method: "PUT", Path: "/ds/schoolCar/update", Token: ttok,
			Params: with(student("S1", "Ada"), "id", ada.ID), Code: "107"},
		{Name: "update: no id", Method: "PUT", Path: "/ds/schoolCar/update", Token: tok, Params: student("S1", "Ada"), Code: "400"},
		{Name: "update: another customer's student", Method: "PUT", Path: "/ds/schoolCar/update", Token: otok,
			Params: with(student("S1", "Ada"), "id", ada.ID), Code: "404"},
		{Name: "update: no guardian", Method: "PUT", Path: "/ds/schoolCar/update", Token: tok,
			Params: with(student("S1", "Ada"), "id", ada.ID, "guardianName", nil), Code: "137"},
		{Name: "update: a phone of letters", Method: "PUT", Path: "/ds/schoolCar/update", Token: tok,
			Params: with(student("S1", "Ada"), "id", ada.ID, "guardianPhone", "call me"), Code: "139"},
		{Name: "update: another customer's image as avatar", Method: "PUT", Path: "/ds/schoolCar/update", Token: tok,
			Params: with(avatar(othersPhoto.URL), "id", ada.ID), Code: "161"},
		{Name: "update: another student's number", Method: "PUT", Path: "/ds/schoolCar/update", Token: tok,
			Params: with(student("S2", "Ada"), "id", ada.ID), Code: "138", Status: 409},
		{Name: "update", Method: "PUT", Path: "/ds/schoolCar/update", Token: tok,
			Params: with(avatar(photo.ID), "id", ada.ID, "guardianName", "Deniz", "guardianPhone", "5550199"), Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var st schoolbus.Student
				r.Into(t, &st)
				if st.ID != ada.ID || st.StudentNum != "S1" || st.GuardianName != "Deniz" || st.GuardianPhone != "5550199" ||
					st.StudentAvatar != "/filews/files/"+photo.ID || st.CreateTime != ada.CreateTime {
					t.Fatalf("%s", r.Result)
				}
			}},

		{Name: "list", Method: "GET", Path: "/ds/schoolCar/list", Token: tok, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if p := students(t, r); p.Total != 2 || p.List[0].StudentNum != "S1" || p.List[1].StudentNum != "S2" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "list: by keyword (guardian)", Method: "GET", Path: "/ds/schoolCar/list", Token: tok, Params: map[string]any{"keyword": "kim"}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if p := students(t, r); p.Total != 1 || p.List[0].StudentName != "Bo" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "list: by keyword (number), any case", Method: "GET", Path: "/ds/schoolCar/list", Token: tok, Params: map[string]any{"keyword": "s2"},
			Code: "0", Contains: []string{`"total":1`, `"studentNum":"S2"`}},
		// LIKE's wildcards match themselves: "_" is no "any character" (S1, S2), "%" no "anything".
		{Name: "list: by keyword, _ is literal", Method: "GET", Path: "/ds/schoolCar/list", Token: tok, Params: map[string]any{"keyword": "S_"},
			Code: "0", Contains: []string{`"total":0`}},
		{Name: "list: by keyword, % is literal", Method: "GET", Path: "/ds/schoolCar/list", Token: tok, Params: map[string]any{"keyword": "%"},
			Code: "0", Contains: []string{`"total":0`}},
		{Name: "list: another customer's", Method: "GET", Path: "/ds/schoolCar/list", Token: otok, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				if p := students(t, r); p.Total != 1 || p.List[0].StudentName != "Ola" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "list: page size too big", Method: "GET", Path: "/ds/schoolCar/list", Token: tok, Params: map[string]any{"pageSize": 5000}, Code: "400"},
	})

	// A bus terminal punches cards.
	bus := testkit.Terminal(t, s.URL, f.Terminals[0], safetytest.Password)
	bus2 := testkit.Terminal(t, s.URL, f.Terminals[1], safetytest.Password)
	before := testkit.Snapshot(t, s.DB, tables...)
	punch(t, bus, map[string]any{"studentNum": "S9", "kind": 1}, "404") // unknown card
	punch(t, bus, map[string]any{"studentNum": "S1", "kind": 3}, "400")
	punch(t, bus, map[string]any{"kind": 1}, "400")
	punch(t, bus, map[string]any{"studentNum": "S1", "kind": 1, "time": time.Now().Add(time.Hour).UnixMilli()}, "400")
	punch(t, bus, map[string]any{"studentNum": "S1", "kind": 1, "time": time.Now().AddDate(0, 0, -8).UnixMilli()}, "400")
	punch(t, bus, map[string]any{"studentNum": "S1", "kind": 1, "lat": 95, "lng": 29}, "400")
	if r := con.Call(schoolbus.ReqPunch, map[string]any{"studentNum": "S1", "kind": 1}); r.Code != "107" {
		t.Fatalf("a console punched: %s", r.Code)
	}
	if after := testkit.Snapshot(t, s.DB, tables...); after != before {
		t.Fatalf("refused punches changed the store:\n%s\n%s", before, after)
	}
	at := time.Now().Add(-10 * time.Minute).UnixMilli()
	res := punch(t, bus, map[string]any{"studentNum": "S1", "kind": "board", "time": at, "lat": 41.02, "lng": 29.01}, "0")
	if res.Duplicate || res.Punch.StudentID != ada.ID || res.Punch.Kind != schoolbus.Boarded || res.Punch.BusID != f.Terminals[0] ||
		res.Punch.Time != at || *res.Punch.Lat != 41.02 {
		t.Fatalf("punch %+v", res)
	}
	ev := con.WaitEvent(schoolbus.EventPunched, wait, nil)
	var p schoolbus.Punched
	ev.Into(t, &p)
	if p.Student.OnBus != f.Terminals[0] || p.Student.BusName != "Unit 1" || p.Punch.ID != res.Punch.ID {
		t.Fatalf("bus.punched %s", ev.Data)
	}
	// The terminal repeats it (no reply before a drop): stored once.
	if again := punch(t, bus, map[string]any{"cardNo": "S1", "kind": 1, "time": at, "lat": 41.02, "lng": 29.01}, "0"); !again.Duplicate ||
		again.Punch.ID != res.Punch.ID {
		t.Fatalf("repeat %+v", again)
	}
	punch(t, bus2, map[string]any{"studentNum": "S2", "kind": 1}, "0")
	api.Run(t, []testkit.Scenario{
		{Name: "onboard: who is on which bus now", Method: "GET", Path: "/ds/schoolCar/onboard", Token: tok, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var res struct{ List []schoolbus.Bus }
				r.Into(t, &res)
				if len(res.List) != 2 || len(res.List[0].Students)+len(res.List[1].Students) != 2 {
					t.Fatalf("%s", r.Result)
				}
				for _, b := range res.List {
					for _, st := range b.Students {
						if (st.StudentNum == "S1") != (b.BusID == f.Terminals[0]) || st.OnBus != b.BusID {
							t.Fatalf("%s", r.Result)
						}
					}
				}
			}},
		{Name: "onboard: one bus", Method: "GET", Path: "/ds/schoolCar/onboard", Token: tok, Params: map[string]any{"busId": f.Terminals[1]}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var res struct{ List []schoolbus.Bus }
				r.Into(t, &res)
				if len(res.List) != 1 || res.List[0].BusName != "Unit 2" || res.List[0].Students[0].StudentNum != "S2" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "onboard: another customer sees no bus", Method: "GET", Path: "/ds/schoolCar/onboard", Token: otok, Code: "0",
			Contains: []string{`"list":[]`}},
		{Name: "list: on a bus", Method: "GET", Path: "/ds/schoolCar/list", Token: tok, Params: map[string]any{"busId": f.Terminals[0]}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				p := students(t, r)
				if p.Total != 1 || p.List[0].OnBus != f.Terminals[0] || p.List[0].LastPunch == nil || p.List[0].LastPunch.Kind != schoolbus.Boarded {
					t.Fatalf("%s", r.Result)
				}
			}},
	})
	punch(t, bus, map[string]any{"studentNum": "S1", "kind": "alight", "lat": 41.03, "lng": 29.02}, "0")
	con.WaitEvent(schoolbus.EventPunched, wait, func(f testkit.Frame) bool {
		var p schoolbus.Punched
		return f.Decode(&p) == nil && p.Punch.Kind == schoolbus.Alighted && p.Student.OnBus == ""
	})
	// A punch buffered offline arrives late: Bo boarding bus 1 13 hours ago does not undo boarding bus 2 now.
	punch(t, bus, map[string]any{"studentNum": "S2", "kind": 1, "time": time.Now().Add(-13 * time.Hour).UnixMilli()}, "0")
	month := time.Now().UTC()
	from := time.Date(month.Year(), month.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	api.Run(t, []testkit.Scenario{
		{Name: "list: alighted is on no bus; an older punch does not undo a later one", Method: "GET", Path: "/ds/schoolCar/list", Token: tok, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				p := students(t, r)
				if p.List[0].OnBus != "" || p.List[0].LastPunch.Kind != schoolbus.Alighted || p.List[1].OnBus != f.Terminals[1] {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "checklist: newest first", Method: "GET", Path: "/ds/schoolCar/checklist", Token: tok, Params: map[string]any{"studentId": ada.ID}, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var pg httpx.Page[schoolbus.Punch]
				r.Into(t, &pg)
				if pg.Total != 2 || pg.List[0].Kind != schoolbus.Alighted || pg.List[1].Kind != schoolbus.Boarded ||
					pg.List[1].BusName != "Unit 1" || pg.List[1].Time != at {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "checklist: no student", Method: "GET", Path: "/ds/schoolCar/checklist", Token: tok, Code: "400"},
		{Name: "checklist: unknown student", Method: "GET", Path: "/ds/schoolCar/checklist", Token: tok, Params: map[string]any{"studentId": 99999}, Code: "404"},
		{Name: "checklist: another customer's student", Method: "GET", Path: "/ds/schoolCar/checklist", Token: otok,
			Params: map[string]any{"studentId": ada.ID}, Code: "404"},
		{Name: "checklist: across months", Method: "GET", Path: "/ds/schoolCar/checklist", Token: tok,
			Params: map[string]any{"studentId": ada.ID, "sTime": from - 1, "eTime": from + 1}, Code: "95"},
		{Name: "delete: no id", Method: "DELETE", Path: "/ds/schoolCar/delete", Token: tok, Code: "400"},
		{Name: "delete: another customer's student", Method: "DELETE", Path: "/ds/schoolCar/delete", Token: otok,
			Params: map[string]any{"id": ada.ID}, Code: "404"},
		{Name: "delete: a terminal's session", Method: "DELETE", Path: "/ds/schoolCar/delete", Token: ttok,
			Params: map[string]any{"id": ada.ID}, Code: "107"},
		{Name: "delete", Method: "DELETE", Path: "/ds/schoolCar/delete", Token: tok, Params: map[string]any{"id": ada.ID}, Code: "0"},
		{Name: "delete: twice", Method: "DELETE", Path: "/ds/schoolCar/delete", Token: tok, Params: map[string]any{"id": ada.ID}, Code: "404"},
		{Name: "checklist: the punches outlive the student", Method: "GET", Path: "/ds/schoolCar/checklist", Token: tok,
			Params: map[string]any{"studentId": ada.ID}, Code: "0", Contains: []string{`"total":2`}},
	})
	var logs int
	if err := s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM oplog WHERE customer_id = ? AND type = 141`, f.CustomerID).Scan(&logs); err != nil {
		t.Fatal(err)
	}
	if logs != 4 {
		t.Fatalf("%d school-bus log entries, want 4 (2 added, 1 changed, 1 removed)", logs)
	}
}

// TestMain: the school-bus fixture's accounts make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
