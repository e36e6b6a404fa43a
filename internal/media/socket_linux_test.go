//go:build linux && !race

package media

import (
	"net"
	"testing"
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
		if _, err := s.writeTo(out, caddr, true); err != nil {
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
}
