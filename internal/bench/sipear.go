package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"tenfour/internal/sip"
)

// What the SIP rows (sip_test.go) measure with: what a SIP phone hears, and the CPU of a process tree.

// Ear keeps when a SIP phone heard its loud G.711 µ-law frames (RMS of the decoded samples above 1000): its
// Hear is the phone's OnHear (sim.SIPPhoneOptions).
type Ear struct {
	mu    sync.Mutex
	last  time.Time // the last frame heard
	loud  []time.Time
	heard chan struct{} // closed (and replaced) at each loud frame: LoudAfter's wake-up
}

// NewEar is an ear that has heard nothing yet.
func NewEar() *Ear { return &Ear{heard: make(chan struct{})} }

// Hear takes a frame the phone heard at at.
func (e *Ear) Hear(frame []byte, at time.Time) {
	loud := sip.Loudness(sip.Ulaw, frame) > 1000
	e.mu.Lock()
	defer e.mu.Unlock()
	e.last = at
	if loud {
		e.loud = append(e.loud, at)
		close(e.heard)
		e.heard = make(chan struct{})
	}
}

// Quiet waits until the phone has heard nothing for d.
func (e *Ear) Quiet(d time.Duration) {
	for {
		e.mu.Lock()
		since := time.Since(e.last)
		e.mu.Unlock()
		if since >= d {
			return
		}
		time.Sleep(d - since)
	}
}

// LoudAfter is the first loud frame heard after t0, waiting at most timeout.
func (e *Ear) LoudAfter(t0 time.Time, timeout time.Duration) (time.Time, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		e.mu.Lock()
		for _, at := range e.loud {
			if at.After(t0) {
				e.mu.Unlock()
				return at, true
			}
		}
		heard := e.heard
		e.mu.Unlock()
		select {
		case <-heard:
		case <-deadline.C:
			return time.Time{}, false
		}
	}
}

// TreeCPU is the CPU time of this process and of its live children (ffmpeg children a measurement started: they
// are not in OwnCPU's RUSAGE_CHILDREN until they are waited for), from /proc.
func TreeCPU() time.Duration {
	total := time.Duration(0)
	self := os.Getpid()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid … utime (12th) stime (13th), in clock ticks (100 Hz)
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		ppid, _ := strconv.Atoi(f[1])
		if pid != self && ppid != self {
			continue
		}
		u, _ := strconv.Atoi(f[11])
		st, _ := strconv.Atoi(f[12])
		total += time.Duration(u+st) * 10 * time.Millisecond
	}
	return total
}
