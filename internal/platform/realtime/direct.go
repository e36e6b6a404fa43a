package realtime

import (
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Direct writes: the goroutine that queues a frame to an idle connection writes it to the socket itself, with one
// write(2) that does not wait (Conn.writeDirect, idleConn.tryWrite). An event to 10,000 terminals is written by
// a few goroutines, not by 10,000 short-lived writer goroutines, each with its stack to grow and its context
// timer to arm (docs/performance.md, "one event to all"). A client that does not read fast enough still gets a
// writer goroutine of its own, which waits for its socket (Conn.writeLoop); no one else ever waits for it.

// waitedWrites counts the frames a socket did not take at once (a writer goroutine then waited for the client).
var waitedWrites atomic.Int64

var _ = promauto.NewCounterFunc(prometheus.CounterOpts{Name: "tenfour_socket_frames_waited_total",
	Help: "Frames a connection's socket did not take at once: its writer waited for the client to read."},
	func() float64 { return float64(waitedWrites.Load()) })

// appendTextFrame appends msg as one unmasked, final text frame (RFC 6455 §5.2), as a server sends it.
func appendTextFrame(dst, msg []byte) []byte {
	const finText = 0x81
	switch n := len(msg); {
	case n < 126:
		dst = append(dst, finText, byte(n))
	case n <= 0xFFFF:
		dst = append(dst, finText, 126, byte(n>>8), byte(n))
	default:
		dst = append(dst, finText, 127)
		dst = binary.BigEndian.AppendUint64(dst, uint64(n))
	}
	return append(dst, msg...)
}

// frameBufs hold a frame while writeDirect writes it; maxFrameBuf is the largest one kept.
var frameBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxFrameBuf = 64 << 10

// Starting the writers of an event's connections: a few by the publisher itself, more by one goroutine per
// share of them, one share per processor and at least writerShare connections each.
const (
	writersInline = 16
	writerShare   = 256
)

// startLists are the publishers' lists of connections whose writers an event starts.
var startLists = sync.Pool{New: func() any { s := make([]*Conn, 0, writersInline); return &s }}

// startWriters starts the writers of cs (each had no writer when the event was queued to it) and gives the
// list back to startLists once they have written.
func startWriters(list *[]*Conn) {
	cs := *list
	if len(cs) <= writersInline {
		buf := frameBufs.Get().(*[]byte)
		for _, c := range cs {
			c.startWriter(buf)
		}
		frameBufs.Put(buf)
		releaseStartList(list)
		return
	}
	shares := min(runtime.GOMAXPROCS(0), (len(cs)+writerShare-1)/writerShare)
	size := (len(cs) + shares - 1) / shares
	left := new(atomic.Int32)
	left.Store(int32((len(cs) + size - 1) / size))
	for i := 0; i < len(cs); i += size {
		share := cs[i:min(i+size, len(cs))]
		go func() {
			buf := frameBufs.Get().(*[]byte)
			for _, c := range share {
				c.startWriter(buf)
			}
			frameBufs.Put(buf)
			if left.Add(-1) == 0 {
				releaseStartList(list)
			}
		}()
	}
}

func releaseStartList(list *[]*Conn) {
	if cap(*list) > 1<<16 {
		return // an unusually large audience: let the list go
	}
	clear(*list)
	*list = (*list)[:0]
	startLists.Put(list)
}
