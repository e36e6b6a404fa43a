package testkit

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
)

// World is the feature tests' one fixture: a running server, a customer, and the groups, accounts, sessions
// and clients a test adds to it. Everything is created through its owner's Go API — customers through auth's
// administration API, groups and memberships through the directory's store, accounts as the directory
// provisions a fleet — never by SQL of the test's own, so a change to a table is made once, by its owner.
type World struct {
	*Server
	Customer int64 // the world's customer ("World #n")
	t        testing.TB
}

// NewWorld starts a server on engine (options adjust its config) with one customer.
func NewWorld(t testing.TB, engine string, opts ...func(*config.Config)) *World {
	t.Helper()
	s := StartOn(t, engine, opts...)
	return &World{Server: s, Customer: Customer(t, s.DB, "World"), t: t}
}

// passwordHash is the argon2id hash of Password that every World account shares: argon2id is slow on purpose,
// and hashing once per account is what made fixtures of many accounts slow. It is made at the lowest cost
// (one pass over 64 KiB) because every sign-in of a test checks it: at auth.HashPassword's cost a check takes
// 270 ms under -race, and the suite signs in thousands of times. The sign-in path is the same; only its hash
// is cheap (the hash storms' own tests, internal/security, make theirs at auth.DefaultHashCost).
var passwordHash = sync.OnceValues(func() (string, error) {
	return auth.HashPasswordAt(Password, CheapHashCost)
})

// CheapHashCost is the cost of testkit's hashes: one pass over 64 KiB.
var CheapHashCost = auth.HashCost{Passes: 1, MemoryKiB: 64}

// CheapHashes, called first in the TestMain of a package whose tests make many hashes through the code they test
// (accounts created, passwords changed, terminals provisioned) but do not test the hash, makes every hash
// auth.HashPassword makes in the test binary cost CheapHashCost (auth.SetHashCost). What is signed in with such a
// hash goes through the same checks; only argon2id's work is smaller.
func CheapHashes() { auth.SetHashCost(CheapHashCost) }

// RunWithCheapHashes is such a package's whole TestMain: CheapHashes, then its tests.
func RunWithCheapHashes(m *testing.M) {
	CheapHashes()
	os.Exit(m.Run())
}

// PasswordHash is that shared hash of Password, for a fixture that writes its accounts' rows itself.
func PasswordHash(t testing.TB) string {
	t.Helper()
	hash, err := passwordHash()
	if err != nil {
		t.Fatal(err)
	}
	return hash
}

// Ctx is a context that ends with the test, or after 30 seconds: a test's calls fail instead of hanging.
func (w *World) Ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	w.t.Cleanup(cancel)
	return ctx
}

// NewCustomer adds another customer (the other tenant of isolation tests).
func (w *World) NewCustomer(name string) int64 {
	w.t.Helper()
	return Customer(w.t, w.DB, name)
}

// Group adds a top-level fixed group to the world's customer and returns its id.
func (w *World) Group(name string) int64 { w.t.Helper(); return w.GroupIn(w.Customer, name) }

// GroupIn adds a top-level fixed group to a customer.
func (w *World) GroupIn(customer int64, name string) int64 {
	w.t.Helper()
	return Group(w.t, w.DB, customer, name)
}

// Account adds an account of a type (spec §3: "20" dispatcher, "10" app terminal, "6" radio, "camera"…) to the
// world's customer: see Provision.
func (w *World) Account(id, typ string, groups ...int64) {
	w.t.Helper()
	Provision(w.t, w.DB, w.Customer, id, typ, groups...)
}

// AccountIn is Account in a customer of the world's server.
func (w *World) AccountIn(customer int64, id, typ string, groups ...int64) {
	w.t.Helper()
	Provision(w.t, w.DB, customer, id, typ, groups...)
}

// Group adds a top-level fixed group to a customer of a store, through the directory, and returns its id.
func Group(t testing.TB, d *db.DB, customer int64, name string) int64 {
	t.Helper()
	g, err := directory.NewStore(d).AddGroup(context.Background(), customer, directory.NewGroup{Name: name})
	if err != nil {
		t.Fatalf("group %q: %v", name, err)
	}
	return int64(g.GID)
}

// Provision adds an account of a type to a customer of a store, named "Name <id>", with password Password (the
// shared hash), a member of groups: the first is its default group and the group it talks in. The account is
// provisioned as the directory provisions a fleet and joins its groups as the console's "save members" does.
func Provision(t testing.TB, d *db.DB, customer int64, id, typ string, groups ...int64) {
	t.Helper()
	hash := PasswordHash(t)
	ctx := context.Background()
	err := d.InTx(ctx, func(tx *db.Tx) error {
		_, err := directory.Provision(ctx, tx, directory.Fleet{Customer: directory.CustomerID(customer),
			Accounts: []directory.FleetAccount{{ID: directory.TerminalID(id), Type: typ, Name: "Name " + id,
				PasswordHash: hash}}, Now: time.Now().UnixMilli()})
		return err
	})
	// Joining keeps the groups joined before, and the first becomes default and talk group (both unset yet).
	store := directory.NewStore(d)
	for _, g := range groups {
		if err == nil {
			_, err = store.SaveMembers(ctx, customer, directory.SaveMembers{MsIDs: []string{id},
				Group: directory.GroupID(g), KeepOld: true})
		}
	}
	if err != nil {
		t.Fatalf("account %s: %v", id, err)
	}
}

// Session is a fresh console session token of an account of the world's customer (as the HTTP sign-in issues
// one, without its password check).
func (w *World) Session(id string) string {
	w.t.Helper()
	return w.Token(id, w.Customer)
}

// SetCallSet stores a terminal's call-set status (8 on, 0 killed) as terminal management does, through the
// directory; a service that keeps the status in memory is told by its caller.
func (w *World) SetCallSet(id string, status int) {
	w.t.Helper()
	if err := directory.NewStore(w.DB).SetCallSetStatus(context.Background(), directory.CustomerID(w.Customer),
		directory.TerminalID(id), status); err != nil {
		w.t.Fatal(err)
	}
}

// Exec runs SQL for a state no owner's API sets (an account type the administration API does not issue, a
// customer's time zone); everything else goes through the owners.
func (w *World) Exec(q string, args ...any) {
	w.t.Helper()
	if _, err := w.DB.Exec(context.Background(), q, args...); err != nil {
		w.t.Fatalf("%s: %v", q, err)
	}
}

// Fleet is one customer's crew: a dispatcher with a console session, and terminals spread over groups.
type Fleet struct {
	Customer   int64
	Dispatcher string   // prefix+"0000001", a member of every group
	Token      string   // the dispatcher's console session
	Terminals  []string // prefix+"0000101", prefix+"0000102"…
	Groups     []int64  // "Group <prefix>-1"…; terminal i is in group i mod len(Groups)
}

// NewFleet adds a customer with a dispatcher and n app terminals (type "10") in m groups (at least one); account
// ids start with prefix, one digit ("1": dispatcher 10000001, terminals 10000101…).
func (w *World) NewFleet(prefix string, n, m int) Fleet {
	w.t.Helper()
	return NewFleet(w.t, w.DB, prefix, n, m)
}

// NewFleet is World.NewFleet on a store of its own (the shared store of a cluster's nodes); the dispatcher's
// session is issued as the sign-in issues one.
func NewFleet(t testing.TB, d *db.DB, prefix string, n, m int) Fleet {
	t.Helper()
	f := Fleet{Customer: Customer(t, d, "Fleet "+prefix), Dispatcher: prefix + "0000001"}
	for i := range max(m, 1) {
		f.Groups = append(f.Groups, Group(t, d, f.Customer, fmt.Sprintf("Group %s-%d", prefix, i+1)))
	}
	Provision(t, d, f.Customer, f.Dispatcher, auth.DispatcherType, f.Groups...)
	for i := range n {
		id := fmt.Sprintf("%s0000%03d", prefix, 101+i)
		Provision(t, d, f.Customer, id, "10", f.Groups[i%len(f.Groups)])
		f.Terminals = append(f.Terminals, id)
	}
	tok, err := auth.NewSessions(d, nil).Create(context.Background(), f.Dispatcher, f.Customer)
	if err != nil {
		t.Fatal(err)
	}
	f.Token = tok
	return f
}

// Client dials a termclient (a terminal's or a console's signalling, and its media) to the world's server, closed
// when the test ends; o.URL is filled in.
func (w *World) Client(o termclient.Options) *termclient.Client {
	w.t.Helper()
	o.URL = w.URL
	c, err := termclient.Dial(w.Ctx(), o)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { c.Close() })
	return c
}

// WantContinuous fails the test unless the packets a client received arrived as one stream
// (termclient.Continuous): what a listener's decoder needs across talker switches and relayed bursts.
func WantContinuous(t testing.TB, pkts []termclient.Packet) {
	t.Helper()
	if err := termclient.Continuous(pkts); err != nil {
		t.Fatal(err)
	}
}

// RunFleet starts a simulated fleet (internal/sim) and runs it until the test ends; the test's cleanup waits
// for every terminal to stop.
func RunFleet(t testing.TB, opts sim.Options) *sim.Fleet {
	t.Helper()
	f, err := sim.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = f.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return f
}
