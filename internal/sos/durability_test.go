package sos_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/sos"
	"tenfour/internal/sos/safetytest"
)

// binary builds cmd/tenfour once per test into a temporary directory.
func binary(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tenfour")
	cmd := exec.Command("go", "build", "-o", out, "tenfour/cmd/tenfour")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

// server is a `tenfour serve` process.
type server struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{} // closed when the process has exited
	log  *lines
}

// lines keeps a process's log for failure messages.
type lines struct {
	mu  sync.Mutex
	all []string
}

func (l *lines) add(s string) { l.mu.Lock(); l.all = append(l.all, s); l.mu.Unlock() }
func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.all, "\n")
}

var servingRe = regexp.MustCompile(`tenfour serving.*url=(\S+)`)

// serve starts the binary on dataDir and waits until it is healthy.
func serve(t *testing.T, bin, dataDir string) *server {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", dataDir, "--log-level", "info", "--media-udp-port", "0")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TENFOUR_") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, done: make(chan struct{}), log: &lines{}}
	urls := make(chan string, 1)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.log.add(sc.Text())
			if m := servingRe.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- strings.Trim(m[1], `"`):
				default:
				}
			}
		}
	}()
	go func() {
		<-scanned // Wait closes the pipe: read it all first
		_ = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-s.done })
	select {
	case s.url = <-urls:
	case <-s.done:
		t.Fatalf("server exited at start:\n%s", s.log)
	case <-time.After(60 * time.Second):
		t.Fatalf("server did not start within 60 s:\n%s", s.log)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := (&http.Client{Timeout: 2 * time.Second}).Get(s.url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not healthy: %v\n%s", err, s.log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill sends SIGKILL: no shutdown code runs, nothing is flushed by the server.
func (s *server) kill(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("server did not die")
	}
}

func openAlarms(t *testing.T, url, tok string) []sos.Alarm {
	t.Helper()
	r := safetytest.Do(t, url, http.MethodGet, "/ds/sos/findSos", tok, map[string]any{"open": 1})
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
	bin := binary(t)
	data := t.TempDir()
	store, err := app.Open(context.Background(), config.Config{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	f := safetytest.Seed(t, store, 1, "505")
	tok := f.Token(t, store)
	store.Close()

	// 1. The terminal's raise is answered, then the server dies at once.
	srv := serve(t, bin, data)
	term := safetytest.Terminal(t, srv.url, f.Terminals[0])
	r := term.Call(sos.ReqRaise, map[string]any{"lat": 41.1, "lng": 29.1})
	if r.Code != "0" {
		t.Fatalf("raise: %s %s", r.Code, r.Msg)
	}
	srv.kill(t)
	var raised struct {
		ID sos.AlarmID `json:"id"`
	}
	r.Into(t, &raised)

	srv = serve(t, bin, data)
	open := openAlarms(t, srv.url, tok)
	if len(open) != 1 || open[0].ID != raised.ID || open[0].State != sos.Sending || *open[0].Lat != 41.1 {
		t.Fatalf("after SIGKILL following the terminal's ack: %+v", open)
	}

	// 2. A console acknowledges; the server dies right after answering.
	con := safetytest.Console(t, srv.url, tok)
	con.Call("sync", map[string]any{"after": 0}) // the alarm raised before the crash is replayed
	con.Event(sos.EventAlarm, 5*time.Second)
	ack := safetytest.Do(t, srv.url, http.MethodPut, "/ds/sos/updateSos", tok, map[string]any{"id": raised.ID, "state": 1})
	srv.kill(t)
	if ack.Code != "0" {
		t.Fatalf("acknowledge: %s %s", ack.Code, ack.Msg)
	}

	srv = serve(t, bin, data)
	open = openAlarms(t, srv.url, tok)
	if len(open) != 1 || open[0].State != sos.Acknowledged || open[0].Responder != f.Dispatcher || open[0].ResponseTime == 0 {
		t.Fatalf("after SIGKILL following the console's ack: %+v", open)
	}
	srv.kill(t)
}

// A console that was disconnected while three alarms were raised receives all three, in order, when it
// reconnects and syncs from the last sequence number it saw.
func TestReconnectGetsEveryAlarm(t *testing.T) {
	e := newEnv(t)
	con := e.console()
	r := con.Call("sync", map[string]any{"after": 0})
	var synced struct {
		Last int64 `json:"last"`
	}
	r.Into(t, &synced)
	con.Close()
	<-con.Closed()

	var ids []sos.AlarmID
	for i := 0; i < 3; i++ {
		ids = append(ids, raise(t, e.terminal(i), map[string]any{}))
	}

	back := e.console()
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
		got = append(got, alarmOf(t, a.Frame).ID)
	}
	if len(got) != 3 || got[0] != ids[0] || got[1] != ids[1] || got[2] != ids[2] {
		t.Fatalf("replayed alarms %v, want %v", got, ids)
	}
}
