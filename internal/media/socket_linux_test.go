//go:build linux && !race

package media

import (
	"net"
	"testing"
	"time"

	"github.com/pion/rtp"
)

// The raw reads and writes allocate nothing per packet (docs/adr/0029): at a few hundred listeners they run tens
// of thousands of times a second. (Not under -race, which makes the calls' state escape.)
func TestRawReadsAndWritesDoNotAllocate(t *testing.T) {
	s := newSockSys(loopbackUDP(t))
	c := loopbackUDP(t)
	caddr := c.LocalAddr().(*net.UDPAddr).AddrPort()
	saddr := s.c.LocalAddr().(*net.UDPAddr).AddrPort()
	out, in := []byte("a voice packet"), make([]byte, 1500)
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := s.writeTo(out, caddr); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.ReadFromUDPAddrPort(in); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WriteToUDPAddrPort(out, saddr); err != nil {
			t.Fatal(err)
		}
		if n, from, err := s.readFrom(in); err != nil || n != len(out) || from != caddr {
			t.Fatalf("read %d from %v: %v", n, from, err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per write and read", allocs)
	}

	// Nor does a batch of the direct path (batch.go): the slots, messages and the system call's state are reused.
	ms := newMediaSocket(s.c)
	to := caddr
	d := &Downstream{}
	allocs = testing.AllocsPerRun(1000, func() {
		b := batches.Get().(*sendBatch)
		b.add(append(b.slot(ms)[:0], out...), to, d, len(out))
		b.flush()
		batches.Put(b)
		if n, _, err := c.ReadFromUDPAddrPort(in); err != nil || n != len(out) {
			t.Fatalf("read %d: %v", n, err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per batched send", allocs)
	}
}

// A talker's packet reaches its listeners on the direct path without an allocation: rewrite, SRTP, the batch.
func TestDirectPathDoesNotAllocate(t *testing.T) {
	r := directRoute(t, 10)
	pkt := &rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SSRC: 7}, Payload: make([]byte, 60)}
	seq := uint16(0)
	allocs := testing.AllocsPerRun(500, func() {
		seq++
		pkt.SequenceNumber, pkt.Timestamp = seq, uint32(seq)*960
		r.forward(pkt, time.Now())
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per packet to 10 listeners", allocs)
	}
	if w := r.Targets[9].D.Written(); w < 500 {
		t.Fatalf("the last listener was written %d packets, want at least 500", w)
	}
}
