package main

import (
	"context"
	"strings"
	"testing"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/platform/db"
	"tenfour/internal/tenant"
)

// adminScript runs `tenfour admin` commands against one SQLite data directory the way an operator does, and
// opens the store afterwards so a test reads what they stored through the owning packages.
type adminScript struct {
	t   *testing.T
	dir string
}

func newAdminScript(t *testing.T) adminScript { return adminScript{t: t, dir: t.TempDir()} }

func (a adminScript) run(args ...string) error { return admin(append(args, "--data", a.dir)) }

// ok runs each command, stopping the test at the first that fails.
func (a adminScript) ok(cmds [][]string) {
	a.t.Helper()
	for _, args := range cmds {
		if err := a.run(args...); err != nil {
			a.t.Fatalf("%v: %v", args, err)
		}
	}
}

// refusal is a command and a part of the error it must fail with.
type refusal struct {
	args []string
	want string
}

// refused runs each command and checks its error.
func (a adminScript) refused(cases []refusal) {
	a.t.Helper()
	for _, c := range cases {
		if err := a.run(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			a.t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
}

// store opens the data directory's store, closed when the test ends.
func (a adminScript) store() *db.DB {
	a.t.Helper()
	store, err := app.Open(context.Background(), config.Config{DataDir: a.dir})
	if err != nil {
		a.t.Fatal(err)
	}
	a.t.Cleanup(func() { store.Close() })
	return store
}

// customer is the id of the customer a command created.
func (a adminScript) customer(store *db.DB, name string) int64 {
	a.t.Helper()
	id, err := tenant.ByName(context.Background(), store, name)
	if err != nil {
		a.t.Fatal(err)
	}
	return id
}
