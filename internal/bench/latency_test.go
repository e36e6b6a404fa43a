package bench_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenfour/internal/bench"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// These measurements run only under the bench runner (TENFOUR_BENCH=1): they print `BENCH key value` lines.
//
//	TENFOUR_BENCH=1 go test -run 'TestPTTAccess|TestLateEntry' -v ./internal/bench/

const password = "123456"

func gate(t *testing.T) {
	if os.Getenv("TENFOUR_BENCH") != "1" {
		t.Skip("set TENFOUR_BENCH=1 to run the measurement (make bench runs it)")
	}
}

// world is a real node (SQLite, media on loopback) with provisioned accounts.
type world struct {
	t    *testing.T
	s    *testkit.Server
	cust int64
}

func newWorld(t *testing.T) *world {
	s := testkit.Start(t, testkit.LoopbackMedia)
	return &world{t: t, s: s}
}

// provision creates count app terminals first… (groupSize to a group) and, if dispatcher is set, a
// dispatcher in every one of those groups.
func (w *world) provision(first, count, groupSize int, dispatcher string) {
	// Every terminal a phone app (type 10): the fleet mix has types that do not talk.
	res, err := sim.Provision(context.Background(), w.s.DB, sim.ProvisionOptions{Customer: "Bench", First: first,
		Count: count, Password: password, GroupSize: groupSize, Dispatcher: dispatcher, PhoneApps: count})
	if err != nil {
		w.t.Fatal(err)
	}
	w.cust = res.CustomerID
}

func (w *world) dial(ctx context.Context, base string, o termclient.Options) *termclient.Client {
	w.t.Helper()
	o.URL = base
	o.Media = termclient.MediaOptions{Loopback: true}
	c, err := termclient.Dial(ctx, o)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { c.Close() })
	return c
}

func (w *world) terminal(ctx context.Context, base string, id int, media bool) *termclient.Client {
	w.t.Helper()
	c := w.dial(ctx, base, termclient.Options{UID: strconv.Itoa(id), Password: password})
	if media {
		if err := c.Connect(ctx); err != nil {
			w.t.Fatal(err)
		}
	}
	return c
}

func (w *world) console(ctx context.Context, base, dispatcher string) *termclient.Client {
	w.t.Helper()
	tok, err := w.s.Sessions.Create(ctx, dispatcher, w.cust)
	if err != nil {
		w.t.Fatal(err)
	}
	return w.dial(ctx, base, termclient.Options{Token: tok})
}

// TestPTTAccess measures the PTT access time as the talker sees it: floor.request sent → its reply (granted)
// read, over the real socket, with a dispatcher console watching. Talkers each talk in their own group, in
// parallel, each pressing at most every 50 ms (the socket's request rate limit); each group call stays open
// between presses (a conversation), the first press of each talker opens it. Run on loopback and through a
// proxy that adds 30 ms each way (60 ms round trip) to the socket.
func TestPTTAccess(t *testing.T) {
	gate(t)
	w := newWorld(t)
	const talkers = 4
	w.provision(41000001, 2*talkers, 1, "41000000")
	u, _ := url.Parse(w.s.URL)
	cases := []struct {
		key     string
		oneWay  time.Duration
		presses int // per talker
	}{
		{"loopback", 0, testkit.EnvInt("TENFOUR_BENCH_PTT_PRESSES", 100)},
		{"rtt60", 30 * time.Millisecond, testkit.EnvInt("TENFOUR_BENCH_PTT_PRESSES", 100) / 2},
	}
	// The emulated link alone: an echo through the same kind of proxy, so the access times can be read against
	// what the link itself costs on this machine at the moment (the proxy's timers run late on a busy one).
	echo := linkRTT(t, 30*time.Millisecond, 50)
	bench.EmitMs("ptt.rtt60.link_p50_ms", bench.Pct(echo, .5))
	bench.EmitMs("ptt.rtt60.link_p95_ms", bench.Pct(echo, .95))
	for ci, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		base := w.s.URL
		if c.oneWay > 0 {
			p, err := bench.NewDelayProxy(u.Host, c.oneWay)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			base = "http://" + p.Addr()
		}
		con := w.console(ctx, base, "41000000")
		var tks []*termclient.Client
		for i := range talkers {
			tks = append(tks, w.terminal(ctx, base, 41000001+ci*talkers+i, true))
		}
		client, server, err := bench.Presses(ctx, tks, c.presses)
		if err != nil {
			t.Error(err)
		}
		for _, tk := range tks {
			tk.Close()
		}
		con.Close()
		cancel()
		if t.Failed() {
			return
		}
		t.Logf("%s (%d presses): at the talker p50 %v p95 %v p99 %v max %v; server request→grant p50 %v p99 %v", c.key,
			len(client), bench.Pct(client, .5), bench.Pct(client, .95), bench.Pct(client, .99), bench.Pct(client, 1),
			bench.Pct(server, .5), bench.Pct(server, .99))
		bench.Emit("ptt."+c.key+".n", float64(len(client)))
		bench.EmitMs("ptt."+c.key+".p50_ms", bench.Pct(client, .5))
		bench.EmitMs("ptt."+c.key+".p95_ms", bench.Pct(client, .95))
		bench.EmitMs("ptt."+c.key+".p99_ms", bench.Pct(client, .99))
		bench.EmitMs("ptt."+c.key+".server_p99_ms", bench.Pct(server, .99))
	}
}

// TestLateEntry measures late call entry: while a Go talker speaks in a group call (one 20 ms packet every
// 20 ms), members of the group join it and the time until they hear the first packet is taken.
//   - "join": a terminal already online without a PeerConnection (as the simulator and the phone app keep
//     them, opened on demand) joins: rtc.config, offer/answer, ICE and DTLS, the server routes the burst to
//     it → first audio packet. Each joiner closes its media again before the next one joins.
//   - "poweron": a terminal coming online: socket open, session.login (a password hash), then the same.
func TestLateEntry(t *testing.T) {
	gate(t)
	w := newWorld(t)
	joins := testkit.EnvInt("TENFOUR_BENCH_LATE_JOINS", 40)
	powerons := joins / 2
	const first = 42000001
	w.provision(first, 1+joins+powerons, 1+joins+powerons, "42000000")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base := w.s.URL
	_ = w.console(ctx, base, "42000000")
	talker := w.terminal(ctx, base, first, true)
	joiners := make([]*termclient.Client, joins)
	for i := range joiners {
		joiners[i] = w.terminal(ctx, base, first+1+i, false)
	}
	r, err := talker.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	speech := make([][]byte, 3000) // 60 s at most; ended by tctx
	for i := range speech {
		speech[i] = termclient.SilentPacket
	}
	tctx, stopTalk := context.WithCancel(ctx)
	talkDone := make(chan error, 1)
	go func() { talkDone <- talker.Send(tctx, speech, 20*time.Millisecond) }()
	time.Sleep(200 * time.Millisecond) // the burst is under way

	hear := func(c *termclient.Client, t0 time.Time) (total, afterConnect time.Duration) {
		if err := c.Connect(ctx); err != nil {
			t.Fatal(err)
		}
		connected := time.Now()
		pk, err := c.WaitPackets(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		at := pk[0].At
		return at.Sub(t0), max(0, at.Sub(connected))
	}
	leave := func(c *termclient.Client) {
		_ = c.Call(ctx, "rtc.close", nil, nil)
		_ = c.Media.Close()
	}
	var join, joinAfter, power []time.Duration
	for _, c := range joiners {
		total, after := hear(c, time.Now())
		join = append(join, total)
		joinAfter = append(joinAfter, after)
		leave(c)
	}
	for i := range powerons {
		t0 := time.Now()
		c := w.terminal(ctx, base, first+1+joins+i, false)
		total, _ := hear(c, t0)
		power = append(power, total)
		leave(c)
	}
	stopTalk()
	<-talkDone
	_ = talker.ReleaseFloor(ctx, r.CallID)
	t.Logf("join (%d): p50 %v p95 %v max %v; of which after media connected p95 %v", len(join), bench.Pct(join, .5),
		bench.Pct(join, .95), bench.Pct(join, 1), bench.Pct(joinAfter, .95))
	t.Logf("power-on (%d): p50 %v p95 %v max %v", len(power), bench.Pct(power, .5), bench.Pct(power, .95), bench.Pct(power, 1))
	bench.Emit("late.join.n", float64(len(join)))
	bench.EmitMs("late.join.p50_ms", bench.Pct(join, .5))
	bench.EmitMs("late.join.p95_ms", bench.Pct(join, .95))
	bench.EmitMs("late.join.connected_p95_ms", bench.Pct(joinAfter, .95))
	bench.Emit("late.poweron.n", float64(len(power)))
	bench.EmitMs("late.poweron.p50_ms", bench.Pct(power, .5))
	bench.EmitMs("late.poweron.p95_ms", bench.Pct(power, .95))
}

// linkRTT measures n small echo round trips through a delay proxy of oneWay each way (set: further faults of the
// link, applied before the first).
func linkRTT(t *testing.T, oneWay time.Duration, n int, set ...func(*bench.DelayProxy)) []time.Duration {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(c, c); c.Close() }()
		}
	}()
	p, err := bench.NewDelayProxy(ln.Addr().String(), oneWay)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, fn := range set {
		fn(p)
	}
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out []time.Duration
	msg, buf := []byte(strings.Repeat("echo", 16)), make([]byte, 64)
	for range n {
		t0 := time.Now()
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			t.Fatal(err)
		}
		out = append(out, time.Since(t0))
		if !bytes.Equal(buf, msg) {
			t.Fatalf("echo %q", buf)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return out
}
