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

func (s sockSys) writeTo(b []byte, to netip.AddrPort, _ bool) (int, error) {
	return s.c.WriteToUDPAddrPort(b, to)
}
