package bench_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/bench"
	"tenfour/internal/config"
	"tenfour/internal/directory"
	"tenfour/internal/media/oggopus"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// TestSIPCalls measures the SIP side (docs/sip.md) with the simulator's SIP phone (sipgo, its own RTP) on loopback:
// INVITE → 200 (the whole answer: digest challenge, the call's terminal session logged in with its in-process
// media, its codec states), `*` → the grant's beep heard at the phone, a group talker's first packet → the phone
// hearing it (the SFU, the bridge's Opus decode by libopus to G.711, its RTP), and how much CPU
// concurrent bridged calls take (each one talking G.711 into Opus for another phone that hears Opus as G.711).
//
//	TENFOUR_BENCH=1 go test -run TestSIPCalls -v ./internal/bench/
func TestSIPCalls(t *testing.T) {
	gate(t)
	w := testkit.NewWorld(t, "sqlite", func(c *config.Config) {
		c.SIP.Addr = "127.0.0.1:0"
		testkit.LoopbackMedia(c)
	})
	// one group: the phone that calls (45000000), the account the REGISTER flood names (45000001) and a native
	// terminal; the concurrent calls provision their own server (concurrent)
	group := testkit.Group(t, w.DB, w.Customer, "SIP")
	gid := strconv.FormatInt(group, 10)
	for _, id := range []string{"45000000", "45000001"} {
		testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: id, Name: "SIP " + id, Type: "8",
			Kind: directory.KindSIP, GroupID: group})
	}
	const radio = "45100000"
	testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: radio, Name: "Radio", Type: "10", GroupID: group})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	ear := bench.NewEar()
	phone, err := sim.RegisterSIPPhone(ctx, sim.SIPPhoneOptions{ID: "45000000", Password: testkit.Password,
		Server: w.SIP.Addr(), OnHear: ear.Hear})
	if err != nil {
		t.Fatal(err)
	}
	defer phone.Close()

	// INVITE → 200, one call after the other
	var answers []time.Duration
	for range testkit.EnvInt("TENFOUR_BENCH_SIP_CALLS", 20) {
		answers = append(answers, call(ctx, t, phone, gid))
		if err := phone.HangUp(ctx); err != nil {
			t.Fatal(err)
		}
	}
	bench.EmitMs("sip.invite_p50_ms", bench.Pct(answers, .5))
	bench.EmitMs("sip.invite_p95_ms", bench.Pct(answers, .95))

	// `*` → the grant's beep (the group is silent: the first loud frame after the press is the beep)
	call(ctx, t, phone, gid)
	var grants []time.Duration
	for range testkit.EnvInt("TENFOUR_BENCH_SIP_PRESSES", 20) {
		ear.Quiet(300 * time.Millisecond)
		t0 := time.Now()
		phone.Press('*')
		at, ok := ear.LoudAfter(t0, 5*time.Second)
		if !ok {
			t.Fatal("no grant beep within 5 s of *")
		}
		grants = append(grants, at.Sub(phone.KeySent())) // from the key's packet (the phone sends on its 20 ms tick)
		phone.Press('#')
	}
	bench.EmitMs("sip.grant_p50_ms", bench.Pct(grants, .5))
	bench.EmitMs("sip.grant_p95_ms", bench.Pct(grants, .95))

	// a native terminal's talk → the phone hears it
	term := w.Client(termclient.Options{UID: radio, Password: testkit.Password, Media: termclient.MediaOptions{Loopback: true}})
	if err := term.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	spurt := toneSpurt(t)
	var delays []time.Duration
	for range testkit.EnvInt("TENFOUR_BENCH_SIP_TALKS", 10) {
		ear.Quiet(500 * time.Millisecond)
		r, err := term.RequestFloor(ctx, "", gid, false)
		if err != nil || r.Status != "granted" {
			t.Fatalf("the terminal's floor: %v %v", r.Status, err)
		}
		t0 := time.Now()
		sent := make(chan error, 1)
		go func() { sent <- term.Send(ctx, spurt, 20*time.Millisecond) }()
		at, ok := ear.LoudAfter(t0, 5*time.Second)
		if !ok {
			t.Fatal("the phone heard nothing of the terminal's talk within 5 s")
		}
		delays = append(delays, at.Sub(t0))
		if err := <-sent; err != nil {
			t.Fatal(err)
		}
		if err := term.ReleaseFloor(ctx, r.CallID); err != nil {
			t.Fatal(err)
		}
	}
	bench.EmitMs("sip.delay_p50_ms", bench.Pct(delays, .5))
	bench.EmitMs("sip.delay_p95_ms", bench.Pct(delays, .95))
	if err := phone.HangUp(ctx); err != nil {
		t.Fatal(err)
	}

	// the terminal's PTT access (floor request → its reply), quiet and then under a REGISTER flood from one address
	quiet := pttAccess(ctx, t, term, gid)
	floodCtx, stopFlood := context.WithCancel(ctx)
	sent := make(chan int)
	go func() { sent <- sim.FloodRegister(floodCtx, w.SIP.Addr(), "45000001") }()
	time.Sleep(500 * time.Millisecond)
	flooded := pttAccess(ctx, t, term, gid)
	stopFlood()
	bench.EmitMs("sip.flood_quiet_p95_ms", bench.Pct(quiet, .95))
	bench.EmitMs("sip.flood_p95_ms", bench.Pct(flooded, .95))
	bench.Emit("sip.flood_registers", float64(<-sent))
	term.Close()

	concurrent(ctx, t, testkit.EnvInt("TENFOUR_BENCH_SIP_PAIRS", 0)) // 0: RunSIPCalls's default
}

// toneSpurt is a talk spurt as Opus packets (20 ms): half a second of a 440 Hz tone, then a second of silence —
// so what the decoder still holds of one spurt when the next begins is silence, and the next spurt's first loud
// frame at the phone is its own.
func toneSpurt(t *testing.T) [][]byte {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
		"sine=frequency=440:duration=0.5,apad=pad_dur=1", "-c:a", "libopus", "-b:a", "32k", "-frame_duration", "20",
		"-ac", "2", "-ar", "48000", "-page_duration", "20000", "-f", "ogg", "pipe:1").Output()
	if err != nil {
		t.Fatalf("ffmpeg: %v", err)
	}
	f, err := oggopus.Read(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return f.Packets
}

// call calls group gid and returns how long its answer took; a 486 (the server still ends the phone's previous
// call) is tried again, its time not counted.
func call(ctx context.Context, t *testing.T, p *sim.SIPPhone, gid string) time.Duration {
	t.Helper()
	for {
		t0 := time.Now()
		err := p.Call(ctx, gid)
		switch {
		case err == nil:
			return time.Since(t0)
		case !strings.Contains(err.Error(), " 486 "):
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// pttAccess is the terminal's floor request → reply times in group gid, 50 presses.
func pttAccess(ctx context.Context, t *testing.T, term *termclient.Client, gid string) []time.Duration {
	var out []time.Duration
	for range 50 {
		t0 := time.Now()
		r, err := term.RequestFloor(ctx, "", gid, false)
		if err != nil || r.Status != "granted" {
			t.Fatalf("the terminal's floor: %v %v", r.Status, err)
		}
		out = append(out, time.Since(t0))
		if err := term.ReleaseFloor(ctx, r.CallID); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond) // the socket's request rate limit
	}
	return out
}

// concurrent measures concurrent bridged calls on a server of its own process (bench.RunSIPCalls): in each of
// TENFOUR_BENCH_SIP_PAIRS groups (default 50) one phone talks a tone (G.711 → Opus → the group) and the other hears it
// (Opus → G.711); the server's CPU over the window, from /proc, and the frames the listeners miss.
// TENFOUR_BENCH_SIP_PROFILE names a file for the server's CPU profile of the window.
func concurrent(ctx context.Context, t *testing.T, pairs int) {
	res, err := bench.RunSIPCalls(ctx, bench.SIPCallsOptions{Bin: testkit.Binary(t), Dir: t.TempDir(),
		Pairs: pairs, Profile: os.Getenv("TENFOUR_BENCH_SIP_PROFILE")})
	if err != nil {
		t.Fatal(err)
	}
	bench.Emit("sip.concurrent_calls", float64(res.Calls))
	bench.Emit("sip.concurrent_cores", res.Cores)
	bench.Emit("sip.calls_per_core", res.CallsPerCore())
	bench.Emit("sip.concurrent_missed_frames", float64(res.Missed))
	bench.Emit("sip.concurrent_rss_mb", float64(res.RSS)/(1<<20))
	bench.Emit("sip.load1", loadAvg1())
}

func loadAvg1() float64 {
	v, _ := strconv.ParseFloat(strings.Fields(bench.LoadAvg() + " 0")[0], 64)
	return v
}
