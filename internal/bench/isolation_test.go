package bench_test

import (
	"context"
	"encoding/binary"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/bench"
	"tenfour/internal/platform/ticker"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// TestLoadIsolation measures what a PTT user notices while someone abuses the same server (issue 14
// deliverable 3): the access time (floor.request → granted, at the talker) and the voice delay (a packet
// written by the talker → read by a listener of its group, over real WebRTC on loopback), p95, in three phases
// on one server with the default sign-in limits, taking turns in windows of 5 s, 3 rounds:
//
//   - quiet: nothing else;
//   - logins: 100 terminal logins a second from one address with one valid credential (the probe's flood);
//   - gps: one terminal sending back-dated positions as fast as its socket takes them (500-point batches at the
//     socket's 50 frames a second, as the probe did: 25,000 positions a second);
//   - media: another customer's dispatcher asking for ffmpeg work without pause — 40 parallel camera snapshots
//     and 12 parallel broadcast uploads (a 20 s WAV each), round after round (issue 30 M2: each is bounded per
//     customer and per server, the rest refused busy, 101).
//
// The load generators run in this process, beside the server, as the probe ran beside its server.
//
//	TENFOUR_BENCH=1 go test -run TestLoadIsolation -v ./internal/bench/
func TestLoadIsolation(t *testing.T) {
	gate(t)
	w := newWorld(t)
	w.s.Auth.SetLimits(auth.DefaultLimits())
	const first = 43000001 // talker, listener, login-flood account, GPS flooder
	w.provision(first, 4, 4, "43000000")
	window := time.Duration(testkit.EnvInt("TENFOUR_BENCH_ISOLATION_SECONDS", 5)) * time.Second
	rounds := testkit.EnvInt("TENFOUR_BENCH_ISOLATION_ROUNDS", 3)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base := w.s.URL
	_ = w.console(ctx, base, "43000000")
	talker := w.terminal(ctx, base, first, true)
	lc, err := termclient.Dial(ctx, termclient.Options{URL: base, UID: strconv.Itoa(first + 1), Password: password,
		Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lc.Close() })
	if err := lc.Connect(ctx); err != nil {
		t.Fatal(err)
	}

	type figures struct{ access, voice []time.Duration }
	measure := func(f *figures, load func(ctx context.Context)) {
		lctx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		if load != nil {
			wg.Add(1)
			go func() { defer wg.Done(); load(lctx) }()
		}
		defer func() { stop(); wg.Wait() }()
		a, v := talkAndListen(t, ctx, talker, lc, window)
		f.access, f.voice = append(f.access, a...), append(f.voice, v...)
	}

	// The phases take turns, round after round, so other work on the machine weighs on each alike.
	flooder := w.terminal(ctx, base, first+3, false)
	abuser := newMediaAbuser(t, w)
	var quiet, logins, gps, mediaLoad figures
	var loginsSent, loginsRefused, gpsSent atomic.Int64
	for range rounds {
		measure(&quiet, nil)
		measure(&logins, func(ctx context.Context) {
			loginFlood(ctx, base, strconv.Itoa(first+2), 100, &loginsSent, &loginsRefused)
		})
		measure(&gps, func(ctx context.Context) { gpsFlood(ctx, flooder, &gpsSent) })
		measure(&mediaLoad, abuser.run)
	}

	for _, p := range []struct {
		key string
		f   figures
	}{{"quiet", quiet}, {"logins", logins}, {"gps", gps}, {"media", mediaLoad}} {
		t.Logf("%s: access p95 %v (%d presses), voice delay p95 %v (%d packets)", p.key, bench.Pct(p.f.access, .95),
			len(p.f.access), bench.Pct(p.f.voice, .95), len(p.f.voice))
		bench.EmitMs("iso."+p.key+".access_p95_ms", bench.Pct(p.f.access, .95))
		bench.EmitMs("iso."+p.key+".voice_p95_ms", bench.Pct(p.f.voice, .95))
		bench.Emit("iso."+p.key+".presses", float64(len(p.f.access)))
		bench.Emit("iso."+p.key+".packets", float64(len(p.f.voice)))
	}
	bench.Emit("iso.logins.sent", float64(loginsSent.Load()))
	bench.Emit("iso.logins.refused", float64(loginsRefused.Load()))
	bench.Emit("iso.gps.points", float64(gpsSent.Load()))
	bench.Emit("iso.seconds", (window * time.Duration(rounds)).Seconds())
	for k, v := range map[string]*atomic.Int64{"snaps": &abuser.snaps, "snaps_ok": &abuser.snapsOK, "snaps_busy": &abuser.snapsBusy,
		"uploads": &abuser.uploads, "uploads_ok": &abuser.uploadsOK, "uploads_busy": &abuser.uploadsBusy, "failed": &abuser.other} {
		bench.Emit("iso.media."+k, float64(v.Load()))
	}
	t.Logf("media: %d snapshots (%d served, %d busy), %d uploads (%d served, %d busy), %d other answers", abuser.snaps.Load(),
		abuser.snapsOK.Load(), abuser.snapsBusy.Load(), abuser.uploads.Load(), abuser.uploadsOK.Load(), abuser.uploadsBusy.Load(), abuser.other.Load())
	t.Logf("logins: %d sent, %d refused busy; gps: %d positions sent", loginsSent.Load(), loginsRefused.Load(), gpsSent.Load())
}

// isoPackets is how many packets (20 ms each) a talker sends per press.
const isoPackets = 25

// talkAndListen has talker press, talk isoPackets tagged packets at 20 ms and release, again and again for
// d; it returns the access times and each packet's delay from the talker's write to the listener's read.
func talkAndListen(t *testing.T, ctx context.Context, talker, listener *termclient.Client, d time.Duration) (access, voice []time.Duration) {
	sent := map[uint32]time.Time{}
	var tag uint32
	seen := listener.ReceivedCount()
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		t0 := time.Now()
		r, err := talker.RequestFloor(ctx, "", "", false)
		if err != nil || r.Status != "granted" {
			t.Fatalf("floor.request: %+v %v", r, err)
		}
		access = append(access, time.Since(t0))
		start := time.Now()
		for i := range isoPackets {
			time.Sleep(time.Until(start.Add(time.Duration(i) * 20 * time.Millisecond)))
			tag++
			pkt := binary.BigEndian.AppendUint32(append([]byte(nil), termclient.SilentPacket...), tag)
			sent[tag] = time.Now()
			if err := talker.Send(ctx, [][]byte{pkt}, 0); err != nil {
				t.Fatal(err)
			}
		}
		wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, _ = listener.WaitPackets(wctx, seen+isoPackets) // a lost packet is simply not counted
		cancel()
		if err := talker.ReleaseFloor(ctx, r.CallID); err != nil {
			t.Fatal(err)
		}
		got := listener.Received()
		for _, p := range got[seen:] {
			n := len(termclient.SilentPacket)
			if len(p.Payload) != n+4 {
				continue
			}
			if at, ok := sent[binary.BigEndian.Uint32(p.Payload[n:])]; ok {
				voice = append(voice, p.At.Sub(at))
			}
		}
		seen = len(got)
		time.Sleep(100 * time.Millisecond) // the next press is a new over, as a person talks
	}
	return access, voice
}

// loginFlood logs account uid in with its password perSecond times a second from 127.0.0.2 until ctx ends,
// each on a new socket (closed at once); it counts the logins sent and those refused busy (101).
func loginFlood(ctx context.Context, base, uid string, perSecond int, sent, refused *atomic.Int64) {
	hc := testkit.ClientFrom("127.0.0.2")
	var wg sync.WaitGroup
	defer wg.Wait()
	ticker.Every(ctx, time.Second/time.Duration(perSecond), func() {
		wg.Add(1)
		sent.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			defer cancel()
			c, err := wsclient.Dial(cctx, wsclient.URL(base), wsclient.Options{HTTPClient: hc})
			if err != nil {
				return
			}
			defer c.CloseNow()
			err = c.Call(cctx, "session.login", map[string]string{"client": "terminal", "uid": uid, "auth": password}, nil)
			if wsclient.Code(err) == "101" {
				refused.Add(1)
			}
		}()
	})
}

// gpsFlood has c send back-dated 500-point batches without acknowledgement at 50 frames a second (the
// socket's request rate) until ctx ends, counting the positions sent.
func gpsFlood(ctx context.Context, c *termclient.Client, sent *atomic.Int64) {
	at := time.Now().Add(-time.Hour).UnixMilli()
	ticker.Every(ctx, 20*time.Millisecond, func() {
		pts := make([]map[string]any, 500)
		for i := range pts {
			at++
			pts[i] = map[string]any{"lat": 41.0 + float64(i)*1e-5, "lng": 29.0, "time": at}
		}
		// Fire and forget: a refusal (the server's GPS limits) does not stop the flood.
		go func() { _ = c.Call(ctx, "gps.report", map[string]any{"points": pts, "ack": false}, nil) }()
		sent.Add(int64(len(pts)))
	})
}
