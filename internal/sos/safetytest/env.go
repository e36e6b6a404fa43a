package safetytest

import (
	"testing"

	"tenfour/internal/testkit"
)

// Env is the safety API tests' world: a running server with two seeded customers, F (the test's terminals)
// and Other (one terminal, the tenant that must see nothing), and their dispatchers' console sessions.
type Env struct {
	T     *testing.T
	S     *testkit.Server
	F     Fleet
	Other Fleet
	Tok   string // F's dispatcher
	OTok  string // Other's dispatcher
}

// NewEnv seeds F with n terminals and Other with one on s.
func NewEnv(t *testing.T, s *testkit.Server, n int) *Env {
	t.Helper()
	e := &Env{T: t, S: s, F: Seed(t, s.DB, n, ""), Other: Seed(t, s.DB, 1, "")}
	e.Tok = e.F.Token(t, s.DB)
	e.OTok = e.Other.Token(t, s.DB)
	return e
}

// Do calls the API as the holder of tok.
func (e *Env) Do(method, path, tok string, params map[string]any) testkit.Reply {
	e.T.Helper()
	return testkit.Do(e.T, e.S.URL, method, path, tok, params)
}

// Console is a socket of F's dispatcher.
func (e *Env) Console() *testkit.Socket { return testkit.Console(e.T, e.S.URL, e.Tok) }

// Terminal is a socket of F's terminal i.
func (e *Env) Terminal(i int) *testkit.Socket {
	return testkit.Terminal(e.T, e.S.URL, e.F.Terminals[i], Password)
}

// Count counts a customer's rows of a table.
func (e *Env) Count(table string, customerID int64) int {
	e.T.Helper()
	return e.count(`SELECT COUNT(*) FROM `+table+` WHERE customer_id = ?`, customerID)
}

// Logs counts a customer's operation-log entries of a type.
func (e *Env) Logs(customerID int64, typ int) int {
	e.T.Helper()
	return e.count(`SELECT COUNT(*) FROM oplog WHERE customer_id = ? AND type = ?`, customerID, typ)
}

func (e *Env) count(q string, args ...any) int {
	e.T.Helper()
	return testkit.Count(e.T, e.S.DB, q, args...)
}
