//go:build linux

package media

import (
	"bytes"
	"fmt"
	"net"
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A batch's copies to one destination that stand in a row of equal sizes leave as one UDP GSO message, which the
// kernel cuts into the same datagrams, in order; a longer copy starts a new message and a shorter one ends its
// row. Every listener reads exactly what was queued for it, and the plan is the fewest messages: here A's six copies
// in one, B's three in two (800, then 1000 twice), C's one alone. A kernel that refuses GSO turns it off once.
func TestBatchSendsAReceiversRowOfCopiesAsOneGSOMessage(t *testing.T) {
	ms := newMediaSocket(loopbackUDP(t))
	a, b, c := loopbackUDP(t), loopbackUDP(t), loopbackUDP(t)
	addr := func(u *net.UDPConn) netip.AddrPort { return u.LocalAddr().(*net.UDPAddr).AddrPort() }
	sizes := map[*net.UDPConn][]int{a: {1000, 1000, 1000, 1000, 1000, 400}, b: {800, 1000, 1000}, c: {1200}}
	bt := batches.Get().(*sendBatch)
	defer bt.release()
	bt.frame = true
	d := &Downstream{}
	// send queues the copies packet-major, as a frame's packets are queued to each receiver in turn, flushes them
	// and checks that every receiver reads exactly its datagrams, in order.
	send := func(what string) {
		t.Helper()
		want := map[*net.UDPConn][][]byte{}
		for i := range 6 {
			for _, u := range []*net.UDPConn{a, b, c} {
				if i >= len(sizes[u]) {
					continue
				}
				p := bytes.Repeat([]byte(fmt.Sprintf("%d", i)), sizes[u][i])
				want[u] = append(want[u], p)
				bt.add(append(bt.slot(ms)[:0], p...), addr(u), d, len(p))
			}
		}
		bt.sys.plan(bt.bufs[:bt.n], bt.to[:bt.n], true)
		if msgs := len(bt.sys.first) - 1; msgs != 4 {
			t.Fatalf("%s: %d messages planned, want 4", what, msgs)
		}
		bt.flush()
		for _, u := range []*net.UDPConn{a, b, c} {
			_ = u.SetReadDeadline(time.Now().Add(2 * time.Second))
			buf := make([]byte, 65536)
			for i, p := range want[u] {
				n, err := u.Read(buf)
				if err != nil || !bytes.Equal(buf[:n], p) {
					t.Fatalf("%s: %v datagram %d: %d bytes (%v), want %d", what, addr(u), i, n, err, len(p))
				}
			}
		}
	}
	send("GSO")
	if gsoOff.Load() {
		t.Fatal("the kernel refused the GSO messages on loopback (UDP_SEGMENT, Linux 4.18)")
	}

	// A kernel that refuses GSO (here: a socket without UDP checksums, SO_NO_CHECK, which GSO needs: EINVAL) turns
	// it off, and the refused copies still leave, one per message.
	t.Cleanup(func() { gsoOff.Store(false) })
	rc, err := ms.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	_ = rc.Control(func(fd uintptr) { err = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_NO_CHECK, 1) })
	if err != nil {
		t.Fatal(err)
	}
	send("GSO refused")
	if !gsoOff.Load() {
		t.Fatal("GSO is still on after the kernel refused a GSO message")
	}

	// Without GSO every copy is a message of its own.
	bt.sys.plan(bt.bufs[:10], bt.to[:10], false)
	if msgs := len(bt.sys.first) - 1; msgs != 10 {
		t.Fatalf("without GSO: %d messages for 10 copies", msgs)
	}
}
