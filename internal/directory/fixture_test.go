package directory_test

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

func mustExec(t testing.TB, d *db.DB, q string, args ...any) {
	t.Helper()
	if _, err := d.Exec(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func newGroup(t testing.TB, d *db.DB, cust int64, name string, parent directory.GroupID, kind string) directory.GroupID {
	t.Helper()
	var id int64
	if err := d.WriteRow(context.Background(), `INSERT INTO ptt_groups (customer_id, parent_id, name, kind, seq_num, created_at)
		VALUES (?, ?, ?, ?, (SELECT COUNT(*) + 1 FROM ptt_groups WHERE customer_id = ? AND parent_id = ?), ?) RETURNING id`,
		cust, int64(parent), name, kind, cust, int64(parent), time.Now().UnixMilli()).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return directory.GroupID(id)
}

// newAccount adds an account; its first group (if any) is its default and ptt group.
func newAccount(t testing.TB, d *db.DB, cust int64, id, typ, name string, groups ...directory.GroupID) {
	t.Helper()
	var def any
	if len(groups) > 0 {
		def = int64(groups[0])
	}
	mustExec(t, d, `INSERT INTO accounts (id, customer_id, type, name, password_hash, default_group_id, ptt_group_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, cust, typ, name, testkit.PasswordHash(t), def, def, time.Now().UnixMilli())
	for _, g := range groups {
		mustExec(t, d, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?)`, int64(g), id)
	}
}

func setPos(t testing.TB, d *db.DB, id string, lat, lng float64) {
	t.Helper()
	mustExec(t, d, `UPDATE accounts SET lat = ?, lng = ?, last_gps_at = ? WHERE id = ?`, lat, lng, time.Now().UnixMilli(), id)
}

// world is two customers: Alpha (the caller in most tests) and Bravo (the other tenant).
type world struct {
	d                        *db.DB
	alpha, bravo             int64
	aOps, aSub, aEmpty, aTmp directory.GroupID // Alpha: Ops ⊃ Sub, Empty, a temp group
	bOps, bTmp               directory.GroupID
}

const (
	aDisp   = "11000001"
	aRadio  = "11000101" // type 6, Ops
	aApp    = "11000102" // type 10, Ops + Sub
	aCam    = "11000103" // camera, Sub
	aLoose  = "11000104" // no group
	bDisp   = "22000001"
	bRadio  = "22000101"
	bLoose  = "22000102"
	unknown = "99999999"
)

func buildWorld(t testing.TB, d *db.DB) *world {
	t.Helper()
	w := &world{d: d}
	w.alpha = testkit.Customer(t, d, "Alpha")
	w.bravo = testkit.Customer(t, d, "Bravo")
	w.aOps = newGroup(t, d, w.alpha, "Alpha Ops", 0, "fixed")
	w.aSub = newGroup(t, d, w.alpha, "Alpha Sub", w.aOps, "fixed")
	w.aEmpty = newGroup(t, d, w.alpha, "Alpha Empty", 0, "fixed")
	w.aTmp = newGroup(t, d, w.alpha, "Alpha Temp", 0, "temp")
	w.bOps = newGroup(t, d, w.bravo, "Bravo Ops", 0, "fixed")
	w.bTmp = newGroup(t, d, w.bravo, "Bravo Temp", 0, "temp")
	newAccount(t, d, w.alpha, aDisp, "20", "Alpha Dispatcher", w.aOps)
	newAccount(t, d, w.alpha, aRadio, "6", "Radio One", w.aOps)
	newAccount(t, d, w.alpha, aApp, "10", "App One", w.aOps, w.aSub)
	newAccount(t, d, w.alpha, aCam, "camera", "Cam One", w.aSub)
	newAccount(t, d, w.alpha, aLoose, "PMR", "Loose One")
	mustExec(t, d, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?), (?, ?)`,
		int64(w.aTmp), aDisp, int64(w.aTmp), aRadio)
	newAccount(t, d, w.bravo, bDisp, "20", "Bravo Dispatcher", w.bOps)
	newAccount(t, d, w.bravo, bRadio, "6", "Bravo Radio", w.bOps)
	newAccount(t, d, w.bravo, bLoose, "DMR", "Bravo Loose")
	mustExec(t, d, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?), (?, ?)`,
		int64(w.bTmp), bDisp, int64(w.bTmp), bRadio)
	setPos(t, d, aRadio, 41.01, 28.97)
	setPos(t, d, aApp, 41.02, 28.98)
	setPos(t, d, bRadio, 38.42, 27.14)
	return w
}

// directoryState is every directory row of the store, to prove a refused call changed nothing.
var directoryState = []string{
	`SELECT id, customer_id, parent_id, name, color, seq_num, kind, creator_id FROM ptt_groups`,
	`SELECT group_id, account_id FROM group_members`,
	`SELECT id, customer_id, name, type, sw_version, COALESCE(default_group_id, 0), COALESCE(ptt_group_id, 0),
		call_set_status, online FROM accounts`,
}

func snapshot(t testing.TB, d *db.DB) string {
	t.Helper()
	return testkit.Snapshot(t, d, directoryState...)
}

// aliases resolves a scenario's token "A" (Alpha's dispatcher) and "B" (Bravo's); any other is used as it is.
func aliases(tokA, tokB string) func(string) string {
	return func(tok string) string {
		switch tok {
		case "A":
			return tokA
		case "B":
			return tokB
		}
		return tok
	}
}

// apiWorld starts a server with the world and signed-in dispatchers of both customers.
func apiWorld(t *testing.T) (*testkit.Server, *world, string, string) {
	t.Helper()
	s := testkit.Start(t)
	w := buildWorld(t, s.DB)
	return s, w, token(t, s, aDisp, w.alpha), token(t, s, bDisp, w.bravo)
}

func token(t testing.TB, s *testkit.Server, id string, cust int64) string {
	t.Helper()
	tok, err := s.Sessions.Create(context.Background(), id, cust)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
