package probe

import (
	"net"
	"sync"
	"testing"
)

// HoldPorts is a busy host's other sockets (every WebRTC connection, DNS query and test server takes a port): it
// binds n loopback UDP ports and returns once it holds them, then keeps binding new ones and closing its oldest,
// so a port found free a moment ago may be taken now, until stop (or the test's end) closes them all.
func HoldPorts(t testing.TB, n int) (stop func()) {
	t.Helper()
	held := make([]*net.UDPConn, 0, n)
	for len(held) < n {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			for _, c := range held {
				c.Close()
			}
			t.Fatalf("holding %d ports: %v", n, err)
		}
		held = append(held, c)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for i := 0; ; i = (i + 1) % n {
			select {
			case <-done:
				return
			default:
			}
			if c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}); err == nil {
				held[i].Close()
				held[i] = c
			}
		}
	})
	var once sync.Once
	stop = func() { once.Do(func() { close(done); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}
