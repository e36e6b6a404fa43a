//go:build !unix

package realtime

import (
	"net"
	"syscall"
)

// rawConnOf: no direct writes on this platform; every frame goes through a writer goroutine.
func rawConnOf(net.Conn) syscall.RawConn { return nil }

func writeNow(syscall.RawConn, []byte) (int, error) { return 0, nil }
