// Package testkit starts real tenfour servers for tests: a real store (SQLite in t.TempDir(), or PostgreSQL
// when TENFOUR_TEST_PG is set), the real handler behind httptest, and small HTTP and WebSocket clients.
package testkit

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/testkit/probe"
)

// Engines lists the store engines to run contract tests on: SQLite always, PostgreSQL when TENFOUR_TEST_PG is
// a postgres:// URL of a database the tests may create schemas in.
func Engines() []string {
	if os.Getenv("TENFOUR_TEST_PG") != "" {
		return []string{"sqlite", "postgres"}
	}
	return []string{"sqlite"}
}

// EachEngine runs fn as a subtest on every engine of Engines.
func EachEngine(t *testing.T, fn func(t *testing.T, engine string)) {
	t.Helper()
	for _, e := range Engines() {
		t.Run(e, func(t *testing.T) { fn(t, e) })
	}
}

// EachStore runs fn as a subtest on every engine of Engines with a fresh, migrated store of it (OpenStore): the
// opening of a store contract test.
func EachStore(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	EachEngine(t, func(t *testing.T, engine string) { fn(t, OpenStore(t, engine)) })
}

// OpenStore opens a fresh, migrated store of the given engine, closed when the test ends. PostgreSQL tests
// each get their own database (PostgresDSN).
func OpenStore(t testing.TB, engine string) *db.DB {
	t.Helper()
	return OpenStoreAt(t, engine, 0)
}

// OpenStoreAt is OpenStore migrated only up to version (0: every migration), for a test of a migration that
// moves rows: it fills the tables as they were, then calls Migrate.
func OpenStoreAt(t testing.TB, engine string, version int64) *db.DB {
	t.Helper()
	ctx := context.Background()
	var cfg config.Config
	switch engine {
	case "sqlite":
		cfg.DataDir = t.TempDir()
	case "postgres":
		cfg.DB = postgresDatabase(t, version == 0)
	default:
		t.Fatalf("unknown engine %q", engine)
	}
	if version != 0 {
		var store *db.DB
		var err error
		if cfg.UsesPostgres() {
			store, err = db.OpenPostgres(ctx, cfg.DB)
		} else {
			store, err = db.OpenSQLite(cfg.SQLitePath())
		}
		if err == nil {
			t.Cleanup(func() { store.Close() })
			err = store.MigrateTo(ctx, version)
		}
		if err != nil {
			t.Fatal(err)
		}
		return store
	}
	if !cfg.UsesPostgres() {
		if err := writeMigratedSQLite(cfg.SQLitePath()); err != nil {
			t.Fatal(err)
		}
	}
	store, err := app.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// migratedSQLite is an SQLite store with every migration applied, made once per test process and kept in memory:
// each test's store starts as a copy of it, which app.Open then finds current. Migrating a fresh store took most of
// a short test's time under -race (docs/testing.md); the migrations themselves are tested where they run, on both
// engines (internal/platform/db) and in every PostgreSQL store.
var migratedSQLite struct {
	once sync.Once
	file []byte
	err  error
}

func writeMigratedSQLite(path string) error {
	migratedSQLite.once.Do(func() {
		migratedSQLite.file, migratedSQLite.err = migrateSQLiteOnce()
	})
	if migratedSQLite.err != nil {
		return migratedSQLite.err
	}
	return os.WriteFile(path, migratedSQLite.file, 0o600)
}

func migrateSQLiteOnce() ([]byte, error) {
	dir, err := os.MkdirTemp("", "tenfour-migrated-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cfg := config.Config{DataDir: dir}
	store, err := app.Open(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	// Everything into the main file (no write-ahead log left beside it), then closed.
	_, err = store.Exec(context.Background(), `PRAGMA wal_checkpoint(TRUNCATE)`)
	store.Close()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(cfg.SQLitePath())
}

// PostgresDSN creates a fresh database in the test PostgreSQL (TENFOUR_TEST_PG; the test is skipped without it),
// a copy of the migrated template (postgresTemplate), dropped when the test ends, and returns its URL: several
// stores opened on it share one database, as the nodes of a cluster do.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	return postgresDatabase(t, true)
}

// postgresDatabase creates a database for one test, a copy of the migrated template or (migrated false) empty,
// and returns its URL.
func postgresDatabase(t testing.TB, migrated bool) string {
	t.Helper()
	ctx := context.Background()
	base := os.Getenv("TENFOUR_TEST_PG")
	if base == "" {
		t.Skip("TENFOUR_TEST_PG not set")
	}
	admin, err := pgAdminDB(base)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("t%d_%d", os.Getpid(), pgDatabases.Add(1))
	if err := createPostgresDatabase(ctx, admin, base, name, migrated); err != nil {
		t.Fatal(err)
	}
	// FORCE: a store the test left open (a node stopped abruptly) does not keep its database.
	t.Cleanup(func() { admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	dsn, err := postgresURL(base, name)
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}

// postgresURL is base with its database replaced by name.
func postgresURL(base, name string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

var pgDatabases atomic.Int64

// pgAdmin is the test process's connection to TENFOUR_TEST_PG's own database, which creates and drops the
// tests' databases.
var pgAdmin struct {
	once sync.Once
	db   *sql.DB
	err  error
}

func pgAdminDB(base string) (*sql.DB, error) {
	pgAdmin.once.Do(func() { pgAdmin.db, pgAdmin.err = sql.Open("pgx", base) })
	return pgAdmin.db, pgAdmin.err
}

// createPostgresDatabase creates database name, a copy of the migrated template or (migrated false) empty. A
// template another process dropped meanwhile (it keeps only the newest few: buildPostgresTemplate) is built again.
func createPostgresDatabase(ctx context.Context, admin *sql.DB, base, name string, migrated bool) error {
	if !migrated {
		_, err := admin.ExecContext(ctx, "CREATE DATABASE "+name)
		return err
	}
	for attempt := 0; ; attempt++ {
		tmpl, err := postgresTemplate(ctx, admin, base, attempt > 0)
		if err != nil {
			return err
		}
		_, err = admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tmpl)
		if attempt == 0 && err != nil && strings.Contains(err.Error(), "SQLSTATE 3D000") { // invalid_catalog_name: gone
			continue
		}
		return err
	}
}

// pgTemplate is the migrated template database of this process's migration set, found or made once (again when
// it went missing).
var pgTemplate struct {
	mu   sync.Mutex
	name string
}

// pgTemplateLock is the advisory lock that makes one test process at a time look for or build the template.
const pgTemplateLock = 0x74656e66 // "tenf"

// pgTemplatesKept is how many templates (migration sets) the test PostgreSQL keeps: the newest, so that checkouts
// of different migrations testing against one server at once (two worktrees, a branch and main) do not drop
// each other's.
const pgTemplatesKept = 4

// postgresTemplate returns the name of a database with every migration applied, for CREATE DATABASE … TEMPLATE:
// copying it takes a tenth of a second where migrating a fresh store took over one under -race, most of it in
// goose's parser (docs/testing.md). It is named by db.MigrationsDigest and shared by every test process of the
// same migration set, on this run and the next: the first builds it under an advisory lock (in a database of its
// own, renamed when complete, so a process killed half-way leaves no half-migrated template) and drops the
// templates beyond the newest pgTemplatesKept. The migrations themselves stay tested where they run:
// internal/platform/db on both engines, and each OpenStoreAt of a version. again looks for it anew.
func postgresTemplate(ctx context.Context, admin *sql.DB, base string, again bool) (string, error) {
	pgTemplate.mu.Lock()
	defer pgTemplate.mu.Unlock()
	if pgTemplate.name != "" && !again {
		return pgTemplate.name, nil
	}
	name, err := buildPostgresTemplate(ctx, admin, base)
	if err != nil {
		return "", err
	}
	pgTemplate.name = name
	return name, nil
}

func buildPostgresTemplate(ctx context.Context, admin *sql.DB, base string) (string, error) {
	digest, err := db.MigrationsDigest(db.Postgres)
	if err != nil {
		return "", err
	}
	name := "tenfour_tmpl_" + digest[:16]
	conn, err := admin.Conn(ctx) // the advisory lock belongs to one session
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", pgTemplateLock); err != nil {
		return "", err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", pgTemplateLock)
	var exists bool
	if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	building := fmt.Sprintf("tenfour_build_%d", os.Getpid())
	if _, err := conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	dsn, err := postgresURL(base, building)
	if err != nil {
		return "", err
	}
	store, err := app.Open(ctx, config.Config{DB: dsn})
	if err != nil {
		return "", err
	}
	store.Close()
	// Renaming needs the store's sessions gone; the server may not have noticed their end yet. With a timeout,
	// pg_terminate_backend waits (up to 5 s) until each has ended.
	if _, err := conn.ExecContext(ctx, "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = $1", building); err != nil {
		return "", err
	}
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		return "", err
	}
	// The newest templates stay (pg_database's oids grow with each database made).
	rows, err := conn.QueryContext(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'tenfour\_tmpl\_%'
		ORDER BY oid DESC OFFSET $1`, pgTemplatesKept)
	stale, err := db.Collect(rows, err, db.String)
	if err != nil {
		return "", err
	}
	for _, n := range stale {
		// Best effort: a process of an older checkout may be copying it right now.
		conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+n)
	}
	return name, nil
}

// Server is a running tenfour node for a test.
type Server struct {
	*app.App
	URL string
	t   testing.TB
}

// MetricsToken is the --metrics-token of test servers: GET /metrics with `Authorization: Bearer MetricsToken`.
const MetricsToken = "testkit-metrics"

// Start builds and starts a node on a fresh SQLite store. Options adjust the config first.
func Start(t testing.TB, opts ...func(*config.Config)) *Server {
	return StartOn(t, "sqlite", opts...)
}

// LoopbackMedia is the option of a server whose media listens on loopback only (--media-interfaces lo): the
// tests' Go peers (termclient's Loopback) and phones connect there, and media offers no loopback address otherwise.
func LoopbackMedia(c *config.Config) { c.Voice.Interfaces = []string{"lo"} }

// StartOn is Start on a chosen engine.
func StartOn(t testing.TB, engine string, opts ...func(*config.Config)) *Server {
	t.Helper()
	return StartStore(t, OpenStore(t, engine), opts...)
}

// StartStore is Start on an open store (a cluster's nodes each open the shared PostgreSQL).
func StartStore(t testing.TB, store *db.DB, opts ...func(*config.Config)) *Server {
	t.Helper()
	cfg := config.Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), ShutdownTimeout: time.Second, MetricsToken: MetricsToken}
	for _, o := range opts {
		o(&cfg)
	}
	a, err := app.New(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	// Tests sign in as often as they like; the sign-in throttle's own tests (internal/auth, internal/security)
	// set auth.DefaultLimits.
	a.Auth.SetLimits(auth.NoLimits())
	ctx, cancel := context.WithCancel(context.Background())
	if err := a.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	// the node's own server and listener (body deadlines, per-address cap), as serve runs them
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = a.HTTPServer()
	hs.Listener = a.Listener(hs.Listener)
	hs.Start()
	a.Start(ctx)
	t.Cleanup(func() {
		a.Stop()
		hs.Close()
		cancel()
		a.Hub.Wait()
		a.Wait() // background loops finish writing before the test's temp directories go
		if u := a.Hub.Undeclared(); len(u) > 0 {
			t.Errorf("the server sent socket types its services do not declare (realtime.Event/Ask in Verbs): %q", u)
		}
	})
	return &Server{App: a, URL: hs.URL, t: t}
}

// Reply is a decoded {code, msg, key, result} envelope plus the HTTP status.
type Reply struct {
	Call   string `json:"-"` // "METHOD /path" of the request, for failure messages
	Status int
	Code   string          `json:"code"`
	Msg    string          `json:"msg"`
	Key    string          `json:"key"`
	Result json.RawMessage `json:"result"`
	Header http.Header     `json:"-"`
	Body   []byte          `json:"-"`
}

// UnmarshalJSON reads an envelope whose code is a string (the dispatch API) or a number (the broadcast API's
// {code: 200}); Code holds its text either way.
func (r *Reply) UnmarshalJSON(b []byte) error {
	var env struct {
		Code   json.RawMessage `json:"code"`
		Msg    string          `json:"msg"`
		Key    string          `json:"key"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return err
	}
	r.Code = strings.Trim(string(env.Code), `"`)
	r.Msg, r.Key, r.Result = env.Msg, env.Key, env.Result
	return nil
}

// Into decodes the result into v.
func (r Reply) Into(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Result, v); err != nil {
		t.Fatalf("decode result %s: %v", r.Result, err)
	}
}

// Want fails the test unless the reply's code is code, then decodes the result into v (when v is not nil): the
// "call, require success, read the answer" that every domain's fixture needs.
func (r Reply) Want(t testing.TB, code string, v any) Reply {
	t.Helper()
	if r.Code != code {
		t.Fatalf("%s: code %s, want %s: %s", r.Call, r.Code, code, r.Msg)
	}
	if v != nil {
		r.Into(t, v)
	}
	return r
}

// Do calls the API. For GET and DELETE params go in the query string; otherwise as a JSON body.
// token may be empty.
func (s *Server) Do(method, path, token string, params map[string]any) Reply {
	s.t.Helper()
	return Do(s.t, s.URL, method, path, token, params)
}

// Do calls the API of the server at base (any server: one started by Start, or a separate process).
func Do(t testing.TB, base, method, path, token string, params map[string]any) Reply {
	t.Helper()
	return DoFrom(t, testClient, base, method, path, token, params)
}

// DoFrom is Do through hc: a client of an address of its own (ClientFrom), for per-address limits.
func DoFrom(t testing.TB, hc *http.Client, base, method, path, token string, params map[string]any) Reply {
	t.Helper()
	u := base + path
	var body io.Reader
	if method == http.MethodGet || method == http.MethodDelete {
		q := url.Values{}
		for k, v := range params {
			q.Set(k, fmt.Sprint(v))
		}
		if len(q) > 0 {
			u += "?" + q.Encode()
		}
	} else if params != nil {
		b, _ := json.Marshal(params)
		body = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("token", token)
	}
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := Reply{Call: method + " " + path, Status: res.StatusCode, Header: res.Header, Body: raw}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s %s: not an envelope (%d): %s", method, path, res.StatusCode, raw)
	}
	return r
}

// Socket is the test WebSocket client (docs/console-socket.md framing); see probe.Socket.
type Socket = probe.Socket

// Frame is one socket frame.
type Frame = probe.Frame

// Eventually polls cond until it holds, failing the test with what after within.
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	probe.Eventually(t, within, what, cond)
}

// Dial opens a socket to the server (not logged in yet).
func (s *Server) Dial() *Socket {
	s.t.Helper()
	return DialURL(s.t, s.URL)
}

// DialURL opens a socket to the server at base (http://host:port), not logged in yet.
func DialURL(t testing.TB, base string) *Socket {
	t.Helper()
	return probe.Dial(t, wsclient.URL(base), probe.Options{})
}

// Console logs a console socket in with a session token at the server at base.
func Console(t testing.TB, base, token string) *Socket {
	t.Helper()
	return probe.Login(t, wsclient.URL(base), map[string]any{"token": token, "client": "console"})
}

// Terminal logs a terminal's socket in with its account number and password at the server at base.
func Terminal(t testing.TB, base, msID, password string) *Socket {
	t.Helper()
	return probe.Login(t, wsclient.URL(base), map[string]any{"client": "terminal", "uid": msID, "auth": password})
}

// Token issues a console session for a dispatcher, as the HTTP sign-in does (without its password check).
func (s *Server) Token(msID string, customerID int64) string {
	s.t.Helper()
	tok, err := s.Sessions.Create(context.Background(), msID, customerID)
	if err != nil {
		s.t.Fatal(err)
	}
	return tok
}

// Console signs a dispatcher in (Token) and logs its socket in.
func (s *Server) Console(msID string, customerID int64) *Socket {
	s.t.Helper()
	return Console(s.t, s.URL, s.Token(msID, customerID))
}

// testClient bounds every test request: a stalled server fails the test instead of hanging the run.
var testClient = &http.Client{Timeout: 30 * time.Second}

// ClientFrom is an HTTP client whose connections leave from the loopback address ip (every 127.0.0.0/8 address
// reaches a test server), so a test can be several clients to per-address limits (the sign-in throttle).
func ClientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: time.Minute, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 200}}
}

// FreePort is a local port nothing listens on at the moment, over TCP nor UDP (for a server a test starts, stops
// and starts again on the same address, for a child that binds it — a SIP peer binds both — or for an address
// that refuses connections). A TCP port the kernel hands out free may be bound over UDP (the media's sockets
// are), so the UDP side is tried too.
func FreePort(t testing.TB) int {
	t.Helper()
	for range 50 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		u, err := net.ListenPacket("udp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		_ = l.Close()
		if err == nil {
			_ = u.Close()
			return port
		}
	}
	t.Fatal("no local port free over both TCP and UDP in 50 tries")
	return 0
}
