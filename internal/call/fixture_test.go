package call_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/call"
	"tenfour/internal/config"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

const password = "Secret_123"

var (
	hashOnce sync.Once
	pwHash   string
)

// hash is one password hash shared by every test account (argon2id is slow on purpose).
func hash(t testing.TB) string {
	hashOnce.Do(func() {
		h, err := auth.HashPassword(password)
		if err != nil {
			t.Fatal(err)
		}
		pwHash = h
	})
	return pwHash
}

// world is a running server with one customer, its groups and accounts.
type world struct {
	t    testing.TB
	s    *testkit.Server
	cust int64
}

func newWorld(t testing.TB, opts ...func(*config.Config)) *world {
	t.Helper()
	return newWorldOn(t, "sqlite", opts...)
}

// newWorldOn is newWorld on a chosen store engine.
func newWorldOn(t testing.TB, engine string, opts ...func(*config.Config)) *world {
	t.Helper()
	all := append([]func(*config.Config){func(c *config.Config) { c.Voice.Interfaces = []string{"lo"} }}, opts...)
	s := testkit.StartOn(t, engine, all...)
	w := &world{t: t, s: s}
	w.cust = w.customer("acme")
	return w
}

func (w *world) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	w.t.Cleanup(cancel)
	return ctx
}

func (w *world) customer(name string) int64 {
	var id int64
	err := w.s.DB.WriteRow(context.Background(), `INSERT INTO customers (name, created_at) VALUES (?, ?) RETURNING id`,
		name, time.Now().UnixMilli()).Scan(&id)
	if err != nil {
		w.t.Fatal(err)
	}
	return id
}

func (w *world) group(name string) string {
	return createGroup(w.t, w.s.DB, w.cust, name)
}

func createGroup(t testing.TB, d *db.DB, cust int64, name string) string {
	var id int64
	err := d.WriteRow(context.Background(), `INSERT INTO ptt_groups (customer_id, name, created_at) VALUES (?, ?, ?)
		RETURNING id`, cust, name, time.Now().UnixMilli()).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(id, 10)
}

// account creates an account (type "20" dispatcher, "10" app terminal) whose ptt group is gid ("" = none)
// and who is a member of gid.
func (w *world) account(id, typ, gid string) {
	createAccount(w.t, w.s.DB, w.cust, id, typ, gid)
}

func createAccount(t testing.TB, d *db.DB, cust int64, id, typ, gid string) {
	ctx := context.Background()
	var g any
	if gid != "" {
		g = gid
	}
	if _, err := d.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, name, password_hash, ptt_group_id,
		default_group_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, cust, typ, "Name "+id, hash(t), g, g,
		time.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if gid != "" {
		if _, err := d.Exec(ctx, `INSERT INTO group_members (group_id, account_id) VALUES (?, ?)`, gid, id); err != nil {
			t.Fatal(err)
		}
	}
}

// term logs a terminal in and connects its media.
func (w *world) term(id string, opts ...func(*termclient.Options)) *termclient.Client {
	w.t.Helper()
	o := termclient.Options{URL: w.s.URL, UID: id, Password: password,
		Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}}
	for _, f := range opts {
		f(&o)
	}
	return w.dial(o)
}

// console signs a dispatcher in (session token) and connects its media.
func (w *world) console(id string) *termclient.Client {
	w.t.Helper()
	tok, err := w.s.Sessions.Create(context.Background(), id, w.cust)
	if err != nil {
		w.t.Fatal(err)
	}
	return w.dial(termclient.Options{URL: w.s.URL, Token: tok, Media: termclient.MediaOptions{Loopback: true,
		KeepPayloads: true}})
}

// token is a fresh console session of a dispatcher, for REST calls.
func (w *world) token(id string) string {
	tok, err := w.s.Sessions.Create(context.Background(), id, w.cust)
	if err != nil {
		w.t.Fatal(err)
	}
	return tok
}

func (w *world) dial(o termclient.Options) *termclient.Client {
	w.t.Helper()
	ctx := w.ctx()
	c, err := termclient.Dial(ctx, o)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { c.Close() })
	if err := c.Connect(ctx); err != nil {
		w.t.Fatal(err)
	}
	return c
}

// setCallSet stores a terminal's call-set status as terminal management does (through the directory); the
// caller then tells the floor (Service.CallSetStatusChanged).
func (w *world) setCallSet(id string, status int) {
	if err := directory.NewStore(w.s.DB).SetCallSetStatus(context.Background(), directory.CustomerID(w.cust),
		directory.TerminalID(id), status); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) exec(q string, args ...any) {
	if _, err := w.s.DB.Exec(context.Background(), q, args...); err != nil {
		w.t.Fatal(err)
	}
}

// logTypes counts the operation-log entries of each type written so far.
func (w *world) logTypes() map[int]int {
	rows, err := w.s.DB.Query(context.Background(), `SELECT type, COUNT(*) FROM oplog WHERE customer_id = ? GROUP BY type`,
		w.cust)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	out := map[int]int{}
	for rows.Next() {
		var typ, n int
		if err := rows.Scan(&typ, &n); err != nil {
			w.t.Fatal(err)
		}
		out[typ] = n
	}
	return out
}

// waitLog waits until the log holds an entry of each type.
func (w *world) waitLog(types ...int) {
	w.t.Helper()
	testkit.Eventually(w.t, 10*time.Second, fmt.Sprintf("log types %v", types), func() bool {
		got := w.logTypes()
		for _, typ := range types {
			if got[typ] == 0 {
				return false
			}
		}
		return true
	})
}

// tagged is n silent Opus packets whose last byte is tag, so a listener can tell talkers apart.
func tagged(n int, tag byte) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte{0xf8, 0xff, 0xfe, tag}
	}
	return out
}

// tags lists the tag byte of each packet received.
func tags(pkts []termclient.Packet) []byte {
	out := make([]byte, len(pkts))
	for i, p := range pkts {
		if len(p.Payload) > 0 {
			out[i] = p.Payload[len(p.Payload)-1]
		}
	}
	return out
}

func silent(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = termclient.SilentPacket
	}
	return out
}

// event waits for an event of a type matching match and decodes it into a map.
func event(t testing.TB, ctx context.Context, c *termclient.Client, typ string, match func(map[string]any) bool) map[string]any {
	t.Helper()
	e, err := c.WaitEvent(ctx, typ, func(e termclient.Event) bool {
		var m map[string]any
		return json.Unmarshal(e.Data, &m) == nil && (match == nil || match(m))
	})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(e.Data, &m)
	return m
}

// assertContinuous checks that sequence numbers go up by one and timestamps never go back.
func assertContinuous(t testing.TB, pkts []termclient.Packet) {
	t.Helper()
	for i := 1; i < len(pkts); i++ {
		if pkts[i].Seq != pkts[i-1].Seq+1 {
			t.Fatalf("packet %d: seq %d after %d", i, pkts[i].Seq, pkts[i-1].Seq)
		}
		if int32(pkts[i].TS-pkts[i-1].TS) <= 0 {
			t.Fatalf("packet %d: timestamp %d after %d", i, pkts[i].TS, pkts[i-1].TS)
		}
		if pkts[i].Ext {
			t.Fatalf("packet %d has header extensions", i)
		}
	}
}

// never checks that a client has received no more than n packets after the others got theirs.
func count(c *termclient.Client) int { return c.ReceivedCount() }

func (w *world) voice() *call.Service { return w.s.App.Voice }
