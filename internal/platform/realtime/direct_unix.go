//go:build unix

package realtime

import (
	"errors"
	"net"
	"syscall"
)

// rawConnOf is the socket's descriptor when conn is a plain socket (TCP, Unix); nil otherwise (TLS).
func rawConnOf(conn net.Conn) syscall.RawConn {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}

// writeNow writes as much of b as the socket takes without waiting: the runtime keeps its sockets non-blocking,
// so write(2) stops at a full send buffer (EAGAIN) instead of parking the goroutine on the poller.
func writeNow(rc syscall.RawConn, b []byte) (n int, err error) {
	if rc == nil {
		return 0, nil
	}
	werr := rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, e := syscall.Write(int(fd), b[n:])
			if m > 0 {
				n += m
			}
			switch {
			case e == nil && m > 0:
				continue
			case errors.Is(e, syscall.EINTR):
				continue
			case e != nil && !errors.Is(e, syscall.EAGAIN):
				err = e
			}
			break
		}
		return true // done either way: never wait for room here
	})
	if err == nil {
		err = werr
	}
	return n, err
}
