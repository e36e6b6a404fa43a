//go:build linux

package media

import (
	"net"
	"net/netip"
	"sync"
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

// rawOp is one raw call's state. RawConn.Read and Write take a function; a closure over the call's variables
// would be allocated on every packet (tens of thousands a second at a few hundred listeners), so the state and
// its two method values are made once and pooled.
type rawOp struct {
	b       []byte
	n       int
	err     error
	wait    bool
	sa      syscall.RawSockaddrInet6 // recvfrom's sender: room for either family
	to      syscall.RawSockaddrInet4 // sendto's destination
	readFn  func(fd uintptr) bool
	writeFn func(fd uintptr) bool
}

var rawOps = sync.Pool{New: func() any {
	op := &rawOp{}
	op.readFn, op.writeFn = op.read, op.write
	return op
}}

func (op *rawOp) read(fd uintptr) bool {
	salen := uint32(unsafe.Sizeof(op.sa))
	var done bool
	op.n, done, op.err = rawIO(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&op.b[0])), uintptr(len(op.b)), 0,
		uintptr(unsafe.Pointer(&op.sa)), uintptr(unsafe.Pointer(&salen)))
	return done // not done: wait on the poller
}

func (op *rawOp) write(fd uintptr) bool {
	var done bool
	op.n, done, op.err = rawIO(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&op.b[0])), uintptr(len(op.b)), 0,
		uintptr(unsafe.Pointer(&op.to)), unsafe.Sizeof(op.to))
	if !done && !op.wait {
		op.err = syscall.EAGAIN // the send buffer is full and the caller does not wait: the packet is dropped
		return true
	}
	return done // not done: wait on the poller for room, as the socket's own write would
}

func (s sockSys) readFrom(b []byte) (int, netip.AddrPort, error) {
	if s.rc == nil || len(b) == 0 {
		return s.c.ReadFromUDPAddrPort(b)
	}
	op := rawOps.Get().(*rawOp)
	op.b = b
	rerr := s.rc.Read(op.readFn)
	n, err, from := op.n, op.err, sockaddrAddrPort(&op.sa)
	op.b, op.err = nil, nil
	rawOps.Put(op)
	if rerr != nil {
		return 0, netip.AddrPort{}, rerr
	}
	if err != nil {
		return 0, netip.AddrPort{}, &net.OpError{Op: "read", Net: "udp", Source: s.c.LocalAddr(), Err: err}
	}
	return n, from, nil
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
	op := rawOps.Get().(*rawOp)
	op.b, op.wait = b, wait
	op.to.Family = syscall.AF_INET
	p := (*[2]byte)(unsafe.Pointer(&op.to.Port))
	p[0], p[1] = byte(to.Port()>>8), byte(to.Port())
	op.to.Addr = to.Addr().As4()
	werr := s.rc.Write(op.writeFn)
	n, err := op.n, op.err
	op.b, op.err = nil, nil
	rawOps.Put(op)
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
