package security_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/testkit"
)

// The replay of lockout_test.go (issue 14 H1, L1) on the broadcast service's md5 login (POST /broadcast/v1/login,
// docs/adr/0018 "Credentials"): it is one more sign-in path of auth, so the same guesses meet the same limits.

func md5Of(s string) string { h := md5.Sum([]byte(s)); return hex.EncodeToString(h[:]) }

var (
	casterPw    = md5Of("Gate-Pa-1")
	casterWrong = md5Of("wrong")
)

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

// newCasterServer is a signinServer whose dispatcher 10000001 made casters with their own password (casterPw).
func newCasterServer(t *testing.T, engine string, casters ...string) *signinServer {
	s := newSigninServer(t, engine, []string{"10000001"}, nil)
	var cust int64
	if err := s.DB.QueryRow(context.Background(), `SELECT customer_id FROM accounts WHERE id = '10000001'`).Scan(&cust); err != nil {
		t.Fatal(err)
	}
	r := s.Do("POST", "/broadcast/v1/login", s.Token("10000001", cust), map[string]any{"username": "10000001", "password": "{secret}"})
	var login struct{ Token string }
	r.Into(t, &login)
	for i, code := range casters {
		if r := s.Do("POST", "/broadcast/v1/caster", login.Token, map[string]any{"name": code, "code": code,
			"call_number": fmt.Sprint(800 + i), "password": casterPw}); r.Code != "200" {
			t.Fatalf("caster %s: %s %s", code, r.Code, r.Msg)
		}
	}
	return s
}

// Twenty wrong md5s at the same moment: only MaxFailedLogins are checked, the rest are refused as locked, and
// the right password after them is refused until the lock ends.
func TestBroadcastParallelGuessesStopAtTheLimit(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		s := newCasterServer(t, engine, "gate-pa")
		hc := testkit.ClientFrom("127.0.0.1")
		for trial := range 3 {
			before, _ := s.Auth.PasswordChecks()
			codes := make(chan string, 20)
			start := make(chan struct{})
			for range 20 {
				go func() { <-start; codes <- broadcastLogin(hc, s.URL, "gate-pa", casterWrong) }()
			}
			close(start)
			wrong, locked := 0, 0
			for range 20 {
				switch c := <-codes; c {
				case "2":
					wrong++
				case "107":
					locked++
				default:
					t.Errorf("trial %d: code %q", trial, c)
				}
			}
			after, _ := s.Auth.PasswordChecks()
			if checked := after - before; checked > auth.MaxFailedLogins || wrong >= auth.MaxFailedLogins {
				t.Fatalf("trial %d: %d guesses checked (%d wrong, %d locked); at most %d may be", trial, checked, wrong, locked,
					auth.MaxFailedLogins)
			}
			if c := broadcastLogin(hc, s.URL, "gate-pa", casterPw); c != "107" {
				t.Fatalf("trial %d: the right password after the burst: %q, want 107", trial, c)
			}
			s.clock.advance(auth.LockDuration)
			if c := broadcastLogin(hc, s.URL, "gate-pa", casterPw); c != "200" {
				t.Fatalf("trial %d: the right password after the lock: %q", trial, c)
			}
		}
	})
}

// The right password sent while MaxFailedLogins wrong ones are being checked is refused (H1).
func TestBroadcastRightPasswordAmongParallelGuesses(t *testing.T) {
	s := newCasterServer(t, "sqlite", "gate-pa")
	hc := testkit.ClientFrom("127.0.0.1")
	before, _ := s.Auth.PasswordChecks()
	codes := make(chan string, 10)
	for range 10 {
		go func() { codes <- broadcastLogin(hc, s.URL, "gate-pa", casterWrong) }()
	}
	testkit.Eventually(t, 30*time.Second, "the wrong guesses' checks started", func() bool {
		n, _ := s.Auth.PasswordChecks()
		return n-before >= auth.MaxFailedLogins
	})
	if c := broadcastLogin(hc, s.URL, "gate-pa", casterPw); c != "107" {
		t.Fatalf("the right password among wrong ones under way: %q, want 107", c)
	}
	for range 10 {
		<-codes
	}
}

// One address guessing caster after caster as fast as its attempt limit allows is stopped by its wrong-guess
// budget (L1): it locks at most two, another address still signs in, and the attacker gets 101 before any check.
func TestBroadcastOneAddressCannotLockManyCasters(t *testing.T) {
	var codes []string
	for i := range 8 {
		codes = append(codes, fmt.Sprintf("pa-%d", i))
	}
	s := newCasterServer(t, "sqlite", codes...)
	s.Auth.SetLimits(auth.DefaultLimits())
	attacker, other := testkit.ClientFrom("127.0.0.1"), testkit.ClientFrom("127.0.0.2")
	start := s.clock.now()
	busy := 0
	for _, code := range codes {
		for range auth.MaxFailedLogins {
			if broadcastLogin(attacker, s.URL, code, casterWrong) == "101" {
				busy++
			}
			s.clock.advance(auth.DefaultThrottleEvery)
		}
	}
	elapsed := s.clock.now().Sub(start)
	locked := 0
	var free []string
	for _, code := range codes {
		var until int64
		if err := s.DB.QueryRow(context.Background(), `SELECT locked_until FROM service_credentials WHERE realm = 'broadcast' AND login = ?`,
			code).Scan(&until); err != nil {
			t.Fatal(err)
		}
		if until > s.clock.now().UnixMilli() {
			locked++
		} else {
			free = append(free, code)
		}
	}
	most := (auth.AddrFailureBurst + int(elapsed/auth.AddrFailureEvery)) / auth.MaxFailedLogins
	if locked > most || busy == 0 || len(free) < 2 {
		t.Fatalf("one address locked %d of %d casters in %v (at most %d allowed); %d guesses refused busy", locked, len(codes),
			elapsed, most, busy)
	}
	if c := broadcastLogin(other, s.URL, free[0], casterPw); c != "200" {
		t.Fatalf("another address signing in to a caster the attacker tried: %q", c)
	}
	if c := broadcastLogin(attacker, s.URL, free[1], casterPw); c != "101" {
		t.Fatalf("the attacker's address, out of wrong guesses, must be refused before any check: %q", c)
	}
}
