package message_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

// The real binary is SIGKILLed right after it answered a dispatcher "not online" and a terminal "stored": after
// a restart on the same data directory the offline terminal gets the dispatcher's message at login, and the
// terminal's message is in the dispatcher's unread list.
func TestSIGKILLKeepsMessagesBothWays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testkit.Binary(t)
	data := t.TempDir()
	ctx := context.Background()
	store, err := app.Open(ctx, config.Config{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	f := testkit.NewFleet(t, store, "1", 2, 1)
	tok, err := auth.NewSessions(store, nil).Create(ctx, f.Dispatcher, f.Customer)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()

	srv := testkit.Serve(t, bin, data)
	console := testkit.Console(t, srv.URL, tok)
	if r := console.Call("sms.send", map[string]any{"msId": f.Terminals[0], "content": "call base when you read this"}); r.Code != "4" {
		t.Fatalf("to an offline terminal: %s %s", r.Code, r.Msg)
	}
	t1 := testkit.Terminal(t, srv.URL, f.Terminals[1], safetytest.Password)
	if r := t1.Call("sms.send", map[string]any{"content": "flat tyre on route 7"}); r.Code != "0" {
		t.Fatalf("terminal message: %s %s", r.Code, r.Msg)
	}
	srv.Kill(t)

	srv = testkit.Serve(t, bin, data)
	term := testkit.Terminal(t, srv.URL, f.Terminals[0], safetytest.Password)
	req := term.WaitEvent("sms.deliver", 5*time.Second, nil)
	var d struct{ Content string }
	req.Into(t, &d)
	if d.Content != "call base when you read this" {
		t.Fatalf("after SIGKILL the terminal got %q", d.Content)
	}
	term.Reply(req, "0", nil)
	r := testkit.Do(t, srv.URL, http.MethodGet, "/ds/sms/unread", tok, nil)
	var u struct {
		Total int
		List  []struct{ Sender, Content string }
	}
	r.Into(t, &u)
	if r.Code != "0" || u.Total != 1 || u.List[0].Sender != f.Terminals[1] || u.List[0].Content != "flat tyre on route 7" {
		t.Fatalf("unread after SIGKILL: %+v %+v", r, u)
	}
	srv.Kill(t)
}
