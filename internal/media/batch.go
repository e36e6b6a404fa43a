package media

import (
	"net/netip"
	"sync"
)

// A talker's packet goes to every listener on the direct path as a batch: each copy is rewritten and encrypted
// into its slot, and the slots leave in one sendmmsg(2) per socket (socket_linux.go; one send each elsewhere)
// instead of one sendto(2) per listener. The kernel's work per datagram stays; the system-call entries are paid
// once per batch (docs/adr/0039). UDP GSO does not apply: it splits one buffer into segments for one
// destination, and each listener is another destination.

// batchMax is how many copies go in one system call: a group of up to 64 listeners leaves in one call, a larger
// one in a call per 64 (the slots' buffers, 1500 bytes each, are reused across packets).
const batchMax = 64

// sendBatch is one packet's copies on their way out. It is used by one forwarding loop at a time (taken from
// batches for the packet and given back after): no lock.
type sendBatch struct {
	sock  *mediaSocket
	bufs  [batchMax][]byte
	to    [batchMax]netip.AddrPort
	outs  [batchMax]directOut // whose copy each is: a voice listener's Downstream or a video session's Sink
	sizes [batchMax]int       // payload bytes of each copy, taken back from the sender report's count if it is dropped
	n     int
	sys   batchSys // the system call's own state (socket_linux.go)
	local bool     // the forwarding runs on a local peer's own goroutine (Route.send, local.go)
}

var batches = sync.Pool{New: func() any {
	b := &sendBatch{}
	for i := range b.bufs {
		b.bufs[i] = make([]byte, 1500)
	}
	b.sys.init()
	return b
}}

// slot is the buffer for the next copy, which will leave from sock: the batch leaves first if it is full or on
// another socket.
func (b *sendBatch) slot(sock *mediaSocket) []byte {
	if b.n == batchMax || (b.n > 0 && b.sock != sock) {
		b.flush()
	}
	b.sock = sock
	return b.bufs[b.n][:cap(b.bufs[b.n])]
}

// add queues the copy written into the current slot: out (the slot's buffer, or a larger one the encryption
// made, kept for the next packets) to the listener at to, on behalf of d.
func (b *sendBatch) add(out []byte, to netip.AddrPort, d directOut, payload int) {
	b.bufs[b.n], b.to[b.n], b.outs[b.n], b.sizes[b.n] = out, to, d, payload
	b.n++
}

// flush sends what is queued. A copy the socket has no room for is dropped, never waited for (the forwarding
// loop is the talker's reader), and taken back from its listener's counts.
func (b *sendBatch) flush() {
	sent := b.sock.sys.writeBatch(&b.sys, b.bufs[:b.n], b.to[:b.n])
	for i := sent; i < b.n; i++ {
		b.outs[i].unsent(b.sizes[i])
	}
	clear(b.outs[:b.n])
	b.n, b.sock = 0, nil
}
