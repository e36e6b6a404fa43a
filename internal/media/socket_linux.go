//go:build linux

package media

import (
	"net"
	"net/netip"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
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

func (s sockSys) writeTo(b []byte, to netip.AddrPort) (int, error) {
	if s.rc == nil || !to.Addr().Is4() || len(b) == 0 {
		return s.c.WriteToUDPAddrPort(b, to) // the media port is IPv4 (engine.go); anything else the usual way
	}
	op := rawOps.Get().(*rawOp)
	op.b = b
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

// batchSys is a batch's sendmmsg(2) state: one header, buffer vector and IPv4 address per copy, made once with
// the batch (pooled) and refilled for each packet. golang.org/x/net's ipv4.PacketConn.WriteBatch makes the same
// call through syscall.Syscall6, whose runtime bookkeeping ADR 0029 keeps off the media path: the call is made here
// raw, as sendto is, with x/sys/unix's kernel structures.
type batchSys struct {
	hdrs  [batchMax]unix.Mmsghdr
	iovs  [batchMax]unix.Iovec
	addrs [batchMax]unix.RawSockaddrInet4
	hs    []unix.Mmsghdr // what the next call sends
	sent  int
	fn    func(fd uintptr) bool
}

func (bs *batchSys) init() { bs.fn = bs.send }

func (bs *batchSys) send(fd uintptr) bool {
	n, done, err := rawIO(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&bs.hs[0])), uintptr(len(bs.hs)),
		unix.MSG_DONTWAIT, 0, 0)
	bs.sent = n
	if !done || err != nil {
		bs.sent = 0 // no room (the copies are dropped, never waited for) or a failed socket
	}
	return true
}

// writeBatch sends the copies in as few sendmmsg calls as the kernel takes them; it returns how many were sent,
// in order: the rest were dropped.
func (s sockSys) writeBatch(bs *batchSys, bufs [][]byte, to []netip.AddrPort) int {
	for i := range bufs {
		if s.rc == nil || !to[i].Addr().Is4() || len(bufs[i]) == 0 {
			return s.writeEach(bufs, to) // the media port is IPv4 (engine.go); anything else the usual way
		}
		a := &bs.addrs[i]
		a.Family = unix.AF_INET
		p := (*[2]byte)(unsafe.Pointer(&a.Port))
		p[0], p[1] = byte(to[i].Port()>>8), byte(to[i].Port())
		a.Addr = to[i].Addr().As4()
		bs.iovs[i].Base = &bufs[i][0]
		bs.iovs[i].SetLen(len(bufs[i]))
		h := &bs.hdrs[i].Hdr
		h.Name, h.Namelen = (*byte)(unsafe.Pointer(a)), unix.SizeofSockaddrInet4
		h.Iov = &bs.iovs[i]
		h.SetIovlen(1)
	}
	sent := 0
	for sent < len(bufs) {
		bs.hs = bs.hdrs[sent:len(bufs)]
		if err := s.rc.Write(bs.fn); err != nil || bs.sent <= 0 {
			break
		}
		sent += bs.sent
	}
	bs.hs = nil
	return sent
}

// writeEach sends the copies one by one, as far as they go.
func (s sockSys) writeEach(bufs [][]byte, to []netip.AddrPort) int {
	for i := range bufs {
		if _, err := s.c.WriteToUDPAddrPort(bufs[i], to[i]); err != nil {
			return i
		}
	}
	return len(bufs)
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
