package security_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/testkit"
)

// Issue 14 H1 and L1: parallel password guesses get past the lockout; one address locks many accounts.

const (
	signinPw    = "123456"
	signinWrong = "000000"
)

// signinClock is a settable clock for the auth service: the tests move time instead of sleeping.
type signinClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *signinClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *signinClock) advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// signinServer is a real server with customer Alpha; ids lists its dispatchers ("20") and terminals ("10").
type signinServer struct {
	*testkit.Server
	clock *signinClock
}

func newSigninServer(t *testing.T, engine string, dispatchers, terminals []string) *signinServer {
	s := testkit.StartOn(t, engine)
	c := &signinClock{t: time.Now()}
	s.Auth.SetClock(c.now)
	cust := testkit.Customer(t, s.DB, "Alpha")
	for _, id := range dispatchers {
		testkit.Account(t, s.DB, auth.NewAccount{CustomerID: cust, ID: id, Name: "D" + id, Type: "20", Group: "Patrol", Password: signinPw})
	}
	for _, id := range terminals {
		testkit.Account(t, s.DB, auth.NewAccount{CustomerID: cust, ID: id, Name: "T" + id, Type: "10", Group: "Patrol", Password: signinPw})
	}
	return &signinServer{Server: s, clock: c}
}

// signinHTTP is the console's sign-in (GET /ds/user); it returns the answer's code ("" when no answer came).
func signinHTTP(hc *http.Client, base, uid, pw string) string {
	res, err := hc.Get(base + "/ds/user?" + url.Values{"uid": {uid}, "auth": {pw}}.Encode())
	if err != nil {
		return ""
	}
	defer res.Body.Close()
	var env struct {
		Code string `json:"code"`
	}
	_ = json.NewDecoder(res.Body).Decode(&env)
	return env.Code
}

// signinSocket logs a terminal in with its password on a new socket and returns the code; a logged-in socket
// is returned open (closed when the test ends), a refused one is closed.
func signinSocket(t *testing.T, hc *http.Client, base, uid, pw string) (string, *wsclient.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := wsclient.Dial(ctx, wsclient.URL(base), wsclient.Options{HTTPClient: hc})
	if err != nil {
		return "", nil
	}
	err = c.Call(ctx, "session.login", map[string]string{"client": "terminal", "uid": uid, "auth": pw}, nil)
	if err != nil {
		c.CloseNow()
		return wsclient.Code(err), nil
	}
	t.Cleanup(func() { c.CloseNow() })
	return "0", c
}

// signinPath is one way in: over HTTP as a dispatcher, or over the socket as a terminal.
type signinPath struct {
	name    string
	account string
	try     func(t *testing.T, s *signinServer, pw string) string
	checks  func(s *signinServer) int64 // password checks its hash budget started
}

func signinPaths() []signinPath {
	hc := testkit.ClientFrom("127.0.0.1")
	return []signinPath{
		{"http", "10000001", func(t *testing.T, s *signinServer, pw string) string {
			return signinHTTP(hc, s.URL, "10000001", pw)
		}, func(s *signinServer) int64 { c, _ := s.Auth.PasswordChecks(); return c }},
		{"socket", "10000101", func(t *testing.T, s *signinServer, pw string) string {
			code, c := signinSocket(t, hc, s.URL, "10000101", pw)
			if c != nil {
				c.CloseNow()
			}
			return code
		}, func(s *signinServer) int64 { _, c := s.Auth.PasswordChecks(); return c }},
	}
}

// signinBurst fires n guesses with pw at the same moment (released together) and returns their codes.
func signinBurst(t *testing.T, s *signinServer, p signinPath, n int, pw string) <-chan string {
	codes := make(chan string, n)
	start := make(chan struct{})
	for range n {
		go func() { <-start; codes <- p.try(t, s, pw) }()
	}
	close(start)
	return codes
}

// TestParallelGuessesStopAtTheLimit: 20 wrong guesses at the same moment; the store lets only MaxFailedLogins
// of them be checked, the others are refused as locked without a hash. Before the fix all 20 were checked.
func TestParallelGuessesStopAtTheLimit(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		s := newSigninServer(t, engine, []string{"10000001"}, []string{"10000101"})
		for _, p := range signinPaths() {
			for trial := range 3 {
				before := p.checks(s)
				codes := signinBurst(t, s, p, 20, signinWrong)
				wrong, locked := 0, 0
				for range 20 {
					switch c := <-codes; c {
					case "2":
						wrong++
					case "107":
						locked++
					default:
						t.Errorf("%s trial %d: code %q", p.name, trial, c)
					}
				}
				if checked := p.checks(s) - before; checked > auth.MaxFailedLogins || wrong >= auth.MaxFailedLogins {
					t.Fatalf("%s trial %d: %d guesses checked (%d answered wrong password, %d locked); at most %d may be",
						p.name, trial, checked, wrong, locked, auth.MaxFailedLogins)
				}
				if c := p.try(t, s, signinPw); c != "107" {
					t.Fatalf("%s trial %d: the right password after the burst: %q, want 107 (locked)", p.name, trial, c)
				}
				s.clock.advance(auth.LockDuration)
			}
		}
	})
}

// TestRightPasswordAmongParallelGuesses: wrong guesses and the right password at the same moment, as the probe
// sent them: once the wrong ones have reached the limit (their checks started), the right one is refused.
// Before the fix it was accepted (it read the account before the wrong ones locked it and was never re-checked).
func TestRightPasswordAmongParallelGuesses(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		s := newSigninServer(t, engine, []string{"10000001"}, []string{"10000101"})
		for _, p := range signinPaths() {
			for trial := range 3 {
				before := p.checks(s)
				codes := signinBurst(t, s, p, 10, signinWrong)
				testkit.Eventually(t, 30*time.Second, "the wrong guesses' checks started", func() bool {
					return p.checks(s)-before >= auth.MaxFailedLogins
				})
				if c := p.try(t, s, signinPw); c != "107" {
					t.Fatalf("%s trial %d: the right password sent with %d wrong ones under way: %q, want 107 (locked)",
						p.name, trial, auth.MaxFailedLogins, c)
				}
				for range 10 {
					<-codes
				}
				if c := p.try(t, s, signinPw); c != "107" {
					t.Fatalf("%s trial %d: after the burst: %q, want 107 (locked)", p.name, trial, c)
				}
				s.clock.advance(auth.LockDuration)
				if c := p.try(t, s, signinPw); c != "0" {
					t.Fatalf("%s trial %d: after the lock: %q", p.name, trial, c)
				}
			}
		}
	})
}

// TestOneAddressCannotLockManyAccounts (L1): an address guessing on account after account, as fast as the
// per-address attempt limit lets it (one request every 3 s), is stopped by its wrong-guess budget after
// AddrFailureBurst wrong passwords: it locks two accounts, not all twelve (before: every one, ~240 an hour).
// Another address still signs in, and so do the accounts it did not lock.
func TestOneAddressCannotLockManyAccounts(t *testing.T) {
	var ids []string
	for i := range 12 {
		ids = append(ids, strconv.Itoa(10000010+i))
	}
	s := newSigninServer(t, "sqlite", ids, nil)
	s.Auth.SetLimits(auth.DefaultLimits())
	attacker, other := testkit.ClientFrom("127.0.0.1"), testkit.ClientFrom("127.0.0.2")
	start := s.clock.now()
	busy := 0
	for _, id := range ids {
		for range auth.MaxFailedLogins {
			if signinHTTP(attacker, s.URL, id, signinWrong) == "101" {
				busy++
			}
			s.clock.advance(auth.DefaultThrottleEvery)
		}
	}
	elapsed := s.clock.now().Sub(start)
	locked := 0
	var free []string
	for _, id := range ids {
		var until int64
		if err := s.DB.QueryRow(context.Background(), `SELECT locked_until FROM accounts WHERE id = ?`, id).Scan(&until); err != nil {
			t.Fatal(err)
		}
		if until > s.clock.now().UnixMilli() {
			locked++
		} else {
			free = append(free, id)
		}
	}
	most := (auth.AddrFailureBurst + int(elapsed/auth.AddrFailureEvery)) / auth.MaxFailedLogins
	if locked > most || busy == 0 {
		t.Fatalf("one address locked %d of %d accounts in %v (at most %d allowed); %d guesses refused busy", locked,
			len(ids), elapsed, most, busy)
	}
	if c := signinHTTP(other, s.URL, free[0], signinPw); c != "0" {
		t.Fatalf("another address signing in to an account the attacker tried: %q", c)
	}
	if c := signinHTTP(attacker, s.URL, free[1], signinPw); c != "101" {
		t.Fatalf("the attacker's address, out of wrong guesses, must be refused before any check: %q", c)
	}
}
