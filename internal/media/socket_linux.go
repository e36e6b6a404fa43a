//go:build linux

package media

import (
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
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

// batchSys is a batch's sendmmsg(2) state: per message a header, a destination and (for a GSO message) its
// UDP_SEGMENT control message, per copy a buffer vector entry, grown with the batch (pooled) and refilled for each
// batch. golang.org/x/net's ipv4.PacketConn.WriteBatch makes the same call through syscall.Syscall6, whose runtime
// bookkeeping ADR 0029 keeps off the media path: the call is made here raw, as sendto is, with x/sys/unix's kernel
// structures.
type batchSys struct {
	hdrs  []unix.Mmsghdr
	addrs []unix.RawSockaddrInet4
	cmsgs []byte       // cmsgSpace bytes per message
	iovs  []unix.Iovec // the copies, message by message
	first []int        // each message's first entry in iovs and copy
	copy  []int        // which copy each iovs entry is
	next  []int        // the next copy to the same destination (-1: none), in the batch's order
	last  map[netip.AddrPort]int
	heads []int          // each destination's first copy, in order of first appearance
	hs    []unix.Mmsghdr // what the next call sends
	sent  int
	errno syscall.Errno
	fn    func(fd uintptr) bool
}

func (bs *batchSys) init() { bs.fn, bs.last = bs.send, map[netip.AddrPort]int{} }

func (bs *batchSys) send(fd uintptr) bool {
	n, done, err := rawIO(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&bs.hs[0])), uintptr(len(bs.hs)),
		unix.MSG_DONTWAIT, 0, 0)
	bs.sent, bs.errno = n, 0
	if !done || err != nil {
		bs.sent = 0 // no room (the copies are dropped, never waited for) or a failed socket
		bs.errno, _ = err.(syscall.Errno)
	}
	return true
}

// UDP GSO (UDP_SEGMENT, Linux 4.18): the copies of one message are cut into datagrams of the first copy's size by
// the kernel, the last one possibly shorter. gsoOff is set for good when the kernel refuses a GSO message (EIO: the
// device cannot checksum it; EINVAL: an old kernel or a path MTU below the segment): copies then leave one per
// message, as before.
const (
	gsoMaxSegments = 64    // UDP_MAX_SEGMENTS of older kernels (newer take 128)
	gsoMaxBytes    = 65000 // below the largest UDP payload, 65,507 bytes
)

var (
	gsoOff    atomic.Bool
	cmsgSpace = unix.CmsgSpace(2)
)

// writeBatch sends the copies in as few sendmmsg calls as the kernel takes them. With group (the batch may hold
// several copies for one destination: a video frame's), the copies to one destination that stand in a row of
// equal sizes (the last may be shorter) leave as one GSO message; every other copy is a message of its own.
// Copies the socket had no room for are marked lost.
func (s sockSys) writeBatch(bs *batchSys, bufs [][]byte, to []netip.AddrPort, lost []bool, group bool) {
	if s.rc == nil {
		s.writeEach(bufs, to, lost)
		return
	}
	for i := range bufs {
		if !to[i].Addr().Is4() || len(bufs[i]) == 0 {
			s.writeEach(bufs, to, lost) // the media port is IPv4 (engine.go); anything else the usual way
			return
		}
	}
	bs.plan(bufs, to, group && !gsoOff.Load())
	for m := 0; m < len(bs.hdrs); {
		bs.hs = bs.hdrs[m:min(len(bs.hdrs), m+batchMax)]
		if err := s.rc.Write(bs.fn); err == nil && bs.sent > 0 {
			m += bs.sent
			continue
		}
		if bs.segments(m) > 1 && (bs.errno == syscall.EIO || bs.errno == syscall.EINVAL) && gsoOff.CompareAndSwap(false, true) {
			slog.Warn("media: the kernel refuses UDP GSO messages; video copies leave one per datagram", "err", bs.errno)
		}
		if gsoOff.Load() && bs.segments(m) > 1 { // the rest again, a message per copy (once per process)
			rest := slices.Clone(bs.copy[bs.first[m]:])
			rb, rt, rl := make([][]byte, len(rest)), make([]netip.AddrPort, len(rest)), make([]bool, len(rest))
			for k, c := range rest {
				rb[k], rt[k] = bufs[c], to[c]
			}
			s.writeBatch(bs, rb, rt, rl, false)
			for k, c := range rest {
				lost[c] = rl[k]
			}
			break
		}
		for e := bs.first[m]; e < len(bs.copy); e++ { // no room, or a failed socket: the rest are dropped
			lost[bs.copy[e]] = true
		}
		break
	}
	bs.hs = nil
}

// segments is how many copies message m carries.
func (bs *batchSys) segments(m int) int { return bs.first[m+1] - bs.first[m] }

// plan fills the messages for the copies: with gso, a destination's copies in a row of equal sizes (a shorter one
// ending the row) share a message; without, each copy is a message, in order.
func (bs *batchSys) plan(bufs [][]byte, to []netip.AddrPort, gso bool) {
	n := len(bufs)
	bs.next, bs.heads = resize(bs.next, n), bs.heads[:0]
	if gso { // each destination's copies chained in order, the destinations in order of first appearance
		clear(bs.last)
		for i := range n {
			bs.next[i] = -1
			if prev, ok := bs.last[to[i]]; ok {
				bs.next[prev] = i
			} else {
				bs.heads = append(bs.heads, i)
			}
			bs.last[to[i]] = i
		}
	} else {
		for i := range n {
			bs.next[i] = -1
			bs.heads = append(bs.heads, i)
		}
	}
	bs.iovs, bs.copy, bs.first = resize(bs.iovs, n), resize(bs.copy, n), bs.first[:0]
	e := 0
	for _, c := range bs.heads {
		for c != -1 {
			bs.first = append(bs.first, e)
			seg, total := len(bufs[c]), 0
			for {
				bs.iovs[e].Base = &bufs[c][0]
				bs.iovs[e].SetLen(len(bufs[c]))
				bs.copy[e] = c
				e++
				total += len(bufs[c])
				short := len(bufs[c]) < seg
				c = bs.next[c]
				if !gso || short || c == -1 || len(bufs[c]) > seg || e-bs.first[len(bs.first)-1] == gsoMaxSegments ||
					total+len(bufs[c]) > gsoMaxBytes {
					break
				}
			}
		}
	}
	msgs := len(bs.first)
	bs.first = append(bs.first, e)
	bs.hdrs, bs.addrs, bs.cmsgs = resize(bs.hdrs, msgs), resize(bs.addrs, msgs), resize(bs.cmsgs, msgs*cmsgSpace)
	for m := range msgs {
		c := bs.copy[bs.first[m]]
		a := &bs.addrs[m]
		a.Family = unix.AF_INET
		p := (*[2]byte)(unsafe.Pointer(&a.Port))
		p[0], p[1] = byte(to[c].Port()>>8), byte(to[c].Port())
		a.Addr = to[c].Addr().As4()
		h := &bs.hdrs[m].Hdr
		*h = unix.Msghdr{}
		h.Name, h.Namelen = (*byte)(unsafe.Pointer(a)), unix.SizeofSockaddrInet4
		h.Iov = &bs.iovs[bs.first[m]]
		h.SetIovlen(bs.segments(m))
		if bs.segments(m) > 1 {
			cm := bs.cmsgs[m*cmsgSpace : (m+1)*cmsgSpace]
			ch := (*unix.Cmsghdr)(unsafe.Pointer(&cm[0]))
			ch.Level, ch.Type = unix.SOL_UDP, unix.UDP_SEGMENT
			ch.SetLen(unix.CmsgLen(2))
			*(*uint16)(unsafe.Pointer(&cm[unix.CmsgLen(0)])) = uint16(len(bufs[c]))
			h.Control = &cm[0]
			h.SetControllen(cmsgSpace)
		}
	}
}

// resize is s with length n, its backing array kept when it is large enough.
func resize[T any](s []T, n int) []T { return slices.Grow(s[:0], n)[:n] }

// writeEach sends the copies one by one, as far as they go; the rest are marked lost.
func (s sockSys) writeEach(bufs [][]byte, to []netip.AddrPort, lost []bool) {
	for i := range bufs {
		if _, err := s.c.WriteToUDPAddrPort(bufs[i], to[i]); err != nil {
			for j := i; j < len(bufs); j++ {
				lost[j] = true
			}
			return
		}
	}
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
