package security

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// voiceFleet is a real server (media on loopback) with one customer, its group "Patrol", a dispatcher and the
// given terminals, all members of Patrol (their ptt group), each with password testkit.Password.
type voiceFleet struct {
	t          *testing.T
	s          *testkit.Server
	cust       int64
	gid        string
	dispatcher string
}

func newVoiceFleet(t *testing.T, terminals ...string) *voiceFleet {
	t.Helper()
	s := testkit.Start(t, func(c *config.Config) { c.Voice.Interfaces = []string{"lo"} })
	f := &voiceFleet{t: t, s: s, cust: testkit.Customer(t, s.DB, "probe"), dispatcher: "19000001"}
	hash, err := auth.HashPassword(testkit.Password)
	if err != nil {
		t.Fatal(err)
	}
	accts := []directory.FleetAccount{{ID: directory.TerminalID(f.dispatcher), Type: "20", Name: "Dispatcher",
		PasswordHash: hash, Groups: []string{"Patrol"}}}
	for _, id := range terminals {
		accts = append(accts, directory.FleetAccount{ID: directory.TerminalID(id), Type: "10", Name: "T" + id,
			PasswordHash: hash, Groups: []string{"Patrol"}})
	}
	err = s.DB.InTx(context.Background(), func(tx *db.Tx) error {
		gids, err := directory.Provision(context.Background(), tx, directory.Fleet{Customer: directory.CustomerID(f.cust),
			Groups: []directory.FleetGroup{{Name: "Patrol"}}, Accounts: accts, Now: time.Now().UnixMilli()})
		f.gid = gids["Patrol"].String()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *voiceFleet) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	f.t.Cleanup(cancel)
	return ctx
}

// terminal logs a terminal in with the Go terminal client and connects its media (a real pion peer).
func (f *voiceFleet) terminal(id string) *termclient.Client {
	f.t.Helper()
	ctx := f.ctx()
	c, err := termclient.Dial(ctx, termclient.Options{URL: f.s.URL, UID: id, Password: testkit.Password,
		Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}})
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { c.Close() })
	if err := c.Connect(ctx); err != nil {
		f.t.Fatal(err)
	}
	return c
}

// openCalls is the dispatcher's `call.list`: every open call of the customer.
func (f *voiceFleet) openCalls(console *testkit.Socket) []map[string]any {
	f.t.Helper()
	r := console.Call("call.list", map[string]any{})
	var out struct {
		Calls []map[string]any `json:"calls"`
	}
	if r.Code != "0" || json.Unmarshal(r.Data, &out) != nil {
		f.t.Fatalf("call.list: %s %s %s", r.Code, r.Msg, r.Data)
	}
	return out.Calls
}
