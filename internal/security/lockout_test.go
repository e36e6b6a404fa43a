package security_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/testkit"
)

// Issue 14 H1 and L1: parallel password guesses get past the lockout; one address locks many accounts — on each
// sign-in path (signinPaths).

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
	clock    *signinClock
	customer int64
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
	return &signinServer{Server: s, clock: c, customer: cust}
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

// signinPath is one way in: over HTTP as a dispatcher, over the socket as a terminal, or the broadcast service's
// md5 login as a caster (POST /broadcast/v1/login, docs/adr/0018 "Credentials": one more sign-in path of auth,
// so the same guesses meet the same limits).
type signinPath struct {
	name         string
	account      string // the login the parallel guesses aim at
	right, wrong string // its password and a wrong one, as this path sends them
	ok           string // the code of a sign-in that worked
	try          func(t *testing.T, hc *http.Client, login, pw string) string
	checks       func() int64 // password checks this path's hash budget started
	// many makes n more logins of this path's kind (for the one-address test; nil on the socket path).
	many func(t *testing.T, n int) []string
	// lockedUntil reads a login's lock (Unix ms).
	lockedUntil string
}

func md5Of(s string) string { h := md5.Sum([]byte(s)); return hex.EncodeToString(h[:]) }

// signinPaths are s's three ways in; the broadcast one makes caster "gate-pa" (with its own password) on first use.
func signinPaths(t *testing.T, s *signinServer) []signinPath {
	var casterToken string
	made := 0
	casters := func(t *testing.T, codes ...string) {
		if casterToken == "" {
			var cust int64
			if err := s.DB.QueryRow(context.Background(), `SELECT customer_id FROM accounts WHERE id = '10000001'`).Scan(&cust); err != nil {
				t.Fatal(err)
			}
			r := s.Do("POST", "/broadcast/v1/login", s.Token("10000001", cust), map[string]any{"username": "10000001", "password": "{secret}"})
			var login struct{ Token string }
			r.Into(t, &login)
			casterToken = login.Token
		}
		for _, code := range codes {
			if r := s.Do("POST", "/broadcast/v1/caster", casterToken, map[string]any{"name": code, "code": code,
				"call_number": fmt.Sprint(800 + made), "password": md5Of(signinPw)}); r.Code != "200" {
				t.Fatalf("caster %s: %s %s", code, r.Code, r.Msg)
			}
			made++
		}
	}
	casters(t, "gate-pa")
	httpChecks := func() int64 { c, _ := s.Auth.PasswordChecks(); return c }
	return []signinPath{
		{name: "http", account: "10000001", right: signinPw, wrong: signinWrong, ok: "0",
			try:    func(t *testing.T, hc *http.Client, login, pw string) string { return signinHTTP(hc, s.URL, login, pw) },
			checks: httpChecks,
			many: func(t *testing.T, n int) []string {
				var ids []string
				for i := range n {
					id := strconv.Itoa(10000010 + i)
					testkit.Account(t, s.DB, auth.NewAccount{CustomerID: s.customer, ID: id, Name: "D" + id, Type: "20", Group: "Patrol",
						Password: signinPw})
					ids = append(ids, id)
				}
				return ids
			},
			lockedUntil: `SELECT locked_until FROM accounts WHERE id = ?`},
		{name: "socket", account: "10000101", right: signinPw, wrong: signinWrong, ok: "0",
			try: func(t *testing.T, hc *http.Client, login, pw string) string {
				code, c := signinSocket(t, hc, s.URL, login, pw)
				if c != nil {
					c.CloseNow()
				}
				return code
			},
			checks: func() int64 { _, c := s.Auth.PasswordChecks(); return c }},
		{name: "broadcast", account: "gate-pa", right: md5Of(signinPw), wrong: md5Of(signinWrong), ok: "200",
			try: func(t *testing.T, hc *http.Client, login, pw string) string {
				return broadcastLogin(hc, s.URL, login, pw)
			},
			checks: httpChecks,
			many: func(t *testing.T, n int) []string {
				var codes []string
				for i := range n {
					codes = append(codes, fmt.Sprintf("pa-%d", i))
				}
				casters(t, codes...)
				return codes
			},
			lockedUntil: `SELECT locked_until FROM service_credentials WHERE realm = 'broadcast' AND login = ?`},
	}
}

// broadcastLogin sends {username, password} from hc and returns the answer's code ("" when none came).
func broadcastLogin(hc *http.Client, base, username, password string) string {
	body := fmt.Sprintf(`{"username":%q,"password":%q}`, username, password)
	res, err := hc.Post(base+"/broadcast/v1/login", "application/json", strings.NewReader(body))
	if err != nil {
		return ""
	}
	defer res.Body.Close()
	var env struct {
		Code json.Number `json:"code"`
	}
	_ = json.NewDecoder(res.Body).Decode(&env)
	return env.Code.String()
}

// burst is one trial of wrongGuessBursts: wrong guesses at a path's account sent at the same moment.
type burst struct {
	signinPath
	trial  int
	hc     *http.Client  // a client from the guesses' address (not the guesses' own)
	codes  <-chan string // the guesses' codes, as they are answered
	before int64         // the path's password checks before the burst
}

// checked is how many of the burst's guesses had their password checked so far.
func (b burst) checked() int64 { return b.checks() - b.before }

// wrongGuessBursts fires, three times on each sign-in path of a server on every engine, n wrong guesses at the
// path's account at the same moment (released together), and hands each burst to check; once check has read
// every code, the lock the burst made must hold (lockHolds).
func wrongGuessBursts(t *testing.T, n int, check func(t *testing.T, b burst)) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		s := newSigninServer(t, engine, []string{"10000001"}, []string{"10000101"})
		hc := testkit.ClientFrom("127.0.0.1")
		for _, p := range signinPaths(t, s) {
			for trial := range 3 {
				b := burst{signinPath: p, trial: trial, hc: hc, before: p.checks()}
				guesser := testkit.ClientFrom("127.0.0.1") // its own connections, as the probe's
				codes := make(chan string, n)
				start := make(chan struct{})
				for range n {
					go func() { <-start; codes <- p.try(t, guesser, p.account, p.wrong) }()
				}
				close(start)
				b.codes = codes
				check(t, b)
				lockHolds(t, s, hc, p, trial)
			}
		}
	})
}

// TestParallelGuessesStopAtTheLimit: 20 wrong guesses at the same moment; the store lets only MaxFailedLogins
// of them be checked, the others are refused as locked without a hash. Before the fix all 20 were checked.
func TestParallelGuessesStopAtTheLimit(t *testing.T) {
	wrongGuessBursts(t, 20, func(t *testing.T, b burst) {
		wrong, locked := 0, 0
		for range 20 {
			switch c := <-b.codes; c {
			case "2":
				wrong++
			case "107":
				locked++
			default:
				t.Errorf("%s trial %d: code %q", b.name, b.trial, c)
			}
		}
		if checked := b.checked(); checked > auth.MaxFailedLogins || wrong >= auth.MaxFailedLogins {
			t.Fatalf("%s trial %d: %d guesses checked (%d answered wrong password, %d locked); at most %d may be",
				b.name, b.trial, checked, wrong, locked, auth.MaxFailedLogins)
		}
	})
}

// lockHolds: after a burst that locked the account, its right password is refused (107) until the lock's time
// has passed, and then accepted.
func lockHolds(t *testing.T, s *signinServer, hc *http.Client, p signinPath, trial int) {
	t.Helper()
	if c := p.try(t, hc, p.account, p.right); c != "107" {
		t.Fatalf("%s trial %d: the right password after the burst: %q, want 107 (locked)", p.name, trial, c)
	}
	s.clock.advance(auth.LockDuration)
	if c := p.try(t, hc, p.account, p.right); c != p.ok {
		t.Fatalf("%s trial %d: the right password after the lock: %q", p.name, trial, c)
	}
}

// TestRightPasswordAmongParallelGuesses: wrong guesses and the right password at the same moment, as the probe
// sent them: once the wrong ones have reached the limit (their checks started), the right one is refused.
// Before the fix it was accepted (it read the account before the wrong ones locked it and was never re-checked).
func TestRightPasswordAmongParallelGuesses(t *testing.T) {
	wrongGuessBursts(t, 10, func(t *testing.T, b burst) {
		testkit.Eventually(t, 30*time.Second, "the wrong guesses' checks started", func() bool {
			return b.checked() >= auth.MaxFailedLogins
		})
		if c := b.try(t, b.hc, b.account, b.right); c != "107" {
			t.Fatalf("%s trial %d: the right password sent with %d wrong ones under way: %q, want 107 (locked)",
				b.name, b.trial, auth.MaxFailedLogins, c)
		}
		for range 10 {
			<-b.codes
		}
	})
}

// TestOneAddressCannotLockManyAccounts (L1): an address guessing on account after account, as fast as the
// per-address attempt limit lets it (one request every 3 s), is stopped by its wrong-guess budget after
// AddrFailureBurst wrong passwords: it locks two accounts, not all of them (before: every one, ~240 an hour).
// Another address still signs in, and so do the accounts it did not lock.
func TestOneAddressCannotLockManyAccounts(t *testing.T) {
	for _, name := range []string{"http", "broadcast"} {
		t.Run(name, func(t *testing.T) {
			s := newSigninServer(t, "sqlite", []string{"10000001"}, nil)
			var path signinPath
			for _, p := range signinPaths(t, s) {
				if p.name == name {
					path = p
				}
			}
			logins := path.many(t, 10)
			s.Auth.SetLimits(auth.DefaultLimits())
			attacker, other := testkit.ClientFrom("127.0.0.1"), testkit.ClientFrom("127.0.0.2")
			start := s.clock.now()
			busy := 0
			for _, login := range logins {
				for range auth.MaxFailedLogins {
					if path.try(t, attacker, login, path.wrong) == "101" {
						busy++
					}
					s.clock.advance(auth.DefaultThrottleEvery)
				}
			}
			elapsed := s.clock.now().Sub(start)
			locked := 0
			var free []string
			for _, login := range logins {
				var until int64
				if err := s.DB.QueryRow(context.Background(), path.lockedUntil, login).Scan(&until); err != nil {
					t.Fatal(err)
				}
				if until > s.clock.now().UnixMilli() {
					locked++
				} else {
					free = append(free, login)
				}
			}
			most := (auth.AddrFailureBurst + int(elapsed/auth.AddrFailureEvery)) / auth.MaxFailedLogins
			if locked > most || busy == 0 || len(free) < 2 {
				t.Fatalf("one address locked %d of %d logins in %v (at most %d allowed); %d guesses refused busy", locked,
					len(logins), elapsed, most, busy)
			}
			if c := path.try(t, other, free[0], path.right); c != path.ok {
				t.Fatalf("another address signing in to a login the attacker tried: %q", c)
			}
			if c := path.try(t, attacker, free[1], path.right); c != "101" {
				t.Fatalf("the attacker's address, out of wrong guesses, must be refused before any check: %q", c)
			}
		})
	}
}
