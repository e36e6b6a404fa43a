//go:build linux

package media

import (
	"net"
	"net/netip"
	"syscall"
	"unsafe"
)

// sockSys reads and writes a media socket with raw recvfrom(2) and sendto(2) on its non-blocking descriptor, through
// the runtime's poller (syscall.RawConn) when the socket has nothing to read or no room. A raw call skips the
// runtime's system-call entry and exit: no P is handed off and the monitor thread (sysmon) is not woken, which a
// server that sleeps between every 20 ms voice packet otherwise pays for on each one (docs/adr/0029).
type sockSys struct {
	c  *net.UDPConn
	rc syscall.RawConn
}

func newSockSys(c *net.UDPConn) sockSys {
	rc, err := c.SyscallConn()
	if err != nil {
		return sockSys{c: c}
	}
	return sockSys{c: c, rc: rc}
}

func (s sockSys) readFrom(b []byte) (int, netip.AddrPort, error) {
	if s.rc == nil || len(b) == 0 {
		return s.c.ReadFromUDPAddrPort(b)
	}
	var (
		n   int
		sa  syscall.RawSockaddrInet6 // room for either family
		err error
	)
	rerr := s.rc.Read(func(fd uintptr) bool {
		for {
			salen := uint32(unsafe.Sizeof(sa))
			r, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0,
				uintptr(unsafe.Pointer(&sa)), uintptr(unsafe.Pointer(&salen)))
			switch e {
			case 0:
				n = int(r)
				return true
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait on the poller
			default:
				err = e
				return true
			}
		}
	})
	if rerr != nil {
		return 0, netip.AddrPort{}, rerr
	}
	if err != nil {
		return 0, netip.AddrPort{}, &net.OpError{Op: "read", Net: "udp", Source: s.c.LocalAddr(), Err: err}
	}
	return n, sockaddrAddrPort(&sa), nil
}

// sockaddrAddrPort decodes what recvfrom wrote: an IPv4 or IPv6 socket address, port in network order.
func sockaddrAddrPort(sa *syscall.RawSockaddrInet6) netip.AddrPort {
	p := (*[2]byte)(unsafe.Pointer(&sa.Port))
	port := uint16(p[0])<<8 | uint16(p[1])
	if sa.Family == syscall.AF_INET {
		s4 := (*syscall.RawSockaddrInet4)(unsafe.Pointer(sa))
		return netip.AddrPortFrom(netip.AddrFrom4(s4.Addr), port)
	}
	return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr), port)
}

func (s sockSys) writeTo(b []byte, to netip.AddrPort, wait bool) (int, error) {
	if s.rc == nil || !to.Addr().Is4() || len(b) == 0 {
		return s.c.WriteToUDPAddrPort(b, to) // the media port is IPv4 (engine.go); anything else the usual way
	}
	var sa syscall.RawSockaddrInet4
	sa.Family = syscall.AF_INET
	p := (*[2]byte)(unsafe.Pointer(&sa.Port))
	p[0], p[1] = byte(to.Port()>>8), byte(to.Port())
	sa.Addr = to.Addr().As4()
	var (
		n   int
		err error
	)
	werr := s.rc.Write(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0,
				uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))
			switch e {
			case 0:
				n = int(r)
				return true
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				if !wait {
					err = e
					return true
				}
				return false // the send buffer is full: wait on the poller, as the socket's own write would
			default:
				err = e
				return true
			}
		}
	})
	if werr != nil {
		return 0, werr
	}
	if err != nil {
		return 0, &net.OpError{Op: "write", Net: "udp", Source: s.c.LocalAddr(), Addr: net.UDPAddrFromAddrPort(to), Err: err}
	}
	return n, nil
}
