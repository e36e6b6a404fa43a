package security_test

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/testkit"
)

// Issue 14 H2: terminal socket logins had no per-address limit, and console and terminal logins shared the
// password-hash slots.

// signinIDs are n account ids from first.
func signinIDs(first, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(first + i)
	}
	return ids
}

// TestDefaultPasswordSweepFromOneAddress: 30 real terminals are online, each from its own address; one address
// then tries the default password on all 30 as fast as it can. It gets at most the per-address burst in; the
// others are refused (101) before any check and their real terminals stay online. Before the fix all 30 got in
// (in 1.2 s), kicking each real terminal off.
func TestDefaultPasswordSweepFromOneAddress(t *testing.T) {
	ids := signinIDs(10000101, 30)
	s := newSigninServer(t, "sqlite", nil, ids)
	s.Auth.SetLimits(auth.DefaultLimits())
	real := make([]*wsclient.Conn, len(ids))
	for i, id := range ids {
		code, c := signinSocket(t, testkit.ClientFrom("127.0.0."+strconv.Itoa(10+i)), s.URL, id, signinPw)
		if code != "0" {
			t.Fatalf("terminal %s from its own address: %q", id, code)
		}
		real[i] = c
	}
	attacker := testkit.ClientFrom("127.0.0.2")
	in, busy := 0, 0
	for _, id := range ids {
		switch code, _ := signinSocket(t, attacker, s.URL, id, signinPw); code {
		case "0":
			in++
		case "101":
			busy++
		default:
			t.Fatalf("sweep %s: %q", id, code)
		}
	}
	if in > auth.DefaultThrottleBurst || busy != len(ids)-in {
		t.Fatalf("one address logged in as %d of %d terminals (at most %d may), %d refused busy", in, len(ids),
			auth.DefaultThrottleBurst, busy)
	}
	closed := func() int {
		n := 0
		for _, c := range real {
			select {
			case <-c.Done():
				n++
			default:
			}
		}
		return n
	}
	// The terminals the attacker replaced are closed; wait for those, then none of the others may be.
	testkit.Eventually(t, 10*time.Second, "the replaced terminals closed", func() bool { return closed() >= in })
	if n := closed(); n != in {
		t.Fatalf("%d real terminals kicked off, %d logins got in", n, in)
	}
}

// hashWall is the wall time of one password check on this machine now (the longest of three).
func hashWall(t *testing.T) time.Duration {
	h, err := auth.HashPassword(signinPw)
	if err != nil {
		t.Fatal(err)
	}
	var worst time.Duration
	for range 3 {
		t0 := time.Now()
		if _, err := auth.CheckPassword(h, signinPw); err != nil {
			t.Fatal(err)
		}
		worst = max(worst, time.Since(t0))
	}
	return worst
}

// TestLoginFloodKeepsConsoleSignInFast: 200 terminal logins with one valid credential fired at once from one
// address while a dispatcher signs in from another. The bound is in password checks, not seconds: the
// dispatcher's check competes for the CPU with at most the terminals' running checks (one per CPU), so it takes
// a few checks' time; 25 leave room for the session's writes and other work on a busy machine. Before the fix
// it waited behind every flood login (200 checks over 2 CPUs: ~100 checks' time; the probe saw 4.3 s median).
func TestLoginFloodKeepsConsoleSignInFast(t *testing.T) {
	s := newSigninServer(t, "sqlite", []string{"10000001"}, []string{"10000101"})
	s.Auth.SetLimits(auth.DefaultLimits())
	h := hashWall(t)
	flooder := testkit.ClientFrom("127.0.0.2")
	var wg sync.WaitGroup
	var flood [200]string
	var answered atomic.Int64
	for i := range flood {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, c := signinSocket(t, flooder, s.URL, "10000101", signinPw)
			if c != nil {
				c.CloseNow()
			}
			flood[i] = code
			answered.Add(1)
		}()
	}
	// The whole flood is in: each login answered or its password check under way.
	testkit.Eventually(t, time.Minute, "the flood arrived", func() bool {
		_, term := s.Auth.PasswordChecks()
		return term+answered.Load() >= int64(len(flood))
	})
	t0 := time.Now()
	code := signinHTTP(testkit.ClientFrom("127.0.0.1"), s.URL, "10000001", signinPw)
	took := time.Since(t0)
	wg.Wait()
	refused := 0
	for _, c := range flood {
		if c == "101" {
			refused++
		}
	}
	t.Logf("console sign-in %v during the flood (one check %v); %d of %d flood logins refused busy", took, h, refused, len(flood))
	if code != "0" || took > 25*h {
		t.Fatalf("console sign-in during a login flood: code %q in %v, want 0 within 25 checks (%v)", code, took, 25*h)
	}
	if refused < len(flood)-auth.DefaultThrottleBurst {
		t.Fatalf("only %d of %d flood logins from one address refused", refused, len(flood))
	}
}

// TestTerminalStormDoesNotQueueConsoleSignIn: a fleet behind one address the operator allowed (no per-address
// limit) logs n terminals in at once, a storm of password checks; a dispatcher signing in meanwhile is checked
// in the console's own hash budget, so it is answered before half of the storm, not behind all of it (as with
// the shared slots before the fix). n is what this machine checks in about 3 s over its CPUs (12 to 60).
func TestTerminalStormDoesNotQueueConsoleSignIn(t *testing.T) {
	n := min(60, max(12, int(3*time.Second/hashWall(t))*runtime.GOMAXPROCS(0)))
	ids := signinIDs(10000101, n)
	s := newSigninServer(t, "sqlite", []string{"10000001"}, ids)
	storm := testkit.ClientFrom("127.0.0.2")
	var answered atomic.Int32
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// 101: it waited longer than the terminals' budget allows (a busy machine); the terminal retries.
			if code, _ := signinSocket(t, storm, s.URL, id, signinPw); code != "0" && code != "101" {
				t.Errorf("storm login %s: %q", id, code)
			}
			answered.Add(1)
		}()
	}
	testkit.Eventually(t, 30*time.Second, "the storm's checks queued", func() bool {
		_, term := s.Auth.PasswordChecks()
		return term >= int64(len(ids))
	})
	code := signinHTTP(testkit.ClientFrom("127.0.0.1"), s.URL, "10000001", signinPw)
	done := answered.Load()
	wg.Wait()
	t.Logf("console sign-in answered after %d of %d storm logins", done, len(ids))
	if code != "0" || int(done) >= len(ids)/2 {
		t.Fatalf("console sign-in during a terminal storm: code %q after %d of %d storm logins", code, done, len(ids))
	}
}
