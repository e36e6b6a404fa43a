package sip

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// refuseAll is an Authenticator that refuses every answer (these tests register nobody through it).
type refuseAll struct{}

func (refuseAll) CheckSIPDigest(context.Context, string, auth.SIPDigest) (identity.Principal, error) {
	return identity.Principal{}, auth.ErrSIPRefused
}

// presenceLog records the presence calls.
type presenceLog struct {
	mu      sync.Mutex
	offline []string
}

func (*presenceLog) AccountOnline(context.Context, identity.Principal, realtime.Kind) {}

func (l *presenceLog) AccountOffline(_ context.Context, p identity.Principal, kind realtime.Kind) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.offline = append(l.offline, string(kind)+":"+p.AccountID)
}

// Run stops when its context ends: both listeners are closed (their port can be bound again) and every live
// registration ends, its account taken offline.
func TestRunStopsGracefully(t *testing.T) {
	log := &presenceLog{}
	s, err := New(refuseAll{}, Options{}, log)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	s.regs.bind(context.Background(), identity.Principal{AccountID: "10000180", CustomerID: 1}, binding{source: "127.0.0.1:5099"}, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	c, err := net.Dial("tcp", s.Addr()) // serving
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	udp, err := net.ListenPacket("udp", s.Addr())
	if err != nil {
		t.Fatalf("UDP port still held after the stop: %v", err)
	}
	udp.Close()
	tcp, err := net.Listen("tcp", s.Addr())
	if err != nil {
		t.Fatalf("TCP port still held after the stop: %v", err)
	}
	tcp.Close()
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.offline) != 1 || log.offline[0] != "sip:10000180" {
		t.Fatalf("offline calls at the stop: %v, want sip:10000180", log.offline)
	}
}

// A nonce is accepted only as this server issued it, and only while fresh: another key's, an altered one and
// one from the future are not its own; an old one is its own but stale (the client answers again, unasked).
func TestNonces(t *testing.T) {
	n := nonces{key: []byte("key one"), ttl: time.Minute}
	now := time.Now()
	nonce := n.issue(now)
	altered := []byte(nonce)
	altered[len(altered)-1] ^= 1 // another base64 letter of the MAC
	for _, tc := range []struct {
		name      string
		n         nonces
		nonce     string
		at        time.Time
		ok, fresh bool
	}{
		{"fresh", n, nonce, now.Add(59 * time.Second), true, true},
		{"stale", n, nonce, now.Add(time.Minute), true, false},
		{"from the future", n, nonce, now.Add(-time.Second), true, false},
		{"another key", nonces{key: []byte("key two"), ttl: time.Minute}, nonce, now, false, false},
		{"altered", n, string(altered), now, false, false},
		{"not base64", n, "!!", now, false, false},
	} {
		if ok, fresh := tc.n.check(tc.nonce, tc.at); ok != tc.ok || fresh != tc.fresh {
			t.Errorf("%s: ok %v fresh %v, want %v %v", tc.name, ok, fresh, tc.ok, tc.fresh)
		}
	}
}
