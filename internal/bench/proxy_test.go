package bench

import (
	"io"
	"net"
	"testing"
	"time"
)

func TestDelayProxyRoundTrip(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(c, c); c.Close() }()
		}
	}()
	const oneWay = 30 * time.Millisecond
	p, err := NewDelayProxy(ln.Addr().String(), oneWay)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	buf := make([]byte, 5)
	for i := range 3 {
		t0 := time.Now()
		if _, err := c.Write([]byte("hello")); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			t.Fatal(err)
		}
		rtt := time.Since(t0)
		if string(buf) != "hello" {
			t.Fatalf("echo %q", buf)
		}
		// Never shorter than the emulated round trip; longer only by scheduling (a loaded machine).
		if rtt < 2*oneWay || rtt > 2*oneWay+500*time.Millisecond {
			t.Errorf("round trip %d: %v, want about %v", i, rtt, 2*oneWay)
		}
	}
}
