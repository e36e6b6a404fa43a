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
		salen := uint32(unsafe.Sizeof(sa))
		var done bool
		n, done, err = rawIO(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0,
			uintptr(unsafe.Pointer(&sa)), uintptr(unsafe.Pointer(&salen)))
		return done // not done: wait on the poller
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
		var done bool
		n, done, err = rawIO(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0,
			uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))
		if !done && !wait {
			err = syscall.EAGAIN // the send buffer is full and the caller does not wait: the packet is dropped
			return true
		}
		return done // not done: wait on the poller for room, as the socket's own write would
	})
	if werr != nil {
		return 0, werr
	}
	if err != nil {
		return 0, &net.OpError{Op: "write", Net: "udp", Source: s.c.LocalAddr(), Addr: net.UDPAddrFromAddrPort(to), Err: err}
	}
	return n, nil
}

// rawIO makes one socket call, again if a signal interrupted it; done is false when the socket would block (EAGAIN).
func rawIO(trap, a1, a2, a3, a4, a5, a6 uintptr) (n int, done bool, err error) {
	for {
		r, _, e := syscall.RawSyscall6(trap, a1, a2, a3, a4, a5, a6)
		switch e {
		case 0:
			return int(r), true, nil
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return 0, false, nil
		default:
			return 0, true, e
		}
	}
}
