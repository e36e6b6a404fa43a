package bench_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"tenfour/internal/bench"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// TestBroadcastPaging measures live paging (internal/broadcast, docs/adr/0018): a console holds the paging
// button for N simulated PA speakers while its microphone sends a 20 ms Opus packet every 20 ms; the time from
// the press (POST /broadcast/v1/paging/start sent) to the first audio frame at each speaker is taken, the page is
// released, and again. Then one page of every speaker is held for a while and the process's CPU gives the
// speakers fed per core (server and speakers share the process: the figure is a floor).
//
//	TENFOUR_BENCH=1 go test -run TestBroadcastPaging -v ./internal/bench/
func TestBroadcastPaging(t *testing.T) {
	gate(t)
	n := testkit.EnvInt("TENFOUR_BENCH_SPEAKERS", 100)
	presses := testkit.EnvInt("TENFOUR_BENCH_PAGES", 10)
	w := newWorld(t)
	w.s.Broadcast.SetClock(nil)
	w.provision(42000001, 1, 1, "42000000")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tok, err := w.s.Sessions.Create(ctx, "42000000", w.cust)
	if err != nil {
		t.Fatal(err)
	}
	con := w.dial(ctx, w.s.URL, termclient.Options{Token: tok})
	if err := con.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	// the broadcast service has its own token: the console signs in to it with '{secret}' and its session
	var login struct{ Token string }
	if r := w.s.Do("POST", "/broadcast/v1/login", tok, map[string]any{"username": "42000000", "password": "{secret}"}); r.Code != "200" {
		t.Fatalf("broadcast login: %s %s", r.Code, r.Msg)
	} else {
		r.Into(t, &login)
	}
	tok = login.Token
	sum := md5.Sum([]byte("bench-org"))
	orgPass := hex.EncodeToString(sum[:])
	must := func(r testkit.Reply, what string) testkit.Reply {
		if r.Code != "200" {
			t.Fatalf("%s: %s %s", what, r.Code, r.Msg)
		}
		return r
	}
	var org struct{ ID int64 }
	must(w.s.Do("POST", "/broadcast/api/v1/org", tok, map[string]any{"name": "Bench", "code": "bench", "call_number": "1", "password": orgPass}), "org").Into(t, &org)
	var speakers []*sim.Speaker
	var ids []int64
	for i := range n {
		var d struct{ ID int64 }
		code := fmt.Sprintf("b%03d", i)
		must(w.s.Do("POST", "/broadcast/v1/device", tok, map[string]any{"org_id": org.ID, "name": code, "code": code}), "device").Into(t, &d)
		ids = append(ids, d.ID)
		sp := &sim.Speaker{URL: w.s.URL, OrgID: org.ID, Code: code, Password: orgPass, CountOnly: true} // the server's fan-out, not the decoder
		speakers = append(speakers, sp)
		go func() { _ = sp.Run(ctx) }()
	}
	testkit.Eventually(t, time.Minute, "speakers online", func() bool {
		for _, sp := range speakers {
			if !sp.Online() {
				return false
			}
		}
		return true
	})
	// the microphone: a packet every 20 ms for the whole run (dropped by the server while no page is held)
	payload := append([]byte{0x78}, make([]byte, 80)...)
	go func() {
		for ctx.Err() == nil {
			batch := make([][]byte, 50)
			for i := range batch {
				batch[i] = payload
			}
			if con.Media.Send(ctx, batch, 20*time.Millisecond) != nil {
				return
			}
		}
	}()
	var firsts []time.Duration
	for range presses {
		start := time.Now()
		must(w.s.Do("POST", "/broadcast/v1/paging/start", tok, map[string]any{"device_ids": ids}), "page")
		testkit.Eventually(t, 10*time.Second, "every speaker hears the page", func() bool {
			for _, sp := range speakers {
				if sp.LiveFirst().IsZero() {
					return false
				}
			}
			return true
		})
		for _, sp := range speakers {
			firsts = append(firsts, sp.LiveFirst().Sub(start))
		}
		must(w.s.Do("GET", "/broadcast/v1/paging/stop", tok, nil), "stop")
		testkit.Eventually(t, 10*time.Second, "the page ends", func() bool {
			for _, sp := range speakers {
				if sp.Status().State == "live" {
					return false
				}
			}
			return true
		})
	}
	// speakers fed per core: one page held for 5 s
	must(w.s.Do("POST", "/broadcast/v1/paging/start", tok, map[string]any{"device_ids": ids}), "page")
	time.Sleep(time.Second)
	cpu0, wall0 := bench.OwnCPU(), time.Now()
	time.Sleep(5 * time.Second)
	cpu, wall := bench.OwnCPU()-cpu0, time.Since(wall0)
	must(w.s.Do("GET", "/broadcast/v1/paging/stop", tok, nil), "stop")
	perCore := float64(n) / (cpu.Seconds() / wall.Seconds())
	t.Logf("paging press → first audio frame at %d speakers (%d presses): p50 %v p95 %v p99 %v max %v; %.0f speakers per core",
		n, presses, bench.Pct(firsts, .5), bench.Pct(firsts, .95), bench.Pct(firsts, .99), bench.Pct(firsts, 1), perCore)
	bench.Emit("paging.speakers", float64(n))
	bench.Emit("paging.n", float64(len(firsts)))
	bench.EmitMs("paging.p50_ms", bench.Pct(firsts, .5))
	bench.EmitMs("paging.p95_ms", bench.Pct(firsts, .95))
	bench.EmitMs("paging.p99_ms", bench.Pct(firsts, .99))
	bench.Emit("paging.speakers_per_core", perCore)
}
