package camera

// Reachability: a camera nobody watches is not pulled (a pull costs its bandwidth and an ffmpeg child), yet the
// consoles show whether it can be reached without opening it. The server asks each camera it does not pull for
// its RTSP options (one TCP connection and one request, no media; an rtsps camera: the connection alone) when
// the camera is added or changed, then every ProbeEvery, and tells the customer's consoles when the answer
// changes (camera.state with reach). A pulled camera's state says more and is shown instead.

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

// Reach is what the server knows of a camera it does not pull.
type Reach string

const (
	ReachUnknown Reach = ""        // not asked yet
	ReachOnline  Reach = "online"  // it answers RTSP
	ReachOffline Reach = "offline" // no connection or no RTSP answer within ConnectTimeout
)

// probeParallel bounds the cameras asked at once.
const probeParallel = 8

// runProbes asks every camera not pulled now, then every ProbeEvery, until ctx ends.
func (s *Service) runProbes(ctx context.Context) {
	s.probeAll(ctx)
	ticker.Every(ctx, s.opts.ProbeEvery, func() { s.probeAll(ctx) })
}

func (s *Service) probeAll(ctx context.Context) {
	cams, err := s.store.All(ctx)
	if err != nil {
		return
	}
	slots := make(chan struct{}, probeParallel)
	var wg sync.WaitGroup
	for _, c := range cams {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			s.probe(ctx, c)
		}()
	}
	wg.Wait()
}

// probe asks one camera unless it is pulled, records the answer and tells the consoles when it changed.
func (s *Service) probe(ctx context.Context, c Camera) {
	key := streamKey{c.customerID, c.StreamID}
	if s.running(key.customer, key.stream) != nil {
		return
	}
	r := ReachOffline
	if s.answers(ctx, c.StreamURL) {
		r = ReachOnline
	}
	s.mu.Lock()
	changed := s.reach[key] != r
	s.reach[key] = r
	s.mu.Unlock()
	if changed && s.hub != nil && s.running(key.customer, key.stream) == nil {
		s.hub.Publish(key.customer, EventState, map[string]any{"streamId": key.stream, "state": StateIdle, "reach": r}, realtime.Consoles)
	}
}

// reachOf is the last answer of a camera not pulled.
func (s *Service) reachOf(key streamKey) Reach {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reach[key]
}

// forget drops what is known of a stream's reach (the camera was deleted or its address changed).
func (s *Service) forget(key streamKey) {
	s.mu.Lock()
	delete(s.reach, key)
	s.mu.Unlock()
}

// answers tells whether a camera answers at its address: an RTSP status line to OPTIONS (any status: a camera
// that wants a password answers too), the connection alone for rtsps. The address is held to
// --camera-allow-nets as a pull is (pinned).
func (s *Service) answers(ctx context.Context, raw string) bool {
	ctx, cancel := context.WithTimeout(ctx, s.opts.ConnectTimeout)
	defer cancel()
	pinned, err := s.opts.AllowNets.pinned(ctx, raw)
	if err != nil {
		return false
	}
	u, err := url.Parse(pinned)
	if err != nil {
		return false
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"rtsp": "554", "rtsps": "322"}[u.Scheme]
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(u.Hostname(), port))
	if err != nil {
		return false
	}
	defer conn.Close()
	if u.Scheme != "rtsp" {
		return true
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	u.User = nil // the options of a stream need no password; it never leaves in clear text
	if _, err := fmt.Fprintf(conn, "OPTIONS %s RTSP/1.0\r\nCSeq: 1\r\nUser-Agent: tenfour\r\n\r\n", u.String()); err != nil {
		return false
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "RTSP/1.")
}

// defaultProbeEvery is how often cameras not pulled are asked (Options.ProbeEvery).
const defaultProbeEvery = 30 * time.Second
