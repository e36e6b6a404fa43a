package auth

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Presence tells which accounts of a customer hold a live socket; the online limit (code 5) counts the
// dispatchers among them. *realtime.Hub implements it.
type Presence interface {
	Accounts(customerID int64) []string
}

var _ Presence = (*realtime.Hub)(nil)

// Service runs sign-in, sessions and credentials.
type Service struct {
	db       *db.DB
	Sessions *Sessions
	log      *oplog.Log

	// Set by Configure before serving.
	publicURL string
	mailer    Mailer
	presence  Presence
	keys      KeyRing

	throttle *throttle
	// Password checks of dispatchers (HTTP sign-in, e-mail binding, password change) and of terminals (socket
	// login) each have their own budget, so neither can starve the other.
	consoleHashes, terminalHashes *hashBudget
	lastPrune                     atomic.Int64 // unix ms of the last expired-row cleanup
}

// Hash budget queues: how many checks may wait for a slot, and how long. A console sign-in is one person
// waiting; terminals come in storms (a fleet's first login) and retry on 101 with a backoff.
const (
	consoleHashQueue, consoleHashWait   = 32, 5 * time.Second
	terminalHashQueue, terminalHashWait = 512, 10 * time.Second
)

// NewService builds the auth service. Call Configure before serving.
func NewService(d *db.DB, s *Sessions, l *oplog.Log) *Service {
	return &Service{db: d, Sessions: s, log: l, throttle: newThrottle(DefaultLimits()),
		consoleHashes:  newHashBudget("console", people, consoleHashQueue, consoleHashWait),
		terminalHashes: newHashBudget("terminal", devices, terminalHashQueue, terminalHashWait)}
}

// Configure gives the service what it needs from the configuration: the public URL (media server addresses of
// the sign-in answer), the SMTP server for verification mails, and presence for the online limit (nil: no limit
// is enforced). Call it before serving.
func (s *Service) Configure(cfg config.Config, presence Presence) {
	s.publicURL = strings.TrimRight(cfg.PublicURL, "/")
	s.mailer = NewSMTPMailer(cfg.SMTP)
	s.presence = presence
	s.SetLimits(limitsFrom(cfg.SignIn))
}

// limitsFrom is the throttle serve's flags ask for: the defaults where a flag is unset (zero).
func limitsFrom(si config.SignIn) Limits {
	l := DefaultLimits()
	if si.BurstPerAddress > 0 && si.IntervalPerAddress > 0 {
		l.PerAddress = Rate{si.BurstPerAddress, si.IntervalPerAddress}
	}
	if si.BurstPerAccount > 0 {
		l.PerAccount.Burst = si.BurstPerAccount
	}
	return l
}

// KeyRing tells a customer's current secret key (internal/secretkey's Service): userInfo.secretKey.
type KeyRing interface {
	CurrentKey(ctx context.Context, customerID int64) (string, error)
}

// SetKeyRing gives sign-in the key ring (nil: userInfo.secretKey is ""). Call it before serving.
func (s *Service) SetKeyRing(k KeyRing) { s.keys = k }

func (s *Service) secretKey(ctx context.Context, customerID int64) (string, error) {
	if s.keys == nil {
		return "", nil
	}
	return s.keys.CurrentKey(ctx, customerID)
}

// SetClock replaces the clock of sessions, lockout, codes and throttling (nil = time.Now); safe while serving.
func (s *Service) SetClock(now func() time.Time) { s.Sessions.SetClock(now) }

// SetLimits replaces the sign-in throttle's limits (DefaultLimits; serve --signin-burst-per-address and
// --signin-interval-per-address set the per-address one) and forgets every address's and account's history;
// safe while serving.
func (s *Service) SetLimits(l Limits) { s.throttle.set(l) }

// PasswordChecks is how many sign-in password checks each path's hash budget has started (admitted to its
// queue) since the start: the console's and the terminals'.
func (s *Service) PasswordChecks() (console, terminal int64) {
	return s.consoleHashes.started.Load(), s.terminalHashes.started.Load()
}

func (s *Service) now() time.Time { return s.Sessions.now() }

// allowAddr takes one of people's attempts from the caller's address (a console credential endpoint); over
// the budget the answer is 101 (system busy).
func (s *Service) allowAddr(r *http.Request) error { return s.allowAddrOf(people, httpx.ClientIP(r)) }

// allowAddrOf takes one attempt of kind (people's or devices') from addr.
func (s *Service) allowAddrOf(k attemptKind, addr string) error {
	return s.throttle.allow(k, addr, s.now())
}

// consolePassword reads the account uid with load and checks pw, its console password, from addr: the one
// proof before a console sign-in, a PoC check and binding an address (throttle, lockout, hash budget).
func (s *Service) consolePassword(ctx context.Context, load func(context.Context, string) (*account, error),
	addr, uid, pw string) (*account, error) {
	a, err := load(ctx, uid)
	if err != nil {
		return nil, err
	}
	if err := s.checkPassword(ctx, s.consoleHashes, addr, a, pw); err != nil {
		return nil, err
	}
	return a, nil
}

// checkPassword is the password check of every sign-in path, from addr with budget b: the account's own
// budget, then the address's wrong-guess budget (L1; a check that finds its tokens all held by running checks
// waits as long as it would for b), then the store's lockout and the hash (verifyPassword). Every refusal of
// the throttle is ErrBusy (101). A right password gives the request's attempt (b's kind) back when addr has
// proven the account before (throttle.right).
func (s *Service) checkPassword(ctx context.Context, b *hashBudget, addr string, a *account, pw string) error {
	return s.checkSecret(ctx, b.kind, b.wait, addr, a.ID, func() error { return s.verifyPassword(ctx, b, a, pw) })
}

// checkSecret is checkPassword's throttle around any secret of account id that verify checks under the
// lockout (a password, a SIP digest answer): the account's budget, the address's wrong-guess budget (waiting
// at most wait for a token held by running checks), then verify; a right secret settles attempt kind k.
func (s *Service) checkSecret(ctx context.Context, k attemptKind, wait time.Duration, addr, id string, verify func() error) error {
	if !s.throttle.accounts.take(id, s.now()) {
		return ErrBusy
	}
	g, err := s.throttle.begin(ctx, addr, s.now, wait)
	if err != nil {
		return err
	}
	err = verify()
	g.end(err)
	if err == nil {
		s.throttle.right(k, addr, id, s.now())
	}
	return err
}

var _ realtime.Authenticator = (*Service)(nil)

// SocketLogin implements realtime.Authenticator: consoles present the token of their HTTP sign-in; terminals
// present their account and password (docs/terminal-protocol.md).
func (s *Service) SocketLogin(ctx context.Context, data json.RawMessage) (Principal, realtime.Kind, error) {
	var req struct {
		Token  string `json:"token"`
		Client string `json:"client"`
		UID    string `json:"uid"`
		Auth   string `json:"auth"`
		Resume string `json:"resume"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return Principal{}, "", httpx.BadParam("data", "malformed login")
	}
	switch req.Client {
	case "", string(realtime.Console):
		p, err := s.Sessions.SocketLogin(ctx, req.Token)
		if err != nil {
			return Principal{}, "", err
		}
		if !p.IsDispatcher() {
			return Principal{}, "", ErrNotDispatcher
		}
		return p, realtime.Console, nil
	case string(realtime.Terminal):
		if req.Resume != "" {
			p, err := s.Sessions.Resume(ctx, req.Resume, req.UID)
			return p, realtime.Terminal, err
		}
		// A password login is a guess like a console sign-in: it takes from its address's budget (devices')
		// first, and gets it back if the password is right and the address has logged this terminal in before.
		if err := s.allowAddrOf(devices, httpx.ClientIPFrom(ctx)); err != nil {
			return Principal{}, realtime.Terminal, err
		}
		p, err := s.terminalLogin(ctx, req.UID, req.Auth)
		if err != nil {
			return p, realtime.Terminal, err
		}
		// The reply carries a resume token for the next reconnect. Without one (a store hiccup) the terminal
		// simply logs in with its password again.
		if tok, err := s.Sessions.CreateResume(ctx, p.AccountID, p.CustomerID); err != nil {
			slog.WarnContext(ctx, "auth: resume token", "msId", p.AccountID, "err", err)
		} else {
			p.Token = tok
		}
		return p, realtime.Terminal, nil
	default:
		return Principal{}, "", httpx.BadParam("client", "console or terminal")
	}
}
