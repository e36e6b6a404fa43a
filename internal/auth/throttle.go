package auth

import (
	"sync"
	"time"

	"tenfour/internal/config"
)

// Sign-in throttling (docs/adr/0008-sign-in-throttling-and-lockout.md). One throttle guards every sign-in
// path — the HTTP credential endpoints, the console socket and the terminal socket — with three budgets:
//
//   - attempts per address: every request to a credential endpoint and every terminal password login takes one
//     (--signin-burst-per-address, --signin-interval-per-address; default a burst of 20, then one every 3 s);
//   - wrong secrets per address, across accounts: a wrong password, code or token takes one, so one address is
//     stopped (101) long before it could lock many accounts (L1): a burst of AddrFailureBurst, then one every
//     AddrFailureEvery;
//   - password checks per account: AccountBurst (--signin-burst-per-account), then one every AccountEvery (many
//     addresses, one account).
//
// The lockout itself (5 wrong passwords in a row lock an account for 10 minutes) is decided in the store
// (accounts.go), so it holds however many nodes and parallel requests there are; these budgets are per node.
const (
	DefaultThrottleEvery = config.DefaultSignInInterval
	DefaultThrottleBurst = config.DefaultSignInBurst

	AddrFailureBurst = 10
	AddrFailureEvery = 5 * time.Minute

	AccountBurst = config.DefaultAccountBurst
	AccountEvery = 6 * time.Second
)

// Rate is a token bucket: Burst at once, then one every Every.
type Rate struct {
	Burst int
	Every time.Duration
}

// Limits are the three budgets of the sign-in throttle.
type Limits struct {
	PerAddress         Rate // sign-in attempts from one address
	FailuresPerAddress Rate // wrong secrets from one address, across accounts
	PerAccount         Rate // password checks of one account
}

// DefaultLimits are the limits a server runs with unless serve's flags change the per-address one.
func DefaultLimits() Limits {
	return Limits{PerAddress: Rate{DefaultThrottleBurst, DefaultThrottleEvery},
		FailuresPerAddress: Rate{AddrFailureBurst, AddrFailureEvery}, PerAccount: Rate{AccountBurst, AccountEvery}}
}

// throttle is the sign-in throttle of one node.
type throttle struct {
	attempts *keyedLimiter // per address
	failures *keyedLimiter // per address
	accounts *keyedLimiter // per account id
}

func newThrottle(l Limits) *throttle {
	return &throttle{attempts: newKeyedLimiter(l.PerAddress.Every, l.PerAddress.Burst),
		failures: newKeyedLimiter(l.FailuresPerAddress.Every, l.FailuresPerAddress.Burst),
		accounts: newKeyedLimiter(l.PerAccount.Every, l.PerAccount.Burst)}
}

// set replaces the limits and forgets every key's history.
func (t *throttle) set(l Limits) {
	t.attempts.set(l.PerAddress.Every, l.PerAddress.Burst)
	t.failures.set(l.FailuresPerAddress.Every, l.FailuresPerAddress.Burst)
	t.accounts.set(l.PerAccount.Every, l.PerAccount.Burst)
}

// guess is one check of a secret from addr, started by throttle.begin: its failure token is held until the
// outcome is known (kept for a wrong secret, given back otherwise), so parallel guesses from one address can
// never check more wrong secrets than the address has left.
type guess struct {
	t    *throttle
	addr string
	now  time.Time
}

// begin reserves one wrong-secret token of addr for a check about to run; ErrBusy when the address has none left.
func (t *throttle) begin(addr string, now time.Time) (*guess, error) {
	if !t.failures.take(addr, now) {
		return nil, ErrBusy
	}
	return &guess{t: t, addr: addr, now: now}, nil
}

// end settles the check: a wrong secret keeps the token, anything else (success, a refusal before any check,
// a store error) gives it back.
func (g *guess) end(err error) {
	if !wrongSecret(err) {
		g.t.failures.refund(g.addr, g.now)
	}
}

// wrongSecret tells whether err means a secret was checked and was wrong.
func wrongSecret(err error) bool {
	return err == ErrBadPwd || err == errWrongAndLocked || err == ErrAuthFailed || err == ErrVerifyCode
}

// keyedLimiter is a token bucket per key. Idle buckets are dropped so the map stays as large as the set of
// recently active keys.
type keyedLimiter struct {
	mu        sync.Mutex
	every     time.Duration
	burst     float64
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was computed
}

const (
	sweepEvery = time.Minute
	maxBuckets = 100_000 // sweep at once beyond this many keys
)

func newKeyedLimiter(every time.Duration, burst int) *keyedLimiter {
	return &keyedLimiter{every: every, burst: float64(burst), buckets: map[string]*bucket{}}
}

// set changes the rate; existing buckets start over.
func (l *keyedLimiter) set(every time.Duration, burst int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.every, l.burst = every, float64(burst)
	l.buckets = map[string]*bucket{}
}

// fill brings b up to now (caller holds mu).
func (l *keyedLimiter) fill(b *bucket, now time.Time) {
	if d := now.Sub(b.at); d > 0 && l.every > 0 {
		b.tokens = min(l.burst, b.tokens+float64(d)/float64(l.every))
		b.at = now
	}
}

// take takes one token from key's bucket at now; false (and nothing taken) when it is empty.
func (l *keyedLimiter) take(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) >= sweepEvery || len(l.buckets) >= maxBuckets {
		l.sweep(now)
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[key] = b
	}
	l.fill(b, now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// refund gives back a token taken at or before now.
func (l *keyedLimiter) refund(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.buckets[key]; b != nil {
		l.fill(b, now)
		b.tokens = min(l.burst, b.tokens+1)
	}
}

// sweep drops buckets that are full again (indistinguishable from a new one).
func (l *keyedLimiter) sweep(now time.Time) {
	l.lastSweep = now
	for k, b := range l.buckets {
		l.fill(b, now)
		if b.tokens >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// size is the number of tracked keys (tests).
func (l *keyedLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// NoLimits are limits that nothing reaches: test servers run with them (testkit), so tests of other behaviour
// may sign in as often as they like; the throttle's own tests set DefaultLimits.
func NoLimits() Limits {
	r := Rate{Burst: 1 << 30, Every: time.Nanosecond}
	return Limits{PerAddress: r, FailuresPerAddress: r, PerAccount: r}
}
