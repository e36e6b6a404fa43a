//go:build linux

package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"tenfour/internal/platform/cputime"
)

// The kernel's floor of the peers step's comparisons (issue 36): the same sends as a server's, made by a thread that
// does nothing else — no framing, no encryption, no bookkeeping — to receivers that read the way the harness's
// clients do (a goroutine each, parked in the runtime's poller between messages). The sending thread's CPU time
// (getrusage RUSAGE_THREAD) is what the host charges any server for the sends alone: the system calls, the TCP or
// UDP output and, on loopback, the delivery into each receiver's socket and the receiver's wake-up. No server can
// spend less in the same harness on this host, so the floor says how far a ratio to a peer can go here.

// FanoutFloor writes one 120-byte WebSocket text frame to each of n loopback TCP connections with one write(2)
// each, events times, and returns the writing thread's CPU time per event (the median) — what one event to all
// costs a server at the least. The connections' other ends are in a child process (this program again, as the
// harness's clients are in a process of their own; one process would need 2n descriptors), read on a goroutine each;
// an event ends when every one of them has read its frame.
func FanoutFloor(ctx context.Context, n, events int) (time.Duration, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	child := exec.CommandContext(cctx, os.Args[0])
	child.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d", floorReaderEnv, ln.Addr(), n))
	child.Stderr = os.Stderr
	done, err := child.StdoutPipe() // a byte each time all n have read an event's frame
	if err != nil {
		return 0, err
	}
	if err := child.Start(); err != nil {
		return 0, err
	}
	defer func() { _ = child.Wait() }() // after the connections close: the child has read them all to their end
	var files []*os.File
	var fds []int
	defer func() {
		for _, f := range files {
			_ = f.Close()
		}
	}()
	for len(fds) < n {
		c, err := ln.Accept()
		if err != nil {
			return 0, err
		}
		// A descriptor of its own, in blocking mode (Fd): a few bytes into an empty socket buffer never wait.
		f, err := c.(*net.TCPConn).File()
		_ = c.Close()
		if err != nil {
			return 0, err
		}
		files = append(files, f)
		fds = append(fds, int(f.Fd()))
	}
	frame := make([]byte, floorFrame)
	frame[0], frame[1] = 0x81, byte(len(frame)-2) // FIN + text, an unmasked payload of 118 bytes
	// Each byte the child writes, then the error that ended its output; room for all, so the reader never blocks.
	acks := make(chan error, events+1)
	go func() {
		b := make([]byte, 1)
		for {
			if _, err := done.Read(b); err != nil {
				acks <- err
				return
			}
			acks <- nil
		}
	}()

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	per := make([]time.Duration, 0, events)
	for range events {
		t0 := cputime.Thread()
		for _, fd := range fds {
			if _, err := unix.Write(fd, frame); err != nil {
				return 0, fmt.Errorf("fan-out floor: write: %w", err)
			}
		}
		per = append(per, cputime.Thread()-t0)
		select {
		case err := <-acks:
			if err != nil {
				return 0, fmt.Errorf("fan-out floor: the readers: %w", err)
			}
		case <-time.After(10 * time.Second):
			return 0, errors.New("fan-out floor: a frame was not read within 10 s")
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		if err := sleepCtx(ctx, 200*time.Millisecond); err != nil {
			return 0, err
		}
	}
	slices.Sort(per)
	return per[len(per)/2], nil
}

const (
	floorReaderEnv = "TENFOUR_BENCH_FLOOR_READER" // "address count": this process is FanoutFloor's reader
	floorFrame     = 120
)

// A program that imports this package is FanoutFloor's child when floorReaderEnv is set: it does that and exits.
func init() {
	if v := os.Getenv(floorReaderEnv); v != "" {
		if err := floorReader(v); err != nil {
			fmt.Fprintln(os.Stderr, "fan-out floor reader:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// floorReader connects "address count" connections, reads frames on a goroutine each, and writes a byte to its
// standard output each time every connection has read one more frame. It returns once they have all been closed.
func floorReader(v string) error {
	addr, count, _ := strings.Cut(v, " ")
	n, err := strconv.Atoi(count)
	if err != nil || n <= 0 {
		return fmt.Errorf("%s=%q: want an address and a count", floorReaderEnv, v)
	}
	var read atomic.Int64
	var wg sync.WaitGroup
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			buf := make([]byte, floorFrame)
			for {
				if _, err := io.ReadFull(c, buf); err != nil {
					return
				}
				if read.Add(1)%int64(n) == 0 { // one reader a round: the last to read its frame
					_, _ = os.Stdout.Write([]byte{1})
				}
			}
		}()
	}
	wg.Wait()
	return nil
}

// AudioFloor sends a 140-byte datagram (an Opus packet with its RTP header and SRTP tag) from one UDP socket to each
// of n receivers 50 times a second for window, the copies of a packet in one sendmmsg(2) as the direct path batches
// them, and returns the sending thread's CPU in cores — what forwarding one talker to n listeners costs a server at
// the least. The receivers are n UDP sockets on loopback, each read on a goroutine of its own; it fails if they read
// fewer than 9 in 10 of the copies (the sends went elsewhere, or loopback dropped them: not the path measured).
func AudioFloor(ctx context.Context, n int, window time.Duration) (float64, error) {
	var received atomic.Int64
	var socks []*net.UDPConn
	defer func() {
		for _, s := range socks {
			_ = s.Close()
		}
	}()
	addrs := make([]unix.RawSockaddrInet4, n)
	for i := range n {
		s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			return 0, err
		}
		socks = append(socks, s)
		go func() {
			buf := make([]byte, 1500)
			for {
				if _, _, err := s.ReadFromUDP(buf); err != nil {
					return
				}
				received.Add(1)
			}
		}()
		port := s.LocalAddr().(*net.UDPAddr).Port
		addrs[i] = unix.RawSockaddrInet4{Family: unix.AF_INET, Addr: [4]byte{127, 0, 0, 1}}
		p := (*[2]byte)(unsafe.Pointer(&addrs[i].Port))
		p[0], p[1] = byte(port>>8), byte(port) // network byte order
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	pkt := make([]byte, 140)
	iov := unix.Iovec{Base: &pkt[0]}
	iov.SetLen(len(pkt))
	msgs := make([]unix.Mmsghdr, n)
	for i := range msgs {
		msgs[i].Hdr.Name = (*byte)(unsafe.Pointer(&addrs[i]))
		msgs[i].Hdr.Namelen = unix.SizeofSockaddrInet4
		msgs[i].Hdr.Iov = &iov
		msgs[i].Hdr.SetIovlen(1)
	}

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	t0, w0 := cputime.Thread(), time.Now()
	packets := 0
	for ; time.Since(w0) < window; packets++ {
		select {
		case <-tick.C:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		for sent := 0; sent < n; {
			r, _, e := unix.Syscall6(unix.SYS_SENDMMSG, uintptr(fd), uintptr(unsafe.Pointer(&msgs[sent])), uintptr(n-sent), 0, 0, 0)
			if e != 0 {
				return 0, fmt.Errorf("audio floor: sendmmsg: %w", e)
			}
			sent += int(r)
		}
	}
	cores := (cputime.Thread() - t0).Seconds() / time.Since(w0).Seconds()
	sent := int64(packets * n)
	for wait := time.Now(); received.Load() < sent && time.Since(wait) < time.Second; {
		time.Sleep(10 * time.Millisecond)
	}
	if got := received.Load(); got*10 < sent*9 {
		return 0, fmt.Errorf("audio floor: the receivers read %d of %d copies", got, sent)
	}
	return cores, nil
}
