package message_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/files/filetest"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

// node is one run of the server on a config whose store outlives it.
type node struct {
	a      *app.App
	hs     *httptest.Server
	cancel context.CancelFunc
}

func startNode(t *testing.T, cfg config.Config) *node {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d, err := app.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	n := &node{a: a, hs: httptest.NewServer(a.Handler()), cancel: cancel}
	a.Start(ctx)
	t.Cleanup(n.stop)
	return n
}

// stop ends the node without any goodbye to its clients: what was not stored is gone.
func (n *node) stop() {
	if n.a == nil {
		return
	}
	n.a.Stop()
	n.hs.CloseClientConnections()
	n.hs.Close()
	n.cancel()
	n.a.Hub.Wait()
	n.a.Close()
	n.a = nil
}

// durableConfig is a config whose store (SQLite in a data directory, or a PostgreSQL database) survives restarts.
func durableConfig(t *testing.T, engine string) config.Config {
	t.Helper()
	cfg := config.Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), ShutdownTimeout: time.Second}
	if engine == "postgres" {
		cfg.DB = testkit.PostgresDSN(t)
	}
	return cfg
}

// A message to an offline terminal is stored before the dispatcher hears "not online"; after a restart of the
// server the terminal gets it (and its attachment) when it logs in, and the console sees it delivered.
func TestOfflineTerminalGetsItsMessagesAfterARestart(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		cfg := durableConfig(t, engine)
		first := startNode(t, cfg)
		f := testkit.NewFleet(t, first.a.DB, "1", 1, 1)
		msID := f.Terminals[0]
		console := testkit.Console(t, first.hs.URL, f.Token)
		r := console.Call("sms.send", map[string]any{"msId": msID, "content": "report to gate 4 when back"})
		if r.Code != "4" {
			t.Fatalf("to an offline terminal: %+v", r)
		}
		up := uploadTo(t, first.hs.URL, f.Token, "plan.pdf", filetest.PDF())
		if r := console.Call("sms.send", map[string]any{"msId": msID, "fileId": up, "content": "the plan"}); r.Code != "4" {
			t.Fatalf("attachment to an offline terminal: %+v", r)
		}
		first.stop()

		second := startNode(t, cfg)
		console = testkit.Console(t, second.hs.URL, f.Token)
		term := testkit.Terminal(t, second.hs.URL, msID, safetytest.Password)
		var got []string
		for range 2 {
			req := term.WaitEvent("sms.deliver", 5*time.Second, nil)
			var d struct {
				ID, Content string
				File        *struct{ URL string }
			}
			req.Into(t, &d)
			got = append(got, d.Content)
			if d.File != nil {
				res, body := getURL(t, second.hs.URL+d.File.URL)
				if res != 200 || !strings.HasPrefix(body, "%PDF") {
					t.Fatalf("attachment after the restart: %d", res)
				}
			}
			term.Reply(req, "0", nil)
			st := console.WaitEvent("sms.status", 5*time.Second, nil)
			var s struct{ ID, State string }
			st.Into(t, &s)
			if s.ID != d.ID || s.State != "delivered" {
				t.Fatalf("status after the restart %+v", s)
			}
		}
		if got[0] != "report to gate 4 when back" || got[1] != "the plan" {
			t.Fatalf("delivered after the restart: %q", got)
		}
		var pending int
		second.a.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM message_recipients WHERE delivered_at = 0`).Scan(&pending)
		if pending != 0 {
			t.Fatalf("%d still pending", pending)
		}
	})
}

func uploadTo(t *testing.T, base, token, name string, body []byte) string {
	t.Helper()
	r := filetest.UploadURL(t, base, token, filetest.File(name, body))
	if r.Code != "0" {
		t.Fatalf("upload: %+v", r)
	}
	var u filetest.Uploaded
	r.Into(t, &u)
	return u.ID
}

func getURL(t *testing.T, u string) (int, string) {
	t.Helper()
	res, b := filetest.GetURL(t, u)
	return res.StatusCode, string(b)
}
