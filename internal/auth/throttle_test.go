package auth_test

import (
	"net/http"
	"strconv"
	"sync"
	"testing"

	"tenfour/internal/auth"
	"tenfour/internal/testkit"
)

// Issue 30: the sign-in throttle stops guessing, not working (docs/adr/0008). Right secrets from an address
// that has signed those accounts in before spend nothing; the first sign-in of each account from an address,
// wrong secrets and requests about unknown accounts spend exactly what they did; the per-account budget and
// the lockout do not change.

// throttleGet calls a credential endpoint from client hc and returns the answer's code.
func throttleGet(t *testing.T, hc *http.Client, base, path string, params map[string]any) string {
	t.Helper()
	return testkit.DoFrom(t, hc, base, http.MethodGet, path, "", params).Code
}

// consoleSignIn is the console's sign-in pair from hc: the code of the step that stopped it, or "0".
func consoleSignIn(t *testing.T, hc *http.Client, base, uid, password string) string {
	t.Helper()
	_, code := testkit.SignIn(t, hc, base, uid, password)
	return code
}

// throttleAccounts makes n accounts of type typ from first, password pw.
func throttleAccounts(f *fixture, first, n int, typ string) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(first + i)
		f.account(auth.NewAccount{CustomerID: f.custA, ID: ids[i], Name: "N" + ids[i], Type: typ, Group: "Patrol"})
	}
	return ids
}

// signInRounds signs each account of ids in AccountBurst times over with signIn (its right password): every
// sign-in must get in.
func signInRounds(t *testing.T, what string, ids []string, signIn func(id string) string) {
	t.Helper()
	for round := range auth.AccountBurst {
		for _, id := range ids {
			if c := signIn(id); c != "0" {
				t.Fatalf("round %d: %s %s signing in: code %q", round+1, what, id, c)
			}
		}
	}
}

// TestRightPasswordsDoNotExhaustTheAddress: one address (a control room behind its NAT) signs 8 dispatchers in
// 5 times each and logs 12 radios in 5 times each, all at one instant: 100 sign-ins where the old throttle
// allowed 20 attempts for all of them together. Only each account's first sign-in spends an attempt
// (dispatchers: loginext and the password, 16 of people's 20; radios: 12 of devices' 20); every sign-in gets in.
// The same address then still has exactly the attempts those first sign-ins left.
func TestRightPasswordsDoNotExhaustTheAddress(t *testing.T) {
	f := newFixture(t, "sqlite")
	f.Auth.SetLimits(auth.DefaultLimits())
	dispatchers := throttleAccounts(f, 10000301, 8, "20")
	radios := throttleAccounts(f, 10000401, 12, "10")
	room := testkit.ClientFrom("127.0.0.31")
	signInRounds(t, "dispatcher", dispatchers, func(id string) string { return consoleSignIn(t, room, f.URL, id, pw) })
	signInRounds(t, "radio", radios, func(id string) string { return testkit.TerminalSignIn(t, room, f.URL, id, pw) })
	// What is left: people's 20 − 16 first sign-in steps, devices' 20 − 12 first logins. Unknown accounts
	// (nothing proven, no secret right) spend them and are then refused.
	for i := range auth.DefaultThrottleBurst - 2*len(dispatchers) {
		if c := throttleGet(t, room, f.URL, "/ds/pub/loginext", map[string]any{"uid": strconv.Itoa(10000900 + i)}); c == "101" {
			t.Fatalf("people's attempt %d refused: the right sign-ins spent more than their first steps", i+1)
		}
	}
	if c := throttleGet(t, room, f.URL, "/ds/pub/loginext", map[string]any{"uid": "10000999"}); c != "101" {
		t.Fatalf("people's attempts over the burst: code %q, want 101", c)
	}
	for i := range auth.DefaultThrottleBurst - len(radios) {
		if c := testkit.TerminalSignIn(t, room, f.URL, strconv.Itoa(10000900+i), pw); c == "101" {
			t.Fatalf("devices' attempt %d refused: the right logins spent more than the first ones", i+1)
		}
	}
	if c := testkit.TerminalSignIn(t, room, f.URL, "10000999", pw); c != "101" {
		t.Fatalf("devices' attempts over the burst: code %q, want 101", c)
	}
	// The dispatchers this address proved still sign in: their pair spends nothing.
	f.clock.Advance(auth.AccountEvery)
	if c := consoleSignIn(t, room, f.URL, dispatchers[0], pw); c != "0" {
		t.Fatalf("a proven dispatcher with the address's attempts used up: code %q", c)
	}
}

// TestParallelRightLoginsFromOneAddress: 15 radios behind one address power on at once. Each check holds one
// of the address's 10 wrong-secret tokens while it runs; the old throttle refused the checks that found all
// 10 held (101), the new one has them wait for a held token to come back (a right password gives it back).
func TestParallelRightLoginsFromOneAddress(t *testing.T) {
	f := newFixture(t, "sqlite")
	f.Auth.SetLimits(auth.DefaultLimits())
	radios := throttleAccounts(f, 10000401, 15, "10")
	room := testkit.ClientFrom("127.0.0.32")
	codes := make([]string, len(radios))
	var wg sync.WaitGroup
	for i, id := range radios {
		wg.Go(func() { codes[i] = testkit.TerminalSignIn(t, room, f.URL, id, pw) })
	}
	wg.Wait()
	for i, c := range codes {
		if c != "0" {
			t.Fatalf("radio %s of 15 powering on at once: code %q (all: %v)", radios[i], c, codes)
		}
	}
}

// TestWrongSecretsStopAtTheSameNumbers: an address that has signed its own accounts in many times (25 sign-ins
// of 5 accounts: more than the old throttle allowed it in all) gets nothing more for wrong passwords: 30
// parallel wrong guesses over 10 accounts (3 each) check exactly AddrFailureBurst of them, the rest are refused
// (101) — wrong guesses at the proven accounts included — and a proven account's right password is refused
// once they are spent (the wrong-secret budget is the address's, whatever it proved).
func TestWrongSecretsStopAtTheSameNumbers(t *testing.T) {
	f := newFixture(t, "sqlite")
	f.Auth.SetLimits(auth.DefaultLimits())
	own := append([]string{dispA}, throttleAccounts(f, 10000201, 4, "20")...)
	victims := throttleAccounts(f, 10000301, 8, "20")
	guesser := testkit.ClientFrom("127.0.0.33")
	signInRounds(t, "the guesser's own", own, func(id string) string { return consoleSignIn(t, guesser, f.URL, id, pw) })
	f.clock.Advance(auth.AccountEvery) // the own accounts' budgets come back for a wrong guess each
	targets := append(own[:2:2], victims...)
	codes := make(chan string, 3*len(targets))
	var wg sync.WaitGroup
	for _, id := range targets {
		for range 3 {
			wg.Go(func() {
				codes <- throttleGet(t, guesser, f.URL, "/ds/user", map[string]any{"uid": id, "auth": "000000"})
			})
		}
	}
	wg.Wait()
	close(codes)
	wrong, busy := 0, 0
	for c := range codes {
		switch c {
		case "2":
			wrong++
		case "101":
			busy++
		default:
			t.Fatalf("a wrong guess answered %q", c)
		}
	}
	if wrong > auth.AddrFailureBurst {
		t.Fatalf("30 parallel wrong guesses from one address: %d checked, want at most %d", wrong, auth.AddrFailureBurst)
	}
	// On a loaded machine a parallel guess may be refused for time (its wait for a held token, or the hash
	// queue, ran out) although a token came back later: the address must still have exactly the rest. Guesses
	// one at a time at fresh accounts (each after one attempt interval, so the attempt budget is not what stops
	// them) spend it, and the first refusal comes after exactly AddrFailureBurst checks in all.
	if wrong < auth.AddrFailureBurst {
		t.Logf("%d of the parallel guesses checked; the rest of the budget is spent one at a time", wrong)
	}
	spare := throttleAccounts(f, 10000401, auth.AddrFailureBurst+1, "20")
	refused := false
	for _, id := range spare[:auth.AddrFailureBurst-wrong+1] {
		f.clock.Advance(auth.DefaultThrottleEvery)
		c := throttleGet(t, guesser, f.URL, "/ds/user", map[string]any{"uid": id, "auth": "000000"})
		if c == "101" {
			refused = true
			break
		}
		if c != "2" {
			t.Fatalf("a wrong guess answered %q", c)
		}
		wrong++
		targets = append(targets, id)
	}
	counted := 0
	for _, id := range targets {
		n, _ := f.failedLogins(id)
		counted += n
	}
	if !refused || wrong != auth.AddrFailureBurst || counted != auth.AddrFailureBurst || busy == 0 {
		t.Fatalf("wrong guesses from one address: %d checked (%d counted in the store), %d of the parallel ones refused, refused at last: %v; want exactly %d checked",
			wrong, counted, busy, refused, auth.AddrFailureBurst)
	}
	f.clock.Advance(auth.AccountEvery) // dispA's own budget has a check again; the address has no wrong-secret token
	if c := throttleGet(t, guesser, f.URL, "/ds/user", map[string]any{"uid": dispA, "auth": pw}); c != "101" {
		t.Fatalf("the right password from an address out of wrong-secret tokens: %q, want 101", c)
	}
}

// TestAccountLimitsUnchanged: a proven address gets no more checks of one account than any other address —
// AccountBurst at once, then one every AccountEvery — and the lockout is the same: five wrong passwords lock
// the account for its own user too, whatever address proved it before.
func TestAccountLimitsUnchanged(t *testing.T) {
	f := newFixture(t, "sqlite")
	f.Auth.SetLimits(auth.DefaultLimits())
	home := testkit.ClientFrom("127.0.0.34")
	for i := range auth.AccountBurst {
		if c := throttleGet(t, home, f.URL, "/ds/user", map[string]any{"uid": dispA, "auth": pw}); c != "0" {
			t.Fatalf("sign-in %d of the burst: %q", i+1, c)
		}
	}
	if c := throttleGet(t, home, f.URL, "/ds/user", map[string]any{"uid": dispA, "auth": pw}); c != "101" {
		t.Fatalf("sign-in %d at once from the proven address: %q, want 101 (the account's budget)", auth.AccountBurst+1, c)
	}
	f.clock.Advance(auth.AccountEvery)
	if c := throttleGet(t, home, f.URL, "/ds/user", map[string]any{"uid": dispA, "auth": pw}); c != "0" {
		t.Fatalf("one more after %v: %q", auth.AccountEvery, c)
	}
	// The lockout: five wrong passwords (spaced by the account's budget) lock it, the proven address's right
	// password included.
	for i := range auth.MaxFailedLogins {
		f.clock.Advance(auth.AccountEvery)
		if c := throttleGet(t, home, f.URL, "/ds/user", map[string]any{"uid": dispA, "auth": "000000"}); c != "2" && c != "107" {
			t.Fatalf("wrong password %d: %q", i+1, c)
		}
	}
	f.clock.Advance(auth.AccountEvery)
	if c := throttleGet(t, home, f.URL, "/ds/user", map[string]any{"uid": dispA, "auth": pw}); c != "107" {
		t.Fatalf("the right password after %d wrong ones: %q, want 107 (locked)", auth.MaxFailedLogins, c)
	}
}
