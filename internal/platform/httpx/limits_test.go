package httpx

import (
	"errors"
	"io"
	"net"
	"net/netip"
	"testing"
	"time"
)

func TestLimitPerIP(t *testing.T) {
	for _, c := range []struct {
		name   string
		exempt []netip.Prefix
		second bool // the second connection from 127.0.0.1 is handed on
	}{
		{"capped", nil, false},
		{"trusted proxy exempt", []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ln := LimitPerIP(raw, 1, c.exempt)
			defer ln.Close()
			accepted := make(chan net.Conn, 2)
			go func() {
				for {
					conn, err := ln.Accept()
					if err != nil {
						return
					}
					defer conn.Close()
					accepted <- conn
				}
			}()
			dial := func() net.Conn {
				d, err := net.Dial("tcp", raw.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { d.Close() })
				return d
			}
			dial()
			<-accepted
			second := dial()
			if c.second {
				select {
				case <-accepted:
				case <-time.After(10 * time.Second):
					t.Fatal("second connection not handed on")
				}
				return
			}
			// refused: closed by the listener, so the client reads EOF
			_ = second.SetReadDeadline(time.Now().Add(10 * time.Second))
			if _, err := second.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
				t.Fatalf("second connection: %v, want closed (EOF)", err)
			}
		})
	}
}
