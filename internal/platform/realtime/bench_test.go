package realtime

import (
	"runtime"
	"strconv"
	"testing"

	"tenfour/internal/platform/identity"
)

// BenchmarkPublish measures fan-out of one event to 1,000 connections' queues (the WebSocket writes happen on
// each connection's own writer and are not part of it). It also reports the hub-side memory of one connection
// (queue, limiter, bookkeeping; the WebSocket's buffers and the reading goroutine come on top).
func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{1000} {
		b.Run(strconv.Itoa(n)+"conns", func(b *testing.B) {
			h := NewHub(nil, nil)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			conns := make([]*Conn, n)
			for i := range conns {
				c := newConn(h, nil, "")
				c.p = identity.Principal{AccountID: strconv.Itoa(100000 + i), CustomerID: 1}
				c.kind = Console
				if i%10 == 0 {
					c.kind = Terminal
				}
				c.logged = true
				c.writing = true // no writer: the benchmark drains the queue itself (the connection has no socket)
				h.register(c)
				conns[i] = c
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			perConn := float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
			event := map[string]any{"msId": "10000101", "online": "1", "time": 1731000000000}
			drain := func() {
				for _, c := range conns {
					c.qmu.Lock()
					clear(c.q)
					c.q, c.qhead, c.qbytes = c.q[:0], 0, 0
					c.qmu.Unlock()
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				h.Publish(1, "presence", event, Consoles)
				if i%(QueueLen/2) == QueueLen/2-1 {
					b.StopTimer()
					drain()
					b.StartTimer()
				}
			}
			b.StopTimer()
			for _, c := range conns {
				select {
				case <-c.done:
					b.Fatal("a connection was dropped as slow during the benchmark")
				default:
				}
			}
			b.ReportMetric(perConn, "B/conn")
		})
	}
}
