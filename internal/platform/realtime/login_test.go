package realtime_test

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/testkit"
)

// Socket login with the real authenticator (internal/auth): consoles by the token of their HTTP sign-in,
// terminals by account and password.
func TestSocketLoginWithRealAuth(t *testing.T) {
	s := testkit.Start(t)
	ctx := context.Background()
	f := testkit.NewFleet(t, s.DB, "1", 1, 1)
	term := f.Terminals[0]

	login := func(data map[string]any) (testkit.Frame, *testkit.Socket) {
		c := s.Dial()
		return c.Call("session.login", data), c
	}
	closes := func(c *testkit.Socket) websocket.StatusCode {
		t.Helper()
		for {
			_, err := c.TryRead(5 * time.Second)
			if err != nil {
				return websocket.CloseStatus(err)
			}
		}
	}

	t.Run("console token", func(t *testing.T) {
		tok, _ := s.Sessions.Create(ctx, f.Dispatcher, f.Customer)
		r, _ := login(map[string]any{"token": tok, "client": "console"})
		var res struct {
			MsID       string `json:"msId"`
			CustomerID int64  `json:"customerId"`
			Kind       string `json:"kind"`
		}
		r.Into(t, &res)
		if r.Code != "0" || res.MsID != f.Dispatcher || res.CustomerID != f.Customer || res.Kind != "console" {
			t.Fatalf("console login: %+v %+v", r, res)
		}
		if !s.Hub.Online(f.Dispatcher) {
			t.Fatal("not online")
		}
	})
	t.Run("bad token", func(t *testing.T) {
		r, c := login(map[string]any{"token": "nope", "client": "console"})
		if r.Code != "105" {
			t.Fatalf("bad token: %+v", r)
		}
		if code := closes(c); code != websocket.StatusPolicyViolation {
			t.Fatalf("close %d", code)
		}
	})
	t.Run("terminal token on a console login", func(t *testing.T) {
		tok, _ := s.Sessions.Create(ctx, term, f.Customer)
		if r, _ := login(map[string]any{"token": tok, "client": "console"}); r.Code != "6" {
			t.Fatalf("non-dispatcher console: %+v", r)
		}
	})
	t.Run("first socket login later than 15 s after sign-in", func(t *testing.T) {
		tok, _ := s.Sessions.Create(ctx, f.Dispatcher, f.Customer)
		late := time.Now().Add(-16 * time.Second).UnixMilli()
		if _, err := s.DB.Exec(ctx, `UPDATE sessions SET created_at = ? WHERE account_id = ? AND socket_login_at = 0`,
			late, f.Dispatcher); err != nil {
			t.Fatal(err)
		}
		if r, _ := login(map[string]any{"token": tok, "client": "console"}); r.Code == "0" || r.Code == "" {
			t.Fatalf("late socket login accepted: %+v", r)
		}
		// The token is revoked with it.
		if r, _ := login(map[string]any{"token": tok, "client": "console"}); r.Code != "105" {
			t.Fatalf("late token reused: %+v", r)
		}
	})
	t.Run("reconnect after the window", func(t *testing.T) {
		tok, _ := s.Sessions.Create(ctx, f.Dispatcher, f.Customer)
		r, c := login(map[string]any{"token": tok, "client": "console"})
		if r.Code != "0" {
			t.Fatal(r)
		}
		c.Close()
		if _, err := s.DB.Exec(ctx, `UPDATE sessions SET created_at = created_at - 60000 WHERE account_id = ?`, f.Dispatcher); err != nil {
			t.Fatal(err)
		}
		if r, _ := login(map[string]any{"token": tok, "client": "console"}); r.Code != "0" {
			t.Fatalf("reconnect: %+v", r)
		}
	})
	t.Run("terminal", func(t *testing.T) {
		if r, _ := login(map[string]any{"client": "terminal", "uid": term, "auth": "wrong"}); r.Code != "2" {
			t.Fatalf("wrong password: %+v", r)
		}
		if r, _ := login(map[string]any{"client": "terminal", "uid": f.Dispatcher, "auth": testkit.Password}); r.Code != "6" { // the wrong account type
			t.Fatalf("dispatcher as terminal: %+v", r)
		}
		r, _ := login(map[string]any{"client": "terminal", "uid": term, "auth": testkit.Password})
		if r.Code != "0" || s.Hub.Conn(term) == nil || s.Hub.Conn(term).Kind() != "terminal" {
			t.Fatalf("terminal login: %+v", r)
		}
	})
}
