package bench_test

import (
	"testing"
	"time"

	"tenfour/internal/bench"
)

// The delay proxy adds its one-way delay each way, and passes what it carries unchanged (linkRTT checks the echo).
func TestDelayProxyRoundTrip(t *testing.T) {
	const oneWay = 30 * time.Millisecond
	for i, rtt := range linkRTT(t, oneWay, 3) {
		// Never shorter than the emulated round trip; longer only by scheduling (a loaded machine).
		if rtt < 2*oneWay || rtt > 2*oneWay+500*time.Millisecond {
			t.Errorf("round trip %d: %v, want about %v", i, rtt, 2*oneWay)
		}
	}
}

// A lost chunk arrives one retransmission timeout late (≥ 200 ms), each way; a stalled link holds everything until
// it resumes, then relays it all (the chaos lab's loss link and silent partition).
func TestDelayProxyLossAndStall(t *testing.T) {
	const oneWay = 10 * time.Millisecond
	for i, rtt := range linkRTT(t, oneWay, 2, func(p *bench.DelayProxy) { p.Impair(oneWay, 1, 35) }) {
		if rtt < 2*(oneWay+200*time.Millisecond) || rtt > 2*(oneWay+200*time.Millisecond)+500*time.Millisecond {
			t.Errorf("round trip %d with every chunk lost once: %v, want about %v", i, rtt, 2*(oneWay+200*time.Millisecond))
		}
	}
	const cut = 300 * time.Millisecond
	var began time.Time
	stall := func(p *bench.DelayProxy) {
		p.Stall(true)
		began = time.Now()
		time.AfterFunc(cut, func() { p.Stall(false) })
	}
	// The echo is held until the stall ends: it comes back no sooner than cut after the stall began (the round
	// trip itself starts a little after, once the connection is up).
	rtt := linkRTT(t, 0, 1, stall)[0]
	if held := time.Since(began); held < cut || rtt > cut+500*time.Millisecond {
		t.Errorf("round trip across a %v stall: back %v after the stall began (round trip %v)", cut, held, rtt)
	}
}
