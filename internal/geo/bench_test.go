package geo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/geo"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
	"tenfour/internal/testkit"
)

// Load measurements run only when TENFOUR_GEO_BENCH=1 (they take minutes and want an otherwise idle machine):
//
//	TENFOUR_GEO_BENCH=1 TENFOUR_TEST_PG=postgres://… go test -run 'TestIngestThroughput|TestDeliveryLatency' -v ./internal/geo/
//
// TENFOUR_GEO_BENCH_SECONDS sets how long each runs (default 60 for ingest, 20 for delivery).
func benchSeconds(t *testing.T, def int) time.Duration {
	if os.Getenv("TENFOUR_GEO_BENCH") != "1" {
		t.Skip("set TENFOUR_GEO_BENCH=1 to run the load measurement")
	}
	return time.Duration(testkit.EnvInt("TENFOUR_GEO_BENCH_SECONDS", def)) * time.Second
}

// bulkTerminals adds n terminal accounts to a customer in one transaction and returns their ids.
func bulkTerminals(t testing.TB, d *db.DB, customer int64, n int) []string {
	t.Helper()
	ids := make([]string, n)
	accts := make([]directory.FleetAccount, n)
	for i := range n {
		ids[i] = fmt.Sprintf("9%07d", i)
		accts[i] = directory.FleetAccount{ID: directory.TerminalID(ids[i]), Type: "10", Name: "T" + ids[i], PasswordHash: "x"}
	}
	err := d.InTx(context.Background(), func(tx *db.Tx) error {
		_, err := directory.Provision(context.Background(), tx, directory.Fleet{Customer: directory.CustomerID(customer),
			Accounts: accts, Now: time.Now().UnixMilli()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestIngestThroughput drives the ingest pipeline (validation done, hot cache, fence index lookup, batched
// writer, accounts sync, fan-out) with 10,000 terminals, each report one position that waits for its commit
// (what a terminal asking for an acknowledgement gets), from 2,000 concurrent reporters, and prints the
// sustained committed positions per second.
func TestIngestThroughput(t *testing.T) {
	dur := benchSeconds(t, 60)
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		d := testkit.OpenStore(t, engine)
		f := seed(t, d, 0)
		ids := bulkTerminals(t, d, f.Customer, 10000)
		svc, stop := running(t, d, geo.Options{})
		ctx := context.Background()
		const reporters = 2000
		var done atomic.Int64
		var failed atomic.Int64
		deadline := time.Now().Add(dur)
		start := time.Now()
		var wg sync.WaitGroup
		for r := range reporters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				base := time.Now().Add(-time.Hour).UnixMilli()
				for k := 0; time.Now().Before(deadline); k++ {
					id := ids[(r+k*reporters)%len(ids)]
					p := identity.Principal{AccountID: id, CustomerID: f.Customer, Type: "10", Name: id}
					pt := geo.Point{Lat: 41 + float64(k%1000)/10000, Lng: 29 + float64(r)/10000, Speed: 10, Direction: 90,
						Time: base + int64(k)*10}
					if err := svc.Ingest(ctx, p, []geo.Point{pt}, true); err != nil {
						failed.Add(1)
						continue
					}
					done.Add(1)
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		stop()
		stored := testkit.Count(t, d, `SELECT COUNT(*) FROM gps_points`)
		rate := float64(done.Load()) / elapsed.Seconds()
		t.Logf("%s: %d positions committed in %v = %.0f positions/s sustained (%d refused busy; %d rows stored)",
			engine, done.Load(), elapsed.Round(time.Millisecond), rate, failed.Load(), stored)
		fmt.Printf("BENCH ingest %s positions/s %.0f over %v\n", engine, rate, elapsed.Round(time.Second))
		if stored < int(done.Load()) {
			t.Errorf("acknowledged %d but stored %d", done.Load(), stored)
		}
	})
}

// TestDeliveryLatency measures receive→console delivery: 100 terminals over real sockets report 10 positions
// per second each (1,000 positions/s) while a console listens. A report counts as delivered when the console
// receives a `gps` item of that terminal at least as new (positions are coalesced, latest wins); its latency is
// from the moment it was sent.
func TestDeliveryLatency(t *testing.T) {
	dur := benchSeconds(t, 20)
	s := testkit.Start(t)
	f := seed(t, s.DB, 100)
	con := testkit.Console(t, s.URL, f.Token)
	terms := make([]*testkit.Socket, len(f.Terminals))
	for i, id := range f.Terminals {
		terms[i] = testkit.Terminal(t, s.URL, id, testkit.Password)
	}
	var lat []float64
	var mu sync.Mutex
	pending := map[string][]int64{} // msId → send times not yet covered by a received position
	sendDone := make(chan struct{})
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		for {
			fr, err := con.TryRead(time.Second)
			if err != nil {
				select {
				case <-sendDone: // a second without a frame after the last report: everything arrived
					return
				default:
					continue
				}
			}
			at := time.Now().UnixMilli()
			if fr.Type != geo.EventGPS {
				continue
			}
			var ev geo.GPSEvent
			if json.Unmarshal(fr.Data, &ev) != nil {
				continue
			}
			mu.Lock()
			for _, l := range ev.List {
				// Every report this item supersedes (latest wins) counts as delivered now.
				q := pending[l.MsID]
				n := 0
				for n < len(q) && q[n] <= l.Time {
					lat = append(lat, float64(at-q[n]))
					n++
				}
				pending[l.MsID] = q[n:]
			}
			mu.Unlock()
		}
	}()
	var wg sync.WaitGroup
	deadline := time.Now().Add(dur)
	var sent atomic.Int64
	for i, term := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for k := 0; time.Now().Before(deadline); k++ {
				<-tick.C
				now := time.Now().UnixMilli()
				raw, _ := json.Marshal(map[string]any{"lat": 41 + float64(k)/10000, "lng": 29 + float64(i)/1000,
					"time": now, "ack": false})
				mu.Lock()
				pending[f.Terminals[i]] = append(pending[f.Terminals[i]], now)
				mu.Unlock()
				term.Send(testkit.Frame{Type: "gps.report", Data: raw}) // fire and forget, as a tracker would
				sent.Add(1)
			}
		}()
	}
	wg.Wait()
	close(sendDone)
	<-readDone
	if len(lat) == 0 {
		t.Fatal("no positions received")
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	t.Logf("sent %d positions, %d delivered (coalesced, latest wins): latency p50 %.0f ms, p95 %.0f ms, p99 %.0f ms, max %.0f ms",
		sent.Load(), len(lat), q(0.5), q(0.95), q(0.99), lat[len(lat)-1])
	fmt.Printf("BENCH delivery p50 %.0fms p99 %.0fms max %.0fms (%d sent, %d delivered)\n", q(0.5), q(0.99), lat[len(lat)-1], sent.Load(), len(lat))
	if q(0.99) >= 1000 {
		t.Errorf("p99 %.0f ms, target under 1 s", q(0.99))
	}
}
