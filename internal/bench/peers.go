package bench

// Issue 21: tenfour measured against pinned peers on this machine, in the same run, under the same load, with the
// same client harness. The peers are built by scripts/build-peers.sh (from the Go module proxy, once, cached in
// bin/bench/); this file holds what both measurements share. peers_audio.go: one Opus publisher to N subscribers,
// tenfour vs LiveKit. peers_fanout.go: N WebSocket clients on one channel per customer, tenfour vs Centrifugo.
// docs/performance.md ("Peers") says how each peer is configured.

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/cputime"
)

// Peer versions: the ones scripts/build-peers.sh builds (keep the two in step).
const (
	LiveKitVersion    = "v1.13.11"
	CentrifugoVersion = "v6.9.1"
)

// PeerBins are the peers' binaries in dir (bin/bench).
func PeerBins(dir string) (livekit, centrifugo string) {
	return filepath.Join(dir, "livekit-server-"+LiveKitVersion), filepath.Join(dir, "centrifugo-"+CentrifugoVersion)
}

// hs256 signs claims as a JWT with HMAC-SHA256 (both peers' token auth; no library needed for that much).
func hs256(secret string, claims map[string]any) (string, error) {
	enc := base64.RawURLEncoding
	body, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	unsigned := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc.EncodeToString(body)
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(unsigned))
	return unsigned + "." + enc.EncodeToString(m.Sum(nil)), nil
}

// serverProc is a server process under measurement: its CPU and memory come from /proc.
type serverProc struct {
	*proc
	name string
}

func startServer(log io.Writer, name, bin string, args ...string) (*serverProc, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%s: %w (scripts/build-peers.sh builds it)", name, err)
	}
	p, err := start(log, bin, args...)
	if err != nil {
		return nil, err
	}
	return &serverProc{proc: p, name: name}, nil
}

// startReady is startServer until the server answers readyURL (stopped again when it does not in 30 s).
func startReady(ctx context.Context, log io.Writer, name, bin, readyURL string, args ...string) (*serverProc, error) {
	srv, err := startServer(log, name, bin, args...)
	if err != nil {
		return nil, err
	}
	if err := waitHTTP(ctx, readyURL, 30*time.Second); err != nil {
		stop(srv.proc)
		return nil, fmt.Errorf("%s did not start: %w", name, err)
	}
	return srv, nil
}

func (s *serverProc) pid() int { return s.Process.Pid }

// cpu is the process's CPU time so far.
func (s *serverProc) cpu() time.Duration {
	d, _ := cputime.Of(s.pid())
	return d
}

// coresOver waits d (less if ctx ends first) and returns how many cores the process used meanwhile.
func (s *serverProc) coresOver(ctx context.Context, d time.Duration) (float64, error) {
	cpu0, t0 := s.cpu(), time.Now()
	if err := sleepCtx(ctx, d); err != nil {
		return 0, err
	}
	return float64(s.cpu()-cpu0) / float64(time.Since(t0)), nil
}

// rss is the process's resident set now.
func (s *serverProc) rss() int64 {
	r, _, _ := ProcMem(s.pid())
	return r
}

// alive fails when the process has exited.
func (s *serverProc) alive() error {
	select {
	case <-s.done:
		return fmt.Errorf("%s exited: %v", s.name, s.err)
	default:
		return nil
	}
}

// paced calls fn n times, every apart (the first at once), until fn or ctx fails.
func paced(ctx context.Context, n int, every time.Duration, fn func() error) error {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for i := range n {
		if i > 0 {
			select {
			case <-tick.C:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// cheapHash is an argon2id hash of pw at 1 MiB and one pass, as the scale run's provision stores (so that N logins
// fit the time budget; the steady state measured does not depend on it).
func cheapHash(pw string) string {
	h, err := auth.HashPasswordAt(pw, auth.HashCost{Passes: 1, MemoryKiB: 1024})
	if err != nil {
		panic(err) // the system's random source failed
	}
	return h
}
