package security

import (
	"encoding/json"
	"strconv"
	"testing"

	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// voiceFleet is a testkit.World (media on loopback) with one group "Patrol", a dispatcher and the given
// terminals, all members of Patrol (their ptt group).
type voiceFleet struct {
	*testkit.World
	t          *testing.T
	gid        string
	dispatcher string
}

func newVoiceFleet(t *testing.T, terminals ...string) *voiceFleet {
	t.Helper()
	w := testkit.NewWorld(t, "sqlite", testkit.LoopbackMedia)
	f := &voiceFleet{World: w, t: t, dispatcher: "19000001"}
	g := w.Group("Patrol")
	f.gid = strconv.FormatInt(g, 10)
	w.Account(f.dispatcher, "20", g)
	for _, id := range terminals {
		w.Account(id, "10", g)
	}
	return f
}

// terminal logs a terminal in with the Go terminal client and connects its media (a real pion peer).
func (f *voiceFleet) terminal(id string) *termclient.Client {
	f.t.Helper()
	c := f.Client(termclient.Options{UID: id, Password: testkit.Password,
		Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}})
	if err := c.Connect(f.Ctx()); err != nil {
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
