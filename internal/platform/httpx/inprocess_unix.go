//go:build unix

package httpx

import (
	"net"
	"os"
	"syscall"
)

// connPair is a connected pair of Unix stream sockets without a name: kernel buffers on both sides, as a TCP
// connection has, and nothing another process could connect to.
func connPair() (client, server net.Conn, err error) {
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, os.NewSyscallError("socketpair", err)
	}
	conn := func(fd int) (net.Conn, error) {
		f := os.NewFile(uintptr(fd), InProcessAddr)
		defer f.Close() // FileConn keeps its own copy of the descriptor
		return net.FileConn(f)
	}
	if client, err = conn(fds[0]); err != nil {
		syscall.Close(fds[1])
		return nil, nil, err
	}
	if server, err = conn(fds[1]); err != nil {
		client.Close()
		return nil, nil, err
	}
	return client, server, nil
}
