package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"golang.org/x/crypto/argon2"
)

// argon2id's fixed parameters; its cost is a HashCost.
const (
	argonThreads = 1
	argonKeyLen  = 32
)

// HashCost is what one argon2id hash costs: Passes over MemoryKiB of memory, on one thread.
type HashCost struct{ Passes, MemoryKiB uint32 }

// DefaultHashCost is RFC 9106's second recommendation scaled for a 2-core server: about 20 ms per hash.
var DefaultHashCost = HashCost{Passes: 2, MemoryKiB: 19 * 1024}

// newHashCost is the cost of the hashes HashPassword makes (nil: DefaultHashCost).
var newHashCost atomic.Pointer[HashCost]

// SetHashCost sets the cost of every hash HashPassword makes from now on in this process; the hashes already made
// keep theirs (a check reads the cost from the hash). The server never calls it. A test binary whose subject is
// not the hash calls it with a low cost (testkit.CheapHashes): under -race one hash at DefaultHashCost takes
// 270 ms, and the auth, broadcast and simulator suites make hundreds of them through the code they test
// (accounts created, passwords changed, simulated terminals provisioned). The hash storms' own tests
// (internal/security) keep DefaultHashCost.
func SetHashCost(c HashCost) { newHashCost.Store(&c) }

// hashSlots bounds the argon2id computations outside sign-in (new passwords, CheckPassword) to the CPUs there
// are: a burst then queues instead of holding 19 MiB per waiting hash and thrashing the heap, and finishes no
// later, as each hash is CPU-bound. Sign-in checks run in their path's own hashBudget instead.
var hashSlots = make(chan struct{}, runtime.GOMAXPROCS(0))

var (
	mChecks = promauto.NewCounterVec(prometheus.CounterOpts{Name: "tenfour_auth_password_checks_total",
		Help: "Sign-in password checks (argon2id hashes) started, by sign-in path."}, []string{"path"})
	mBusy = promauto.NewCounterVec(prometheus.CounterOpts{Name: "tenfour_auth_hash_busy_total",
		Help: "Sign-in password checks refused (101) because the path's hash budget was full, by sign-in path."}, []string{"path"})
)

// hashBudget runs the password checks of one sign-in path: slots hashes at once, at most queue more waiting,
// each waiting at most wait; over that the check is refused with ErrBusy (101) without hashing. The console
// and the terminals have a budget each, so a terminal login storm queues behind its own slots and never
// in front of a dispatcher's sign-in (issue 14 H2). Each budget runs one hash fewer than there are CPUs, so a
// login flood never takes every CPU from voice (make bench, row "load isolation").
type hashBudget struct {
	path    string
	kind    attemptKind // whose attempts per address its checks spend (throttle.go)
	slots   chan struct{}
	queue   chan struct{} // running + waiting
	wait    time.Duration
	started atomic.Int64
}

func newHashBudget(path string, kind attemptKind, queue int, wait time.Duration) *hashBudget {
	n := max(1, runtime.GOMAXPROCS(0)-1) // a CPU is left to voice and everything else
	return &hashBudget{path: path, kind: kind, slots: make(chan struct{}, n), queue: make(chan struct{}, n+queue), wait: wait}
}

// check compares pw with hash inside the budget.
func (b *hashBudget) check(ctx context.Context, hash, pw string) (bool, error) {
	select {
	case b.queue <- struct{}{}:
	default:
		mBusy.WithLabelValues(b.path).Inc()
		return false, ErrBusy
	}
	defer func() { <-b.queue }()
	b.started.Add(1)
	mChecks.WithLabelValues(b.path).Inc()
	t := time.NewTimer(b.wait)
	defer t.Stop()
	select {
	case b.slots <- struct{}{}:
	case <-t.C:
		mBusy.WithLabelValues(b.path).Inc()
		return false, ErrBusy
	case <-ctx.Done():
		return false, ctx.Err()
	}
	defer func() { <-b.slots }()
	return checkPassword(hash, pw, argon2.IDKey)
}

func idKey(pw, salt []byte, t, m uint32, p uint8, n uint32) []byte {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	return argon2.IDKey(pw, salt, t, m, p, n)
}

// newPasswordHash is the hash of a new password for an account whose password hash is old: the same password
// again is refused (ErrSamePwd).
func newPasswordHash(old, pw string) (string, error) {
	same, err := CheckPassword(old, pw)
	if err != nil {
		return "", err
	}
	if same {
		return "", ErrSamePwd
	}
	return HashPassword(pw)
}

// HashPassword returns a PHC-format argon2id hash at the process's cost (DefaultHashCost unless SetHashCost).
func HashPassword(pw string) (string, error) {
	c := DefaultHashCost
	if set := newHashCost.Load(); set != nil {
		c = *set
	}
	return HashPasswordAt(pw, c)
}

// HashPasswordAt is HashPassword at cost c. A check reads the cost from the hash, so a sign-in against it costs
// what it was made at. Only test fixtures and the bench's accounts choose their cost here; everything a person or
// a terminal of the server signs in with is made by HashPassword.
func HashPasswordAt(pw string, c HashCost) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := idKey([]byte(pw), salt, c.Passes, c.MemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, c.MemoryKiB, c.Passes, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword compares pw with a hash made by HashPassword, in constant time.
func CheckPassword(hash, pw string) (bool, error) { return checkPassword(hash, pw, idKey) }

func checkPassword(hash, pw string, key func(pw, salt []byte, t, m uint32, p uint8, n uint32) []byte) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errors.New("unknown password hash format")
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false, err
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, err
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil {
		return false, err
	}
	got := key([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// PasswordSpecials are the special characters of the new-password rule (spec §5).
const PasswordSpecials = "_#%@&*!"

// Password length limits of the new-password rule (spec §5), in characters.
const (
	MinPasswordLen = 8
	MaxPasswordLen = 64
)

// ValidNewPassword applies spec §5's rule for a password a user chooses: 8–64 characters with at least one
// upper-case letter, one lower-case letter, one digit and one of _#%@&*!. Other printable characters are
// allowed too, as the console's own check allows them; control characters are not.
func ValidNewPassword(pw string) bool {
	n := utf8.RuneCountInString(pw)
	if !utf8.ValidString(pw) || n < MinPasswordLen || n > MaxPasswordLen {
		return false
	}
	var upper, lower, digit, special bool
	for _, r := range pw {
		switch {
		case unicode.IsControl(r):
			return false
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= '0' && r <= '9':
			digit = true
		case strings.ContainsRune(PasswordSpecials, r):
			special = true
		}
	}
	return upper && lower && digit && special
}

// ValidOriginalPassword tells whether pw has the form of an original (administrator-issued) password: 6 digits.
// Such passwords keep working until their owner changes them; users can never choose one.
func ValidOriginalPassword(pw string) bool {
	if len(pw) != 6 {
		return false
	}
	for i := 0; i < len(pw); i++ {
		if pw[i] < '0' || pw[i] > '9' {
			return false
		}
	}
	return true
}
