// Package ffchild holds what the server's ffmpeg children share (camera pulls, snapshots and recordings in
// internal/camera, video-session recordings in internal/media): a child that dies with the server, the tail of
// its error output, and loopback UDP ports for the RTP it reads.
package ffchild

import (
	"bytes"
	"errors"
	"net"
	"sync"
)

// Tail keeps the last 4 KiB written to it (a child's stderr: what to log when it fails).
type Tail struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if t.buf.Len() > 4096 {
		b := t.buf.Bytes()
		keep := append([]byte(nil), b[len(b)-4096:]...)
		t.buf.Reset()
		t.buf.Write(keep)
	}
	return len(p), nil
}

func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

// PortPair finds an even UDP port P on loopback with P+1 free too (RTP and RTCP of ffmpeg's receiver).
func PortPair() (int, error) {
	for range 50 {
		a, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			return 0, err
		}
		p := a.LocalAddr().(*net.UDPAddr).Port
		a.Close()
		if p%2 != 0 {
			p--
		}
		c1, err1 := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: p})
		c2, err2 := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: p + 1})
		if c1 != nil {
			c1.Close()
		}
		if c2 != nil {
			c2.Close()
		}
		if err1 == nil && err2 == nil {
			return p, nil
		}
	}
	return 0, errors.New("ffchild: no free UDP port pair")
}

// Bound tells whether someone listens on the loopback UDP port now.
func Bound(port int) bool {
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port})
	if err != nil {
		return true
	}
	c.Close()
	return false
}
