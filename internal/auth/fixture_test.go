package auth_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/tenant"
	"tenfour/internal/testkit"
)

// Accounts of the fixture. Customer A ("Alpha") and customer B ("Bravo"); every password is the original
// 6-digit one.
const (
	adminA = "10000001" // dispatcher, administrator of A
	dispA  = "10000002" // dispatcher of A
	termA  = "10000101" // app terminal (type 10) of A
	adminB = "20000001" // dispatcher, administrator of B
	pw     = "123456"
)

// clock is a settable clock for Service.SetClock: tests move time instead of sleeping.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a running server with two customers and a fake clock (testkit runs it without sign-in limits;
// tests of the throttle set them).
type fixture struct {
	*testkit.Server
	t            *testing.T
	clock        *clock
	custA, custB int64
	groupA       int64
	tokens       map[string]string
}

func newFixture(t *testing.T, engine string, opts ...func(*config.Config)) *fixture {
	t.Helper()
	s := testkit.StartOn(t, engine, opts...)
	f := &fixture{Server: s, t: t, clock: &clock{t: time.Now()}, tokens: map[string]string{}}
	s.Auth.SetClock(f.clock.Now)
	ctx := context.Background()
	var err error
	if f.custA, err = tenant.Create(ctx, s.DB, "Alpha"); err != nil {
		t.Fatal(err)
	}
	if f.custB, err = tenant.Create(ctx, s.DB, "Bravo"); err != nil {
		t.Fatal(err)
	}
	f.account(auth.NewAccount{CustomerID: f.custA, ID: adminA, Name: "Alpha Admin", Type: "20", Admin: true, Group: "Patrol"})
	f.account(auth.NewAccount{CustomerID: f.custA, ID: dispA, Name: "Alpha Dispatcher", Type: "20", Group: "Patrol"})
	f.account(auth.NewAccount{CustomerID: f.custA, ID: termA, Name: "Alpha Unit", Type: "10", Group: "Patrol"})
	f.account(auth.NewAccount{CustomerID: f.custB, ID: adminB, Name: "Bravo Admin", Type: "20", Admin: true, Group: "Patrol"})
	if err := s.DB.QueryRow(ctx, `SELECT id FROM ptt_groups WHERE customer_id = ? AND name = 'Patrol'`, f.custA).Scan(&f.groupA); err != nil {
		t.Fatal(err)
	}
	return f
}

// account creates an account (password pw unless set).
func (f *fixture) account(a auth.NewAccount) {
	f.t.Helper()
	if a.Password == "" {
		a.Password = pw
	}
	if err := auth.CreateAccount(context.Background(), f.DB, a); err != nil {
		f.t.Fatalf("create %s: %v", a.ID, err)
	}
}

// exec runs SQL to set up a state the API cannot reach (disabled, expired…).
func (f *fixture) exec(q string, args ...any) {
	f.t.Helper()
	if _, err := f.DB.Exec(context.Background(), q, args...); err != nil {
		f.t.Fatal(err)
	}
}

// token returns a session token for id, made directly (no password hashing), cached per account.
func (f *fixture) token(id string) string {
	f.t.Helper()
	if tok, ok := f.tokens[id]; ok {
		return tok
	}
	var cust int64
	if err := f.DB.QueryRow(context.Background(), `SELECT customer_id FROM accounts WHERE id = ?`, id).Scan(&cust); err != nil {
		f.t.Fatal(err)
	}
	tok, err := f.Sessions.Create(context.Background(), id, cust)
	if err != nil {
		f.t.Fatal(err)
	}
	f.tokens[id] = tok
	return tok
}

// authState is what the auth endpoints may change; snapshots before and after a refused call must be equal.
var authState = []string{
	`SELECT id, password_hash, password_changed, email, failed_logins, locked_until, disabled FROM accounts`,
	`SELECT token_hash, revoked, socket_login_at FROM sessions`,
	`SELECT account_id, purpose, code_hash, attempts FROM verify_codes`,
	`SELECT account_id, platform FROM oauth_links`,
	`SELECT COUNT(*) FROM oplog`,
}

func (f *fixture) state() string {
	f.t.Helper()
	return testkit.Snapshot(f.t, f.DB, authState...)
}

// failedLogins reads an account's wrong-password count and lock deadline.
func (f *fixture) failedLogins(id string) (n int, lockedUntil int64) {
	f.t.Helper()
	if err := f.DB.QueryRow(context.Background(), `SELECT failed_logins, locked_until FROM accounts WHERE id = ?`, id).
		Scan(&n, &lockedUntil); err != nil {
		f.t.Fatal(err)
	}
	return n, lockedUntil
}

// run runs API scenarios; a scenario's Token is an account whose session token is sent ("" none,
// "tok:<value>" a literal token).
func (f *fixture) run(t *testing.T, scenarios []testkit.Scenario) {
	t.Helper()
	testkit.APITest{Server: f.Server, State: authState, Token: func(as string) string {
		switch {
		case strings.HasPrefix(as, "tok:"):
			return strings.TrimPrefix(as, "tok:")
		case as != "":
			return f.token(as)
		}
		return ""
	}}.Run(t, scenarios)
}

// ---- an in-process SMTP server (github.com/emersion/go-smtp) ----

type received struct {
	To      []string
	Subject string
	Text    string
}

type mailbox struct {
	ch chan received
}

func (m *mailbox) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{box: m}, nil }

type smtpSession struct {
	box *mailbox
	to  []string
}

func (s *smtpSession) Reset()                                    { s.to = nil }
func (s *smtpSession) Logout() error                             { return nil }
func (s *smtpSession) Mail(string, *smtp.MailOptions) error      { return nil }
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error { s.to = append(s.to, to); return nil }
func (s *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return err
	}
	var body io.Reader = msg.Body
	switch strings.ToLower(msg.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	s.box.ch <- received{To: s.to, Subject: subject, Text: string(text)}
	return nil
}

// startSMTP runs a mail server on a free local port and returns the SMTP configuration that reaches it.
func startSMTP(t *testing.T) (config.SMTP, *mailbox) {
	t.Helper()
	box := &mailbox{ch: make(chan received, 16)}
	srv := smtp.NewServer(box)
	srv.Domain = "localhost"
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return config.SMTP{Host: "127.0.0.1", Port: l.Addr().(*net.TCPAddr).Port, From: "tenfour@example.com", TLS: "none"}, box
}

// next returns the next received mail, failing the test after a deadline.
func (m *mailbox) next(t *testing.T) received {
	t.Helper()
	select {
	case r := <-m.ch:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no mail received")
		return received{}
	}
}

// empty fails if a mail is waiting.
func (m *mailbox) empty(t *testing.T) {
	t.Helper()
	select {
	case r := <-m.ch:
		t.Fatalf("unexpected mail to %v: %s", r.To, r.Subject)
	default:
	}
}

var codeRe = regexp.MustCompile(`\b(\d{6})\b`)

// code reads the verification code out of a mail.
func (r received) code(t *testing.T) string {
	t.Helper()
	m := codeRe.FindStringSubmatch(r.Text)
	if m == nil {
		t.Fatalf("no code in mail:\n%s", r.Text)
	}
	return m[1]
}
