package auth

import (
	"context"
	"sync"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/platform/httpx"
)

// Sign-in throttling (docs/adr/0008-sign-in-throttling-and-lockout.md). One throttle guards every sign-in
// path — the HTTP credential endpoints, the console socket, the terminal socket, the patrol and broadcast
// logins and the speakers' registrations. It stops guessing, not working:
//
//   - attempts per address, people's and devices' apart (attemptKind): every request to a credential endpoint
//     takes one of people's, every terminal password login and speaker registration one of devices'
//     (--signin-burst-per-address, --signin-interval-per-address; default a burst of 20, then one every 3 s
//     each). A right secret gives its attempt back when the address has proven that account before (a
//     dispatcher signing in again, a radio without resume tokens reconnecting): only first sign-ins of an
//     account from an address and everything that is not a right secret spend it, so a default-password sweep
//     still gets the burst in and no more, and a fleet's storm never refuses a dispatcher at the same address;
//   - wrong secrets per address, across accounts and kinds: a wrong password, code or token takes one, so one
//     address is stopped (101) long before it could lock many accounts (L1): a burst of AddrFailureBurst, then
//     one every AddrFailureEvery. A check holds one while it runs (parallel guesses never check more than the
//     address has left); a check that finds every one held by checks still running waits for them instead of
//     being refused, so parallel right sign-ins from one address queue rather than fail;
//   - password checks per account: AccountBurst (--signin-burst-per-account), then one every AccountEvery (many
//     addresses, one account), right or wrong.
//
// Clients inside this process (serve --demo's fleet and speakers, through httpx.InProcessListener) have the
// address httpx.InProcessAddr, which no network peer can have: they spend no address budget. Their accounts'
// budgets and the lockout still apply.
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

	// ProvenFor is how long an address stays proven for an account after its last right secret.
	ProvenFor = 24 * time.Hour
)

// maxProven bounds the remembered (address, account) pairs; when full, new pairs are not remembered (their
// next sign-in spends an attempt, as a first one does).
const maxProven = 100_000

// Rate is a token bucket: Burst at once, then one every Every.
type Rate struct {
	Burst int
	Every time.Duration
}

// Limits are the budgets of the sign-in throttle.
type Limits struct {
	PerAddress         Rate // sign-in attempts from one address, for people and for devices each
	FailuresPerAddress Rate // wrong secrets from one address, across accounts
	PerAccount         Rate // password checks of one account
}

// DefaultLimits are the limits a server runs with unless serve's flags change the per-address one.
func DefaultLimits() Limits {
	return Limits{PerAddress: Rate{DefaultThrottleBurst, DefaultThrottleEvery},
		FailuresPerAddress: Rate{AddrFailureBurst, AddrFailureEvery}, PerAccount: Rate{AccountBurst, AccountEvery}}
}

// NoLimits are limits that nothing reaches: test servers run with them (testkit), so tests of other behaviour
// may sign in as often as they like; the throttle's own tests set DefaultLimits.
func NoLimits() Limits {
	r := Rate{Burst: 1 << 30, Every: time.Nanosecond}
	return Limits{PerAddress: r, FailuresPerAddress: r, PerAccount: r}
}

// attemptKind is whose attempt budget a sign-in spends. People sign in at the console's credential endpoints,
// the patrol service and the broadcast caster login; devices are terminals logging in with a password on the
// socket and speakers registering. Each has the per-address limit to itself: a control room's radios behind
// its NAT address never use up its dispatchers' attempts, nor the other way round. A password check's kind is
// its hash budget's (hashBudget.kind): the console's checks people, the terminals' devices.
type attemptKind uint8

const (
	people attemptKind = iota
	devices
)

// throttle is the sign-in throttle of one node.
type throttle struct {
	attempts [2]*keyedLimiter // per address, by attemptKind
	failures *keyedLimiter    // per address
	accounts *keyedLimiter    // per account id (or credential key)
	proven   *provenPairs     // addresses that gave an account's right secret
}

func newThrottle(l Limits) *throttle {
	return &throttle{
		attempts: [2]*keyedLimiter{newKeyedLimiter(l.PerAddress.Every, l.PerAddress.Burst),
			newKeyedLimiter(l.PerAddress.Every, l.PerAddress.Burst)},
		failures: newKeyedLimiter(l.FailuresPerAddress.Every, l.FailuresPerAddress.Burst),
		accounts: newKeyedLimiter(l.PerAccount.Every, l.PerAccount.Burst),
		proven:   newProvenPairs(ProvenFor, maxProven)}
}

// set replaces the limits and forgets every key's history.
func (t *throttle) set(l Limits) {
	for _, a := range t.attempts {
		a.set(l.PerAddress.Every, l.PerAddress.Burst)
	}
	t.failures.set(l.FailuresPerAddress.Every, l.FailuresPerAddress.Burst)
	t.accounts.set(l.PerAccount.Every, l.PerAccount.Burst)
	t.proven.reset()
}

// exempt tells whether addr spends no address budget: only the in-process address (clients inside this
// server), which no peer on the network can have.
func exempt(addr string) bool { return addr == httpx.InProcessAddr }

// allow takes one attempt of kind from addr; ErrBusy (101) when it has none left.
func (t *throttle) allow(k attemptKind, addr string, now time.Time) error {
	if exempt(addr) || t.attempts[k].take(addr, now) {
		return nil
	}
	return ErrBusy
}

// allowFor is allow for a request about account key that checks no secret (the sign-in pair's first step,
// loginext): free when addr has proven key, since the sign-in that follows gives its attempt back too.
func (t *throttle) allowFor(k attemptKind, addr, key string, now time.Time) error {
	if t.proven.has(addr, key, now) {
		return nil
	}
	return t.allow(k, addr, now)
}

// right settles a right secret of account key from addr, whose request took an attempt of kind: given back
// when addr had proven key before; addr proves key from now on. A first right secret keeps its attempt, so
// one address gets at most the burst of accounts in with passwords it tries (the default-password sweep).
func (t *throttle) right(k attemptKind, addr, key string, now time.Time) {
	if exempt(addr) {
		return
	}
	if t.proven.prove(addr, key, now) {
		t.attempts[k].refund(addr, now)
	}
}

// guess is one check of a secret from addr, started by throttle.begin: its failure token is held until the
// outcome is known (kept for a wrong secret, given back otherwise), so parallel guesses from one address can
// never check more wrong secrets than the address has left.
type guess struct {
	t    *throttle // nil: an exempt address
	addr string
	now  func() time.Time
}

// begin holds one wrong-secret token of addr for a check about to run. When the address's tokens are all held
// by checks still running it waits, at most wait or until ctx ends, for one to come back; ErrBusy when none is
// left (spent by wrong secrets) or none came back in time.
func (t *throttle) begin(ctx context.Context, addr string, now func() time.Time, wait time.Duration) (*guess, error) {
	if exempt(addr) {
		return &guess{}, nil
	}
	if !t.failures.hold(ctx, addr, now, wait) {
		return nil, ErrBusy
	}
	return &guess{t: t, addr: addr, now: now}, nil
}

// end settles the check: a wrong secret keeps the token, anything else (success, a refusal before any check,
// a store error) gives it back.
func (g *guess) end(err error) {
	if g.t != nil {
		g.t.failures.release(g.addr, g.now(), !wrongSecret(err))
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
	held   int       // tokens taken by hold and not released yet (checks running)
	// released is closed (and cleared) when a held token is released; made by a hold that waits.
	released chan struct{}
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

// bucketLocked is key's bucket brought up to now, made full if it is new (caller holds mu).
func (l *keyedLimiter) bucketLocked(key string, now time.Time) *bucket {
	if now.Sub(l.lastSweep) >= sweepEvery || len(l.buckets) >= maxBuckets {
		l.sweep(now)
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[key] = b
	}
	l.fill(b, now)
	return b
}

// take takes one token from key's bucket at now; false (and nothing taken) when it is empty.
func (l *keyedLimiter) take(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucketLocked(key, now)
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

// hold takes one token of key to be released later (release). When the bucket is empty while tokens are
// held, it waits for a release — at most wait, or until ctx ends — instead of failing at once: a held token
// may come back. False (nothing taken) when the bucket is empty and nothing is held, or the wait ran out.
func (l *keyedLimiter) hold(ctx context.Context, key string, now func() time.Time, wait time.Duration) bool {
	var timeout <-chan time.Time
	for {
		l.mu.Lock()
		b := l.bucketLocked(key, now())
		if b.tokens >= 1 {
			b.tokens--
			b.held++
			l.mu.Unlock()
			return true
		}
		if b.held == 0 {
			l.mu.Unlock()
			return false
		}
		if b.released == nil {
			b.released = make(chan struct{})
		}
		released := b.released
		l.mu.Unlock()
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-released:
		case <-timeout:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// release ends a hold of key: the token is given back (refund) or stays spent; holds waiting look again.
func (l *keyedLimiter) release(key string, now time.Time, refund bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil || b.held == 0 { // the limits were set anew meanwhile
		return
	}
	b.held--
	if refund {
		l.fill(b, now)
		b.tokens = min(l.burst, b.tokens+1)
	}
	if b.released != nil {
		close(b.released)
		b.released = nil
	}
}

// sweep drops buckets that are full again (indistinguishable from a new one) and hold nothing.
func (l *keyedLimiter) sweep(now time.Time) {
	l.lastSweep = now
	for k, b := range l.buckets {
		l.fill(b, now)
		if b.tokens >= l.burst && b.held == 0 {
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

// provenPairs remembers which addresses gave which accounts' right secrets, for ttl after the last one.
type provenPairs struct {
	mu        sync.Mutex
	ttl       time.Duration
	max       int
	last      map[pair]time.Time // its last right secret
	lastSweep time.Time
}

// pair is an address and an account (or credential key) it gave the right secret of.
type pair struct{ addr, key string }

func newProvenPairs(ttl time.Duration, max int) *provenPairs {
	return &provenPairs{ttl: ttl, max: max, last: map[pair]time.Time{}}
}

func (p *provenPairs) has(addr, key string, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	at, ok := p.last[pair{addr, key}]
	return ok && now.Sub(at) < p.ttl
}

// prove records a right secret of key from addr at now and tells whether addr had proven key before (within
// ttl). A new pair is not remembered while max pairs are. Expired pairs are dropped once every sweepEvery, not
// at every new pair while the map is full: that would walk all max of them under the lock at each first login.
func (p *provenPairs) prove(addr, key string, now time.Time) (before bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := pair{addr, key}
	at, ok := p.last[k]
	if !ok && now.Sub(p.lastSweep) >= sweepEvery {
		p.lastSweep = now
		for k2, at := range p.last {
			if now.Sub(at) >= p.ttl {
				delete(p.last, k2)
			}
		}
	}
	if !ok && len(p.last) >= p.max {
		return false
	}
	p.last[k] = now
	return ok && now.Sub(at) < p.ttl
}

func (p *provenPairs) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = map[pair]time.Time{}
}
