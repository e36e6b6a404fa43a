package sos_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/sos"
	"tenfour/internal/sos/safetytest"
	"tenfour/internal/testkit"
)

func openAlarms(t *testing.T, url, tok string) []sos.Alarm {
	t.Helper()
	r := testkit.Do(t, url, http.MethodGet, "/ds/sos/findSos", tok, map[string]any{"open": 1})
	if r.Code != "0" {
		t.Fatalf("findSos: %s %s", r.Code, r.Msg)
	}
	var page struct{ List []sos.Alarm }
	r.Into(t, &page)
	return page.List
}

// The real binary is killed with SIGKILL right after the terminal's SOS was acknowledged to it, and again right
// after a console's acknowledgement was answered: after each restart on the same data directory the alarm is
// there, in the state that was acknowledged.
func TestSIGKILLAfterAcknowledgement(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testkit.Binary(t)
	data := t.TempDir()
	store, err := app.Open(context.Background(), config.Config{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	f := safetytest.Seed(t, store, 1, "505")
	tok := f.Token(t, store)
	store.Close()

	// 1. The terminal's raise is answered, then the server dies at once.
	srv := testkit.Serve(t, bin, data)
	term := testkit.Terminal(t, srv.URL, f.Terminals[0], safetytest.Password)
	r := term.Call(sos.ReqRaise, map[string]any{"lat": 41.1, "lng": 29.1})
	if r.Code != "0" {
		t.Fatalf("raise: %s %s", r.Code, r.Msg)
	}
	srv.Kill(t)
	var raised struct {
		ID sos.AlarmID `json:"id"`
	}
	r.Into(t, &raised)

	srv = testkit.Serve(t, bin, data)
	open := openAlarms(t, srv.URL, tok)
	if len(open) != 1 || open[0].ID != raised.ID || open[0].State != sos.Sending || *open[0].Lat != 41.1 {
		t.Fatalf("after SIGKILL following the terminal's ack: %+v", open)
	}

	// 2. A console acknowledges; the server dies right after answering.
	con := testkit.Console(t, srv.URL, tok)
	con.Call("sync", map[string]any{"after": 0}) // the alarm raised before the crash is replayed
	con.WaitEvent(sos.EventAlarm, 5*time.Second, nil)
	ack := testkit.Do(t, srv.URL, http.MethodPut, "/ds/sos/updateSos", tok, map[string]any{"id": raised.ID, "state": 1})
	srv.Kill(t)
	if ack.Code != "0" {
		t.Fatalf("acknowledge: %s %s", ack.Code, ack.Msg)
	}

	srv = testkit.Serve(t, bin, data)
	open = openAlarms(t, srv.URL, tok)
	if len(open) != 1 || open[0].State != sos.Acknowledged || open[0].Responder != f.Dispatcher || open[0].ResponseTime == 0 {
		t.Fatalf("after SIGKILL following the console's ack: %+v", open)
	}
	srv.Kill(t)
}

// A console that was disconnected while three alarms were raised receives all three, in order, when it
// reconnects and syncs from the last sequence number it saw.
func TestReconnectGetsEveryAlarm(t *testing.T) {
	e := newEnv(t)
	con := e.Console()
	r := con.Call("sync", map[string]any{"after": 0})
	var synced struct {
		Last int64 `json:"last"`
	}
	r.Into(t, &synced)
	con.Close()
	<-con.Closed()

	var ids []sos.AlarmID
	for i := 0; i < 3; i++ {
		ids = append(ids, raise(t, e.Terminal(i), map[string]any{}))
	}

	back := e.Console()
	if r := back.Call("sync", map[string]any{"after": synced.Last}); r.Code != "0" {
		t.Fatalf("sync: %s", r.Code)
	}
	var got []sos.AlarmID
	var last int64
	for _, a := range back.Drain() {
		if a.Type != sos.EventAlarm {
			continue
		}
		if a.Seq <= last {
			t.Fatalf("replayed out of order: seq %d after %d", a.Seq, last)
		}
		last = a.Seq
		got = append(got, alarmOf(t, a).ID)
	}
	if len(got) != 3 || got[0] != ids[0] || got[1] != ids[1] || got[2] != ids[2] {
		t.Fatalf("replayed alarms %v, want %v", got, ids)
	}
}
