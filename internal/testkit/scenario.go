package testkit

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"tenfour/internal/platform/db"
)

// Scenario is one API call and what its caller must see (pocketbase's tests.ApiScenario): the envelope's code
// and HTTP status, text the body must contain, socket events it must cause, and — for a refusal — a store left
// as it was.
type Scenario struct {
	Name   string
	Method string
	Path   string
	// Token is sent as the session token; APITest.Token may resolve it first (an alias such as "A").
	Token  string
	Params map[string]any
	// Code is the envelope code the call must answer ("0" success).
	Code string
	// Status is the HTTP status; 0 means 200 for code "0" and is not checked otherwise.
	Status int
	// Msg, when not empty, is the exact msg.
	Msg string
	// Contains are substrings the raw body must hold.
	Contains []string
	// Events are event types APITest.Socket must receive because of the call (each within 5 s).
	Events []string
	// Changes says a refused call may change the store; otherwise a refusal must leave APITest.State as it was.
	Changes bool
	// Check asserts anything else.
	Check func(t *testing.T, r Reply)
}

// APITest runs scenarios against a server.
type APITest struct {
	Server *Server
	// Token resolves a scenario's Token (nil: used as it is).
	Token func(string) string
	// State is what a refused call must leave unchanged: table names (every row) or SELECT statements.
	State []string
	// Socket receives the scenarios' Events.
	Socket *Socket
	// Success is the code of a success: "0" when empty (the broadcast API's is "200").
	Success string
}

// Run runs each scenario as a subtest, in order.
func (a APITest) Run(t *testing.T, list []Scenario) {
	t.Helper()
	for _, sc := range list {
		t.Run(sc.Name, func(t *testing.T) {
			t.Helper()
			tok := sc.Token
			if a.Token != nil {
				tok = a.Token(tok)
			}
			success := a.Success
			if success == "" {
				success = "0"
			}
			refusal := sc.Code != success && !sc.Changes && len(a.State) > 0
			var before string
			if refusal {
				before = Snapshot(t, a.Server.DB, a.State...)
			}
			r := Do(t, a.Server.URL, sc.Method, sc.Path, tok, sc.Params)
			if r.Code != sc.Code {
				t.Fatalf("%s %s: HTTP %d code %q (%s), want code %q; result %s", sc.Method, sc.Path, r.Status, r.Code, r.Msg,
					sc.Code, r.Result)
			}
			want := sc.Status
			if want == 0 && sc.Code == success {
				want = http.StatusOK
			}
			if want != 0 && r.Status != want {
				t.Fatalf("%s %s: HTTP %d, want %d (code %q %s)", sc.Method, sc.Path, r.Status, want, r.Code, r.Msg)
			}
			if sc.Msg != "" && r.Msg != sc.Msg {
				t.Fatalf("msg %q, want %q", r.Msg, sc.Msg)
			}
			for _, s := range sc.Contains {
				if !strings.Contains(string(r.Body), s) {
					t.Fatalf("body lacks %q: %s", s, r.Body)
				}
			}
			if refusal {
				if after := Snapshot(t, a.Server.DB, a.State...); after != before {
					t.Fatalf("a refused call changed the store:\nbefore:\n%s\nafter:\n%s", before, after)
				}
			}
			if len(sc.Events) > 0 && a.Socket == nil {
				t.Fatal("scenario expects events but APITest has no Socket")
			}
			for _, typ := range sc.Events {
				a.Socket.WaitEvent(typ, 5*time.Second, nil)
			}
			if sc.Check != nil {
				sc.Check(t, r)
			}
		})
	}
}

// Snapshot renders the rows of tables (a table name means every row; or a SELECT statement) as text, each
// table's lines sorted, so two snapshots are equal when the store holds the same rows.
func Snapshot(t testing.TB, d *db.DB, tables ...string) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for _, q := range tables {
		if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(q)), "SELECT") {
			q = "SELECT * FROM " + q
		}
		rows, err := d.Query(ctx, q)
		if err != nil {
			t.Fatalf("snapshot %s: %v", q, err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var line strings.Builder
			for i, v := range vals {
				if i > 0 {
					line.WriteByte(' ')
				}
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprint(&line, v)
			}
			lines = append(lines, line.String())
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		slices.Sort(lines)
		fmt.Fprintf(&b, "-- %s\n%s\n", q, strings.Join(lines, "\n"))
	}
	return b.String()
}
