//go:build !unix

package httpx

import "net"

// connPair is an in-memory pipe where there are no Unix socket pairs.
func connPair() (client, server net.Conn, err error) {
	client, server = net.Pipe()
	return client, server, nil
}
