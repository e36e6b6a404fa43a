package bench_test

import (
	"testing"
	"time"
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
