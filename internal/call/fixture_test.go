package call_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/call"
	"tenfour/internal/config"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// world is the testkit.World of the voice tests: its server runs media on loopback.
type world struct {
	*testkit.World
	t testing.TB
}

func newWorld(t testing.TB, opts ...func(*config.Config)) *world {
	t.Helper()
	return newWorldOn(t, "sqlite", opts...)
}

// newWorldOn is newWorld on a chosen store engine.
func newWorldOn(t testing.TB, engine string, opts ...func(*config.Config)) *world {
	t.Helper()
	all := append([]func(*config.Config){testkit.LoopbackMedia}, opts...)
	return &world{World: testkit.NewWorld(t, engine, all...), t: t}
}

// group adds a group to the world's customer; the voice protocol carries group ids as strings.
func (w *world) group(name string) string {
	return strconv.FormatInt(w.Group(name), 10)
}

// account adds an account (type "20" dispatcher, "10" app terminal), a member of gids ("" = none); the first
// is its default and ptt group.
func (w *world) account(id, typ string, gids ...string) {
	w.t.Helper()
	var groups []int64
	for _, gid := range gids {
		if gid == "" {
			continue
		}
		g, err := strconv.ParseInt(gid, 10, 64)
		if err != nil {
			w.t.Fatal(err)
		}
		groups = append(groups, g)
	}
	w.Account(id, typ, groups...)
}

// alphaBravo is the two-group world of the monitoring scenarios: terminal 10001001 in group Alpha, 10002001 in
// Bravo (both logged in, their media connected), and dispatcher 10009001 in neither.
func (w *world) alphaBravo() (ga, gb string, ta, tb *termclient.Client) {
	w.t.Helper()
	ga, gb = w.group("Alpha"), w.group("Bravo")
	w.account("10001001", "10", ga)
	w.account("10002001", "10", gb)
	w.account("10009001", "20", "")
	return ga, gb, w.term("10001001"), w.term("10002001")
}

// term logs a terminal in and connects its media.
func (w *world) term(id string, opts ...func(*termclient.Options)) *termclient.Client {
	w.t.Helper()
	o := termclient.Options{UID: id, Password: testkit.Password,
		Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}}
	for _, f := range opts {
		f(&o)
	}
	return w.dial(o)
}

// console signs a dispatcher in (session token) and connects its media.
func (w *world) console(id string) *termclient.Client {
	w.t.Helper()
	return w.dial(termclient.Options{Token: w.Session(id), Media: termclient.MediaOptions{Loopback: true,
		KeepPayloads: true}})
}

// token is a fresh console session of a dispatcher, for REST calls.
func (w *world) token(id string) string { return w.Session(id) }

func (w *world) dial(o termclient.Options) *termclient.Client {
	w.t.Helper()
	c := w.Client(o)
	if err := c.Connect(w.Ctx()); err != nil {
		w.t.Fatal(err)
	}
	return c
}

// logTypes counts the operation-log entries of each type written so far.
func (w *world) logTypes() map[int]int {
	rows, err := w.DB.Query(context.Background(), `SELECT type, COUNT(*) FROM oplog WHERE customer_id = ? GROUP BY type`,
		w.Customer)
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

// hear waits until each of clients has received n packets.
func hear(t testing.TB, ctx context.Context, n int, clients ...*termclient.Client) {
	t.Helper()
	for _, c := range clients {
		if _, err := c.WaitPackets(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
}

// speak talks one burst of an Ogg Opus fixture on c's ptt group, played speed times faster than real time,
// and returns its floor.
func speak(t testing.TB, ctx context.Context, c *termclient.Client, ogg string, speed float64) termclient.FloorReply {
	t.Helper()
	r, err := c.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PlayOgg(ctx, ogg, speed); err != nil {
		t.Fatal(err)
	}
	if err := c.ReleaseFloor(ctx, r.CallID); err != nil {
		t.Fatal(err)
	}
	return r
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

// never checks that a client has received no more than n packets after the others got theirs.
func count(c *termclient.Client) int { return c.ReceivedCount() }

func (w *world) voice() *call.Service { return w.Voice }
