package bench

import (
	"testing"
	"time"
)

func TestParseBenchmarks(t *testing.T) {
	out := "goos: linux\n" +
		"BenchmarkFloorDecision-2   \t     100\t        89.84 ns/op\t       611.0 p99-ns\n" +
		"BenchmarkPTT-2             \t2026/11/21 16:54:56 INFO media server udp=41643 publicIPs=[] turn=0\n" +
		"2026/11/21 16:54:56 INFO empty database\n" +
		"     100\t  10452684 ns/op\t       875.0 first-p50-µs\t     52545 first-p99-µs\n" +
		"BenchmarkForwardDelay/listeners=10-2         \t       1\t5766481359 ns/op\t       114.0 p50-µs\t       542.0 p99-µs\n" +
		"BenchmarkPublish/1000conns-2 \t  1000\t  51234 ns/op\t 312.5 B/conn\t  24 B/op\t 1 allocs/op\n" +
		"PASS\n"
	got := ParseBenchmarks(out)
	if r := got["BenchmarkFloorDecision"]; r.N != 100 || r.Metrics["p99-ns"] != 611 {
		t.Errorf("floor: %+v", r)
	}
	if r := got["BenchmarkPTT"]; r.N != 100 || r.Metrics["first-p99-µs"] != 52545 || r.NsPerOp != 10452684 {
		t.Errorf("ptt: %+v", r)
	}
	if r := got["BenchmarkForwardDelay/listeners=10"]; r.Metrics["p99-µs"] != 542 {
		t.Errorf("forward: %+v", r)
	}
	if r := got["BenchmarkPublish/1000conns"]; r.Metrics["B/conn"] != 312.5 || r.Metrics["allocs/op"] != 1 {
		t.Errorf("publish: %+v", r)
	}
}

func TestParseBenchLines(t *testing.T) {
	got := ParseBenchLines("=== RUN TestX\nBENCH ptt.p50_ms 1.25\n  BENCH late.n 40\nBENCH x notanumber\n")
	if got["ptt.p50_ms"] != 1.25 || got["late.n"] != 40 || len(got) != 2 {
		t.Errorf("%v", got)
	}
}

func TestPct(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	if p := Pct(ds, .95); p != 95*time.Millisecond {
		t.Errorf("p95 %v", p)
	}
	if p := Pct(ds, .5); p != 50*time.Millisecond {
		t.Errorf("p50 %v", p)
	}
	if Thousands(10000) != "10,000" || Thousands(999) != "999" || Thousands(1234567) != "1,234,567" {
		t.Errorf("thousands: %s %s %s", Thousands(10000), Thousands(999), Thousands(1234567))
	}
}
