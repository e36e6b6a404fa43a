//go:build !linux

package media

import (
	"net"
	"net/netip"
)

// sockSys is the socket's own reads and writes where raw system calls are not used (socket_linux.go).
type sockSys struct{ c *net.UDPConn }

func newSockSys(c *net.UDPConn) sockSys { return sockSys{c: c} }

func (s sockSys) readFrom(b []byte) (int, netip.AddrPort, error) { return s.c.ReadFromUDPAddrPort(b) }

func (s sockSys) writeTo(b []byte, to netip.AddrPort) (int, error) {
	return s.c.WriteToUDPAddrPort(b, to)
}

// batchSys has no state where copies are sent one by one.
type batchSys struct{}

func (*batchSys) init() {}

// writeBatch sends each copy with the socket's own write, as far as they go; the rest are marked lost.
func (s sockSys) writeBatch(_ *batchSys, bufs [][]byte, to []netip.AddrPort, lost []bool, _ bool) {
	for i := range bufs {
		if _, err := s.writeTo(bufs[i], to[i]); err != nil {
			for j := i; j < len(bufs); j++ {
				lost[j] = true
			}
			return
		}
	}
}
