package auth_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
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

// fixture is a running server with two customers, a fake clock and a generous throttle (tests of the
// throttle tighten it).
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
	s.Auth.SetThrottle(time.Millisecond, 1000)
	ctx := context.Background()
	var err error
	if f.custA, err = auth.CreateCustomer(ctx, s.DB, "Alpha"); err != nil {
		t.Fatal(err)
	}
	if f.custB, err = auth.CreateCustomer(ctx, s.DB, "Bravo"); err != nil {
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

// state is what the auth endpoints may change; snapshots before and after a refused call must be equal.
func (f *fixture) state() string {
	f.t.Helper()
	ctx := context.Background()
	var b strings.Builder
	dump := func(q string, n int) {
		rows, err := f.DB.Query(ctx, q)
		if err != nil {
			f.t.Fatal(err)
		}
		defer rows.Close()
		vals := make([]any, n)
		ptrs := make([]any, n)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				f.t.Fatal(err)
			}
			fmt.Fprintln(&b, vals...)
		}
		if err := rows.Err(); err != nil {
			f.t.Fatal(err)
		}
	}
	dump(`SELECT id, password_hash, password_changed, email, failed_logins, locked_until, disabled FROM accounts ORDER BY id`, 7)
	dump(`SELECT token_hash, revoked, socket_login_at FROM sessions ORDER BY token_hash`, 3)
	dump(`SELECT account_id, purpose, code_hash, attempts FROM verify_codes ORDER BY account_id, purpose`, 4)
	dump(`SELECT account_id, platform FROM oauth_links ORDER BY account_id, platform`, 2)
	dump(`SELECT COUNT(*) FROM oplog`, 1)
	return b.String()
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

// scenario is one API call and what it must produce.
type scenario struct {
	name   string
	method string
	path   string
	as     string // account whose token is sent; "" for none, "tok:<value>" for a literal token
	params map[string]any
	status int
	code   string
	msg    string // exact msg when not empty
	// changes says the call may change stored state; refused calls without it must leave everything as it was.
	changes bool
	check   func(t *testing.T, f *fixture, r testkit.Reply)
}

func (f *fixture) run(t *testing.T, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			tok := ""
			switch {
			case strings.HasPrefix(sc.as, "tok:"):
				tok = strings.TrimPrefix(sc.as, "tok:")
			case sc.as != "":
				tok = f.token(sc.as)
			}
			before := f.state()
			r := f.Do(sc.method, sc.path, tok, sc.params)
			if r.Status != sc.status || r.Code != sc.code {
				t.Fatalf("%s %s: got HTTP %d code %q (%s), want HTTP %d code %q", sc.method, sc.path, r.Status, r.Code, r.Msg, sc.status, sc.code)
			}
			if sc.msg != "" && r.Msg != sc.msg {
				t.Fatalf("msg %q, want %q", r.Msg, sc.msg)
			}
			if r.Code != "0" && !sc.changes {
				if after := f.state(); after != before {
					t.Fatalf("a refused call changed the store:\nbefore:\n%s\nafter:\n%s", before, after)
				}
			}
			if sc.check != nil {
				sc.check(t, f, r)
			}
		})
	}
}

// eachEngine runs fn on every store engine (SQLite; PostgreSQL when TENFOUR_TEST_PG is set).
func eachEngine(t *testing.T, fn func(t *testing.T, engine string)) {
	for _, e := range testkit.Engines() {
		t.Run(e, func(t *testing.T) { fn(t, e) })
	}
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

// closedPort returns a local address nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}
