package auth

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Default per-address throttle of the unauthenticated credential endpoints (sign-in pair, OAuth sign-in,
// verification codes): a burst of 20 requests (ten console sign-ins, each a verify+auth pair, e.g. a shift
// change behind one office NAT) then one request every 3 seconds. Wrong passwords lock an account after 5 in a
// row; this limit is what keeps one address from locking everybody's account.
const (
	DefaultThrottleEvery = 3 * time.Second
	DefaultThrottleBurst = 20
)

// keyedLimiter is a token bucket per key (client IP). Idle buckets are dropped so the map stays as large as
// the set of recently active addresses.
type keyedLimiter struct {
	mu        sync.Mutex
	limit     rate.Limit
	burst     int
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

const (
	sweepEvery   = time.Minute
	maxBuckets   = 100_000 // sweep at once beyond this many addresses
	bucketMaxAge = 30 * time.Minute
)

func newKeyedLimiter(every time.Duration, burst int) *keyedLimiter {
	return &keyedLimiter{limit: rate.Every(every), burst: burst, buckets: map[string]*bucket{}}
}

// set changes the rate; existing buckets start over.
func (l *keyedLimiter) set(every time.Duration, burst int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.limit, l.burst = rate.Every(every), burst
	l.buckets = map[string]*bucket{}
}

// allow takes one token from key's bucket at time now.
func (l *keyedLimiter) allow(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) >= sweepEvery || len(l.buckets) >= maxBuckets {
		l.sweep(now)
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(l.limit, l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	return b.lim.AllowN(now, 1)
}

// sweep drops buckets that are full again (indistinguishable from a new one) or long idle.
func (l *keyedLimiter) sweep(now time.Time) {
	l.lastSweep = now
	for k, b := range l.buckets {
		if b.lim.TokensAt(now) >= float64(l.burst) || now.Sub(b.seen) > bucketMaxAge {
			delete(l.buckets, k)
		}
	}
}

// size is the number of tracked addresses (tests).
func (l *keyedLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
