package media

import (
	"net/netip"
	"sync"
)

// A talker's packet goes to every listener on the direct path as a batch: each copy is rewritten and encrypted
// into its slot, and the slots leave in one sendmmsg(2) per socket (socket_linux.go; one send each elsewhere)
// instead of one sendto(2) per listener. The kernel's work per datagram stays; the system-call entries are paid
// once per batch (docs/adr/0039). A video frame's packets are batched together (Feed.read): the copies one receiver
// gets of them leave as one UDP GSO message where the kernel takes it, so the kernel's path is walked once per
// frame and receiver rather than once per packet (docs/adr/0045).

// batchMax is how many messages go in one system call, and how many copies a packet's batch takes before it
// leaves: a group of up to 64 listeners leaves in one call, a larger one in a call per 64.
const batchMax = 64

// frameCopies is how many copies a video frame's batch takes before it leaves: a frame of many packets to many
// receivers leaves in parts (each part still one GSO message per receiver).
const frameCopies = 512

// sendBatch is copies on their way out. It is used by one forwarding loop at a time (taken from batches for a
// packet, or a video frame, and given back after): no lock. Its slots' buffers (1500 bytes each) are made as first
// needed and reused across packets.
type sendBatch struct {
	sock  *mediaSocket
	bufs  [][]byte
	to    []netip.AddrPort
	outs  []directOut // whose copy each is: a voice listener's Downstream or a video session's Sink
	sizes []int       // payload bytes of each copy, taken back from the sender report's count if it is dropped
	lost  []bool      // flush: the copies the socket had no room for
	n     int
	// frame: it may hold several copies for one receiver (a video frame's, a NACK's resends): it takes up to
	// frameCopies, and writeBatch groups a receiver's copies into GSO messages. A packet's batch (voice) has one
	// copy per listener and skips the grouping.
	frame bool
	sys   batchSys // the system call's own state (socket_linux.go)
	local bool     // the forwarding runs on a local peer's own goroutine (Route.send, local.go)
}

var batches = sync.Pool{New: func() any {
	b := &sendBatch{}
	b.sys.init()
	return b
}}

// slot is the buffer for the next copy, which will leave from sock: the batch leaves first if it is full or on
// another socket.
func (b *sendBatch) slot(sock *mediaSocket) []byte {
	if b.n >= b.limit() || (b.n > 0 && b.sock != sock) {
		b.flush()
	}
	b.sock = sock
	if b.n == len(b.bufs) {
		b.bufs = append(b.bufs, make([]byte, 1500))
		b.to, b.outs = append(b.to, netip.AddrPort{}), append(b.outs, nil)
		b.sizes, b.lost = append(b.sizes, 0), append(b.lost, false)
	}
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
	if b.n == 0 {
		return
	}
	lost := b.lost[:b.n]
	clear(lost)
	b.sock.sys.writeBatch(&b.sys, b.bufs[:b.n], b.to[:b.n], lost, b.frame)
	for i, l := range lost {
		if l {
			b.outs[i].unsent(b.sizes[i])
		}
	}
	clear(b.outs[:b.n])
	b.n, b.sock = 0, nil
}

// limit is how many copies the batch takes before it leaves.
func (b *sendBatch) limit() int {
	if b.frame {
		return frameCopies
	}
	return batchMax
}

// release sends what is left and gives the batch back to the pool, ready for a packet's copies again.
func (b *sendBatch) release() {
	b.flush()
	b.frame, b.local = false, false
	batches.Put(b)
}
