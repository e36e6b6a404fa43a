package message_test

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
	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/platform/realtime/rttest"
	"tenfour/internal/sos/safetytest"
)

// proc is a `tenfour serve` process on a data directory.
type proc struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{}
	mu   sync.Mutex
	log  []string
}

var servingRe = regexp.MustCompile(`tenfour serving.*url=(\S+)`)

func buildBinary(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tenfour")
	cmd := exec.Command("go", "build", "-o", out, "tenfour/cmd/tenfour")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

func serveBinary(t *testing.T, bin, data string) *proc {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data, "--media-udp-port", "0")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TENFOUR_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, done: make(chan struct{})}
	urls := make(chan string, 1)
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.log = append(p.log, sc.Text())
			p.mu.Unlock()
			if m := servingRe.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- strings.Trim(m[1], `"`):
				default:
				}
			}
		}
	}()
	go func() { <-read; _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-p.done })
	select {
	case p.url = <-urls:
	case <-p.done:
		t.Fatalf("server exited at start:\n%s", p.logs())
	case <-time.After(60 * time.Second):
		t.Fatalf("server did not start:\n%s", p.logs())
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := (&http.Client{Timeout: 2 * time.Second}).Get(p.url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not healthy: %v\n%s", err, p.logs())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *proc) logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.log, "\n")
}

// kill sends SIGKILL: no shutdown code runs.
func (p *proc) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("server did not die")
	}
}

// The real binary is SIGKILLed right after it answered a dispatcher "not online" and a terminal "stored": after
// a restart on the same data directory the offline terminal gets the dispatcher's message at login, and the
// terminal's message is in the dispatcher's unread list.
func TestSIGKILLKeepsMessagesBothWays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	data := t.TempDir()
	ctx := context.Background()
	store, err := app.Open(ctx, config.Config{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	f := rttest.NewFleet(t, store, "1", 2)
	tok, err := auth.NewSessions(store, nil).Create(ctx, f.Dispatcher, f.CustomerID)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()

	srv := serveBinary(t, bin, data)
	console := safetytest.Console(t, srv.url, tok)
	if r := console.Call("sms.send", map[string]any{"msId": f.Terminals[0], "content": "call base when you read this"}); r.Code != "4" {
		t.Fatalf("to an offline terminal: %s %s", r.Code, r.Msg)
	}
	t1 := safetytest.Terminal(t, srv.url, f.Terminals[1])
	if r := t1.Call("sms.send", map[string]any{"content": "flat tyre on route 7"}); r.Code != "0" {
		t.Fatalf("terminal message: %s %s", r.Code, r.Msg)
	}
	srv.kill(t)

	srv = serveBinary(t, bin, data)
	term := safetytest.Terminal(t, srv.url, f.Terminals[0])
	req := term.Event("sms.deliver", 5*time.Second)
	var d struct{ Content string }
	req.Into(t, &d)
	if d.Content != "call base when you read this" {
		t.Fatalf("after SIGKILL the terminal got %q", d.Content)
	}
	term.Reply(req.Frame, "0", nil)
	r := safetytest.Do(t, srv.url, http.MethodGet, "/ds/sms/unread", tok, nil)
	var u struct {
		Total int
		List  []struct{ Sender, Content string }
	}
	r.Into(t, &u)
	if r.Code != "0" || u.Total != 1 || u.List[0].Sender != f.Terminals[1] || u.List[0].Content != "flat tyre on route 7" {
		t.Fatalf("unread after SIGKILL: %+v %+v", r, u)
	}
	srv.kill(t)
}
