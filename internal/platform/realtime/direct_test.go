package realtime

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"tenfour/internal/testkit/probe"
)

// A frame the socket takes only in part is finished before any other byte goes out, the library's own writes (a
// pong, a ping, the close) included: the client reads the whole frame, then what was written after it.
func TestTryWriteFinishesAFrameBeforeAnyOtherWrite(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server := <-accepted
	defer server.Close()
	ic := &idleConn{Conn: server, r: server, raw: rawConnOf(server)}
	if ic.raw == nil {
		t.Skip("no direct writes on this platform")
	}

	// The client does not read: 8 MiB is more than the two sockets' buffers hold.
	big := bytes.Repeat([]byte("0123456789abcdef"), 8<<20/16)
	all, err := ic.tryWrite(big)
	if err != nil || all {
		t.Fatalf("tryWrite of 8 MiB to a client that does not read: all=%v err=%v", all, err)
	}
	if len(ic.rest) == 0 || len(ic.rest) == len(big) {
		t.Fatalf("rest %d of %d bytes: the socket took none or all of it", len(ic.rest), len(big))
	}
	// A frame tried while a rest is kept goes after it, whole.
	if all, err := ic.tryWrite([]byte("NEXT")); err != nil || all {
		t.Fatalf("tryWrite behind a rest: all=%v err=%v", all, err)
	}
	wrote := make(chan error, 1)
	go func() { _, err := ic.Write([]byte("LIBRARY")); wrote <- err }() // the library's write waits for the rest

	_ = client.SetReadDeadline(time.Now().Add(10 * time.Second)) // bytes lost would leave the read waiting
	got, err := io.ReadAll(io.LimitReader(client, int64(len(big)+len("NEXT")+len("LIBRARY"))))
	if err != nil {
		t.Fatalf("read %d bytes: %v", len(got), err)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	want := append(append(bytes.Clone(big), "NEXT"...), "LIBRARY"...)
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("the client read %d bytes, differing from what was written at byte %d", len(got), i)
	}
	if len(ic.rest) != 0 {
		t.Fatalf("%d bytes still kept", len(ic.rest))
	}
}

// Consoles that stop reading get big frames the socket cannot hold. For one it is a single frame: the writer
// goroutine must finish it with nothing queued after it. The other gets many: the socket takes some whole and
// some in part while the server pings. Once the clients read again, every frame arrives whole and in order and
// the ping is answered: no byte of the ping went inside a frame.
func TestFramesToAClientThatStopsReadingArriveWholeAndInOrder(t *testing.T) {
	r := newRig(t)
	stalled := func(uid string) (*probe.Socket, *Conn) {
		s := r.login(uid, 1, Console, uid)
		c := r.hub.Conn(uid)
		if tc, ok := c.idle.Conn.(*net.TCPConn); ok {
			_ = tc.SetWriteBuffer(64 << 10) // the kernel's buffers, not the client, would otherwise take a few MB
		}
		s.Stall()
		if !r.hub.SendTo(uid, "test.zero", map[string]any{}) { // the one frame a stalled client still reads
			t.Fatal("frame zero not queued")
		}
		return s, c
	}
	readZero := func(s *probe.Socket) {
		if f := s.Read(10 * time.Second); f.Type != "test.zero" {
			t.Fatalf("frame zero: %+v", f)
		}
	}

	one, _ := stalled("1001")
	waited := waitedWrites.Load()
	big := strings.Repeat("f", 3<<20)
	if !r.hub.SendTo("1001", "test.alone", map[string]any{"pad": big}) {
		t.Fatal("frame not queued")
	}
	probe.Eventually(t, wait, "the frame not taken at once", func() bool { return waitedWrites.Load() > waited })
	one.Resume()
	readZero(one)
	if f := one.Read(10 * time.Second); f.Type != "test.alone" || !strings.Contains(string(f.Data), big) {
		t.Fatalf("the frame alone: type %s, %d bytes", f.Type, len(f.Data))
	}

	many, conn := stalled("1002")
	waited = waitedWrites.Load()
	pad := strings.Repeat("p", 60<<10)
	const n = 100 // 6 MB
	for i := range n {
		if !r.hub.SendTo("1002", "test.big", map[string]any{"i": i, "pad": pad}) {
			t.Fatalf("frame %d not queued", i)
		}
	}
	probe.Eventually(t, wait, "a frame not taken at once", func() bool { return waitedWrites.Load() > waited })
	pinged := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		pinged <- conn.ws.Ping(ctx)
	}()
	many.Resume()
	readZero(many)
	for i := range n {
		f := many.Read(10 * time.Second)
		var d struct {
			I   int
			Pad string
		}
		if err := json.Unmarshal(f.Data, &d); err != nil || f.Type != "test.big" || d.I != i || d.Pad != pad {
			t.Fatalf("frame %d: type %s, i %d, pad %d bytes, err %v", i, f.Type, d.I, len(d.Pad), err)
		}
	}
	if err := <-pinged; err != nil {
		t.Fatalf("the ping sent while frames were half-written: %v", err)
	}
	for _, s := range []*probe.Socket{one, many} {
		if f := s.Call("ping", nil); f.Type != "pong" {
			t.Fatalf("after: %+v", f)
		}
	}
}
