//go:build linux

package media

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/srtp/v3"
)

// BenchmarkDirectPath is the direct path alone (docs/adr/0027, 0039): one packet rewritten, encrypted and sent to
// each of n listeners — an SRTP context per listener as a connection has, one media socket, the copies batched —
// while other goroutines drain the listeners' sockets without allocating, so the figures are the forwarding's own:
// the forwarding thread's CPU time, split into its own work (user time: rewrite, SRTP, the batch) and the kernel's
// (system time: sendmmsg, the UDP/IP output and, on loopback, the delivery into the listener's socket), and the
// allocations, per packet per listener. BenchmarkListenerWrite (bench_test.go) measures one listener through a
// real connection, its receiver's work included.
func BenchmarkDirectPath(b *testing.B) {
	for _, n := range []int{1, 10, 100, 200} {
		b.Run(fmt.Sprintf("listeners=%d", n), func(b *testing.B) {
			r := directRoute(b, n)
			pkt := &rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SSRC: 7}, Payload: make([]byte, 60)}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			user0, sys0 := threadRusage()
			b.ResetTimer()
			for i := range b.N {
				pkt.SequenceNumber, pkt.Timestamp = uint16(i), uint32(i*960)
				r.forward(pkt, time.Now())
			}
			b.StopTimer()
			user1, sys1 := threadRusage()
			runtime.ReadMemStats(&m1)
			per := float64(b.N) * float64(n)
			b.ReportMetric(float64(user1-user0)/per, "user-ns/listener")
			b.ReportMetric(float64(sys1-sys0)/per, "sys-ns/listener")
			b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/per, "allocs/listener")
			var written uint64
			for _, t := range r.Targets {
				written += t.D.Written()
			}
			b.ReportMetric(float64(written)/per*100, "sent-%")
		})
	}
}

// threadRusage is the calling thread's user and system CPU time, ns (getrusage RUSAGE_THREAD).
func threadRusage() (user, sys int64) {
	var ru syscall.Rusage
	const rusageThread = 1
	_ = syscall.Getrusage(rusageThread, &ru)
	return ru.Utime.Nano(), ru.Stime.Nano()
}

// directRoute is a route to n listeners on the direct path from one media socket, each listener a loopback socket
// drained until the benchmark ends.
func directRoute(b testing.TB, n int) *Route {
	b.Helper()
	sock := newMediaSocket(loopbackUDP(b))
	key, salt := make([]byte, 16), make([]byte, 12)
	r := &Route{}
	for i := range n {
		l := loopbackUDP(b)
		go func() {
			buf := make([]byte, 1500)
			for {
				if _, _, err := l.ReadFromUDPAddrPort(buf); errors.Is(err, net.ErrClosed) {
					return
				}
			}
		}()
		ctx, err := srtp.CreateContext(key, salt, srtp.ProtectionProfileAeadAes128Gcm)
		if err != nil {
			b.Fatal(err)
		}
		to := l.LocalAddr().(*net.UDPAddr).AddrPort()
		d := newDownstream(nil)
		d.path = &directPath{ctx: ctx, conn: sock, to: to, plain: make([]byte, 1500)}
		d.direct, d.ssrc, d.pt = d.path, uint32(i+1), 111
		d.Assign(1)
		r.Targets = append(r.Targets, Target{D: d, Src: 1})
	}
	return r
}
