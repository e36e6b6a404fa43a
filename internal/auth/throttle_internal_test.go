package auth

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/platform/httpx"
)

// A hold that finds every token held waits for one to come back; one that finds them spent fails at once.
func TestKeyedLimiterHold(t *testing.T) {
	l := newKeyedLimiter(time.Hour, 2)
	now := time.Now()
	clock := func() time.Time { return now }
	ctx := context.Background()
	for i := range 2 {
		if !l.hold(ctx, "a", clock, time.Second) {
			t.Fatalf("hold %d of a burst of 2 refused", i+1)
		}
	}
	got := make(chan bool)
	go func() { got <- l.hold(ctx, "a", clock, time.Minute) }()
	select {
	case <-got:
		t.Fatal("a third hold did not wait for the two held tokens")
	case <-time.After(50 * time.Millisecond):
	}
	l.release("a", now, true) // a right secret: the token comes back
	if !<-got {
		t.Fatal("the waiting hold did not get the token given back")
	}
	l.release("a", now, false) // two wrong secrets: spent
	l.release("a", now, false)
	t0 := time.Now()
	if l.hold(ctx, "a", clock, time.Minute) || time.Since(t0) > time.Second {
		t.Fatal("with every token spent and none held, a hold must fail at once")
	}
}

// The in-process address (serve --demo's own clients) spends no address budget; every other address does.
func TestInProcessAddressIsExempt(t *testing.T) {
	th := newThrottle(DefaultLimits())
	now := time.Now()
	clock := func() time.Time { return now }
	for i := range 10 * DefaultThrottleBurst {
		if th.allow(devices, httpx.InProcessAddr, now) != nil || th.allow(people, httpx.InProcessAddr, now) != nil {
			t.Fatalf("in-process attempt %d refused", i+1)
		}
		g, err := th.begin(context.Background(), httpx.InProcessAddr, clock, time.Millisecond)
		if err != nil {
			t.Fatalf("in-process check %d refused", i+1)
		}
		g.end(ErrBadPwd)
	}
	for range DefaultThrottleBurst {
		if th.allow(devices, "127.0.0.1", now) != nil {
			t.Fatal("loopback's burst")
		}
	}
	if th.allow(devices, "127.0.0.1", now) != ErrBusy {
		t.Fatal("loopback is not exempt")
	}
}

// Proven pairs: a pair proves itself from its second right secret on, for ttl after the last; at most max pairs
// are remembered (a new one beyond them pays as a first sign-in every time), and expired ones make room again
// at the next sweep.
func TestProvenPairs(t *testing.T) {
	p := newProvenPairs(time.Hour, 2)
	now := time.Now()
	if first, second := p.prove("a", "1", now), p.prove("a", "1", now); first || !second || !p.has("a", "1", now) {
		t.Fatal("a pair is proven from its second right secret on")
	}
	if p.has("b", "1", now) || p.has("a", "2", now) {
		t.Fatal("a pair proves only itself")
	}
	p.prove("a", "2", now)
	if first, second := p.prove("a", "3", now), p.prove("a", "3", now); first || second || p.has("a", "3", now) {
		t.Fatal("a third pair remembered beyond max 2")
	}
	if !p.prove("a", "1", now.Add(30*time.Minute)) {
		t.Fatal("a remembered pair is renewed when full")
	}
	later := now.Add(time.Hour + time.Minute) // "a"/"2" expired, "a"/"1" not (renewed at +30 min)
	if p.has("a", "2", later) || !p.has("a", "1", later) {
		t.Fatal("a pair is proven for ttl after its last right secret")
	}
	if first, second := p.prove("a", "3", later), p.prove("a", "3", later); first || !second {
		t.Fatal("an expired pair did not make room at the sweep")
	}
}
